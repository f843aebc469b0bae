//! `tonne serve` (and `tonne` alone): its settings, turned into the server's
//! `ServeOptions` by one conversion, and the process's life (start, signals, drain).

use std::time::Duration;

use clap::Args;
use tonne_http::rate_limit::RatePolicy;
use tonne_storage::DatabaseUrl;

use crate::server::{self, ServeOptions};

/// Webhook delivery settings (`tonne serve` and `tonne dispatch`).
#[derive(Debug, Clone, Args)]
pub(super) struct WebhookArgs {
    /// UNSAFE, for local development and tests: accept http:// and loopback, private and
    /// link-local webhook targets.
    #[arg(long, env = "TONNE_WEBHOOKS_ALLOW_PRIVATE", default_value_t = false, action = clap::ArgAction::Set, num_args = 0..=1, default_missing_value = "true")]
    webhooks_allow_private: bool,
    /// Most webhooks per organisation and mode.
    #[arg(long, env = "TONNE_WEBHOOK_LIMIT", default_value_t = tonne_webhooks::DEFAULT_WEBHOOK_LIMIT)]
    webhook_limit: usize,
    /// Most events per webhook request.
    #[arg(long, env = "TONNE_WEBHOOK_BATCH_SIZE", default_value_t = 10)]
    webhook_batch_size: usize,
    /// Seconds a receiver has to answer with a 2xx.
    #[arg(long, env = "TONNE_WEBHOOK_TIMEOUT_SECONDS", default_value_t = 30)]
    webhook_timeout_seconds: u64,
    /// Seconds a dispatcher holds a stream without renewing it (must exceed the timeout by 5 s).
    #[arg(long, env = "TONNE_WEBHOOK_LEASE_SECONDS", default_value_t = 60)]
    webhook_lease_seconds: u64,
    /// Delays before the 2nd, 3rd, … attempt, comma-separated seconds (default: about three days).
    #[arg(long, env = "TONNE_WEBHOOK_RETRY_SCHEDULE", value_parser = super::checks::retry_schedule)]
    webhook_retry_schedule: Option<tonne_webhooks::RetrySchedule>,
    /// Streams one dispatcher delivers at once.
    #[arg(long, env = "TONNE_WEBHOOK_CONCURRENCY", default_value_t = 64)]
    webhook_concurrency: usize,
    /// Milliseconds between looks for due streams when idle.
    #[arg(long, env = "TONNE_WEBHOOK_POLL_MS", default_value_t = 100)]
    webhook_poll_ms: u64,
}

impl WebhookArgs {
    pub(super) fn dispatcher(&self) -> anyhow::Result<tonne_dispatcher::DispatcherConfig> {
        let schedule = self
            .webhook_retry_schedule
            .clone()
            .unwrap_or_else(tonne_webhooks::RetrySchedule::standard);
        let config = tonne_dispatcher::DispatcherConfig {
            batch_size: self.webhook_batch_size,
            timeout: Duration::from_secs(self.webhook_timeout_seconds),
            lease: Duration::from_secs(self.webhook_lease_seconds),
            schedule,
            targets: tonne_webhooks::TargetPolicy {
                allow_private: self.webhooks_allow_private,
            },
            concurrency: self.webhook_concurrency,
            poll_interval: Duration::from_millis(self.webhook_poll_ms.max(10)),
            ..tonne_dispatcher::DispatcherConfig::default()
        };
        config.validate()?;
        Ok(config)
    }

    pub(super) fn options(&self, secrets_key: Option<String>) -> crate::wiring::WebhookOptions {
        crate::wiring::WebhookOptions {
            secrets_key,
            limit: Some(self.webhook_limit),
            allow_private: self.webhooks_allow_private,
        }
    }
}

#[derive(Debug, Args)]
pub(super) struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "TONNE_BIND", default_value = "127.0.0.1:8080")]
    bind: String,
    /// Serve `/metrics` (Prometheus) and `/health` on this separate address,
    /// never on the public one (`off` serves no metrics).
    #[arg(long, env = "TONNE_METRICS_BIND", default_value = "127.0.0.1:9464")]
    metrics_bind: String,
    /// Sustained requests per second per API key (per client IP without a valid key).
    #[arg(long, env = "TONNE_RATE_LIMIT_PER_SECOND", default_value_t = 15)]
    rate_limit_per_second: u32,
    /// Burst size of the rate limit.
    #[arg(long, env = "TONNE_RATE_LIMIT_BURST", default_value_t = 15)]
    rate_limit_burst: u32,
    /// Largest request body in bytes (413 above).
    #[arg(long, env = "TONNE_BODY_LIMIT_BYTES", default_value_t = tonne_http::DEFAULT_BODY_LIMIT)]
    body_limit_bytes: usize,
    /// Most entries of one `POST /v1/estimates/transactions/batch` (400 above).
    #[arg(long, env = "TONNE_BATCH_LIMIT", default_value_t = tonne_http::DEFAULT_BATCH_LIMIT)]
    batch_limit: usize,
    /// Seconds an API key and its account are cached; a key revoked (an account changed) elsewhere works at most this long unannounced. 0 disables.
    #[arg(long, env = "TONNE_KEY_CACHE_TTL_SECONDS", default_value_t = 5)]
    key_cache_ttl_seconds: u64,
    /// Database connections in the pool (default: twice the number of cores).
    #[arg(long, env = "TONNE_DB_POOL_SIZE")]
    pool_size: Option<u32>,
    /// Redis holding the rate limits, shared by every server process
    /// (`redis://127.0.0.1:6379`). Without it each process limits on its own.
    #[arg(long, env = "TONNE_REDIS_URL")]
    redis_url: Option<String>,
    /// Prefix of every Redis key, so that several deployments can share one Redis.
    #[arg(long, env = "TONNE_REDIS_PREFIX", default_value = "tonne:")]
    redis_prefix: String,
    /// Milliseconds a request waits for a pooled database connection before it
    /// answers 503 with `Retry-After`.
    #[arg(long, env = "TONNE_DB_POOL_TIMEOUT_MS", default_value_t = 5000)]
    pool_timeout_ms: u64,
    /// Seconds a request may take from its head to its answer, body upload
    /// included (503 with `Retry-After` after it).
    #[arg(long, env = "TONNE_REQUEST_TIMEOUT_SECONDS", default_value_t = 30)]
    request_timeout_seconds: u64,
    /// Proxies whose X-Forwarded-For names the client (rate limits, sign-in budgets,
    /// visitor counts): comma-separated addresses or CIDRs, like the load balancer's. Empty:
    /// no proxy is trusted, X-Forwarded-For is ignored and the connection's peer is the client.
    #[arg(long, env = "TONNE_TRUSTED_PROXIES", default_value = "", value_parser = super::checks::trusted_proxies)]
    trusted_proxies: tonne_http::client_addr::TrustedProxies,
    /// Milliseconds a client may take to send a request's head (408 after it).
    #[arg(long, env = "TONNE_HEADER_TIMEOUT_MS", default_value_t = 5000)]
    header_timeout_ms: u64,
    /// HTTP worker threads (default: one per core).
    #[arg(long, env = "TONNE_WORKERS")]
    workers: Option<usize>,
    /// Seconds in-flight requests get to finish after SIGTERM/SIGINT.
    #[arg(long, env = "TONNE_SHUTDOWN_TIMEOUT_SECONDS", default_value_t = 30)]
    shutdown_timeout_seconds: u64,
    /// Seconds `/ready` answers 503 after SIGTERM/SIGINT while the server still
    /// serves, before it stops accepting (set it above the load balancer's
    /// health-check interval × fall count).
    #[arg(long, env = "TONNE_DRAIN_SECONDS", default_value_t = 0)]
    drain_seconds: u64,
    /// Do not create a demo organisation on an empty database.
    #[arg(long, env = "TONNE_NO_DEMO")]
    no_demo: bool,
    /// Seconds the job worker holds a job (a shipment batch, a calculation, a
    /// transaction document) without renewing it: after a crash another
    /// process takes the job over after this, counting an attempt.
    #[arg(long, env = "TONNE_SHIPMENTS_LEASE_SECONDS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    shipments_lease_seconds: u64,
    /// Failed attempts after which a background job is given up (a batch
    /// ends processed with its `batch_error`).
    #[arg(long, env = "TONNE_JOBS_MAX_ATTEMPTS", default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100))]
    jobs_max_attempts: u32,
    /// Milliseconds a failed job waits before its first retry; the wait
    /// doubles with each further failure, up to five minutes.
    #[arg(long, env = "TONNE_JOBS_RETRY_MS", default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=300_000))]
    jobs_retry_ms: u64,
    /// Job worker loops in each server process: while one computes a step,
    /// another waits on the database.
    #[arg(long, env = "TONNE_JOB_WORKERS", default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=16))]
    job_workers: u16,
    /// Seconds a test-mode order waits in each status before moving on.
    #[arg(long, env = "TONNE_TEST_ORDER_STEP_SECONDS", default_value_t = 5)]
    test_order_step_seconds: u64,
    /// Commission on the offset cost, as a fraction (0.10 = 10 %).
    #[arg(long, env = "TONNE_COMMISSION_RATE", default_value = "0.10", value_parser = super::checks::commission_rate)]
    commission_rate: tonne_ordering::pricing::CommissionRate,
    /// Do not run a webhook dispatcher inside the server (run `tonne dispatch` instead;
    /// PostgreSQL only — on SQLite the server's own dispatcher is the only one).
    #[arg(long, env = "TONNE_NO_DISPATCHER")]
    no_dispatcher: bool,
    #[command(flatten)]
    webhooks: WebhookArgs,
    #[command(flatten)]
    links: LinkArgs,
    #[command(flatten)]
    quotas: QuotaArgs,
}

/// The limits per account of an organisation that sets none of its own
/// (docs/operations.md, "Quotas"; operators override them per organisation).
#[derive(Debug, Args)]
struct QuotaArgs {
    /// Shipment calculations an account may have queued or running; one more is 429.
    #[arg(long, env = "TONNE_QUOTA_MAX_OUTSTANDING_CALCULATIONS", default_value_t = tonne_kernel::Limits::DEFAULT.outstanding_calculations)]
    quota_max_outstanding_calculations: u64,
    /// Shipment batches an account may have waiting to be processed; one more is 429.
    #[arg(long, env = "TONNE_QUOTA_MAX_PENDING_BATCHES", default_value_t = tonne_kernel::Limits::DEFAULT.pending_batches)]
    quota_max_pending_batches: u64,
    /// Asynchronous transaction documents an account may have waiting; one more is 429.
    #[arg(long, env = "TONNE_QUOTA_MAX_PENDING_DOCUMENTS", default_value_t = tonne_kernel::Limits::DEFAULT.pending_documents)]
    quota_max_pending_documents: u64,
    /// Shipment rows an account may store (every uploaded row counts); past it uploads are 422.
    #[arg(long, env = "TONNE_QUOTA_MAX_STORED_SHIPMENTS", default_value_t = tonne_kernel::Limits::DEFAULT.stored_shipments)]
    quota_max_stored_shipments: u64,
    /// Bytes of shipment rows (as sent) an account may store; past it uploads are 422.
    #[arg(long, env = "TONNE_QUOTA_MAX_STORED_BYTES", default_value_t = tonne_kernel::Limits::DEFAULT.stored_bytes)]
    quota_max_stored_bytes: u64,
}

impl QuotaArgs {
    fn limits(&self) -> tonne_kernel::Limits {
        tonne_kernel::Limits {
            outstanding_calculations: self.quota_max_outstanding_calculations,
            pending_batches: self.quota_max_pending_batches,
            pending_documents: self.quota_max_pending_documents,
            stored_shipments: self.quota_max_stored_shipments,
            stored_bytes: self.quota_max_stored_bytes,
        }
    }
}

/// Offset links' hosted pages.
#[derive(Debug, Args)]
struct LinkArgs {
    /// The absolute base URL customers reach this server at (offset link `url`s,
    /// hosted pages). Default: `http://` and the listening address.
    #[arg(long, env = "TONNE_PUBLIC_URL")]
    public_url: Option<String>,
    /// Largest amount of money one hosted-page order may be, in major units of the
    /// account's currency.
    #[arg(long, env = "TONNE_OFFSET_LINK_MAX_VALUE", default_value = "10000", value_parser = super::checks::positive_decimal)]
    offset_link_max_value: rust_decimal::Decimal,
    /// Largest mass one hosted-page order may be, in tonnes.
    #[arg(long, env = "TONNE_OFFSET_LINK_MAX_TONNES", default_value = "1000", value_parser = super::checks::positive_decimal)]
    offset_link_max_tonnes: rust_decimal::Decimal,
    /// Default limit of a link's orders' mass, per order, in tonnes (a link's
    /// owner sets its own in the console; links made over the API take this).
    #[arg(long, env = "TONNE_OFFSET_LINK_DEFAULT_ORDER_TONNES", default_value = "10", value_parser = super::checks::positive_decimal)]
    offset_link_default_order_tonnes: rust_decimal::Decimal,
    /// Default limit of a link's orders' cost, per order, in major units.
    #[arg(long, env = "TONNE_OFFSET_LINK_DEFAULT_ORDER_VALUE", default_value = "1000", value_parser = super::checks::positive_decimal)]
    offset_link_default_order_value: rust_decimal::Decimal,
    /// Default limit of a link's orders per UTC day.
    #[arg(long, env = "TONNE_OFFSET_LINK_DEFAULT_DAILY_ORDERS", default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    offset_link_default_daily_orders: u32,
    /// Default limit of a link's tonnes per UTC day.
    #[arg(long, env = "TONNE_OFFSET_LINK_DEFAULT_DAILY_TONNES", default_value = "100", value_parser = super::checks::positive_decimal)]
    offset_link_default_daily_tonnes: rust_decimal::Decimal,
    /// Default limit of a link's orders per visitor address per UTC day.
    #[arg(long, env = "TONNE_OFFSET_LINK_DEFAULT_VISITOR_DAILY_ORDERS", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    offset_link_default_visitor_daily_orders: u32,
    /// Minutes a hosted-page order may stay `received` (unconfirmed) before it
    /// is cancelled and its stock returned.
    #[arg(long, env = "TONNE_OFFSET_LINK_HOLD_MINUTES", default_value_t = 1440, value_parser = clap::value_parser!(u32).range(1..=525_600))]
    offset_link_hold_minutes: u32,
    /// Sustained hosted-page requests per second per client IP.
    #[arg(long, env = "TONNE_PAGE_RATE_LIMIT_PER_SECOND", default_value_t = 5)]
    page_rate_limit_per_second: u32,
    /// Burst of the hosted pages' rate limit.
    #[arg(long, env = "TONNE_PAGE_RATE_LIMIT_BURST", default_value_t = 30)]
    page_rate_limit_burst: u32,
}

impl LinkArgs {
    fn settings(&self) -> tonne_links::Settings {
        tonne_links::Settings {
            max_value: self.offset_link_max_value,
            max_tonnes: self.offset_link_max_tonnes,
            limits: tonne_links::DefaultLimits {
                order_tonnes: self.offset_link_default_order_tonnes,
                order_value: self.offset_link_default_order_value,
                daily_orders: self.offset_link_default_daily_orders,
                daily_tonnes: self.offset_link_default_daily_tonnes,
                visitor_daily_orders: self.offset_link_default_visitor_daily_orders,
            },
            hold: time::Duration::minutes(i64::from(self.offset_link_hold_minutes)),
        }
    }
}

impl ServeArgs {
    /// The server's options: every flag and variable, checked, in one place.
    pub(super) fn into_options(
        self,
        url: DatabaseUrl,
        secrets: Option<String>,
    ) -> anyhow::Result<ServeOptions> {
        let args = self;
        let mut options = ServeOptions::new(url.clone());
        options.webhooks = args.webhooks.options(secrets);
        options.dispatcher = if args.no_dispatcher {
            None
        } else {
            Some(args.webhooks.dispatcher()?)
        };
        options.bind = args.bind;
        options.metrics_bind =
            Some(args.metrics_bind).filter(|b| !b.is_empty() && !b.eq_ignore_ascii_case("off"));
        options.links = args.links.settings();
        options.public_url = args.links.public_url.clone();
        options.page_rate = RatePolicy {
            per_second: args.links.page_rate_limit_per_second.max(1),
            burst: args.links.page_rate_limit_burst.max(1),
        };
        options.rate = RatePolicy {
            per_second: args.rate_limit_per_second,
            burst: args.rate_limit_burst,
        };
        options.body_limit_bytes = args.body_limit_bytes;
        options.batch_limit = args.batch_limit.max(1);
        options.key_cache_ttl = Duration::from_secs(args.key_cache_ttl_seconds);
        if let Some(size) = args.pool_size {
            options.pool_size = size;
        }
        options.pool_timeout = Duration::from_millis(args.pool_timeout_ms.max(1));
        options.redis_url = args.redis_url.clone().filter(|u| !u.is_empty());
        options.redis_prefix = args.redis_prefix.clone();
        options.request_timeout = Duration::from_secs(args.request_timeout_seconds.max(1));
        options.trusted_proxies = args.trusted_proxies.clone();
        options.header_timeout = Duration::from_millis(args.header_timeout_ms.max(1));
        options.workers = args.workers;
        options.shutdown_timeout = Duration::from_secs(args.shutdown_timeout_seconds);
        options.drain = Duration::from_secs(args.drain_seconds);
        options.create_demo = !args.no_demo;
        options.test_order_step = Duration::from_secs(args.test_order_step_seconds.max(1));
        options.ordering.commission_rate = args.commission_rate;
        options.shipments_lease = Duration::from_secs(args.shipments_lease_seconds);
        options.job_workers = usize::from(args.job_workers);
        options.job_retry = tonne_jobs::RetryPolicy {
            max_attempts: args.jobs_max_attempts,
            base: time::Duration::milliseconds(i64::try_from(args.jobs_retry_ms).unwrap_or(2000)),
            ..tonne_jobs::RetryPolicy::default()
        };
        options.quotas = args.quotas.limits();
        Ok(options)
    }
}

pub(super) async fn run(
    url: DatabaseUrl,
    args: ServeArgs,
    secrets: Option<String>,
    cards: crate::fulfilment::CardProcessors,
    invoice_terms: crate::wiring::InvoiceTerms,
) -> anyhow::Result<()> {
    let mut options = args.into_options(url.clone(), secrets)?;
    options.cards = cards;
    options.invoice_terms = invoice_terms;
    let drain = options.drain;
    let running = server::start(options).await?;
    println!(
        "Tonne is listening on http://{} (database: {url})",
        running.addr
    );
    println!(
        "  API: http://{}/v1   docs: http://{}/docs/   health: http://{}/health",
        running.addr, running.addr, running.addr
    );
    if let Some(metrics) = running.metrics_addr {
        println!("  metrics (this machine only by default): http://{metrics}/metrics");
    }
    if let Some(c) = &running.demo_catalogue {
        println!(
            "Loaded the demo catalogue: {} bundles, {} projects (demo data; see docs/catalogue.md)",
            c.bundles_created, c.projects_created
        );
    }
    if let Some(demo) = &running.demo {
        println!(
            "Created demo organisation {} — its API keys are shown only this once:",
            demo.organisation_id
        );
        println!(
            "  live key: {}   (account {})",
            demo.live.api_key.expose(),
            demo.live.account_id
        );
        println!(
            "  test key: {}   (account {})",
            demo.test.api_key.expose(),
            demo.test.account_id
        );
        if let Some((email, link)) = &running.first_operator {
            println!(
                "Console: http://{}/console/ — the first operator is {email}; choose its password within 24 hours (this link is shown once):",
                running.addr
            );
            println!("  {link}");
        }
        println!(
            "Try: curl -H 'Authorization: Bearer {}' http://{}/v1/accounts/me",
            demo.test.api_key.expose(),
            running.addr
        );
    }
    let handle = running.handle.clone();
    let mut server = tokio::spawn(running.server);
    tokio::select! {
        finished = &mut server => {
            finished??;
            anyhow::bail!("the HTTP server stopped unexpectedly");
        }
        () = shutdown_signal() => {}
    }
    if !drain.is_zero() {
        tracing::info!(
            seconds = drain.as_secs(),
            "stop signal received; draining (/ready answers 503)"
        );
        running
            .draining
            .store(true, std::sync::atomic::Ordering::Release);
        tokio::time::sleep(drain).await;
    }
    tracing::info!("stop signal received; finishing in-flight requests");
    if let Some(stop) = &running.dispatcher_stop {
        let _ = stop.send(true);
    }
    let _ = running.shipments_stop.send(true);
    handle.stop(true).await;
    server.await??;
    if let Some(metrics) = &running.metrics_handle {
        metrics.stop(true).await;
    }
    if let Some(task) = running.dispatcher_task {
        let _ = task.await;
    }
    let _ = running.shipments_task.await;
    tracing::info!("stopped");
    Ok(())
}

pub(super) async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}
