//! The services an operator's command runs over: the same wiring as the
//! server's, on a small pool, without the server's background work.

use std::time::Duration;

use tonne_accounts::AdminError;
use tonne_storage::{DatabaseUrl, PoolSettings};

use crate::wiring::Services;

/// The services, without card processors.
pub(super) async fn services(
    url: &DatabaseUrl,
    secrets_key: Option<String>,
) -> anyhow::Result<Services> {
    services_paying(
        url,
        secrets_key,
        crate::fulfilment::CardProcessors::default(),
    )
    .await
}

/// As [`services`], with the card processors that capture card orders.
pub(super) async fn services_paying(
    url: &DatabaseUrl,
    secrets_key: Option<String>,
    cards: crate::fulfilment::CardProcessors,
) -> anyhow::Result<Services> {
    Services::open(
        url,
        PoolSettings {
            max_size: 2,
            ..PoolSettings::default()
        },
        Duration::ZERO,
        tonne_ordering::Settings::default(),
        crate::wiring::WebhookOptions {
            secrets_key,
            // the server's rule for outbound URLs holds for what the CLI
            // registers (PACT partners) too
            allow_private: std::env::var("TONNE_WEBHOOKS_ALLOW_PRIVATE").is_ok_and(|v| {
                matches!(
                    v.trim().to_ascii_lowercase().as_str(),
                    "true" | "1" | "yes" | "on"
                )
            }),
            ..crate::wiring::WebhookOptions::default()
        },
        tonne_links::Settings::default(),
        cards,
    )
    .await
}

pub(super) fn error(e: AdminError) -> anyhow::Error {
    anyhow::anyhow!(e)
}
