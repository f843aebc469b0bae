//! `tonne accounts …`: an account's default bundle selection.

use clap::Subcommand;
use tonne_storage::DatabaseUrl;

use super::admin::services as admin_services;

#[derive(Debug, Subcommand)]
pub(super) enum AccountsCommand {
    /// Set the bundle selection an account's orders use when they send none
    /// (without --bundle: clear it, so the catalogue's default applies again).
    SetSelection {
        /// The account's id.
        #[arg(long)]
        account: String,
        /// `BUNDLE_ID` or `BUNDLE_ID:PERCENT`; repeat. Percentages for all or none
        /// (then split equally), summing to 100.
        #[arg(long = "bundle")]
        bundles: Vec<String>,
    },
}

pub(super) async fn run(
    url: &DatabaseUrl,
    command: AccountsCommand,
    secrets: Option<String>,
) -> anyhow::Result<()> {
    let AccountsCommand::SetSelection { account, bundles } = command;
    let entries = bundles
        .iter()
        .map(|raw| {
            let (id, pct) = match raw.split_once(':') {
                Some((id, pct)) => (
                    id,
                    Some(tonne_ordering::Percentage::parse(pct).map_err(|e| anyhow::anyhow!(e))?),
                ),
                None => (raw.as_str(), None),
            };
            Ok(tonne_ordering::SelectionEntry {
                bundle_id: id.to_owned(),
                percentage: pct,
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let services = admin_services(url, secrets.clone()).await?;
    let set = services
        .ordering
        .set_account_selection(&account, entries, &tonne_kernel::Actor::CommandLine)
        .await
        .map_err(|e| anyhow::anyhow!(e))?;
    if set.is_empty() {
        println!("account {account} now uses the catalogue's default selection");
    } else {
        for (bundle, share) in set {
            println!(
                "{bundle}  {}%",
                rust_decimal::Decimal::new(i64::from(share), 2).normalize()
            );
        }
    }
    Ok(())
}
