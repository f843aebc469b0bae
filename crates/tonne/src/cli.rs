//! The `tonne` command line: the server and the operator's commands.

use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use serde_json::json;
use tonne_accounts::{AccountId, AdminError};
use tonne_http::rate_limit::RatePolicy;
use tonne_kernel::{AccountMode, ApiKeyId, OrganisationId};
use tonne_storage::{DatabaseUrl, PoolSettings};

mod organisations;
mod users;

use crate::server::{self, ServeOptions};
use crate::wiring::Services;

/// Tonne: a self-hostable carbon-offset and emission-estimate service that speaks
/// the Lune API v1 wire contract.
///
/// With no command it serves (`tonne serve` with defaults): on first start it
/// creates `./tonne.db`, migrates it, creates a demo organisation and prints its
/// live and test API keys.
#[derive(Debug, Parser)]
#[command(name = "tonne", version, propagate_version = true)]
pub struct Cli {
    /// Database: `postgres://USER@HOST:PORT/DB`, `sqlite://PATH`, or a file path (SQLite).
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "sqlite://./tonne.db",
        global = true
    )]
    database_url: String,

    /// Key that seals webhook secrets at rest: 64 hexadecimal characters or standard
    /// base64 of 32 bytes. On SQLite, unset means a key file beside the database
    /// (`<database>.secrets-key`, mode 0600, created on first start).
    #[arg(long, env = "TONNE_SECRETS_KEY", global = true, hide_env_values = true)]
    secrets_key: Option<String>,

    /// Log format on stderr.
    #[arg(long, env = "TONNE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text, global = true)]
    log_format: LogFormat,

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line, with the request id of the current request.
    Json,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the HTTP API (migrates the database first).
    Serve(Box<ServeArgs>),
    /// Apply pending database migrations and exit.
    Migrate,
    /// Create a new organisation with a live/test account pair and one API key per mode.
    Bootstrap {
        /// Name of the organisation (and of its first account pair).
        #[arg(long, default_value = "My organisation")]
        name: String,
        /// Print `{"organisation_id", "live": {"account_id", "api_key"}, "test": {…}}`.
        #[arg(long)]
        json: bool,
    },
    /// Create, list and revoke API keys.
    #[command(subcommand)]
    Keys(KeysCommand),
    /// Manage the catalogue of projects and bundles.
    #[command(subcommand)]
    Catalogue(CatalogueCommand),
    /// Account settings.
    #[command(subcommand)]
    Accounts(AccountsCommand),
    /// Move live orders through payment and retirement (test orders move by themselves).
    #[command(subcommand)]
    Orders(OrdersCommand),
    /// Run a webhook dispatcher on its own (PostgreSQL: any number of them share the work).
    Dispatch(DispatchArgs),
    /// Operate webhooks: attempts, skipping a backlog, re-sending.
    #[command(subcommand)]
    Webhooks(WebhooksCommand),
    /// Offset links: signed analytics URLs.
    #[command(subcommand)]
    OffsetLinks(OffsetLinksCommand),
    /// Organisation settings: the pinned API version.
    #[command(subcommand)]
    Organisations(organisations::OrganisationsCommand),
    /// People who use the console: create (with a one-time link to choose a
    /// password, or `--password-stdin`), list, disable.
    #[command(subcommand)]
    Users(users::UsersCommand),
}

#[derive(Debug, Subcommand)]
enum WebhooksCommand {
    /// Show a webhook's delivery attempts, most recent first.
    Attempts {
        /// The webhook's id.
        webhook_id: String,
        /// How many (1–100).
        #[arg(long, default_value_t = 20)]
        limit: u8,
        /// Print JSON lines.
        #[arg(long)]
        json: bool,
    },
    /// Skip every undelivered event of a webhook (each stream moves to its account's
    /// latest event). For a backlog the receiver does not want after a long outage.
    Skip {
        /// The webhook's id.
        webhook_id: String,
    },
    /// Re-send one account's events to a webhook from a sequence number on, in order.
    Redeliver {
        /// The webhook's id.
        webhook_id: String,
        /// The first sequence number to send again (as in the events' `sequence`).
        #[arg(long)]
        from_sequence: i64,
        /// The account whose stream is re-sent.
        #[arg(long)]
        account: String,
    },
}

/// Webhook delivery settings (`tonne serve` and `tonne dispatch`).
#[derive(Debug, Clone, Args)]
struct WebhookArgs {
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
    #[arg(long, env = "TONNE_WEBHOOK_RETRY_SCHEDULE")]
    webhook_retry_schedule: Option<String>,
    /// Streams one dispatcher delivers at once.
    #[arg(long, env = "TONNE_WEBHOOK_CONCURRENCY", default_value_t = 64)]
    webhook_concurrency: usize,
    /// Milliseconds between looks for due streams when idle.
    #[arg(long, env = "TONNE_WEBHOOK_POLL_MS", default_value_t = 100)]
    webhook_poll_ms: u64,
}

impl WebhookArgs {
    fn dispatcher(&self) -> anyhow::Result<tonne_dispatcher::DispatcherConfig> {
        let schedule = match &self.webhook_retry_schedule {
            Some(text) => tonne_webhooks::RetrySchedule::parse(text)
                .map_err(|e| anyhow::anyhow!("TONNE_WEBHOOK_RETRY_SCHEDULE: {e}"))?,
            None => tonne_webhooks::RetrySchedule::standard(),
        };
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

    fn options(&self, secrets_key: Option<String>) -> crate::wiring::WebhookOptions {
        crate::wiring::WebhookOptions {
            secrets_key,
            limit: Some(self.webhook_limit),
            allow_private: self.webhooks_allow_private,
        }
    }
}

#[derive(Debug, Args)]
struct DispatchArgs {
    /// Serve `/health` and `/metrics` (Prometheus) on this address.
    #[arg(
        long,
        env = "TONNE_DISPATCH_METRICS_BIND",
        default_value = "127.0.0.1:9465"
    )]
    metrics_bind: String,
    #[command(flatten)]
    webhooks: WebhookArgs,
}

#[derive(Debug, Subcommand)]
enum AccountsCommand {
    /// Set the bundle selection an account's orders use when they send none
    /// (without --bundle: clear it, so the catalogue's default applies again).
    SetSelection {
        /// The account's id.
        #[arg(long)]
        account: String,
        /// `BUNDLE_ID` or `BUNDLE_ID:PERCENT`; repeat. Percentages for all or none
        /// (then split equally), summing to 100.
        #[arg(long = "bundle")]
        bundles: Vec<String>,
    },
}

#[derive(Debug, Subcommand)]
enum OrdersCommand {
    /// Move an order forward: one step by default, or step by step up to --to.
    /// Each step is recorded with its event.
    Advance {
        /// The order's id.
        order_id: String,
        /// Target status: placed, paid, retiring, complete, or failed.
        #[arg(long)]
        to: Option<String>,
        /// The registry's serial number for the retirement (recorded per project,
        /// suffixed -1, -2, … , when the order enters `retiring`).
        #[arg(long)]
        registry_serial: Option<String>,
    },
    /// Cancel an order that is received or placed (its inventory is released).
    Cancel {
        /// The order's id.
        order_id: String,
    },
}

#[derive(Debug, Subcommand)]
enum CatalogueCommand {
    /// Import a catalogue file (format: docs/catalogue.md). Idempotent: items are
    /// keyed by their `key`, so importing again updates them instead of duplicating.
    Import {
        /// The JSON file, or `demo` for the catalogue shipped with Tonne.
        file: String,
    },
}

#[derive(Debug, Subcommand)]
enum KeysCommand {
    /// Create an API key; the key is printed once and only its hash is stored.
    Create {
        /// The organisation's id.
        #[arg(long)]
        organisation: String,
        /// The key's mode.
        #[arg(long, value_enum)]
        mode: ModeArg,
        /// The account the key acts as by default (default: the oldest account of that mode).
        #[arg(long)]
        account: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// List an organisation's keys (prefixes only, never secrets).
    List {
        /// The organisation's id.
        #[arg(long)]
        organisation: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Revoke a key by its id (as `keys list` shows it). Running servers on
    /// PostgreSQL stop accepting it within about 0.1 s (the revocation is
    /// announced with NOTIFY); at the latest within their key cache TTL
    /// (`TONNE_KEY_CACHE_TTL_SECONDS`).
    Revoke {
        /// The key's id.
        key_id: String,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ModeArg {
    Live,
    Test,
}

impl From<ModeArg> for AccountMode {
    fn from(m: ModeArg) -> Self {
        match m {
            ModeArg::Live => AccountMode::Live,
            ModeArg::Test => AccountMode::Test,
        }
    }
}

#[derive(Debug, Args)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "TONNE_BIND", default_value = "127.0.0.1:8080")]
    bind: String,
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
    /// Seconds an API key lookup is cached; a key revoked elsewhere works at most this long. 0 disables.
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
    /// Seconds a test-mode order waits in each status before moving on.
    #[arg(long, env = "TONNE_TEST_ORDER_STEP_SECONDS", default_value_t = 5)]
    test_order_step_seconds: u64,
    /// Commission on the offset cost, as a fraction (0.10 = 10 %).
    #[arg(long, env = "TONNE_COMMISSION_RATE", default_value = "0.10")]
    commission_rate: String,
    /// Do not run a webhook dispatcher inside the server (run `tonne dispatch` instead;
    /// PostgreSQL only — on SQLite the server's own dispatcher is the only one).
    #[arg(long, env = "TONNE_NO_DISPATCHER")]
    no_dispatcher: bool,
    #[command(flatten)]
    webhooks: WebhookArgs,
    #[command(flatten)]
    links: LinkArgs,
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
    #[arg(long, env = "TONNE_OFFSET_LINK_MAX_VALUE", default_value = "10000")]
    offset_link_max_value: String,
    /// Largest mass one hosted-page order may be, in tonnes.
    #[arg(long, env = "TONNE_OFFSET_LINK_MAX_TONNES", default_value = "1000")]
    offset_link_max_tonnes: String,
    /// Sustained hosted-page requests per second per client IP.
    #[arg(long, env = "TONNE_PAGE_RATE_LIMIT_PER_SECOND", default_value_t = 5)]
    page_rate_limit_per_second: u32,
    /// Burst of the hosted pages' rate limit.
    #[arg(long, env = "TONNE_PAGE_RATE_LIMIT_BURST", default_value_t = 30)]
    page_rate_limit_burst: u32,
}

impl LinkArgs {
    fn settings(&self) -> anyhow::Result<tonne_links::Settings> {
        let positive = |flag: &str, raw: &str| -> anyhow::Result<rust_decimal::Decimal> {
            raw.parse::<rust_decimal::Decimal>()
                .ok()
                .filter(|d| d.is_sign_positive() && !d.is_zero())
                .ok_or_else(|| anyhow::anyhow!("--{flag}: `{raw}` is not a positive decimal"))
        };
        Ok(tonne_links::Settings {
            max_value: positive("offset-link-max-value", &self.offset_link_max_value)?,
            max_tonnes: positive("offset-link-max-tonnes", &self.offset_link_max_tonnes)?,
        })
    }
}

#[derive(Debug, Subcommand)]
enum OffsetLinksCommand {
    /// Print a signed URL of a link's analytics page (no API key needed to open it).
    AnalyticsUrl {
        /// The offset link's id.
        link_id: String,
        /// How long the URL works, in hours.
        #[arg(long, default_value_t = 24)]
        valid_hours: u32,
        /// The server's public base URL.
        #[arg(
            long,
            env = "TONNE_PUBLIC_URL",
            default_value = "http://127.0.0.1:8080"
        )]
        public_url: String,
    },
}

impl Default for ServeArgs {
    fn default() -> Self {
        Self::parse_defaults()
    }
}

impl ServeArgs {
    fn parse_defaults() -> Self {
        #[derive(Parser)]
        struct Only {
            #[command(flatten)]
            args: ServeArgs,
        }
        // Defaults and environment only (no command-line arguments).
        match Only::try_parse_from(["tonne"]) {
            Ok(only) => only.args,
            Err(e) => e.exit(),
        }
    }
}

fn init_logs(format: LogFormat) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_env("TONNE_LOG")
        .or_else(|_| EnvFilter::try_from_default_env())
        .unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .try_init(),
    };
}

/// Parses the command line and runs it.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logs(cli.log_format);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn admin_services(
    url: &DatabaseUrl,
    secrets_key: Option<String>,
) -> anyhow::Result<Services> {
    Services::open(
        url,
        PoolSettings {
            max_size: 2,
            ..PoolSettings::default()
        },
        Duration::ZERO,
        tonne_ordering::Settings::default(),
        crate::wiring::WebhookOptions {
            secrets_key,
            ..crate::wiring::WebhookOptions::default()
        },
        tonne_links::Settings::default(),
    )
    .await
}

fn admin_error(e: AdminError) -> anyhow::Error {
    anyhow::anyhow!(e)
}

/// Runs a parsed command line.
pub async fn run(cli: Cli) -> anyhow::Result<()> {
    let url = DatabaseUrl::parse(&cli.database_url)?;
    let secrets = cli.secrets_key.clone();
    match cli.command {
        None => serve(url, ServeArgs::default(), secrets).await,
        Some(Command::Serve(args)) => serve(url, *args, secrets).await,
        Some(Command::Dispatch(args)) => dispatch(url, args, secrets).await,
        Some(Command::Webhooks(command)) => webhooks(&url, command, secrets).await,
        Some(Command::OffsetLinks(command)) => offset_links(&url, command, secrets).await,
        Some(Command::Organisations(command)) => {
            organisations::run(&admin_services(&url, secrets).await?, command).await
        }
        Some(Command::Users(command)) => {
            users::run(&admin_services(&url, secrets).await?, command).await
        }
        Some(Command::Migrate) => {
            let services = admin_services(&url, secrets.clone()).await?;
            drop(services);
            println!("database {url} is up to date");
            Ok(())
        }
        Some(Command::Bootstrap { name, json }) => {
            let services = admin_services(&url, secrets.clone()).await?;
            let out = services
                .accounts
                .bootstrap(&name)
                .await
                .map_err(admin_error)?;
            if json {
                println!(
                    "{}",
                    json!({
                        "organisation_id": out.organisation_id.to_string(),
                        "live": { "account_id": out.live.account_id.to_string(), "api_key": out.live.api_key.expose() },
                        "test": { "account_id": out.test.account_id.to_string(), "api_key": out.test.api_key.expose() },
                    })
                );
            } else {
                println!("organisation {}", out.organisation_id);
                println!(
                    "live account {}  key {}",
                    out.live.account_id,
                    out.live.api_key.expose()
                );
                println!(
                    "test account {}  key {}",
                    out.test.account_id,
                    out.test.api_key.expose()
                );
                println!("(keys are shown once; only their hashes are stored)");
            }
            Ok(())
        }
        Some(Command::Keys(command)) => keys(&url, command, secrets).await,
        Some(Command::Accounts(AccountsCommand::SetSelection { account, bundles })) => {
            let entries = bundles
                .iter()
                .map(|raw| {
                    let (id, pct) = match raw.split_once(':') {
                        Some((id, pct)) => (
                            id,
                            Some(
                                tonne_ordering::Percentage::parse(pct)
                                    .map_err(|e| anyhow::anyhow!(e))?,
                            ),
                        ),
                        None => (raw.as_str(), None),
                    };
                    Ok(tonne_ordering::SelectionEntry {
                        bundle_id: id.to_owned(),
                        percentage: pct,
                    })
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            let services = admin_services(&url, secrets.clone()).await?;
            let set = services
                .ordering
                .set_account_selection(&account, entries)
                .await
                .map_err(|e| anyhow::anyhow!(e))?;
            if set.is_empty() {
                println!("account {account} now uses the catalogue's default selection");
            } else {
                for (bundle, share) in set {
                    println!(
                        "{bundle}  {}%",
                        rust_decimal::Decimal::new(i64::from(share), 2).normalize()
                    );
                }
            }
            Ok(())
        }
        Some(Command::Orders(command)) => {
            let services = admin_services(&url, secrets.clone()).await?;
            let (id, to, serial) = match command {
                OrdersCommand::Advance {
                    order_id,
                    to,
                    registry_serial,
                } => {
                    let to = to
                        .map(|t| {
                            tonne_ordering::OrderStatus::parse(&t).ok_or_else(|| {
                                anyhow::anyhow!("--to: `{t}` is not an order status")
                            })
                        })
                        .transpose()?;
                    (order_id, to, registry_serial)
                }
                OrdersCommand::Cancel { order_id } => {
                    (order_id, Some(tonne_ordering::OrderStatus::Cancelled), None)
                }
            };
            let order = services
                .ordering
                .advance(&id, to, serial)
                .await
                .map_err(|e| anyhow::anyhow!(e))?;
            println!("order {} is {}", order.id, order.status.as_str());
            Ok(())
        }
        Some(Command::Catalogue(CatalogueCommand::Import { file })) => {
            let text = if file == "demo" {
                crate::catalogue_file::DEMO.to_owned()
            } else {
                std::fs::read_to_string(&file)
                    .map_err(|e| anyhow::anyhow!("cannot read {file}: {e}"))?
            };
            let catalogue = crate::catalogue_file::parse(&text, time::OffsetDateTime::now_utc())
                .map_err(|e| e.context(format!("{file} is not a valid catalogue")))?;
            let services = admin_services(&url, secrets.clone()).await?;
            let s = services
                .ordering
                .import_catalogue(catalogue)
                .await
                .map_err(|e| anyhow::anyhow!(e))?;
            println!(
                "imported {file}: {} projects created, {} updated; {} bundles created, {} updated; {} bundle portfolios created, {} updated",
                s.projects_created,
                s.projects_updated,
                s.bundles_created,
                s.bundles_updated,
                s.portfolios_created,
                s.portfolios_updated
            );
            Ok(())
        }
    }
}

fn parse_org(raw: &str) -> anyhow::Result<OrganisationId> {
    raw.parse()
        .map_err(|_| anyhow::anyhow!("--organisation: `{raw}` is not an organisation id"))
}

async fn keys(
    url: &DatabaseUrl,
    command: KeysCommand,
    secrets: Option<String>,
) -> anyhow::Result<()> {
    let services = admin_services(url, secrets).await?;
    match command {
        KeysCommand::Create {
            organisation,
            mode,
            account,
            json,
        } => {
            let org = parse_org(&organisation)?;
            let account = account
                .map(|a| {
                    a.parse::<AccountId>()
                        .map_err(|_| anyhow::anyhow!("--account: `{a}` is not an account id"))
                })
                .transpose()?;
            let key = services
                .accounts
                .create_key(org, mode.into(), account)
                .await
                .map_err(admin_error)?;
            if json {
                println!(
                    "{}",
                    json!({ "id": key.id.to_string(), "mode": key.mode.as_str(), "account_id": key.account_id.to_string(), "api_key": key.secret.expose() })
                );
            } else {
                println!(
                    "key {} ({}) for account {}: {}",
                    key.id,
                    key.mode,
                    key.account_id,
                    key.secret.expose()
                );
                println!("(shown once; only its hash is stored)");
            }
        }
        KeysCommand::List { organisation, json } => {
            let keys = services
                .accounts
                .list_keys(parse_org(&organisation)?)
                .await
                .map_err(admin_error)?;
            if json {
                let rows: Vec<_> = keys
                    .iter()
                    .map(|k| {
                        json!({
                            "id": k.id.to_string(), "mode": k.mode.as_str(), "account_id": k.account_id.to_string(),
                            "prefix": k.display_prefix, "revoked": k.revoked_at.is_some(),
                        })
                    })
                    .collect();
                println!("{}", serde_json::Value::Array(rows));
            } else {
                for k in keys {
                    let state = if k.revoked_at.is_some() {
                        "revoked"
                    } else {
                        "active"
                    };
                    println!(
                        "{}  {}  {}…  account {}  {state}",
                        k.id, k.mode, k.display_prefix, k.account_id
                    );
                }
            }
        }
        KeysCommand::Revoke { key_id } => {
            let id: ApiKeyId = key_id
                .parse()
                .map_err(|_| anyhow::anyhow!("`{key_id}` is not a key id"))?;
            let key = services
                .accounts
                .revoke_key(id)
                .await
                .map_err(admin_error)?;
            println!("revoked key {} ({}…)", key.id, key.display_prefix);
        }
    }
    Ok(())
}

async fn serve(url: DatabaseUrl, args: ServeArgs, secrets: Option<String>) -> anyhow::Result<()> {
    let mut options = ServeOptions::new(url.clone());
    options.webhooks = args.webhooks.options(secrets);
    options.dispatcher = if args.no_dispatcher {
        None
    } else {
        Some(args.webhooks.dispatcher()?)
    };
    options.bind = args.bind;
    options.links = args.links.settings()?;
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
    options.header_timeout = Duration::from_millis(args.header_timeout_ms.max(1));
    options.workers = args.workers;
    options.shutdown_timeout = Duration::from_secs(args.shutdown_timeout_seconds);
    options.drain = Duration::from_secs(args.drain_seconds);
    let drain = options.drain;
    options.create_demo = !args.no_demo;
    options.test_order_step = Duration::from_secs(args.test_order_step_seconds.max(1));
    let rate: rust_decimal::Decimal = args.commission_rate.parse().map_err(|_| {
        anyhow::anyhow!(
            "--commission-rate: `{}` is not a decimal",
            args.commission_rate
        )
    })?;
    options.ordering.commission_rate = tonne_ordering::pricing::CommissionRate::new(rate)
        .ok_or_else(|| anyhow::anyhow!("--commission-rate: must be at least 0 and below 1"))?;
    let running = server::start(options).await?;
    println!(
        "Tonne is listening on http://{} (database: {url})",
        running.addr
    );
    println!(
        "  API: http://{}/v1   docs: http://{}/docs/   health: http://{}/health",
        running.addr, running.addr, running.addr
    );
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
    handle.stop(true).await;
    server.await??;
    if let Some(task) = running.dispatcher_task {
        let _ = task.await;
    }
    tracing::info!("stopped");
    Ok(())
}

async fn dispatch(
    url: DatabaseUrl,
    args: DispatchArgs,
    secrets: Option<String>,
) -> anyhow::Result<()> {
    if matches!(url, DatabaseUrl::Sqlite(_)) {
        anyhow::bail!(
            "`tonne dispatch` needs PostgreSQL: on SQLite exactly one dispatcher runs, the one inside `tonne serve`"
        );
    }
    let config = args.webhooks.dispatcher()?;
    let services = Services::open(
        &url,
        PoolSettings {
            max_size: u32::try_from(config.concurrency.min(16))
                .unwrap_or(16)
                .max(2),
            ..PoolSettings::default()
        },
        Duration::ZERO,
        tonne_ordering::Settings::default(),
        args.webhooks.options(secrets),
        tonne_links::Settings::default(),
    )
    .await?;
    let registry = prometheus::Registry::new_custom(Some("tonne".into()), None)?;
    let metrics = tonne_dispatcher::DispatchMetrics::new(&registry)?;
    let dispatcher = tonne_dispatcher::Dispatcher::new(
        std::sync::Arc::new(services.webhook_store.clone()),
        config,
        metrics,
    )?;
    println!(
        "Tonne dispatcher {} delivering webhooks (database: {url}); metrics on http://{}/metrics",
        dispatcher.owner(),
        args.metrics_bind
    );
    let listener = std::net::TcpListener::bind(&args.metrics_bind)
        .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", args.metrics_bind))?;
    let metrics_server = actix_web::HttpServer::new(move || {
        let registry = registry.clone();
        actix_web::App::new()
            .route(
                "/health",
                actix_web::web::get()
                    .to(|| async { actix_web::HttpResponse::Ok().json(json!({"status": "ok"})) }),
            )
            .route(
                "/metrics",
                actix_web::web::get().to(move || {
                    let registry = registry.clone();
                    async move {
                        use prometheus::Encoder as _;
                        let mut out = Vec::new();
                        let _ = prometheus::TextEncoder::new().encode(&registry.gather(), &mut out);
                        actix_web::HttpResponse::Ok()
                            .content_type("text/plain; version=0.0.4")
                            .body(out)
                    }
                }),
            )
    })
    .workers(1)
    .listen(listener)?
    .disable_signals()
    .run();
    let metrics_handle = metrics_server.handle();
    let metrics_task = tokio::spawn(metrics_server);
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let task = tokio::spawn(dispatcher.run(stopped));
    shutdown_signal().await;
    tracing::info!("stop signal received; finishing in-flight webhook requests");
    let _ = stop.send(true);
    let _ = task.await;
    metrics_handle.stop(true).await;
    let _ = metrics_task.await;
    Ok(())
}

async fn offset_links(
    url: &DatabaseUrl,
    command: OffsetLinksCommand,
    secrets: Option<String>,
) -> anyhow::Result<()> {
    let services = admin_services(url, secrets).await?;
    match command {
        OffsetLinksCommand::AnalyticsUrl {
            link_id,
            valid_hours,
            public_url,
        } => {
            if !services.page_key_is_stable {
                anyhow::bail!(
                    "TONNE_SECRETS_KEY is not set: the server's hosted-page key is random per process, \
                     so no URL printed here would verify. Set TONNE_SECRETS_KEY for the server and this command"
                );
            }
            let id: tonne_links::OffsetLinkId = link_id
                .parse()
                .map_err(|_| anyhow::anyhow!("`{link_id}` is not an offset link id"))?;
            services.links.analytics_of(id).await.map_err(|e| match e {
                tonne_links::LinkError::NotFound => anyhow::anyhow!("no offset link has id {id}"),
                other => anyhow::anyhow!(other),
            })?;
            let expires =
                services.links.now().unix_timestamp() + i64::from(valid_hours.max(1)) * 3600;
            println!(
                "{}",
                tonne_http::pages::analytics_url(
                    public_url.trim_end_matches('/'),
                    &services.page_key,
                    id,
                    expires
                )
            );
        }
    }
    Ok(())
}

fn parse_webhook(raw: &str) -> anyhow::Result<tonne_webhooks::WebhookId> {
    raw.parse()
        .map_err(|_| anyhow::anyhow!("`{raw}` is not a webhook id"))
}

async fn webhooks(
    url: &DatabaseUrl,
    command: WebhooksCommand,
    secrets: Option<String>,
) -> anyhow::Result<()> {
    let services = admin_services(url, secrets).await?;
    let fail = |e: tonne_webhooks::AdminWebhookError| anyhow::anyhow!(e);
    match command {
        WebhooksCommand::Attempts {
            webhook_id,
            limit,
            json,
        } => {
            let limit =
                tonne_kernel::Limit::new(limit).map_err(|e| anyhow::anyhow!("--limit: {e}"))?;
            let page = services
                .webhooks
                .admin_attempts(
                    parse_webhook(&webhook_id)?,
                    tonne_kernel::PageRequest { limit, after: None },
                )
                .await
                .map_err(fail)?;
            for a in page.items {
                let at = a
                    .attempted_at
                    .format(&time::format_description::well_known::Rfc3339)
                    .unwrap_or_default();
                if json {
                    println!(
                        "{}",
                        json!({
                            "id": a.id.to_string(), "account_id": a.account_id.to_string(),
                            "first_sequence": a.first_sequence, "last_sequence": a.last_sequence, "events": a.events,
                            "attempted_at": at, "status_code": a.status, "error": a.error,
                            "latency_ms": a.latency_ms, "outcome": a.outcome.as_str(),
                        })
                    );
                } else {
                    let result = match (a.status, &a.error) {
                        (Some(s), _) => format!("HTTP {s}"),
                        (None, Some(e)) => e.clone(),
                        (None, None) => "-".into(),
                    };
                    println!(
                        "{at}  {:<9}  account {}  events {}..{} ({})  {result}  {} ms",
                        a.outcome.as_str(),
                        a.account_id,
                        a.first_sequence,
                        a.last_sequence,
                        a.events,
                        a.latency_ms
                    );
                }
            }
        }
        WebhooksCommand::Skip { webhook_id } => {
            let skipped = services
                .webhooks
                .skip_backlog(parse_webhook(&webhook_id)?)
                .await
                .map_err(fail)?;
            println!("webhook {webhook_id}: skipped {skipped} undelivered events");
        }
        WebhooksCommand::Redeliver {
            webhook_id,
            from_sequence,
            account,
        } => {
            let account: AccountId = account
                .parse()
                .map_err(|_| anyhow::anyhow!("--account: `{account}` is not an account id"))?;
            services
                .webhooks
                .redeliver(parse_webhook(&webhook_id)?, account, from_sequence)
                .await
                .map_err(fail)?;
            println!(
                "webhook {webhook_id}: account {account} will be re-sent from sequence {from_sequence}"
            );
        }
    }
    Ok(())
}

async fn shutdown_signal() {
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
