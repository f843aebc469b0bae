//! `tonne webhooks …`: attempts, skipping a backlog, re-sending.

use clap::Subcommand;
use serde_json::json;
use tonne_accounts::AccountId;
use tonne_storage::DatabaseUrl;

use super::admin::services as admin_services;

#[derive(Debug, Subcommand)]
pub(super) enum WebhooksCommand {
    /// Show a webhook's delivery attempts, most recent first.
    Attempts {
        /// The webhook's id.
        webhook_id: String,
        /// How many (1–100).
        #[arg(long, default_value_t = 20)]
        limit: u8,
        /// Print JSON lines.
        #[arg(long)]
        json: bool,
    },
    /// Skip every undelivered event of a webhook (each stream moves to its account's
    /// latest event). For a backlog the receiver does not want after a long outage.
    Skip {
        /// The webhook's id.
        webhook_id: String,
    },
    /// Re-send one account's events to a webhook from a sequence number on, in order.
    Redeliver {
        /// The webhook's id.
        webhook_id: String,
        /// The first sequence number to send again (as in the events' `sequence`).
        #[arg(long)]
        from_sequence: i64,
        /// The account whose stream is re-sent.
        #[arg(long)]
        account: String,
    },
}

fn parse_webhook(raw: &str) -> anyhow::Result<tonne_webhooks::WebhookId> {
    raw.parse()
        .map_err(|_| anyhow::anyhow!("`{raw}` is not a webhook id"))
}

pub(super) async fn run(
    url: &DatabaseUrl,
    command: WebhooksCommand,
    secrets: Option<String>,
) -> anyhow::Result<()> {
    let services = admin_services(url, secrets).await?;
    let fail = |e: tonne_webhooks::AdminWebhookError| anyhow::anyhow!(e);
    match command {
        WebhooksCommand::Attempts {
            webhook_id,
            limit,
            json,
        } => {
            let limit =
                tonne_kernel::Limit::new(limit).map_err(|e| anyhow::anyhow!("--limit: {e}"))?;
            let page = services
                .webhooks
                .admin_attempts(
                    parse_webhook(&webhook_id)?,
                    tonne_kernel::PageRequest { limit, after: None },
                )
                .await
                .map_err(fail)?;
            for a in page.items {
                let at = a
                    .attempted_at
                    .format(&time::format_description::well_known::Rfc3339)
                    .unwrap_or_default();
                if json {
                    println!(
                        "{}",
                        json!({
                            "id": a.id.to_string(), "account_id": a.account_id.to_string(),
                            "first_sequence": a.first_sequence, "last_sequence": a.last_sequence, "events": a.events,
                            "attempted_at": at, "status_code": a.status, "error": a.error,
                            "latency_ms": a.latency_ms, "outcome": a.outcome.as_str(),
                        })
                    );
                } else {
                    let result = match (a.status, &a.error) {
                        (Some(s), _) => format!("HTTP {s}"),
                        (None, Some(e)) => e.clone(),
                        (None, None) => "-".into(),
                    };
                    println!(
                        "{at}  {:<9}  account {}  events {}..{} ({})  {result}  {} ms",
                        a.outcome.as_str(),
                        a.account_id,
                        a.first_sequence,
                        a.last_sequence,
                        a.events,
                        a.latency_ms
                    );
                }
            }
        }
        WebhooksCommand::Skip { webhook_id } => {
            let skipped = services
                .webhooks
                .skip_backlog(
                    parse_webhook(&webhook_id)?,
                    &tonne_kernel::Actor::CommandLine,
                )
                .await
                .map_err(fail)?;
            println!("webhook {webhook_id}: skipped {skipped} undelivered events");
        }
        WebhooksCommand::Redeliver {
            webhook_id,
            from_sequence,
            account,
        } => {
            let account: AccountId = account
                .parse()
                .map_err(|_| anyhow::anyhow!("--account: `{account}` is not an account id"))?;
            services
                .webhooks
                .redeliver(
                    parse_webhook(&webhook_id)?,
                    account,
                    from_sequence,
                    &tonne_kernel::Actor::CommandLine,
                )
                .await
                .map_err(fail)?;
            println!(
                "webhook {webhook_id}: account {account} will be re-sent from sequence {from_sequence}"
            );
        }
    }
    Ok(())
}
