//! [`CachedAccounts`]: accounts by id served from memory, so that a request
//! whose key is cached reaches no database to learn its account.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use time::OffsetDateTime;
use tonne_accounts::ports::{
    AccountQuery, AccountRepository, AccountUpdate, AccountWriteError, StoreError,
};
use tonne_accounts::{
    Account, AccountActivity, AccountId, AccountIdempotencyKey, Handle, Logo, LogoId, Organisation,
};
use tonne_kernel::{AccountMode, AuditEntry, Cursor, OrganisationId, Page, PageRequest};

use crate::db::{Follower, channel};

/// Keeps [`AccountRepository::get`] off the database: a hit is served from
/// memory for at most `ttl`. An account changed through this decorator is
/// forgotten at once; following its store's changes (see
/// [`follow`](crate::follow)), an account changed through another store of
/// this process (a portfolio set with the catalogue) is forgotten once that
/// change commits, and on PostgreSQL one changed by another process as soon
/// as the announcement arrives. `ttl` stays the bound when
/// announcements cannot arrive (SQLite with another process writing, a lost
/// listener connection) and when a read that began before a change finishes
/// after it. Misses are not cached; every other method goes to the database.
pub struct CachedAccounts {
    inner: Arc<dyn AccountRepository>,
    cache: moka::sync::Cache<AccountId, Account>,
    /// Dropped with the cache, which ends the listener once no cache follows it.
    alive: tokio::sync::watch::Sender<()>,
}

impl CachedAccounts {
    /// Wraps a repository with a cache of at most `capacity` accounts, each kept at most `ttl`.
    pub fn new(inner: Arc<dyn AccountRepository>, ttl: Duration, capacity: u64) -> Self {
        let (alive, _) = tokio::sync::watch::channel(());
        Self {
            inner,
            cache: moka::sync::Cache::builder()
                .time_to_live(ttl)
                .max_capacity(capacity)
                .build(),
            alive,
        }
    }

    /// The account changed: forgotten, with the time to live as a bound
    /// should a read that began before the change land after this.
    fn changed(&self, id: AccountId) {
        self.cache.invalidate(&id);
    }
}

impl Follower for CachedAccounts {
    fn channel(&self) -> &'static str {
        channel::ACCOUNT_CHANGED
    }

    fn forget(&self, payload: &str) {
        if let Ok(id) = payload.parse::<AccountId>() {
            self.cache.invalidate(&id);
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
impl AccountRepository for CachedAccounts {
    async fn create_organisation(
        &self,
        organisation: &Organisation,
        live: &Account,
        test: &Account,
        audit: Option<AuditEntry>,
    ) -> Result<(), StoreError> {
        self.inner
            .create_organisation(organisation, live, test, audit)
            .await
    }

    async fn any_organisation(&self) -> Result<bool, StoreError> {
        self.inner.any_organisation().await
    }

    async fn organisation(&self, id: OrganisationId) -> Result<Option<Organisation>, StoreError> {
        self.inner.organisation(id).await
    }

    async fn list_organisations(
        &self,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Organisation>, StoreError> {
        self.inner.list_organisations(page).await
    }

    async fn insert_pair(&self, live: &Account, test: &Account) -> Result<(), AccountWriteError> {
        self.inner.insert_pair(live, test).await
    }

    async fn insert_client(
        &self,
        account: &Account,
        audit: Option<AuditEntry>,
    ) -> Result<(), AccountWriteError> {
        self.inner.insert_client(account, audit).await
    }

    async fn get(&self, id: AccountId) -> Result<Option<Account>, StoreError> {
        if let Some(hit) = self.cache.get(&id) {
            return Ok(Some(hit));
        }
        let found = self.inner.get(id).await?;
        if let Some(account) = &found {
            self.cache.insert(id, account.clone());
        }
        Ok(found)
    }

    async fn by_reference(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
        handle: Option<Handle>,
        idempotency_key: Option<AccountIdempotencyKey>,
    ) -> Result<Vec<Account>, StoreError> {
        self.inner
            .by_reference(organisation_id, mode, handle, idempotency_key)
            .await
    }

    async fn first_of_mode(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
    ) -> Result<Option<Account>, StoreError> {
        self.inner.first_of_mode(organisation_id, mode).await
    }

    async fn list(
        &self,
        query: &AccountQuery,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Account>, StoreError> {
        self.inner.list(query, page).await
    }

    async fn update(&self, update: &AccountUpdate) -> Result<Account, AccountWriteError> {
        let result = self.inner.update(update).await;
        // Forgotten whatever the outcome: a failed commit may still have landed.
        self.changed(update.id);
        if let Some(sibling) = update.rename_sibling {
            self.changed(sibling);
        }
        result
    }

    async fn activity(
        &self,
        ids: &[AccountId],
    ) -> Result<Vec<(AccountId, AccountActivity)>, StoreError> {
        self.inner.activity(ids).await
    }

    async fn set_logo(&self, logo: &Logo, url: &str) -> Result<Account, StoreError> {
        let result = self.inner.set_logo(logo, url).await;
        self.changed(logo.account_id);
        result
    }

    async fn logo(&self, id: LogoId) -> Result<Option<Logo>, StoreError> {
        self.inner.logo(id).await
    }

    async fn delete_logo(
        &self,
        account: AccountId,
        at: OffsetDateTime,
    ) -> Result<Account, StoreError> {
        let result = self.inner.delete_logo(account, at).await;
        self.changed(account);
        result
    }
}
