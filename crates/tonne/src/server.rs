//! The HTTP server: its options ([`ServeOptions`]), the wiring of the state
//! the application runs over, and the listeners of the whole application
//! ([`crate::app`]) and of the operator's metrics.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use actix_web::HttpServer;
use actix_web::dev::{Server, ServerHandle};
use tonne_accounts::Bootstrapped;
use tonne_http::metrics::Metrics;
use tonne_http::rate_limit::{
    InProcessRateLimiter, RateLimiter, RatePolicy, RedisRateLimiter, SWEEP_EVERY,
};
use tonne_http::{AppState, HttpConfig};
use tonne_storage::{DatabaseUrl, PoolSettings};

use crate::wiring::{DbReadiness, Services};

/// Everything `serve` needs.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// The database.
    pub database_url: DatabaseUrl,
    /// Address to listen on (`127.0.0.1:0` picks a free port).
    pub bind: String,
    /// Where `/metrics` and `/health` are served, apart from the public
    /// address (default loopback `127.0.0.1:9464`); `None` serves no metrics.
    pub metrics_bind: Option<String>,
    /// Rate limit per API key (or client IP).
    pub rate: RatePolicy,
    /// Largest request body in bytes.
    pub body_limit_bytes: usize,
    /// Most entries of a batch transaction estimate.
    pub batch_limit: usize,
    /// How long an API key lookup is cached (0 disables the cache). Bounds how long
    /// a key revoked by another process keeps working.
    pub key_cache_ttl: Duration,
    /// Database pool size.
    pub pool_size: u32,
    /// Longest a request waits for a pooled connection before it answers 503.
    pub pool_timeout: Duration,
    /// Longest a request may take, body upload included (503 after it).
    pub request_timeout: Duration,
    /// Longest a client may take to send a request's head (408 and the
    /// connection closed after it).
    pub header_timeout: Duration,
    /// HTTP worker threads (None: one per core).
    pub workers: Option<usize>,
    /// How long in-flight requests may finish after a stop signal.
    pub shutdown_timeout: Duration,
    /// After a stop signal, how long `/ready` answers 503 while the server still
    /// serves, so that a load balancer's health check takes it out first.
    pub drain: Duration,
    /// Create and print a demo organisation when the database has none, and load the
    /// demo catalogue when the catalogue is empty.
    pub create_demo: bool,
    /// Commission rate and default quantity truncation.
    pub ordering: tonne_ordering::Settings,
    /// The card processors connected per mode (Stripe), if any.
    pub cards: crate::fulfilment::CardProcessors,
    /// The seller and tax rate invoices are issued with.
    pub invoice_terms: crate::wiring::InvoiceTerms,
    /// Test-mode orders move one status forward after this long in a status.
    pub test_order_step: Duration,
    /// Webhook settings (secrets key, limit, private targets).
    pub webhooks: crate::wiring::WebhookOptions,
    /// The dispatcher run inside the server; `None` with `--no-dispatcher`.
    pub dispatcher: Option<tonne_dispatcher::DispatcherConfig>,
    /// The absolute base URL customers reach this server at (`TONNE_PUBLIC_URL`);
    /// `None`: `http://` and the address it listens on (127.0.0.1 for 0.0.0.0).
    pub public_url: Option<String>,
    /// Proxies whose `X-Forwarded-For` names the client (`TONNE_TRUSTED_PROXIES`; none by default).
    pub trusted_proxies: tonne_http::client_addr::TrustedProxies,
    /// Bounds of hosted-page orders.
    pub links: tonne_links::Settings,
    /// Per-IP rate limit of the hosted pages.
    pub page_rate: RatePolicy,
    /// Redis holding the rate limits' state, shared by every server process
    /// (`TONNE_REDIS_URL`); `None`: each process limits on its own.
    pub redis_url: Option<String>,
    /// Prefix of every Redis key (`TONNE_REDIS_PREFIX`, default `tonne:`), so
    /// that several deployments can share one Redis.
    pub redis_prefix: String,
    /// How long a job worker holds a job (a batch, a calculation, a document) without
    /// renewing it: after a crash, another process takes it over after this.
    pub shipments_lease: Duration,
    /// When a failed background job is retried, and when it is given up
    /// (`TONNE_JOBS_MAX_ATTEMPTS`, `TONNE_JOBS_RETRY_MS`).
    pub job_retry: tonne_jobs::RetryPolicy,
    /// Job worker loops in this process (`TONNE_JOB_WORKERS`).
    pub job_workers: usize,
    /// The limits per account of an organisation that sets none of its own
    /// (`TONNE_QUOTA_*`).
    pub quotas: tonne_kernel::Limits,
}

impl ServeOptions {
    /// Defaults for a database URL: `127.0.0.1:8080`, 15 req/s with burst 15, 1 MiB bodies,
    /// keys cached 5 s, [`default_pool_size`] connections, 30 s graceful shutdown, demo
    /// organisation on first start.
    pub fn new(database_url: DatabaseUrl) -> Self {
        Self {
            database_url,
            bind: "127.0.0.1:8080".into(),
            metrics_bind: Some("127.0.0.1:9464".into()),
            rate: RatePolicy {
                per_second: 15,
                burst: 15,
            },
            body_limit_bytes: tonne_http::DEFAULT_BODY_LIMIT,
            batch_limit: tonne_http::DEFAULT_BATCH_LIMIT,
            key_cache_ttl: Duration::from_secs(5),
            pool_size: default_pool_size(),
            pool_timeout: Duration::from_secs(5),
            request_timeout: tonne_http::DEFAULT_REQUEST_TIMEOUT,
            header_timeout: Duration::from_secs(5),
            workers: None,
            shutdown_timeout: Duration::from_secs(30),
            drain: Duration::ZERO,
            create_demo: true,
            ordering: tonne_ordering::Settings::default(),
            cards: crate::fulfilment::CardProcessors::default(),
            invoice_terms: crate::wiring::InvoiceTerms::default(),
            test_order_step: Duration::from_secs(5),
            webhooks: crate::wiring::WebhookOptions::default(),
            dispatcher: Some(tonne_dispatcher::DispatcherConfig::default()),
            public_url: None,
            trusted_proxies: tonne_http::client_addr::TrustedProxies::default(),
            links: tonne_links::Settings::default(),
            page_rate: RatePolicy {
                per_second: 5,
                burst: 30,
            },
            redis_url: None,
            redis_prefix: "tonne:".into(),
            shipments_lease: SHIPMENTS_LEASE,
            job_retry: tonne_jobs::RetryPolicy::default(),
            job_workers: 2,
            quotas: tonne_kernel::Limits::DEFAULT,
        }
    }
}

/// The default lease of the shipments jobs.
pub const SHIPMENTS_LEASE: Duration = Duration::from_secs(60);

/// Twice the number of cores: more connections than the machine can serve at once
/// only add queueing inside the database (measured in `docs/performance.md`: on
/// 2 cores, 16 connections gave a p99 of 160 ms where 4 gave 3.7 ms).
pub fn default_pool_size() -> u32 {
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
    u32::try_from(cores.saturating_mul(2))
        .unwrap_or(u32::MAX)
        .max(2)
}

/// A started server.
pub struct Running {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Where `/metrics` is served, if anywhere.
    pub metrics_addr: Option<SocketAddr>,
    /// Stops the metrics listener (after the server).
    pub metrics_handle: Option<ServerHandle>,
    /// Stops it (gracefully with `stop(true)`).
    pub handle: ServerHandle,
    /// The server future: await it to serve until stopped.
    pub server: Server,
    /// The demo organisation, when this start created one.
    pub demo: Option<Bootstrapped>,
    /// The demo catalogue, when this start loaded it.
    pub demo_catalogue: Option<tonne_ordering::ports::ImportSummary>,
    /// The first operator, when this start created the demo organisation and
    /// the installation had no console user: the email and the one-time link
    /// (valid 24 hours) to choose its password.
    pub first_operator: Option<(String, String)>,
    /// The wired services (tests use them to seed data).
    pub services: Services,
    /// Stops the in-process dispatcher (send `true`); `None` without one.
    pub dispatcher_stop: Option<tokio::sync::watch::Sender<bool>>,
    /// The in-process dispatcher's task, to await after stopping it.
    pub dispatcher_task: Option<tokio::task::JoinHandle<()>>,
    /// Stops the job workers (send `true`).
    pub shipments_stop: tokio::sync::watch::Sender<bool>,
    /// The job workers' task, to await after stopping them.
    pub shipments_task: tokio::task::JoinHandle<()>,
    /// Set it to make `/ready` answer 503 (draining before a stop).
    pub draining: Arc<std::sync::atomic::AtomicBool>,
}

/// Opens the database (migrating it), creates the demo organisation if asked and
/// the database is empty, binds, and returns the server ready to be awaited.
pub async fn start(options: ServeOptions) -> anyhow::Result<Running> {
    let pool = PoolSettings {
        max_size: options.pool_size,
        connection_timeout: options.pool_timeout,
    };
    let services = Services::open(
        &options.database_url,
        pool,
        options.key_cache_ttl,
        options.ordering,
        options.webhooks.clone(),
        options.links,
        options.cards.clone(),
    )
    .await?
    .with_shipments_lease(options.shipments_lease)
    .with_quotas(options.quotas)
    .with_invoice_terms(options.invoice_terms.clone());
    let demo_catalogue = if options.create_demo {
        load_demo_catalogue_if_empty(&services).await?
    } else {
        None
    };
    let demo = if options.create_demo && !services_have_organisations(&services).await? {
        Some(
            services
                .accounts
                .bootstrap("Demo organisation", &tonne_kernel::Actor::CommandLine)
                .await?,
        )
    } else {
        None
    };
    let first_operator = match &demo {
        Some(_) => first_operator(&services).await?,
        None => None,
    };
    let metrics = Arc::new(Metrics::new()?);
    let (limiter, page_limiter) = rate_limiters(&options, &metrics).await?;
    let (dispatcher_stop, dispatcher_task) = match options.dispatcher.clone() {
        Some(config) => {
            let dispatch_metrics = tonne_dispatcher::DispatchMetrics::new(metrics.registry())?;
            let dispatcher = tonne_dispatcher::Dispatcher::new(
                Arc::new(services.webhook_store.clone()),
                config,
                dispatch_metrics,
            )?;
            let (stop, stopped) = tokio::sync::watch::channel(false);
            (Some(stop), Some(tokio::spawn(dispatcher.run(stopped))))
        }
        None => (None, None),
    };
    let listener = std::net::TcpListener::bind(&options.bind)
        .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", options.bind))?;
    let addr = listener.local_addr()?;
    let public_url = options
        .public_url
        .clone()
        .map(|u| u.trim_end_matches('/').to_owned())
        .unwrap_or_else(|| {
            let host = if addr.ip().is_unspecified() {
                std::net::IpAddr::from([127, 0, 0, 1])
            } else {
                addr.ip()
            };
            format!("http://{}", SocketAddr::new(host, addr.port()))
        });
    if !services.page_key_is_stable {
        tracing::warn!(
            "TONNE_SECRETS_KEY is not set: the hosted pages' key is random for this process, \
             so analytics URLs and open forms do not survive a restart or reach another process"
        );
    }
    let first_operator = first_operator.map(|(email, token)| {
        (
            email,
            format!("{public_url}/console/setup/{}", token.expose()),
        )
    });
    let draining = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let state = AppState {
        accounts: Arc::clone(&services.accounts),
        ordering: Arc::clone(&services.ordering),
        estimates: services.estimates.clone(),
        quoted: Arc::clone(&services.quoted),
        webhooks: Arc::clone(&services.webhooks),
        links: Arc::clone(&services.links),
        impact: Arc::clone(&services.impact),
        shipments: Arc::clone(&services.shipments),
        document_jobs: Arc::clone(&services.document_jobs),
        quotas: Arc::clone(&services.quotas),
        invoices: Arc::clone(&services.invoices),
        versions: services.versions.clone(),
        pages: tonne_http::PagesConfig {
            public_url,
            key: services.page_key.clone(),
            limiter: Arc::clone(&page_limiter),
            stripe_webhook_secrets: options.cards.webhook_secrets.clone(),
            card_payments: tonne_http::CardPaymentsNote {
                live: options
                    .cards
                    .describe(tonne_kernel::AccountMode::Live)
                    .to_owned(),
                test: options
                    .cards
                    .describe(tonne_kernel::AccountMode::Test)
                    .to_owned(),
            },
        },
        limiter: Arc::clone(&limiter),
        readiness: Arc::new(DbReadiness {
            db: services.db.clone(),
            draining: Arc::clone(&draining),
        }),
        metrics,
        config: HttpConfig {
            body_limit_bytes: options.body_limit_bytes,
            batch_limit: options.batch_limit,
            request_timeout: options.request_timeout,
            trusted_proxies: options.trusted_proxies.clone(),
        },
    };
    let (metrics_addr, metrics_handle) = match &options.metrics_bind {
        Some(bind) => {
            let listener = std::net::TcpListener::bind(bind)
                .map_err(|e| anyhow::anyhow!("cannot listen on {bind} for metrics: {e}"))?;
            let metrics_addr = listener.local_addr()?;
            let metrics_state = state.clone();
            let metrics = HttpServer::new(move || tonne_http::metrics_app(metrics_state.clone()))
                .listen(listener)?
                .disable_signals()
                .workers(1)
                .shutdown_timeout(1)
                .run();
            let handle = metrics.handle();
            tokio::spawn(metrics);
            (Some(metrics_addr), Some(handle))
        }
        None => (None, None),
    };
    let pact = tonne_pact::PactState {
        clients: Arc::clone(&services.pact_clients),
        partners: Arc::clone(&services.pact_partners),
        shipments: Arc::clone(&services.shipments),
        public_url: state.pages.public_url.clone(),
    };
    let answers_source = pact.public_url.clone();
    let console = tonne_console::ConsoleState {
        api: state.clone(),
        users: Arc::clone(&services.users),
        audit: Arc::clone(&services.audit),
    };
    let mut server =
        HttpServer::new(move || crate::app(state.clone(), pact.clone(), console.clone()))
            .listen(listener)?
            .disable_signals()
            .client_request_timeout(options.header_timeout)
            .shutdown_timeout(options.shutdown_timeout.as_secs());
    if let Some(workers) = options.workers {
        server = server.workers(workers.max(1));
    }
    let server = server.run();
    let handle = server.handle();
    // the sweeps (test-order pipeline, link-order expiry) are recurring
    // system jobs: one row each, shared by every process
    crate::jobs::ensure_sweeps(&services).await?;
    let sweeps = crate::jobs::Sweeps {
        test_order_step: options.test_order_step,
        link_hold: options.links.hold,
    };
    let (shipments_stop, stopped) = tokio::sync::watch::channel(false);
    let shipments_task = crate::jobs::spawn(
        crate::jobs::engine(&services, options.job_retry, sweeps, &answers_source),
        options.job_workers,
        stopped,
    );
    // The rate limiters' sweep stays a timer: it forgets this process's own
    // idle buckets (memory of this process, not work shared through the
    // database), so every process must run its own.
    tokio::spawn(async move {
        let mut every = tokio::time::interval(SWEEP_EVERY);
        loop {
            every.tick().await;
            limiter.sweep();
            page_limiter.sweep();
        }
    });
    Ok(Running {
        addr,
        metrics_addr,
        metrics_handle,
        handle,
        server,
        demo,
        demo_catalogue,
        first_operator,
        services,
        dispatcher_stop,
        dispatcher_task,
        shipments_stop,
        shipments_task,
        draining,
    })
}

/// The API's and the hosted pages' limiters: in Redis when configured (one
/// budget across processes), else in this process.
async fn rate_limiters(
    options: &ServeOptions,
    metrics: &Metrics,
) -> anyhow::Result<(Arc<dyn RateLimiter>, Arc<dyn RateLimiter>)> {
    Ok(match &options.redis_url {
        Some(url) => {
            let failures = RedisRateLimiter::failure_counter(metrics.registry())?;
            let prefix = format!("{}rl:", options.redis_prefix);
            let api = RedisRateLimiter::new(url, options.rate, failures.clone())?
                .with_prefix(prefix.clone());
            match api.probe().await {
                Ok(()) => tracing::info!("rate limits are shared through Redis"),
                Err(reason) => tracing::warn!(
                    "Redis at {} does not answer ({reason}); requests are allowed without rate limits until it does",
                    tonne_storage::hide_password(url, "***")
                ),
            }
            (
                Arc::new(api),
                Arc::new(
                    RedisRateLimiter::new(url, options.page_rate, failures)?.with_prefix(prefix),
                ),
            )
        }
        None => (
            Arc::new(InProcessRateLimiter::new(options.rate)),
            Arc::new(InProcessRateLimiter::new(options.page_rate)),
        ),
    })
}

/// Imports the shipped demo catalogue into an empty catalogue; says what it loaded.
pub async fn load_demo_catalogue_if_empty(
    services: &Services,
) -> anyhow::Result<Option<tonne_ordering::ports::ImportSummary>> {
    use tonne_ordering::ports::CatalogueRepository as _;
    let store = tonne_storage::CatalogueStore::new(services.db.clone());
    if store.is_empty().await? {
        let catalogue = crate::catalogue_file::parse(
            crate::catalogue_file::DEMO,
            time::OffsetDateTime::now_utc(),
        )?;
        let summary = services
            .ordering
            .import_catalogue(catalogue, &tonne_kernel::Actor::CommandLine)
            .await?;
        tracing::info!(
            bundles = summary.bundles_created,
            projects = summary.projects_created,
            "loaded the demo catalogue"
        );
        return Ok(Some(summary));
    }
    Ok(None)
}

/// The email the first operator is created with on a first start.
pub const FIRST_OPERATOR_EMAIL: &str = "operator@tonne.localhost";

/// Creates the first operator (no password: a one-time setup link) when the
/// installation has no console user yet; answers its email and setup token.
async fn first_operator(
    services: &Services,
) -> anyhow::Result<Option<(String, tonne_accounts::users::SetupToken)>> {
    use tonne_accounts::users::{NewUser, Role};
    if !services.users.list().await?.is_empty() {
        return Ok(None);
    }
    let created = services
        .users
        .create(
            NewUser {
                email: FIRST_OPERATOR_EMAIL.parse()?,
                role: Role::Operator,
            },
            None,
            &tonne_kernel::Actor::CommandLine,
        )
        .await?;
    Ok(created
        .setup_token
        .map(|token| (created.user.email.to_string(), token)))
}

async fn services_have_organisations(services: &Services) -> anyhow::Result<bool> {
    // The accounts service has no "count" use case; ask the repository port directly.
    use tonne_accounts::ports::AccountRepository as _;
    let store = tonne_storage::AccountStore::new(services.db.clone());
    Ok(store.any_organisation().await?)
}
