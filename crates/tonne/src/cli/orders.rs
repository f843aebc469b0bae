//! `tonne orders …`: move live orders through payment and retirement.

use clap::Subcommand;
use tonne_storage::DatabaseUrl;

use super::admin::services_paying as admin_services_paying;

#[derive(Debug, Subcommand)]
pub(super) enum OrdersCommand {
    /// Move an order forward: one step by default, or step by step up to --to.
    /// Each step is recorded with its event.
    Advance {
        /// The order's id.
        order_id: String,
        /// Target status: placed, paid, retiring, complete, or failed.
        #[arg(long)]
        to: Option<String>,
        /// The registry's serial number for the retirement (recorded per project,
        /// suffixed -1, -2, … , when the order enters `retiring`).
        #[arg(long)]
        registry_serial: Option<String>,
    },
    /// Cancel an order that is received or placed (its inventory is released).
    Cancel {
        /// The order's id.
        order_id: String,
    },
    /// Release the hold a card dispute put on an order (once the dispute is won).
    ReleaseHold {
        /// The order's id.
        order_id: String,
    },
}

pub(super) async fn run(
    url: &DatabaseUrl,
    command: OrdersCommand,
    secrets: Option<String>,
    cards: crate::fulfilment::CardProcessors,
) -> anyhow::Result<()> {
    let services = admin_services_paying(url, secrets.clone(), cards).await?;
    if let OrdersCommand::ReleaseHold { order_id } = &command {
        let order = services
            .ordering
            .release_hold(order_id, &tonne_kernel::Actor::CommandLine)
            .await
            .map_err(|e| anyhow::anyhow!(e))?;
        println!(
            "order {} is {} and no longer on hold",
            order.id,
            order.status.as_str()
        );
        return Ok(());
    }
    let (id, to, serial) = match command {
        OrdersCommand::Advance {
            order_id,
            to,
            registry_serial,
        } => {
            let to = to
                .map(|t| {
                    tonne_ordering::OrderStatus::parse(&t)
                        .ok_or_else(|| anyhow::anyhow!("--to: `{t}` is not an order status"))
                })
                .transpose()?;
            (order_id, to, registry_serial)
        }
        OrdersCommand::Cancel { order_id } => {
            (order_id, Some(tonne_ordering::OrderStatus::Cancelled), None)
        }
        OrdersCommand::ReleaseHold { .. } => unreachable!("answered above"),
    };
    let order = services
        .ordering
        .advance(&id, to, serial, &tonne_kernel::Actor::CommandLine)
        .await
        .map_err(|e| anyhow::anyhow!(e))?;
    println!("order {} is {}", order.id, order.status.as_str());
    Ok(())
}
