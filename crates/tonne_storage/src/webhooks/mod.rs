//! Webhooks (secrets sealed at rest), their delivery streams and attempts.

//!
//! One file per port: [`repository`] (the webhooks themselves, `WebhookRepository`)
//! and [`delivery`] (streams, leases, attempts, `DeliveryStore`); their rows and
//! mappings in [`rows`], and every statement written as SQL text (the
//! PostgreSQL-only ones and the dialect-neutral upserts) in [`sql`].

use tonne_kernel::StoreError;

use crate::db::Db;
use crate::db::error::store_error;
use crate::schema::webhooks;
use crate::secrets::SecretsKey;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;

mod delivery;
mod health;
mod repository;
mod rows;
mod sql;

/// Webhooks and their delivery state on either backend. Secrets are sealed with
/// the [`SecretsKey`]; without one, webhooks can be neither created nor read.
#[derive(Debug, Clone)]
pub struct WebhookStore {
    db: Db,
    key: Option<SecretsKey>,
}

impl WebhookStore {
    /// A repository over a pool; `key` seals secrets at rest.
    pub fn new(db: Db, key: Option<SecretsKey>) -> Self {
        Self { db, key }
    }

    /// How many webhooks exist (start-up refuses to run without a key when there are any).
    pub async fn count(&self) -> Result<i64, StoreError> {
        self.db
            .query(|conn| {
                Box::pin(async move {
                    on!(conn, |c| webhooks::table.count().get_result::<i64>(c).await)
                })
            })
            .await
            .map_err(|e| store_error(e, "counting webhooks"))
    }

    fn key(&self) -> Result<SecretsKey, StoreError> {
        self.key.clone().ok_or_else(|| {
            StoreError::Unexpected(anyhow::anyhow!(
                "TONNE_SECRETS_KEY is not set: webhook secrets cannot be sealed or opened"
            ))
        })
    }
}
