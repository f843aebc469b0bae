//! API keys (hashes only) on either backend, and [`CachedApiKeys`], the
//! decorator that serves look-ups from memory and forgets revoked keys (on
//! PostgreSQL as soon as another process announces the revocation).

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use tonne_accounts::ports::{ApiKeyRepository, StoreError};
use tonne_accounts::{ApiKey, KeyHash};
use tonne_kernel::{ApiKeyId, AuditEntry, OrganisationId};

use crate::db::error::store_error;
use crate::db::{Db, first_row};
use crate::db::{Follower, announce, channel};
use crate::mapping::{ApiKeyRow, to_sql_time};
use crate::schema::{accounts, api_keys};

/// API keys (hashes only) on either backend.
#[derive(Debug, Clone)]
pub struct ApiKeyStore {
    db: Db,
}

impl ApiKeyStore {
    /// A repository over a pool.
    pub fn new(db: Db) -> Self {
        Self { db }
    }
}

fn key_with_scope((row, scope): (ApiKeyRow, String)) -> QueryResult<ApiKey> {
    row.into_domain(&scope)
}

fn with_scope(rows: Vec<(ApiKeyRow, String)>) -> QueryResult<Vec<ApiKey>> {
    rows.into_iter().map(key_with_scope).collect()
}

#[async_trait]
impl ApiKeyRepository for ApiKeyStore {
    async fn insert(&self, key: &ApiKey, audit: Option<AuditEntry>) -> Result<(), StoreError> {
        let row = ApiKeyRow::from_domain(key);
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    on!(&mut *conn, |c| diesel::insert_into(api_keys::table)
                        .values(&row)
                        .execute(c)
                        .await)?;
                    crate::audit::record(conn, &audit).await
                })
            })
            .await
            .map_err(|e| store_error(e, "inserting an API key"))
    }

    async fn find_by_hash(&self, hash: &KeyHash) -> Result<Option<ApiKey>, StoreError> {
        let hex = hash.to_hex();
        let rows = load!(self.db, (hex) => api_keys::table
            .inner_join(accounts::table)
            .filter(api_keys::key_hash.eq(hex))
            .select((ApiKeyRow::as_select(), accounts::scope))
            .limit(1))
        .await;
        first_row(rows, key_with_scope).map_err(|e| store_error(e, "looking up an API key"))
    }

    async fn list(&self, organisation_id: OrganisationId) -> Result<Vec<ApiKey>, StoreError> {
        let org = organisation_id.to_string();
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let rows = on!(conn, |c| api_keys::table
                        .inner_join(accounts::table)
                        .filter(api_keys::organisation_id.eq(org))
                        .order(api_keys::id.asc())
                        .select((ApiKeyRow::as_select(), accounts::scope))
                        .load(c)
                        .await)?;
                    with_scope(rows)
                })
            })
            .await
            .map_err(|e| store_error(e, "listing API keys"))
    }

    async fn get(&self, id: ApiKeyId) -> Result<Option<ApiKey>, StoreError> {
        let id = id.to_string();
        let rows = load!(self.db, (id) => api_keys::table
            .inner_join(accounts::table)
            .filter(api_keys::id.eq(id))
            .select((ApiKeyRow::as_select(), accounts::scope)))
        .await;
        first_row(rows, key_with_scope).map_err(|e| store_error(e, "reading an API key"))
    }

    async fn touch(&self, key: &ApiKey, at: OffsetDateTime) -> Result<(), StoreError> {
        let id = key.id.to_string();
        let at = to_sql_time(at);
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    on!(conn, |c| diesel::update(api_keys::table.find(&id))
                        .set(api_keys::last_used_at.eq(Some(at)))
                        .execute(c)
                        .await)
                    .map(drop)
                })
            })
            .await
            .map_err(|e| store_error(e, "recording a key's use"))
    }

    async fn revoke(
        &self,
        id: ApiKeyId,
        at: OffsetDateTime,
        audit: Option<AuditEntry>,
    ) -> Result<ApiKey, StoreError> {
        let id = id.to_string();
        let at = to_sql_time(at);
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    stamp_once!(&mut *conn, api_keys, revoked_at, &id, at)?;
                    crate::audit::record(&mut *conn, &audit).await?;
                    let (row, scope) = on!(&mut *conn, |c| api_keys::table
                        .inner_join(accounts::table)
                        .filter(api_keys::id.eq(&id))
                        .select((ApiKeyRow::as_select(), accounts::scope))
                        .first::<(ApiKeyRow, String)>(c)
                        .await)?;
                    // Delivered to every listening process when this transaction commits.
                    announce(&mut *conn, channel::KEY_REVOKED, &row.key_hash).await?;
                    row.into_domain(&scope)
                })
            })
            .await
            .map_err(|e| store_error(e, "revoking an API key"))
    }
}

/// Keeps key look-ups off the database: a hit is served from memory for at most
/// `ttl`. A key revoked through this decorator is forgotten at once. On
/// PostgreSQL, with [`CachedApiKeys::follow_revocations`] (or
/// [`follow`](crate::follow) with other caches), a key revoked by another
/// process (the CLI, another server) is forgotten as soon as its announcement
/// arrives (PostgreSQL delivers it when the revoking transaction commits);
/// `ttl` stays the bound when announcements cannot arrive (SQLite, a lost
/// listener connection). Misses are not cached, so a new key works at once.
pub struct CachedApiKeys {
    inner: Arc<dyn ApiKeyRepository>,
    cache: moka::sync::Cache<KeyHash, ApiKey>,
    /// Dropped with the cache, which ends the listener once no cache follows it.
    alive: tokio::sync::watch::Sender<()>,
}

impl CachedApiKeys {
    /// Wraps a repository with a cache of at most `capacity` keys, each kept at most `ttl`.
    pub fn new(inner: Arc<dyn ApiKeyRepository>, ttl: Duration, capacity: u64) -> Self {
        let cache = moka::sync::Cache::builder()
            .time_to_live(ttl)
            .max_capacity(capacity)
            .build();
        let (alive, _) = tokio::sync::watch::channel(());
        Self {
            inner,
            cache,
            alive,
        }
    }

    /// On PostgreSQL, follows the revocations announced by any process on a
    /// listener connection of its own (see [`follow`](crate::follow), which
    /// shares one connection between several caches). `false` on SQLite or
    /// outside a tokio runtime.
    pub fn follow_revocations(self: &Arc<Self>, db: &Db) -> bool {
        let follower: Arc<dyn Follower> = self.clone();
        crate::follow(db, &[follower])
    }
}

impl Follower for CachedApiKeys {
    fn channel(&self) -> &'static str {
        channel::KEY_REVOKED
    }

    fn forget(&self, payload: &str) {
        if let Some(hash) = KeyHash::from_hex(payload) {
            self.cache.invalidate(&hash);
        }
    }

    fn forget_all(&self) {
        self.cache.invalidate_all();
    }

    fn dropped(&self) -> tokio::sync::watch::Receiver<()> {
        self.alive.subscribe()
    }
}

#[async_trait]
impl ApiKeyRepository for CachedApiKeys {
    async fn insert(&self, key: &ApiKey, audit: Option<AuditEntry>) -> Result<(), StoreError> {
        self.inner.insert(key, audit).await
    }

    async fn find_by_hash(&self, hash: &KeyHash) -> Result<Option<ApiKey>, StoreError> {
        if let Some(hit) = self.cache.get(hash) {
            return Ok(Some(hit));
        }
        let found = self.inner.find_by_hash(hash).await?;
        if let Some(key) = &found {
            self.cache.insert(*hash, key.clone());
        }
        Ok(found)
    }

    async fn list(&self, organisation_id: OrganisationId) -> Result<Vec<ApiKey>, StoreError> {
        self.inner.list(organisation_id).await
    }

    async fn get(&self, id: ApiKeyId) -> Result<Option<ApiKey>, StoreError> {
        self.inner.get(id).await
    }

    async fn touch(&self, key: &ApiKey, at: OffsetDateTime) -> Result<(), StoreError> {
        self.inner.touch(key, at).await?;
        // the cached copy learns it too, or every hit would touch again
        if self.cache.contains_key(&key.hash) {
            self.cache.insert(
                key.hash,
                ApiKey {
                    last_used_at: Some(at),
                    ..key.clone()
                },
            );
        }
        Ok(())
    }

    async fn revoke(
        &self,
        id: ApiKeyId,
        at: OffsetDateTime,
        audit: Option<AuditEntry>,
    ) -> Result<ApiKey, StoreError> {
        let key = self.inner.revoke(id, at, audit).await?;
        self.cache.invalidate(&key.hash);
        Ok(key)
    }
}
