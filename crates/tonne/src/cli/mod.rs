//! The `tonne` command line: the server and the operator's commands.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use serde_json::json;
use tonne_storage::DatabaseUrl;

mod accounts;
mod admin;
mod backup;
mod catalogue;
mod checks;
mod config;
mod dispatch;
mod invoices;
mod keys;
mod offset_links;
mod orders;
mod organisations;
mod pact;
mod serve;
mod settings_file;
mod stripe;
mod users;
mod webhooks;

use serve::ServeArgs;

/// Tonne: a self-hostable carbon-offset and emission-estimate service that speaks
/// the Lune API v1 wire contract.
///
/// With no command it serves (`tonne serve` with defaults): on first start it
/// creates `./tonne.db`, migrates it, creates a demo organisation and prints its
/// live and test API keys.
#[derive(Debug, Parser)]
#[command(name = "tonne", version, propagate_version = true)]
pub struct Cli {
    /// A TOML file holding any of these settings (see `tonne config toml-example`);
    /// flags win over the environment, the environment over the file.
    #[arg(long, env = "TONNE_CONFIG", global = true, value_name = "FILE")]
    config: Option<PathBuf>,

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
    #[arg(long, env = "TONNE_SECRETS_KEY", global = true, hide_env_values = true, value_parser = checks::secrets_key)]
    secrets_key: Option<String>,

    /// Log format on stderr.
    #[arg(long, env = "TONNE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text, global = true)]
    log_format: LogFormat,

    /// Export traces over OTLP/HTTP to this collector (its base URL, e.g.
    /// `http://127.0.0.1:4318`; spans go to `/v1/traces`). Unset: no traces.
    #[arg(long, env = "TONNE_OTLP_ENDPOINT", global = true)]
    otlp_endpoint: Option<String>,

    /// The `service.name` the exported spans carry.
    #[arg(
        long,
        env = "TONNE_OTLP_SERVICE_NAME",
        default_value = "tonne",
        global = true
    )]
    otlp_service_name: String,

    #[command(flatten)]
    stripe: stripe::StripeArgs,

    #[command(flatten)]
    invoice: invoices::InvoiceArgs,

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
    /// Write a consistent copy of the SQLite database to FILE while the server
    /// runs (never over an existing file; mode 0600). PostgreSQL: prints the
    /// pg_dump procedure and fails.
    Backup(backup::BackupArgs),
    /// What the settings are (`env-example`: every environment variable, for `.env.example`).
    #[command(subcommand)]
    Config(config::ConfigCommand),
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
    Keys(keys::KeysCommand),
    /// Issue, list, pay and credit invoices.
    #[command(subcommand)]
    Invoices(invoices::InvoicesCommand),
    /// Manage the catalogue of projects and bundles.
    #[command(subcommand)]
    Catalogue(catalogue::CatalogueCommand),
    /// Account settings.
    #[command(subcommand)]
    Accounts(accounts::AccountsCommand),
    /// Move live orders through payment and retirement (test orders move by themselves).
    #[command(subcommand)]
    Orders(orders::OrdersCommand),
    /// Run a webhook dispatcher on its own (PostgreSQL: any number of them share the work).
    Dispatch(dispatch::DispatchArgs),
    /// Operate webhooks: attempts, skipping a backlog, re-sending.
    #[command(subcommand)]
    Webhooks(webhooks::WebhooksCommand),
    /// Offset links: signed analytics URLs.
    #[command(subcommand)]
    OffsetLinks(offset_links::OffsetLinksCommand),
    /// Organisation settings: the pinned API version.
    #[command(subcommand)]
    Organisations(organisations::OrganisationsCommand),
    /// PACT: client credentials another system reads an account's footprints with.
    #[command(subcommand)]
    Pact(pact::PactCommand),
    /// People who use the console: create (with a one-time link to choose a
    /// password, or `--password-stdin`), list, disable.
    #[command(subcommand)]
    Users(users::UsersCommand),
}

/// The PostgreSQL driver logs every statement with its parameters at `debug`
/// (API key hashes, e-mail addresses, webhook secrets…): whatever `TONNE_LOG`
/// says, it logs at `info` at most, so no secret reaches the logs.
const QUIET_DRIVER: &str = "tokio_postgres=info";

/// Logs on stderr (filtered by `TONNE_LOG`), and, with an OTLP endpoint,
/// spans exported as traces. An endpoint that does not answer is a warning:
/// the process runs without traces.
fn init_logs(
    format: LogFormat,
    otlp: Option<&str>,
    service: &str,
) -> Option<tonne_telemetry::Exporter> {
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::util::SubscriberInitExt as _;
    use tracing_subscriber::{EnvFilter, Layer as _};
    let filter = EnvFilter::try_from_env("TONNE_LOG")
        .or_else(|_| EnvFilter::try_from_default_env())
        .unwrap_or_else(|_| EnvFilter::new("info"));
    let filter = match QUIET_DRIVER.parse() {
        Ok(quiet) => filter.add_directive(quiet),
        Err(_) => filter,
    };
    let logs = match format {
        LogFormat::Text => tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .with_filter(filter)
            .boxed(),
        LogFormat::Json => tracing_subscriber::fmt::layer()
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .with_writer(std::io::stderr)
            .with_filter(filter)
            .boxed(),
    };
    let (exporter, refused) = match otlp.filter(|e| !e.trim().is_empty()) {
        None => (None, None),
        Some(endpoint) => match tonne_telemetry::Exporter::start(endpoint.trim(), service) {
            Ok(exporter) => (Some(exporter), None),
            Err(e) => (None, Some(e)),
        },
    };
    let traces = exporter.as_ref().map(tonne_telemetry::Exporter::layer);
    let _ = tracing_subscriber::registry()
        .with(logs)
        .with(traces)
        .try_init();
    if let Some(e) = refused {
        tracing::warn!("{e}");
    }
    exporter
}

/// The command line as parsed, with what it was parsed from.
pub struct Parsed {
    cli: Cli,
    /// The command definitions with the configuration file's values as defaults.
    command: clap::Command,
    /// What they made of the arguments (`config show` reads the global ones' origins).
    matches: clap::ArgMatches,
    file: Option<settings_file::SettingsFile>,
}

/// Why the command line does not parse.
pub enum ParseError {
    /// Usage errors, `--help` and `--version` (clap prints and exits).
    Usage(clap::Error),
    /// The configuration file cannot be read or holds a bad setting.
    File(anyhow::Error),
}

impl From<clap::Error> for ParseError {
    fn from(e: clap::Error) -> Self {
        Self::Usage(e)
    }
}

/// Parses `args` (the program's name first) under the configuration file
/// they or the environment name: flags, then the environment, then the file,
/// then the defaults. No command means `serve`.
pub fn parse_from(args: Vec<OsString>) -> Result<Parsed, ParseError> {
    let base = Cli::command();
    let first = base.clone().try_get_matches_from(&args)?;
    let file = match first.get_one::<PathBuf>("config") {
        Some(path) => {
            Some(settings_file::SettingsFile::load(path, &base).map_err(ParseError::File)?)
        }
        None => None,
    };
    let command = match &file {
        Some(file) => file.apply(base),
        None => base,
    };
    let mut matches = command.clone().try_get_matches_from(&args)?;
    if matches.subcommand().is_none() {
        let mut serve = args;
        serve.push("serve".into());
        matches = command.clone().try_get_matches_from(serve)?;
    }
    let cli = Cli::from_arg_matches(&matches)?;
    Ok(Parsed {
        cli,
        command,
        matches,
        file,
    })
}

/// Parses the command line and runs it.
pub fn main() -> ExitCode {
    let parsed = match parse_from(std::env::args_os().collect()) {
        Ok(parsed) => parsed,
        Err(ParseError::Usage(e)) => e.exit(),
        Err(ParseError::File(e)) => {
            eprintln!("error: {e:#}");
            return ExitCode::from(2);
        }
    };
    let exporter = init_logs(
        parsed.cli.log_format,
        parsed.cli.otlp_endpoint.as_deref(),
        &parsed.cli.otlp_service_name,
    );
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
    let outcome = runtime.block_on(run(parsed));
    if let Some(exporter) = exporter {
        exporter.shutdown();
    }
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Runs a parsed command line.
pub async fn run(parsed: Parsed) -> anyhow::Result<()> {
    let Parsed {
        cli,
        command,
        matches,
        file,
    } = parsed;
    // `parse_from` always names a command (none means `serve`).
    let Some(chosen) = cli.command else {
        anyhow::bail!("no command");
    };
    if let Command::Config(sub) = chosen {
        return config::run(sub, &command, &matches, file.as_ref());
    }
    let url = DatabaseUrl::parse(&cli.database_url)?;
    let secrets = cli.secrets_key.clone();
    match chosen {
        Command::Serve(args) => {
            serve::run(
                url,
                *args,
                secrets,
                cli.stripe.processors()?,
                cli.invoice.terms()?,
            )
            .await
        }
        Command::Invoices(command) => {
            invoices::run(&url, command, secrets, cli.invoice.terms()?).await
        }
        Command::Dispatch(args) => dispatch::run(url, args, secrets).await,
        Command::Webhooks(command) => webhooks::run(&url, command, secrets).await,
        Command::OffsetLinks(command) => offset_links::run(&url, command, secrets).await,
        Command::Organisations(command) => {
            organisations::run(&admin::services(&url, secrets).await?, command).await
        }
        Command::Users(command) => {
            users::run(&admin::services(&url, secrets).await?, command).await
        }
        Command::Pact(command) => pact::run(&admin::services(&url, secrets).await?, command).await,
        Command::Config(_) => Ok(()), // answered above, before the database URL is read
        Command::Migrate => {
            let services = admin::services(&url, secrets.clone()).await?;
            drop(services);
            println!("database {url} is up to date");
            Ok(())
        }
        Command::Backup(args) => backup::run(&url, args, secrets).await,
        Command::Bootstrap { name, json } => bootstrap(&url, &name, json, secrets).await,
        Command::Keys(command) => keys::run(&url, command, secrets).await,
        Command::Accounts(command) => accounts::run(&url, command, secrets).await,
        Command::Orders(command) => {
            orders::run(&url, command, secrets, cli.stripe.processors()?).await
        }
        Command::Catalogue(command) => catalogue::run(&url, command, secrets).await,
    }
}

/// `tonne bootstrap`: a new organisation with its pair and one key per mode.
async fn bootstrap(
    url: &DatabaseUrl,
    name: &str,
    json: bool,
    secrets: Option<String>,
) -> anyhow::Result<()> {
    let services = admin::services(url, secrets.clone()).await?;
    let out = services
        .accounts
        .bootstrap(name, &tonne_kernel::Actor::CommandLine)
        .await
        .map_err(admin::error)?;
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
