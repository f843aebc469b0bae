//! `tonne pact credentials …`: the OAuth 2 client credentials another
//! system uses to read an account's footprints over PACT (`/pact`).
//! `tonne pact partners …`: the systems whose footprint requests the
//! account answers, with the credentials they gave it; `tonne pact
//! requests`: the requests received and how each was answered.

use clap::{Args, Subcommand};
use serde_json::json;
use tonne_accounts::AccountId;
use tonne_accounts::pact::partners::{
    PactPartner, PactPartnerId, PactRequest, PartnerError, PartnerSecret,
};
use tonne_accounts::pact::{ClientError, PactClient, PactClientId};
use tonne_kernel::StoreError;

use crate::Services;

#[derive(Debug, Subcommand)]
pub(super) enum PactCommand {
    /// PACT client credentials of an account.
    #[command(subcommand)]
    Credentials(CredentialsCommand),
    /// The partners whose footprint requests an account answers.
    #[command(subcommand)]
    Partners(PartnersCommand),
    /// The footprint requests an account received, newest first.
    Requests {
        /// The account's id.
        #[arg(long)]
        account: String,
        /// How many.
        #[arg(long, default_value_t = 50)]
        limit: u32,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Which account's list, and how to print it.
#[derive(Debug, Args)]
pub(super) struct AccountList {
    /// The account's id.
    #[arg(long)]
    account: String,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Subcommand)]
pub(super) enum PartnersCommand {
    /// Register a partner: its base URL (the `source` of its events; answers
    /// go to `{url}/2/events`) and the `client_id` it gave the account. The
    /// client secret is read from `TONNE_PACT_PARTNER_SECRET`, else from the
    /// first line of standard input (never from the command line).
    Add {
        /// The account that answers it.
        #[arg(long)]
        account: String,
        /// The partner's base URL, e.g. `https://pcf.example.com`.
        #[arg(long)]
        url: String,
        /// Its token endpoint, when not `{url}/auth/token`.
        #[arg(long)]
        token_url: Option<String>,
        /// The `client_id` it gave the account.
        #[arg(long)]
        client_id: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// List an account's partners (never their secrets).
    List(AccountList),
    /// Remove a partner by id: its waiting requests are not answered.
    Remove {
        /// The partner's id.
        id: String,
    },
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
    List(AccountList),
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

fn database_failed(e: StoreError) -> anyhow::Error {
    anyhow::Error::from(e).context("the database failed")
}

fn refused(e: ClientError) -> anyhow::Error {
    match e {
        ClientError::Store(e) => database_failed(e),
        other => anyhow::anyhow!("{other}"),
    }
}

/// Prints `list` as one JSON array of its `row`s, or a `line` for each.
fn print_list<T>(
    list: &[T],
    json: bool,
    row: fn(&T) -> serde_json::Value,
    line: impl Fn(&T) -> String,
) {
    if json {
        let rows: Vec<_> = list.iter().map(row).collect();
        println!("{}", serde_json::Value::Array(rows));
    } else {
        for item in list {
            println!("{}", line(item));
        }
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

fn partner_row(p: &PactPartner) -> serde_json::Value {
    json!({
        "id": p.id.to_string(),
        "account_id": p.account_id.to_string(),
        "url": p.url,
        "token_url": p.token_url,
        "client_id": p.client_id,
        "created_at": p.created_at.to_string(),
    })
}

fn request_row(r: &PactRequest) -> serde_json::Value {
    json!({
        "id": r.id.to_string(),
        "partner_id": r.partner_id.to_string(),
        "event_id": r.event_id,
        "product_ids": r.product_ids,
        "status": r.status.as_str(),
        "received_at": r.received_at.to_string(),
        "answered_at": r.answered_at.map(|t| t.to_string()),
        "error": r.error,
    })
}

/// The partner's secret: `TONNE_PACT_PARTNER_SECRET`, else stdin's first line.
fn partner_secret() -> anyhow::Result<PartnerSecret> {
    let text = match std::env::var("TONNE_PACT_PARTNER_SECRET") {
        Ok(text) => text,
        Err(_) => {
            let mut line = String::new();
            std::io::stdin().read_line(&mut line)?;
            line.trim_end_matches(['\r', '\n']).to_owned()
        }
    };
    PartnerSecret::new(text).ok_or_else(|| {
        anyhow::anyhow!(
            "the client secret (TONNE_PACT_PARTNER_SECRET or standard input) must be 1 to 512 printable characters"
        )
    })
}

fn partner_refused(e: PartnerError) -> anyhow::Error {
    match e {
        PartnerError::Store(e) => database_failed(e),
        other => anyhow::anyhow!("{other}"),
    }
}

async fn partners(services: &Services, command: PartnersCommand) -> anyhow::Result<()> {
    let partners = &services.pact_partners;
    match command {
        PartnersCommand::Add {
            account,
            url,
            token_url,
            client_id,
            json,
        } => {
            let secret = partner_secret()?;
            let added = partners
                .add(
                    parse_account(&account)?,
                    &url,
                    token_url,
                    &client_id,
                    secret,
                )
                .await
                .map_err(partner_refused)?;
            if json {
                println!("{}", partner_row(&added));
            } else {
                println!(
                    "partner {} registered: answers go to {}",
                    added.id,
                    added.events_url()
                );
            }
        }
        PartnersCommand::List(AccountList { account, json }) => {
            let list = partners
                .list(parse_account(&account)?)
                .await
                .map_err(partner_refused)?;
            print_list(&list, json, partner_row, |p| {
                format!(
                    "{}  {}  {}  {}",
                    p.id,
                    p.created_at.date(),
                    p.url,
                    p.client_id
                )
            });
        }
        PartnersCommand::Remove { id } => {
            let id: PactPartnerId = id
                .parse()
                .map_err(|_| anyhow::anyhow!("`{id}` is not a partner id"))?;
            let removed = partners.remove(None, id).await.map_err(partner_refused)?;
            println!("removed {}", removed.id);
        }
    }
    Ok(())
}

pub(super) async fn run(services: &Services, command: PactCommand) -> anyhow::Result<()> {
    let command = match command {
        PactCommand::Credentials(command) => command,
        PactCommand::Partners(command) => return partners(services, command).await,
        PactCommand::Requests {
            account,
            limit,
            json,
        } => {
            let list = services
                .pact_partners
                .requests(parse_account(&account)?, limit)
                .await
                .map_err(database_failed)?;
            print_list(&list, json, request_row, |r| {
                format!(
                    "{}  {}  {}  {}  {}",
                    r.id,
                    r.received_at.date(),
                    r.status.as_str(),
                    r.event_id,
                    r.error.as_deref().unwrap_or("")
                )
            });
            return Ok(());
        }
    };
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
        CredentialsCommand::List(AccountList { account, json }) => {
            let list = clients
                .list(parse_account(&account)?)
                .await
                .map_err(refused)?;
            print_list(&list, json, row, |c| {
                let state = if c.revoked_at.is_some() {
                    "revoked"
                } else {
                    "active"
                };
                format!("{}  {state}  {}  {}", c.id, c.created_at.date(), c.label)
            });
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
