//! `tonne organisations …`: an organisation's pinned API version.

use clap::Subcommand;
use tonne_accounts::versions::ApiVersion;
use tonne_kernel::{OrganisationId, StoreError};

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
    }
}
