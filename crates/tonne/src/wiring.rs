use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use diesel::connection::SimpleConnection as _;
use tonne_accounts::ports::ApiKeyRepository;
use tonne_accounts::{AccountsService, Service};
use tonne_estimation::records::Estimates;
use tonne_http::{PoolGauge, Readiness};
use tonne_kernel::{AccountId, Currency, StoreError, SystemClock, UuidV7Generator};
use tonne_ordering::ports::AccountDirectory;
use tonne_ordering::{OrderingService, Settings};
use tonne_storage::{
    AccountStore, ApiKeyStore, CachedApiKeys, CatalogueStore, DatabaseUrl, Db, EstimateStore,
    OrderStore, PoolSettings,
};

/// The domain services wired over one database.
#[derive(Clone)]
pub struct Services {
    /// The pool.
    pub db: Db,
    /// Accounts use cases.
    pub accounts: Arc<dyn AccountsService>,
    /// Catalogue and quotes.
    pub ordering: Arc<dyn OrderingService>,
    /// Stored estimates.
    pub estimates: Estimates,
}

/// Ordering's view of accounts, over the accounts repository.
struct AccountCurrencies(AccountStore);

#[async_trait]
impl AccountDirectory for AccountCurrencies {
    async fn currency(&self, account: AccountId) -> Result<Option<Currency>, StoreError> {
        use tonne_accounts::ports::AccountRepository as _;
        Ok(self.0.get(account).await?.map(|a| a.currency))
    }

    async fn beneficiary(&self, account: AccountId) -> Result<Option<String>, StoreError> {
        use tonne_accounts::ports::AccountRepository as _;
        Ok(self.0.get(account).await?.map(|a| {
            a.beneficiary
                .map_or_else(|| a.name.as_str().to_owned(), |b| b.as_str().to_owned())
        }))
    }
}

impl Services {
    /// Connects, migrates, and wires every service. Blocking work runs off the async workers.
    pub async fn open(
        url: &DatabaseUrl,
        pool: PoolSettings,
        key_cache_ttl: Duration,
        ordering: Settings,
    ) -> anyhow::Result<Self> {
        let url = url.clone();
        let db = tokio::task::spawn_blocking(move || -> anyhow::Result<Db> {
            let db = Db::connect(&url, pool)?;
            let applied = db.migrate()?;
            if !applied.is_empty() {
                tracing::info!(migrations = ?applied, "applied migrations");
            }
            Ok(db)
        })
        .await??;
        Ok(Self::wire(db, key_cache_ttl, ordering))
    }

    /// Wires services over an open, migrated database.
    pub fn wire(db: Db, key_cache_ttl: Duration, ordering: Settings) -> Self {
        let store: Arc<dyn ApiKeyRepository> = Arc::new(ApiKeyStore::new(db.clone()));
        let keys: Arc<dyn ApiKeyRepository> = if key_cache_ttl.is_zero() {
            store
        } else {
            Arc::new(CachedApiKeys::new(store, key_cache_ttl, 100_000))
        };
        let accounts = Arc::new(Service::new(
            Arc::new(AccountStore::new(db.clone())),
            keys,
            Arc::new(SystemClock),
            Arc::new(UuidV7Generator),
        ));
        let ordering = Arc::new(tonne_ordering::Service::new(
            Arc::new(CatalogueStore::new(db.clone())),
            Arc::new(OrderStore::new(db.clone())),
            Arc::new(AccountCurrencies(AccountStore::new(db.clone()))),
            crate::fulfilment::built_in(),
            Arc::new(SystemClock),
            ordering,
        ));
        let estimates = Estimates::new(
            Arc::new(EstimateStore::new(db.clone())),
            Arc::new(SystemClock),
            Arc::new(UuidV7Generator),
        );
        // parse the airport, seaport and sea-network tables now, not on the first request
        tonne_estimation::places::preload();
        Self {
            db,
            accounts,
            ordering,
            estimates,
        }
    }
}

/// `/ready` and pool metrics over the pool.
pub(crate) struct DbReadiness(pub Db);

#[async_trait]
impl Readiness for DbReadiness {
    async fn check(&self) -> Result<(), String> {
        self.0
            .read(|conn| conn.batch_execute("SELECT 1"))
            .await
            .map_err(|e| e.to_string())
    }

    fn pool(&self) -> PoolGauge {
        let s = self.0.status();
        PoolGauge {
            connections: s.connections,
            idle: s.idle,
            max_size: s.max_size,
        }
    }
}
