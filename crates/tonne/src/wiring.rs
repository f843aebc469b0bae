//! The domain services wired over one database (the storage adapters), with the
//! database secrets key they need ([`crate::secrets_key`]).

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use tonne_accounts::ports::{AccountRepository, ApiKeyRepository};
use tonne_accounts::versions::{VersionPinRepository, VersionPolicy};
use tonne_accounts::{Accounts, AccountsService};
use tonne_estimation::ports::EstimationService;
use tonne_estimation::service::{Engines, Estimations};
use tonne_http::{PoolGauge, Readiness};
use tonne_kernel::{SystemClock, UuidV7Generator};
use tonne_ordering::{OrderingService, Settings};
use tonne_storage::{
    AccountStore, ApiKeyStore, CachedAccounts, CachedApiKeys, CachedVersionPins, CatalogueStore,
    DatabaseUrl, Db, EstimateStore, Follower, OrderStore, PoolSettings, SecretsKey,
    VersionPinStore, WebhookStore,
};
use tonne_webhooks::WebhooksService;

use crate::secrets_key::secrets_key;

/// The domain services wired over one database.
#[derive(Clone)]
pub struct Services {
    /// The pool.
    pub db: Db,
    /// Accounts use cases.
    pub accounts: Arc<dyn AccountsService>,
    /// Catalogue and quotes.
    pub ordering: Arc<dyn OrderingService>,
    /// The estimate use cases.
    pub estimates: Arc<dyn EstimationService>,
    /// An estimate answered with its quote (over `estimates` and `ordering`).
    pub quoted: Arc<dyn tonne_quoted::QuotedEstimatesService>,
    /// Webhook endpoints.
    pub webhooks: Arc<dyn WebhooksService>,
    /// Webhook storage (the dispatcher's delivery store).
    pub webhook_store: WebhookStore,
    /// Offset links and their hosted checkout.
    pub links: Arc<dyn tonne_links::OffsetLinksService>,
    /// Analytics and sustainability pages.
    pub impact: Arc<dyn tonne_impact::ImpactService>,
    /// The hosted pages' key (visitor hashes, CSRF tokens, analytics URLs):
    /// derived from the secrets key, or random per process without one.
    pub page_key: tonne_links::PageKey,
    /// Whether `page_key` survives restarts and is shared by every process.
    pub page_key_is_stable: bool,
    /// The `Lune-Version` policy over the organisations' pinned versions.
    pub versions: VersionPolicy,
    /// The console's people: users, passwords, sessions.
    pub users: Arc<dyn tonne_accounts::users::UsersService>,
    /// The audit log (read side; entries are written with each change).
    pub audit: Arc<dyn tonne_accounts::audit::AuditLog>,
    /// Shipment batches, shipments and their calculations (and the
    /// background worker's step, `work`).
    pub shipments: Arc<dyn tonne_shipments::ShipmentsService>,
    /// PACT client credentials and their tokens (`/pact`, the CLI).
    pub pact_clients: Arc<dyn tonne_accounts::pact::PactClientsService>,
    /// PACT partners and the requests they sent (`/pact/2/events`, the CLI).
    pub pact_partners: Arc<dyn tonne_accounts::pact::partners::PactPartnersService>,
    /// How answers to PACT requests reach partners (the webhooks' guarded client).
    pub pact_gateway: Arc<dyn tonne_accounts::pact::partners::PartnerGateway>,
    /// Asynchronous transaction documents (and the worker's step, `work`).
    pub document_jobs: Arc<dyn tonne_estimation::document_jobs::DocumentJobsService>,
    /// Bounds per account: organisations' limits and their accounts' usage.
    pub quotas: Arc<dyn tonne_accounts::quotas::QuotasService>,
    /// Invoices and the organisations' billing details (issued with the
    /// terms of [`Services::with_invoice_terms`]; none set: issuing is refused).
    pub invoices: Arc<dyn tonne_ordering::ports::InvoicingService>,
    /// The limits of an organisation that sets none of its own.
    quota_limits: tonne_kernel::Limits,
    /// How long a batch, calculation or document job is held.
    pub(crate) jobs_lease: time::Duration,
}

/// How webhooks are set up.
#[derive(Debug, Clone, Default)]
pub struct WebhookOptions {
    /// `TONNE_SECRETS_KEY` as given (64 hex characters or base64), if set.
    pub secrets_key: Option<String>,
    /// Most webhooks per organisation and mode.
    pub limit: Option<usize>,
    /// `TONNE_WEBHOOKS_ALLOW_PRIVATE` (unsafe: local development and tests).
    pub allow_private: bool,
}

/// What one passenger's one-way economy flight New York (JFK) → London (LHR)
/// emits by Tonne's own flight engine: the unit of a sustainability page's
/// `by_equivalent` description.
pub fn nyc_to_london_flight() -> anyhow::Result<tonne_kernel::Mass> {
    use tonne_estimation::flight::{self, CabinClass, FlightRequest, FlightRoute};
    let estimate = flight::estimate(&FlightRequest {
        route: FlightRoute::Airports {
            source: "JFK".into(),
            destination: "LHR".into(),
        },
        cabin: CabinClass::Economy,
        passengers: rust_decimal::Decimal::ONE,
        aircraft_type: None,
    })
    .map_err(|e| anyhow::anyhow!("the New York–London flight for sustainability pages: {e}"))?;
    Ok(estimate.mass)
}

/// How long a test event waits for the receiver (a person is waiting too).
const TEST_EVENT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a PACT partner has to answer each call (token, then event).
const PACT_ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

impl Services {
    /// Connects, migrates, and wires every service. Blocking work runs off the async workers.
    pub async fn open(
        url: &DatabaseUrl,
        pool: PoolSettings,
        key_cache_ttl: Duration,
        ordering: Settings,
        webhooks: WebhookOptions,
        links: tonne_links::Settings,
        cards: crate::fulfilment::CardProcessors,
    ) -> anyhow::Result<Self> {
        let given = url.clone();
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
        // after the database opened: a bad path fails there, naming the database
        let key = secrets_key(&given, webhooks.secrets_key.as_deref())?;
        let services = Self::wire(
            db,
            key_cache_ttl,
            ordering,
            key.clone(),
            &webhooks,
            links,
            &cards,
        )?;
        if key.is_none() && services.webhook_store.count().await? > 0 {
            anyhow::bail!(
                "webhooks exist but TONNE_SECRETS_KEY is not set: their secrets cannot be read. \
                 Set TONNE_SECRETS_KEY to the key they were sealed with (64 hexadecimal characters or base64 of 32 bytes)"
            );
        }
        Ok(services)
    }

    /// Wires services over an open, migrated database.
    pub fn wire(
        db: Db,
        key_cache_ttl: Duration,
        ordering: Settings,
        secrets: Option<SecretsKey>,
        webhook_options: &WebhookOptions,
        link_settings: tonne_links::Settings,
        cards: &crate::fulfilment::CardProcessors,
    ) -> anyhow::Result<Self> {
        // Keys and their accounts are served from memory for at most the key
        // cache's time to live; on PostgreSQL one listener connection makes
        // every process forget a key revoked or an account changed elsewhere.
        let key_store: Arc<dyn ApiKeyRepository> = Arc::new(ApiKeyStore::new(db.clone()));
        let account_store: Arc<dyn AccountRepository> = Arc::new(AccountStore::new(db.clone()));
        let (keys, account_store): (Arc<dyn ApiKeyRepository>, Arc<dyn AccountRepository>) =
            if key_cache_ttl.is_zero() {
                (key_store, account_store)
            } else {
                let keys = Arc::new(CachedApiKeys::new(key_store, key_cache_ttl, 100_000));
                let accounts = Arc::new(CachedAccounts::new(account_store, key_cache_ttl, 100_000));
                let followers: [Arc<dyn Follower>; 2] = [keys.clone(), accounts.clone()];
                tonne_storage::follow(&db, &followers);
                (keys, accounts)
            };
        let accounts = Arc::new(Accounts::new(
            account_store,
            keys,
            Arc::new(SystemClock),
            Arc::new(UuidV7Generator),
        ));
        let (live, test, card_step) = crate::fulfilment::adapters(cards);
        let ordering = Arc::new(tonne_ordering::Ordering::new(
            Arc::new(CatalogueStore::new(db.clone())),
            Arc::new(OrderStore::new(db.clone())),
            Arc::new(AccountStore::new(db.clone())),
            (live, test),
            Arc::new(SystemClock),
            ordering,
        ));
        let estimates: Arc<dyn EstimationService> = Arc::new(Estimations::new(
            Arc::new(EstimateStore::new(db.clone())),
            Arc::new(Engines),
            Arc::new(SystemClock),
            Arc::new(UuidV7Generator),
        ));
        let quoted: Arc<dyn tonne_quoted::QuotedEstimatesService> = Arc::new(
            tonne_quoted::QuotedEstimates::new(estimates.clone(), ordering.clone()),
        );
        let (page_key, page_key_is_stable) = match &secrets {
            Some(k) => (
                tonne_links::PageKey::new(k.derive("offset-link-pages")),
                true,
            ),
            None => (
                tonne_links::PageKey::new(SecretsKey::generate().derive("offset-link-pages")),
                false,
            ),
        };
        let links: Arc<dyn tonne_links::OffsetLinksService> =
            Arc::new(tonne_links::OffsetLinks::new(
                Arc::new(tonne_storage::OffsetLinkStore::new(db.clone())),
                Arc::new(AccountStore::new(db.clone())),
                ordering.clone(),
                card_step,
                Arc::new(SystemClock),
                Arc::new(UuidV7Generator),
                link_settings,
            ));
        let impact: Arc<dyn tonne_impact::ImpactService> = Arc::new(tonne_impact::Impact::new(
            Arc::new(tonne_storage::ImpactStore::new(db.clone())),
            Arc::new(AccountStore::new(db.clone())),
            Arc::new(CatalogueStore::new(db.clone())),
            Arc::new(SystemClock),
            nyc_to_london_flight()?,
        ));
        let webhook_store = WebhookStore::new(db.clone(), secrets.clone());
        let targets = tonne_webhooks::TargetPolicy {
            allow_private: webhook_options.allow_private,
        };
        let webhooks = Arc::new(tonne_webhooks::Webhooks::new(
            Arc::new(webhook_store.clone()),
            Arc::new(AccountStore::new(db.clone())),
            Arc::new(tonne_dispatcher::SystemResolver {
                timeout: Duration::from_secs(3),
            }),
            // test events from the console: a person waits for the answer
            tonne_webhooks::Outbound {
                sender: Arc::new(tonne_dispatcher::HttpSender::new(
                    TEST_EVENT_TIMEOUT,
                    targets,
                )?),
                encoder: Arc::new(tonne_dispatcher::JsonEncoder),
            },
            Arc::new(SystemClock),
            Arc::new(UuidV7Generator),
            tonne_webhooks::Settings {
                limit: webhook_options
                    .limit
                    .unwrap_or(tonne_webhooks::DEFAULT_WEBHOOK_LIMIT),
                targets,
            },
        ));
        let pins: Arc<dyn VersionPinRepository> = Arc::new(VersionPinStore::new(db.clone()));
        let versions = VersionPolicy::new(if key_cache_ttl.is_zero() {
            pins
        } else {
            Arc::new(CachedVersionPins::new(pins, key_cache_ttl))
        });
        // parse the airport, seaport and sea-network tables now, not on the first request
        tonne_estimation::places::preload();
        let users: Arc<dyn tonne_accounts::users::UsersService> =
            Arc::new(tonne_accounts::users::Users::new(
                Arc::new(tonne_storage::UserStore::new(db.clone())),
                tonne_accounts::users::PasswordHasher::default(),
                tonne_accounts::users::SessionPolicy::default(),
                Arc::new(SystemClock),
                Arc::new(UuidV7Generator),
            ));
        let audit: Arc<dyn tonne_accounts::audit::AuditLog> =
            Arc::new(tonne_accounts::audit::AuditTrail::new(Arc::new(
                tonne_storage::AuditStore::new(db.clone()),
            )));
        let pact_clients: Arc<dyn tonne_accounts::pact::PactClientsService> =
            Arc::new(tonne_accounts::pact::PactClients::new(
                Arc::new(tonne_storage::PactClientStore::new(db.clone())),
                Arc::new(AccountStore::new(db.clone())),
                Arc::new(SystemClock),
                Arc::new(UuidV7Generator),
            ));
        let pact_partners: Arc<dyn tonne_accounts::pact::partners::PactPartnersService> =
            Arc::new(tonne_accounts::pact::partners::PactPartners::new(
                Arc::new(tonne_storage::PactPartnerStore::new(db.clone(), secrets)),
                Arc::new(AccountStore::new(db.clone())),
                Arc::new(SystemClock),
                Arc::new(UuidV7Generator),
                targets,
            ));
        let pact_gateway = Arc::new(tonne_dispatcher::PactGateway::new(
            PACT_ANSWER_TIMEOUT,
            targets,
        )?);
        let invoices = invoicing_over(&db, ordering.clone(), InvoiceTerms::default());
        let quota_limits = tonne_kernel::Limits::DEFAULT;
        let shipments = shipments_over(&db, tonne_shipments::LEASE, quota_limits);
        let document_jobs = document_jobs_over(&db, quota_limits);
        Ok(Self {
            quotas: quotas_over(&db, quota_limits),
            quota_limits,
            jobs_lease: tonne_shipments::LEASE,
            document_jobs,
            versions,
            users,
            audit,
            shipments,
            pact_clients,
            pact_partners,
            pact_gateway,
            db,
            accounts,
            ordering,
            estimates,
            quoted,
            webhooks,
            webhook_store,
            links,
            impact,
            page_key,
            page_key_is_stable,
            invoices,
        })
    }

    /// The same services issuing invoices with these terms.
    pub fn with_invoice_terms(mut self, terms: InvoiceTerms) -> Self {
        self.invoices = invoicing_over(&self.db, self.ordering.clone(), terms);
        self
    }
}

/// Who sells, as invoices print it, and the tax rate they apply
/// (`TONNE_INVOICE_*`).
#[derive(Debug, Clone, Default)]
pub struct InvoiceTerms {
    /// The seller (its name empty: not configured).
    pub seller: tonne_ordering::invoices::Party,
    /// The tax rate (0 by default).
    pub tax_rate: tonne_ordering::invoices::TaxRate,
}

fn invoicing_over(
    db: &Db,
    ordering: Arc<dyn OrderingService>,
    terms: InvoiceTerms,
) -> Arc<dyn tonne_ordering::ports::InvoicingService> {
    Arc::new(tonne_ordering::Invoicing::new(
        Arc::new(tonne_storage::InvoiceStore::new(db.clone())),
        ordering,
        Arc::new(SystemClock),
        terms.seller,
        terms.tax_rate,
    ))
}

/// The shipments use cases over the database: rows decoded as the client
/// 3.9.2 `CreateShipmentRequest`, jobs held under `lease`.
fn shipments_over(
    db: &Db,
    lease: time::Duration,
    limits: tonne_kernel::Limits,
) -> Arc<dyn tonne_shipments::ShipmentsService> {
    let store = Arc::new(tonne_storage::ShipmentStore::new(db.clone()));
    Arc::new(
        tonne_shipments::Shipments::new(
            store.clone(),
            Arc::new(tonne_wire::shipments::JsonRowDecoder),
            Arc::new(SystemClock),
            Arc::new(UuidV7Generator),
        )
        .with_lease(lease)
        .with_quotas(store, limits),
    )
}

/// Organisations' limits (over `defaults`) and usage.
fn quotas_over(
    db: &Db,
    defaults: tonne_kernel::Limits,
) -> Arc<dyn tonne_accounts::quotas::QuotasService> {
    Arc::new(tonne_accounts::quotas::Quotas::new(
        Arc::new(tonne_storage::QuotaStore::new(db.clone())),
        defaults,
        Arc::new(SystemClock),
    ))
}

impl Services {
    /// The same services with the shipments jobs held under another lease
    /// (how long after a worker died another takes its batch over).
    #[must_use]
    pub fn with_shipments_lease(mut self, lease: Duration) -> Self {
        let lease = time::Duration::try_from(lease).unwrap_or(tonne_shipments::LEASE);
        self.jobs_lease = lease;
        self.shipments = shipments_over(&self.db, lease, self.quota_limits);
        self.document_jobs = document_jobs_over(&self.db, self.quota_limits);
        self
    }

    /// The same services with other default limits per account (an
    /// organisation's own limits, set by operators, still win).
    #[must_use]
    pub fn with_quotas(mut self, limits: tonne_kernel::Limits) -> Self {
        self.quota_limits = limits;
        self.quotas = quotas_over(&self.db, limits);
        self.shipments = shipments_over(&self.db, self.jobs_lease, limits);
        self.document_jobs = document_jobs_over(&self.db, limits);
        self
    }
}

/// The asynchronous transaction documents over the database: requests read
/// again as the HTTP route accepted them.
fn document_jobs_over(
    db: &Db,
    limits: tonne_kernel::Limits,
) -> Arc<dyn tonne_estimation::document_jobs::DocumentJobsService> {
    let store = Arc::new(tonne_storage::DocumentJobStore::new(db.clone()));
    Arc::new(
        tonne_estimation::document_jobs::DocumentJobs::new(
            store.clone(),
            Arc::new(tonne_estimation::service::Engines),
            Arc::new(tonne_http::routes::estimates::transaction_documents::create_async::JsonDocumentDecoder),
            Arc::new(SystemClock),
            Arc::new(UuidV7Generator),
        )
        .with_quotas(store, limits),
    )
}

/// `/ready` and pool metrics over the pool.
/// Ready when the database answers and the server is not draining (after a
/// stop signal `/ready` answers 503 so that a load balancer stops sending new
/// requests while in-flight ones finish).
pub(crate) struct DbReadiness {
    pub db: Db,
    pub draining: Arc<std::sync::atomic::AtomicBool>,
}

#[async_trait]
impl Readiness for DbReadiness {
    async fn check(&self) -> Result<(), String> {
        if self.draining.load(std::sync::atomic::Ordering::Acquire) {
            return Err("draining: the server is shutting down".into());
        }
        self.db
            .ping()
            .await
            .map_err(|e| format!("database unreachable: {e}"))
    }

    fn pool(&self) -> PoolGauge {
        let s = self.db.status();
        PoolGauge {
            connections: s.connections,
            idle: s.idle,
            max_size: s.max_size,
        }
    }
}
