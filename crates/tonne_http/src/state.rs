//! What every handler reads: `AppState` (the driving ports of each domain, the
//! settings of the API, the hosted pages and the console, the rate limiter, the
//! readiness probe and the metrics), shared by the API and both front ends.

use std::sync::Arc;

use async_trait::async_trait;
use tonne_accounts::AccountsService;
use tonne_accounts::versions::VersionPolicy;
use tonne_estimation::ports::EstimationService;
use tonne_links::{OffsetLinksService, PageKey};
use tonne_ordering::OrderingService;
use tonne_quoted::QuotedEstimatesService;
use tonne_webhooks::WebhooksService;

use crate::metrics::{Metrics, PoolGauge};
use crate::rate_limit::RateLimiter;

/// Default request body limit: 1 MiB.
pub const DEFAULT_BODY_LIMIT: usize = 1024 * 1024;

/// Body limit of `POST /v1/shipments/batches` alone (up to 10,000 rows): 32 MiB.
pub const SHIPMENT_BATCH_BODY_LIMIT: usize = 32 * 1024 * 1024;

/// Settings of the HTTP adapter.
#[derive(Debug, Clone)]
pub struct HttpConfig {
    /// Largest accepted request body, in bytes (413 above).
    pub body_limit_bytes: usize,
    /// Most entries of `POST /v1/estimates/transactions/batch` (400 above).
    pub batch_limit: usize,
    /// Longest a request may take from its head to its answer, body upload
    /// included (503 `service_unavailable` with `Retry-After` after it).
    pub request_timeout: std::time::Duration,
    /// The proxies whose `X-Forwarded-For` names the client
    /// (`TONNE_TRUSTED_PROXIES`; none by default).
    pub trusted_proxies: crate::client_addr::TrustedProxies,
}

/// Default request deadline.
pub const DEFAULT_REQUEST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Default batch bound: the contract's 100.
pub const DEFAULT_BATCH_LIMIT: usize = 100;

impl Default for HttpConfig {
    fn default() -> Self {
        Self {
            body_limit_bytes: DEFAULT_BODY_LIMIT,
            batch_limit: DEFAULT_BATCH_LIMIT,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            trusted_proxies: crate::client_addr::TrustedProxies::default(),
        }
    }
}

/// What `/ready` and `/metrics` ask of the store (the composition root implements it).
#[async_trait]
pub trait Readiness: Send + Sync {
    /// `Ok` when the database answers a trivial query.
    async fn check(&self) -> Result<(), String>;
    /// The pool's current state.
    fn pool(&self) -> PoolGauge;
}

/// Settings of the hosted pages.
#[derive(Clone)]
pub struct PagesConfig {
    /// The absolute base URL of this server as customers reach it (`TONNE_PUBLIC_URL`).
    pub public_url: String,
    /// The key behind visitor hashes, CSRF tokens and analytics URLs.
    pub key: PageKey,
    /// The per-IP limit of the hosted pages.
    pub limiter: Arc<dyn RateLimiter>,
    /// The signing secrets of Stripe's webhook endpoint (`whsec_…`, live and
    /// test); empty: `/stripe/webhook` is not served.
    pub stripe_webhook_secrets: Vec<String>,
    /// How hosted-page card payments are taken in live and in test mode, in
    /// words the console shows beside the link form.
    pub card_payments: CardPaymentsNote,
}

/// How each mode's hosted pages take card payments (the console says it).
#[derive(Debug, Clone, Default)]
pub struct CardPaymentsNote {
    /// Live mode.
    pub live: String,
    /// Test mode.
    pub test: String,
}

impl CardPaymentsNote {
    /// The mode's words.
    pub fn of(&self, mode: tonne_kernel::AccountMode) -> &str {
        match mode {
            tonne_kernel::AccountMode::Live => &self.live,
            tonne_kernel::AccountMode::Test => &self.test,
        }
    }
}

impl PagesConfig {
    /// Whether customers reach this server over https (the public URL says
    /// so): cookies are then `Secure` with the `__Host-` prefix, and every
    /// answer carries `Strict-Transport-Security`.
    pub fn is_https(&self) -> bool {
        self.public_url.starts_with("https://")
    }
}

/// Everything the routes need, shared by every worker.
#[derive(Clone)]
pub struct AppState {
    /// Accounts use cases.
    pub accounts: Arc<dyn AccountsService>,
    /// Catalogue and quotes.
    pub ordering: Arc<dyn OrderingService>,
    /// The estimate use cases.
    pub estimates: Arc<dyn EstimationService>,
    /// An estimate answered with its quote (over `estimates` and `ordering`).
    pub quoted: Arc<dyn QuotedEstimatesService>,
    /// Webhook endpoints.
    pub webhooks: Arc<dyn WebhooksService>,
    /// Offset links and their hosted pages.
    pub links: Arc<dyn OffsetLinksService>,
    /// Analytics and sustainability pages.
    pub impact: Arc<dyn tonne_impact::ImpactService>,
    /// Shipment batches, shipments and their emission calculations.
    pub shipments: Arc<dyn tonne_shipments::ShipmentsService>,
    /// Asynchronous transaction documents (queued, done by the worker).
    pub document_jobs: Arc<dyn tonne_estimation::document_jobs::DocumentJobsService>,
    /// Invoices and the organisations' billing details.
    pub invoices: Arc<dyn tonne_ordering::ports::InvoicingService>,
    /// Bounds per account: organisations' limits and usage (console, CLI).
    pub quotas: Arc<dyn tonne_accounts::quotas::QuotasService>,
    /// Which API version a request runs under (`Lune-Version`).
    pub versions: VersionPolicy,
    /// Hosted pages' settings.
    pub pages: PagesConfig,
    /// Rate limiter.
    pub limiter: Arc<dyn RateLimiter>,
    /// Database readiness.
    pub readiness: Arc<dyn Readiness>,
    /// Prometheus metrics.
    pub metrics: Arc<Metrics>,
    pub config: HttpConfig,
}
