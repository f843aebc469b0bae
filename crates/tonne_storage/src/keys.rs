//! API keys (hashes only) on either backend, and [`CachedApiKeys`], the
//! decorator that serves look-ups from memory and forgets revoked keys (on
//! PostgreSQL as soon as another process announces the revocation).

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use diesel::prelude::*;
use time::OffsetDateTime;
use tonne_accounts::ports::{ApiKeyRepository, StoreError};
use tonne_accounts::{ApiKey, KeyHash};
use tonne_kernel::{ApiKeyId, AuditEntry, OrganisationId};

use crate::db::DatabaseUrl;
use crate::db::error::store_error;
use crate::db::{AnyConnection, Db, first_row};
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
            .write(move |conn| {
                diesel::insert_into(api_keys::table)
                    .values(&row)
                    .execute(conn)?;
                crate::audit::record_blocking(conn, &audit)
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
            .read(move |conn| {
                let rows = api_keys::table
                    .inner_join(accounts::table)
                    .filter(api_keys::organisation_id.eq(org))
                    .order(api_keys::id.asc())
                    .select((ApiKeyRow::as_select(), accounts::scope))
                    .load(conn)?;
                with_scope(rows)
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
            .write(move |conn| {
                diesel::update(api_keys::table.find(&id))
                    .set(api_keys::last_used_at.eq(Some(at)))
                    .execute(conn)
                    .map(drop)
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
            .write(move |conn| {
                diesel::update(
                    api_keys::table
                        .find(&id)
                        .filter(api_keys::revoked_at.is_null()),
                )
                .set(api_keys::revoked_at.eq(Some(at)))
                .execute(conn)?;
                crate::audit::record_blocking(conn, &audit)?;
                let (row, scope) = api_keys::table
                    .inner_join(accounts::table)
                    .filter(api_keys::id.eq(&id))
                    .select((ApiKeyRow::as_select(), accounts::scope))
                    .first::<(ApiKeyRow, String)>(conn)?;
                if let AnyConnection::Postgresql(pg) = conn {
                    // Delivered to every listening process when this transaction commits.
                    diesel::sql_query("SELECT pg_notify($1, $2)")
                        .bind::<diesel::sql_types::Text, _>(REVOCATIONS)
                        .bind::<diesel::sql_types::Text, _>(&row.key_hash)
                        .execute(pg)?;
                }
                row.into_domain(&scope)
            })
            .await
            .map_err(|e| store_error(e, "revoking an API key"))
    }
}

/// The PostgreSQL channel on which a revoked key's hash is announced.
pub const REVOCATIONS: &str = "tonne_key_revoked";

/// How often the revocation listener looks for announcements.
pub const REVOCATION_POLL: Duration = Duration::from_millis(100);

/// Keeps key look-ups off the database: a hit is served from memory for at most
/// `ttl`. A key revoked through this decorator is forgotten at once. On
/// PostgreSQL, with [`CachedApiKeys::follow_revocations`], a key revoked by
/// another process (the CLI, another server) is forgotten when its announcement
/// arrives — within [`REVOCATION_POLL`] of the revoking commit, plus delivery;
/// `ttl` stays the bound when announcements cannot arrive (SQLite, a lost
/// listener connection). Misses are not cached, so a new key works at once.
pub struct CachedApiKeys {
    inner: Arc<dyn ApiKeyRepository>,
    cache: moka::sync::Cache<KeyHash, ApiKey>,
}

impl CachedApiKeys {
    /// Wraps a repository with a cache of at most `capacity` keys, each kept at most `ttl`.
    pub fn new(inner: Arc<dyn ApiKeyRepository>, ttl: Duration, capacity: u64) -> Self {
        let cache = moka::sync::Cache::builder()
            .time_to_live(ttl)
            .max_capacity(capacity)
            .build();
        Self { inner, cache }
    }

    /// On PostgreSQL, starts a thread that `LISTEN`s for revocations announced by
    /// any process and forgets the revoked keys; it reconnects after a lost
    /// connection (forgetting every cached key then, as announcements may have
    /// been missed) and ends when the cache is dropped. On SQLite (one process)
    /// it does nothing and returns `false`.
    pub fn follow_revocations(self: &Arc<Self>, db: &Db) -> bool {
        let DatabaseUrl::Postgres(url) = db.url().clone() else {
            return false;
        };
        let cache = Arc::downgrade(self);
        let spawned = std::thread::Builder::new()
            .name("tonne-key-revocations".into())
            .spawn(move || listen_for_revocations(&url, &cache));
        if let Err(e) = &spawned {
            tracing::warn!(error = %e, "cannot start the key revocation listener; the key cache TTL bounds revocations");
        }
        spawned.is_ok()
    }
}

fn listen_for_revocations(url: &str, cache: &std::sync::Weak<CachedApiKeys>) {
    use diesel::Connection as _;
    use diesel::PgConnection;
    let mut warned = false;
    while cache.strong_count() > 0 {
        let mut conn = match PgConnection::establish(url).and_then(|mut c| {
            diesel::sql_query(format!("LISTEN {REVOCATIONS}"))
                .execute(&mut c)
                .map(|_| c)
                .map_err(|e| diesel::ConnectionError::BadConnection(e.to_string()))
        }) {
            Ok(conn) => conn,
            Err(e) => {
                if !warned {
                    tracing::warn!(error = %e, "key revocation listener cannot connect; retrying (the key cache TTL bounds revocations meanwhile)");
                    warned = true;
                }
                std::thread::sleep(Duration::from_secs(1));
                continue;
            }
        };
        if warned {
            tracing::info!("key revocation listener connected again");
            warned = false;
        }
        // Announcements may have been missed while disconnected.
        if let Some(c) = cache.upgrade() {
            c.cache.invalidate_all();
        }
        'listening: loop {
            let Some(c) = cache.upgrade() else { return };
            for note in conn.notifications_iter() {
                match note {
                    Ok(n) => {
                        if let Some(hash) = KeyHash::from_hex(&n.payload) {
                            c.cache.invalidate(&hash);
                        }
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "key revocation listener lost its connection");
                        break 'listening;
                    }
                }
            }
            drop(c);
            std::thread::sleep(REVOCATION_POLL);
        }
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
