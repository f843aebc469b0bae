//! `tonne catalogue …`: import a catalogue file.

use clap::Subcommand;
use tonne_storage::DatabaseUrl;

use super::admin::services as admin_services;

#[derive(Debug, Subcommand)]
pub(super) enum CatalogueCommand {
    /// Import a catalogue file (format: docs/catalogue.md). Idempotent: items are
    /// keyed by their `key`, so importing again updates them instead of duplicating.
    Import {
        /// The JSON file, or `demo` for the catalogue shipped with Tonne.
        file: String,
    },
}

pub(super) async fn run(
    url: &DatabaseUrl,
    command: CatalogueCommand,
    secrets: Option<String>,
) -> anyhow::Result<()> {
    let CatalogueCommand::Import { file } = command;
    let text = if file == "demo" {
        crate::catalogue_file::DEMO.to_owned()
    } else {
        std::fs::read_to_string(&file).map_err(|e| anyhow::anyhow!("cannot read {file}: {e}"))?
    };
    let catalogue =
        crate::catalogue_file::parse(&text, time::OffsetDateTime::now_utc()).map_err(|e| {
            let n = e.0.len();
            let list: String = e.0.iter().map(|p| format!("\n  - {p}")).collect();
            anyhow::anyhow!(
                "{file} is not a valid catalogue ({n} problems; nothing was imported):{list}"
            )
        })?;
    let services = admin_services(url, secrets.clone()).await?;
    let s = services
        .ordering
        .import_catalogue(catalogue, &tonne_kernel::Actor::CommandLine)
        .await
        .map_err(|e| anyhow::anyhow!(e))?;
    println!(
        "imported {file}: {} projects created, {} updated; {} bundles created, {} updated; {} bundle portfolios created, {} updated",
        s.projects_created,
        s.projects_updated,
        s.bundles_created,
        s.bundles_updated,
        s.portfolios_created,
        s.portfolios_updated
    );
    Ok(())
}
