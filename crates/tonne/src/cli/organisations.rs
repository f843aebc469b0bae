//! `tonne organisations …`: an organisation's pinned API version, and its
//! limits per account (docs/operations.md, "Quotas").

use clap::Subcommand;
use tonne_accounts::quotas::{OrganisationQuotas, QuotaError};
use tonne_accounts::versions::ApiVersion;
use tonne_kernel::{Actor, LimitOverrides, OrganisationId, Quota, StoreError};

use crate::wiring::Services;

/// Organisation settings.
#[derive(Debug, Subcommand)]
pub(super) enum OrganisationsCommand {
    /// Show an organisation's pinned API version (the `Lune-Version` used when a
    /// request names none), or change it with `--set`.
    ApiVersion {
        /// The organisation's id.
        organisation_id: String,
        /// Pin this version (e.g. `2024-08-08`).
        #[arg(long)]
        set: Option<String>,
    },
    /// Show an organisation's limits per account and each account's usage;
    /// change a limit with its flag: a number, or `default` for the
    /// installation's (`TONNE_QUOTA_*`). Flags not given keep their value.
    Limits {
        /// The organisation's id.
        organisation_id: String,
        /// Shipment calculations queued or running per account.
        #[arg(long, value_parser = limit_value)]
        max_outstanding_calculations: Option<LimitValue>,
        /// Shipment batches waiting to be processed per account.
        #[arg(long, value_parser = limit_value)]
        max_pending_batches: Option<LimitValue>,
        /// Asynchronous transaction documents waiting per account.
        #[arg(long, value_parser = limit_value)]
        max_pending_documents: Option<LimitValue>,
        /// Shipment rows stored per account.
        #[arg(long, value_parser = limit_value)]
        max_stored_shipments: Option<LimitValue>,
        /// Bytes of shipment rows stored per account.
        #[arg(long, value_parser = limit_value)]
        max_stored_bytes: Option<LimitValue>,
    },
}

/// A limit as given on the command line: a number, or `default`.
#[derive(Debug, Clone, Copy)]
pub(super) struct LimitValue(Option<u64>);

fn limit_value(text: &str) -> Result<LimitValue, String> {
    if text == "default" {
        return Ok(LimitValue(None));
    }
    text.parse::<u64>()
        .map(|n| LimitValue(Some(n)))
        .map_err(|_| format!("`{text}` is neither a whole number nor `default`"))
}

fn organisation_id(text: &str) -> anyhow::Result<OrganisationId> {
    text.parse()
        .map_err(|_| anyhow::anyhow!("`{text}` is not an organisation id"))
}

fn print_limits(q: &OrganisationQuotas) {
    println!("{} ({})", q.organisation_name, q.organisation_id);
    for quota in Quota::ALL {
        let whence = if q.overrides.get(quota).is_some() {
            "set for this organisation"
        } else {
            "default"
        };
        println!("  {}: {} ({whence})", quota.key(), q.limits.get(quota));
    }
    for a in &q.accounts {
        println!("  {} account {} ({}):", a.mode, a.name, a.account_id);
        for quota in Quota::ALL {
            let at_limit = if q.at_limit(&a.usage, quota) {
                "  at the limit"
            } else {
                ""
            };
            println!(
                "    {}: {} of {}{at_limit}",
                quota.counts(),
                a.usage.get(quota),
                q.limits.get(quota)
            );
        }
    }
}

pub(super) async fn run(services: &Services, command: OrganisationsCommand) -> anyhow::Result<()> {
    match command {
        OrganisationsCommand::ApiVersion {
            organisation_id,
            set,
        } => {
            let id: OrganisationId = organisation_id
                .parse()
                .map_err(|_| anyhow::anyhow!("`{organisation_id}` is not an organisation id"))?;
            if let Some(text) = set {
                let version: ApiVersion = text.parse()?;
                services
                    .versions
                    .pin(id, version)
                    .await
                    .map_err(|e| match e {
                        StoreError::NotFound => anyhow::anyhow!("no organisation has id {id}"),
                        other => anyhow::anyhow!(other),
                    })?;
                println!("organisation {id} is pinned to API version {version}");
            } else {
                match services.versions.pinned(id).await? {
                    Some(version) => println!("{version}"),
                    None => println!(
                        "none pinned yet (pinned on the organisation's first API request; until then {} applies)",
                        ApiVersion::LATEST
                    ),
                }
            }
            Ok(())
        }
        OrganisationsCommand::Limits {
            organisation_id: text,
            max_outstanding_calculations,
            max_pending_batches,
            max_pending_documents,
            max_stored_shipments,
            max_stored_bytes,
        } => {
            let id = organisation_id(&text)?;
            let not_found = |e: QuotaError| match e {
                QuotaError::OrganisationNotFound => anyhow::anyhow!("no organisation has id {id}"),
                other => anyhow::anyhow!(other),
            };
            let current = services.quotas.organisation(id).await.map_err(not_found)?;
            let given = [
                (Quota::OutstandingCalculations, max_outstanding_calculations),
                (Quota::PendingBatches, max_pending_batches),
                (Quota::PendingDocuments, max_pending_documents),
                (Quota::StoredShipments, max_stored_shipments),
                (Quota::StoredBytes, max_stored_bytes),
            ];
            if given.iter().all(|(_, v)| v.is_none()) {
                print_limits(&current);
                return Ok(());
            }
            let mut overrides: LimitOverrides = current.overrides;
            for (quota, value) in given {
                if let Some(LimitValue(v)) = value {
                    overrides.set(quota, v);
                }
            }
            let changed = services
                .quotas
                .set_limits(Actor::CommandLine, id, overrides)
                .await
                .map_err(not_found)?;
            print_limits(&changed);
            Ok(())
        }
    }
}
