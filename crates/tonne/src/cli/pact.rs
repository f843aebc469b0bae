//! `tonne pact credentials …`: the OAuth 2 client credentials another
//! system uses to read an account's footprints over PACT (`/pact`).

use clap::Subcommand;
use serde_json::json;
use tonne_accounts::AccountId;
use tonne_accounts::pact::{ClientError, PactClient, PactClientId};

use super::Services;

#[derive(Debug, Subcommand)]
pub(super) enum PactCommand {
    /// PACT client credentials of an account.
    #[command(subcommand)]
    Credentials(CredentialsCommand),
}

#[derive(Debug, Subcommand)]
pub(super) enum CredentialsCommand {
    /// Create credentials for an account: prints the `client_id` and the
    /// `client_secret` once (only the secret's hash is stored).
    Create {
        /// The account whose footprints they read.
        #[arg(long)]
        account: String,
        /// Who they are given to (shown in lists).
        #[arg(long, default_value = "PACT client")]
        label: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// List an account's credentials (never their secrets).
    List {
        /// The account's id.
        #[arg(long)]
        account: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Revoke credentials by their `client_id`: their tokens stop working at once.
    Revoke {
        /// The `client_id`.
        client_id: String,
    },
}

fn parse_account(raw: &str) -> anyhow::Result<AccountId> {
    raw.parse()
        .map_err(|_| anyhow::anyhow!("--account: `{raw}` is not an account id"))
}

fn refused(e: ClientError) -> anyhow::Error {
    match e {
        ClientError::Store(e) => anyhow::Error::from(e).context("the database failed"),
        other => anyhow::anyhow!("{other}"),
    }
}

fn row(c: &PactClient) -> serde_json::Value {
    json!({
        "client_id": c.id.to_string(),
        "account_id": c.account_id.to_string(),
        "label": c.label,
        "created_at": c.created_at.to_string(),
        "revoked": c.revoked_at.is_some(),
    })
}

pub(super) async fn run(services: &Services, command: PactCommand) -> anyhow::Result<()> {
    let PactCommand::Credentials(command) = command;
    let clients = &services.pact_clients;
    match command {
        CredentialsCommand::Create {
            account,
            label,
            json,
        } => {
            let created = clients
                .create(parse_account(&account)?, &label)
                .await
                .map_err(refused)?;
            if json {
                println!(
                    "{}",
                    json!({
                        "client_id": created.client.id.to_string(),
                        "client_secret": created.secret.expose(),
                        "account_id": created.client.account_id.to_string(),
                    })
                );
            } else {
                println!("client_id:     {}", created.client.id);
                println!("client_secret: {}", created.secret.expose());
                println!("(the secret is shown once; only its hash is stored)");
            }
        }
        CredentialsCommand::List { account, json } => {
            let list = clients
                .list(parse_account(&account)?)
                .await
                .map_err(refused)?;
            if json {
                let rows: Vec<_> = list.iter().map(row).collect();
                println!("{}", serde_json::Value::Array(rows));
            } else {
                for c in &list {
                    let state = if c.revoked_at.is_some() {
                        "revoked"
                    } else {
                        "active"
                    };
                    println!("{}  {state}  {}  {}", c.id, c.created_at.date(), c.label);
                }
            }
        }
        CredentialsCommand::Revoke { client_id } => {
            let id: PactClientId = client_id
                .parse()
                .map_err(|_| anyhow::anyhow!("`{client_id}` is not a client_id"))?;
            let revoked = clients.revoke(None, id).await.map_err(refused)?;
            println!("revoked {}", revoked.id);
        }
    }
    Ok(())
}
