//! `tonne users …`: the console's people.

use std::io::Read as _;

use clap::Subcommand;
use tonne_accounts::users::{Email, NewUser, Password, Role, UserError};
use tonne_kernel::OrganisationId;

use crate::wiring::Services;

/// Console users.
#[derive(Debug, Subcommand)]
pub(super) enum UsersCommand {
    /// Create a user: an operator (the whole installation) or a member of one
    /// organisation. Prints a one-time link (valid 24 h) to choose the password,
    /// unless `--password-stdin` sets it.
    Create {
        /// The sign-in email.
        #[arg(long)]
        email: String,
        /// The user runs the whole installation.
        #[arg(
            long,
            conflicts_with = "organisation",
            required_unless_present = "organisation"
        )]
        operator: bool,
        /// The organisation a member belongs to.
        #[arg(long)]
        organisation: Option<String>,
        /// Read the password from standard input (one line) instead of printing a link.
        #[arg(long)]
        password_stdin: bool,
        /// The server's public base URL, for the link.
        #[arg(
            long,
            env = "TONNE_PUBLIC_URL",
            default_value = "http://127.0.0.1:8080"
        )]
        public_url: String,
    },
    /// List users: email, role, organisation, state.
    List,
    /// Disable a user; their sessions end at once.
    Disable {
        /// The user's email.
        email: String,
    },
}

fn read_password() -> anyhow::Result<Password> {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text)?;
    let line = text.lines().next().unwrap_or_default();
    Ok(Password::new(line)?)
}

pub(super) async fn run(services: &Services, command: UsersCommand) -> anyhow::Result<()> {
    match command {
        UsersCommand::Create {
            email,
            operator,
            organisation,
            password_stdin,
            public_url,
        } => {
            let email: Email = email.parse()?;
            let role = match (operator, organisation) {
                (true, _) => Role::Operator,
                (false, Some(o)) => Role::Member(
                    o.parse::<OrganisationId>()
                        .map_err(|_| anyhow::anyhow!("`{o}` is not an organisation id"))?,
                ),
                (false, None) => anyhow::bail!("give --operator or --organisation ID"),
            };
            let password = password_stdin.then(read_password).transpose()?;
            let created = services
                .users
                .create(
                    NewUser { email, role },
                    password,
                    &tonne_kernel::Actor::CommandLine,
                )
                .await
                .map_err(|e| match e {
                    UserError::NoSuchOrganisation => anyhow::anyhow!("no organisation has that id"),
                    other => anyhow::anyhow!(other),
                })?;
            println!(
                "created {} ({})",
                created.user.email,
                describe(created.user.role)
            );
            if let Some(token) = created.setup_token {
                println!(
                    "choose a password within 24 hours (shown once): {}/console/setup/{}",
                    public_url.trim_end_matches('/'),
                    token.expose()
                );
            }
            Ok(())
        }
        UsersCommand::List => {
            for u in services.users.list().await? {
                let state = match (u.disabled_at, &u.password_hash) {
                    (Some(_), _) => "disabled",
                    (None, None) => "no password yet",
                    (None, Some(_)) => "active",
                };
                println!("{}\t{}\t{}", u.email, describe(u.role), state);
            }
            Ok(())
        }
        UsersCommand::Disable { email } => {
            let user = services
                .users
                .disable(&email.parse()?, &tonne_kernel::Actor::CommandLine)
                .await?;
            println!("disabled {}; their sessions have ended", user.email);
            Ok(())
        }
    }
}

fn describe(role: Role) -> String {
    match role {
        Role::Operator => "operator".to_owned(),
        Role::Member(o) => format!("member of {o}"),
    }
}
