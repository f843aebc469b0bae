//! `tonne keys …`: create, list and revoke API keys.

use clap::{Subcommand, ValueEnum};
use serde_json::json;
use tonne_accounts::AccountId;
use tonne_kernel::{AccountMode, ApiKeyId, OrganisationId};
use tonne_storage::DatabaseUrl;

use super::admin::{error as admin_error, services as admin_services};

#[derive(Debug, Subcommand)]
pub(super) enum KeysCommand {
    /// Create an API key; the key is printed once and only its hash is stored.
    Create {
        /// The organisation's id.
        #[arg(long)]
        organisation: String,
        /// The key's mode.
        #[arg(long, value_enum)]
        mode: ModeArg,
        /// The account the key acts as by default (default: the oldest account of that mode).
        #[arg(long)]
        account: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// List an organisation's keys (prefixes only, never secrets).
    List {
        /// The organisation's id.
        #[arg(long)]
        organisation: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Revoke a key by its id (as `keys list` shows it). Running servers on
    /// PostgreSQL stop accepting it within about 0.1 s (the revocation is
    /// announced with NOTIFY); at the latest within their key cache TTL
    /// (`TONNE_KEY_CACHE_TTL_SECONDS`).
    Revoke {
        /// The key's id.
        key_id: String,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(super) enum ModeArg {
    Live,
    Test,
}

impl From<ModeArg> for AccountMode {
    fn from(m: ModeArg) -> Self {
        match m {
            ModeArg::Live => AccountMode::Live,
            ModeArg::Test => AccountMode::Test,
        }
    }
}

fn parse_org(raw: &str) -> anyhow::Result<OrganisationId> {
    raw.parse()
        .map_err(|_| anyhow::anyhow!("--organisation: `{raw}` is not an organisation id"))
}

pub(super) async fn run(
    url: &DatabaseUrl,
    command: KeysCommand,
    secrets: Option<String>,
) -> anyhow::Result<()> {
    let services = admin_services(url, secrets).await?;
    match command {
        KeysCommand::Create {
            organisation,
            mode,
            account,
            json,
        } => {
            let org = parse_org(&organisation)?;
            let account = account
                .map(|a| {
                    a.parse::<AccountId>()
                        .map_err(|_| anyhow::anyhow!("--account: `{a}` is not an account id"))
                })
                .transpose()?;
            let key = services
                .accounts
                .create_key(org, mode.into(), account, &tonne_kernel::Actor::CommandLine)
                .await
                .map_err(admin_error)?;
            if json {
                println!(
                    "{}",
                    json!({ "id": key.id.to_string(), "mode": key.mode.as_str(), "account_id": key.account_id.to_string(), "api_key": key.secret.expose() })
                );
            } else {
                println!(
                    "key {} ({}) for account {}: {}",
                    key.id,
                    key.mode,
                    key.account_id,
                    key.secret.expose()
                );
                println!("(shown once; only its hash is stored)");
            }
        }
        KeysCommand::List { organisation, json } => {
            let keys = services
                .accounts
                .list_keys(parse_org(&organisation)?)
                .await
                .map_err(admin_error)?;
            if json {
                let rows: Vec<_> = keys
                    .iter()
                    .map(|k| {
                        json!({
                            "id": k.id.to_string(), "mode": k.mode.as_str(), "account_id": k.account_id.to_string(),
                            "prefix": k.display_prefix, "revoked": k.revoked_at.is_some(),
                        })
                    })
                    .collect();
                println!("{}", serde_json::Value::Array(rows));
            } else {
                for k in keys {
                    let state = if k.revoked_at.is_some() {
                        "revoked"
                    } else {
                        "active"
                    };
                    println!(
                        "{}  {}  {}…  account {}  {state}",
                        k.id, k.mode, k.display_prefix, k.account_id
                    );
                }
            }
        }
        KeysCommand::Revoke { key_id } => {
            let id: ApiKeyId = key_id
                .parse()
                .map_err(|_| anyhow::anyhow!("`{key_id}` is not a key id"))?;
            let key = services
                .accounts
                .revoke_key(id, &tonne_kernel::Actor::CommandLine)
                .await
                .map_err(admin_error)?;
            println!("revoked key {} ({}…)", key.id, key.display_prefix);
        }
    }
    Ok(())
}
