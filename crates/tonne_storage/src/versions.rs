//! Organisations' pinned API versions, and a per-process cache in front of them.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use tonne_accounts::versions::{ApiVersion, VersionPinRepository};
use tonne_kernel::{OrganisationId, StoreError};

use crate::db::error::store_error;
use crate::db::{Db, first_row};
use crate::mapping::to_sql_time;
use crate::schema::{organisation_api_versions as pins, organisations};

/// Pinned versions on either backend.
#[derive(Debug, Clone)]
pub struct VersionPinStore {
    db: Db,
}

impl VersionPinStore {
    /// A repository over a pool.
    pub fn new(db: Db) -> Self {
        Self { db }
    }
}

fn parse(text: Option<String>) -> Result<Option<ApiVersion>, StoreError> {
    text.map(|t| {
        t.parse::<ApiVersion>().map_err(|e| {
            StoreError::Unexpected(anyhow::anyhow!(
                "a pinned API version this build does not know: {e}"
            ))
        })
    })
    .transpose()
}

#[async_trait]
impl VersionPinRepository for VersionPinStore {
    async fn pinned(&self, organisation: OrganisationId) -> Result<Option<ApiVersion>, StoreError> {
        let id = organisation.to_string();
        let rows = load!(self.db, (id) => pins::table
            .filter(pins::organisation_id.eq(id))
            .select(pins::version)
            .limit(1))
        .await;
        parse(
            first_row(rows, Ok::<String, _>)
                .map_err(|e| store_error(e, "reading a pinned API version"))?,
        )
    }

    async fn pin_first(
        &self,
        organisation: OrganisationId,
        version: ApiVersion,
    ) -> Result<ApiVersion, StoreError> {
        let id = organisation.to_string();
        let values = (
            pins::organisation_id.eq(id.clone()),
            pins::version.eq(version.as_str()),
            pins::pinned_at.eq(to_sql_time(OffsetDateTime::now_utc())),
        );
        let text = self
            .db
            .transaction(move |conn| {
                Box::pin(async move {
                    on!(&mut *conn, |c| diesel::insert_into(pins::table)
                        .values(values)
                        .on_conflict_do_nothing()
                        .execute(c)
                        .await)?;
                    on!(conn, |c| pins::table
                        .filter(pins::organisation_id.eq(id))
                        .select(pins::version)
                        .first::<String>(c)
                        .await)
                })
            })
            .await
            .map_err(|e| store_error(e, "pinning an API version"))?;
        parse(Some(text))?.ok_or(StoreError::NotFound)
    }

    async fn set(
        &self,
        organisation: OrganisationId,
        version: ApiVersion,
    ) -> Result<(), StoreError> {
        let id = organisation.to_string();
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    let known = on!(&mut *conn, |c| organisations::table
                        .filter(organisations::id.eq(&id))
                        .count()
                        .get_result::<i64>(c)
                        .await)?;
                    if known == 0 {
                        return Err(diesel::result::Error::NotFound);
                    }
                    let now = to_sql_time(OffsetDateTime::now_utc());
                    let updated = on!(&mut *conn, |c| diesel::update(
                        pins::table.filter(pins::organisation_id.eq(&id))
                    )
                    .set((pins::version.eq(version.as_str()), pins::pinned_at.eq(now)))
                    .execute(c)
                    .await)?;
                    if updated == 0 {
                        on!(conn, |c| diesel::insert_into(pins::table)
                            .values((
                                pins::organisation_id.eq(&id),
                                pins::version.eq(version.as_str()),
                                pins::pinned_at.eq(now),
                            ))
                            .execute(c)
                            .await)?;
                    }
                    Ok(())
                })
            })
            .await
            .map_err(|e| store_error(e, "setting a pinned API version"))
    }
}

/// A per-process cache of pinned versions (time to live as given; the
/// server uses 5 s), so a request costs no round trip once its organisation
/// is known. A version changed with the CLI reaches every process within the TTL.
pub struct CachedVersionPins {
    inner: Arc<dyn VersionPinRepository>,
    cache: moka::sync::Cache<OrganisationId, ApiVersion>,
}

impl CachedVersionPins {
    /// A cache in front of a pin store.
    pub fn new(inner: Arc<dyn VersionPinRepository>, ttl: Duration) -> Self {
        Self {
            inner,
            cache: moka::sync::Cache::builder()
                .time_to_live(ttl)
                .max_capacity(100_000)
                .build(),
        }
    }
}

#[async_trait]
impl VersionPinRepository for CachedVersionPins {
    async fn pinned(&self, organisation: OrganisationId) -> Result<Option<ApiVersion>, StoreError> {
        if let Some(v) = self.cache.get(&organisation) {
            return Ok(Some(v));
        }
        let found = self.inner.pinned(organisation).await?;
        if let Some(v) = found {
            self.cache.insert(organisation, v);
        }
        Ok(found)
    }

    async fn pin_first(
        &self,
        organisation: OrganisationId,
        version: ApiVersion,
    ) -> Result<ApiVersion, StoreError> {
        let pinned = self.inner.pin_first(organisation, version).await?;
        self.cache.insert(organisation, pinned);
        Ok(pinned)
    }

    async fn set(
        &self,
        organisation: OrganisationId,
        version: ApiVersion,
    ) -> Result<(), StoreError> {
        self.inner.set(organisation, version).await?;
        self.cache.invalidate(&organisation);
        Ok(())
    }
}
