//! The configuration file's keys, sections, layering and refusals.

use super::*;
use clap::{ArgAction, value_parser};

fn cli() -> Command {
    Command::new("t")
        .arg(
            Arg::new("database_url")
                .long("database-url")
                .env("DATABASE_URL")
                .default_value("sqlite://./tonne.db")
                .global(true),
        )
        .subcommand(
            Command::new("serve")
                .arg(
                    Arg::new("workers")
                        .long("workers")
                        .env("TONNE_WORKERS")
                        .value_parser(value_parser!(usize)),
                )
                .arg(
                    Arg::new("webhook_timeout_seconds")
                        .long("webhook-timeout-seconds")
                        .env("TONNE_WEBHOOK_TIMEOUT_SECONDS")
                        .value_parser(value_parser!(u64))
                        .default_value("30"),
                )
                .arg(
                    Arg::new("no_demo")
                        .long("no-demo")
                        .env("TONNE_NO_DEMO")
                        .action(ArgAction::SetTrue),
                )
                .arg(
                    Arg::new("retry")
                        .long("webhook-retry-schedule")
                        .env("TONNE_WEBHOOK_RETRY_SCHEDULE"),
                ),
        )
}

fn parse(text: &str) -> anyhow::Result<SettingsFile> {
    SettingsFile::parse(Path::new("tonne.toml"), text, &cli())
}

#[test]
fn keys_are_variable_names_in_their_prefix_section() {
    assert_eq!(
        file_key("DATABASE_URL", true),
        (None, "database_url".into())
    );
    assert_eq!(
        file_key("TONNE_WEBHOOK_TIMEOUT_SECONDS", false),
        (Some("webhook"), "timeout_seconds".into())
    );
    assert_eq!(
        file_key("TONNE_WEBHOOKS_ALLOW_PRIVATE", false),
        (Some("webhook"), "allow_private".into())
    );
    assert_eq!(
        file_key("TONNE_PAGE_RATE_LIMIT_BURST", false),
        (Some("page_rate_limit"), "burst".into())
    );
    assert_eq!(
        file_key("TONNE_RATE_LIMIT_BURST", false),
        (Some("rate_limit"), "burst".into())
    );
    assert_eq!(
        file_key("TONNE_BIND", false),
        (Some("server"), "bind".into())
    );
}

#[test]
fn values_become_defaults_under_flags_and_environment() {
    let file = parse(
        "database_url = \"postgres://db/x\"\n[server]\nworkers = 3\nno_demo = true\n\
         [webhook]\ntimeout_seconds = 0x10\nretry_schedule = [1, 5, 60]\n",
    )
    .unwrap();
    assert_eq!(file.get("TONNE_WORKERS").unwrap().line, 3);
    assert_eq!(
        file.get("TONNE_WEBHOOK_RETRY_SCHEDULE").unwrap().text,
        "1,5,60"
    );
    let matches = file
        .apply(cli())
        .try_get_matches_from(["t", "serve"])
        .unwrap();
    let serve = matches.subcommand_matches("serve").unwrap();
    assert_eq!(serve.get_one::<usize>("workers"), Some(&3));
    assert_eq!(serve.get_one::<u64>("webhook_timeout_seconds"), Some(&16));
    assert!(serve.get_flag("no_demo"));
    assert_eq!(
        matches
            .get_one::<String>("database_url")
            .map(String::as_str),
        Some("postgres://db/x")
    );
    let flagged = file
        .apply(cli())
        .try_get_matches_from(["t", "serve", "--workers", "5"])
        .unwrap();
    let serve = flagged.subcommand_matches("serve").unwrap();
    assert_eq!(serve.get_one::<usize>("workers"), Some(&5));
    assert_eq!(
        serve.value_source("workers"),
        Some(clap::parser::ValueSource::CommandLine)
    );
}

#[test]
fn errors_name_the_key_the_file_and_the_line() {
    let unknown = parse("[server]\nworkers = 2\nworker = 3\n")
        .unwrap_err()
        .to_string();
    assert!(
        unknown.starts_with("tonne.toml:3: unknown key `server.worker`"),
        "{unknown}"
    );
    assert!(unknown.contains("workers"), "{unknown}");
    let bad = parse("\n[server]\nworkers = \"many\"\n")
        .unwrap_err()
        .to_string();
    assert!(
        bad.starts_with("tonne.toml:3: `server.workers` = \"many\": invalid value"),
        "{bad}"
    );
    let negative = parse("[webhook]\ntimeout_seconds = -1\n")
        .unwrap_err()
        .to_string();
    assert!(
        negative.starts_with("tonne.toml:2: `webhook.timeout_seconds`"),
        "{negative}"
    );
    let flag = parse("[server]\nno_demo = \"yes\"\n")
        .unwrap_err()
        .to_string();
    assert!(flag.contains("must be true or false"), "{flag}");
    let section = parse("[sever]\nworkers = 1\n").unwrap_err().to_string();
    assert!(
        section.starts_with("tonne.toml:1: unknown section [sever]"),
        "{section}"
    );
    let top = parse("workers = 1\n").unwrap_err().to_string();
    assert!(
        top.starts_with("tonne.toml:1: unknown key `workers`"),
        "{top}"
    );
    let kind = parse("[server]\nworkers = 1979-05-27\n")
        .unwrap_err()
        .to_string();
    assert!(kind.contains("must be a string, a number"), "{kind}");
}

#[test]
fn a_file_that_does_not_parse_or_sets_a_key_twice_is_refused() {
    let twice = parse("[server]\nworkers = 2\nworkers = 3\n")
        .unwrap_err()
        .to_string();
    assert!(
        twice.contains("tonne.toml") && twice.contains("duplicate key"),
        "{twice}"
    );
    assert!(twice.contains("line 3"), "{twice}");
    let broken = parse("[server\n").unwrap_err().to_string();
    assert!(
        broken.contains("tonne.toml") && broken.contains("line 1"),
        "{broken}"
    );
}
