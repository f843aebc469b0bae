//! The admin CLI, run as the real binary.

use std::process::Command;

use serde_json::Value;
use tonne_test_support::TestDb;

/// Runs `tonne ARGS --database-url URL` and returns its stdout; panics on failure.
pub fn tonne(args: &[&str], database_url: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tonne"))
        .args(args)
        .args(["--database-url", database_url])
        .env_remove("DATABASE_URL")
        .output()
        .expect("run tonne");
    assert!(
        out.status.success(),
        "tonne {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The arguments of `tonne orders advance {id} --to complete
/// --registry-serial {serial}`.
pub(crate) fn complete_with_serial<'a>(id: &'a str, serial: &'a str) -> [&'a str; 7] {
    [
        "orders",
        "advance",
        id,
        "--to",
        "complete",
        "--registry-serial",
        serial,
    ]
}

fn tonne_fails(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tonne"))
        .args(args)
        .env_remove("DATABASE_URL")
        .output()
        .expect("run tonne");
    assert!(!out.status.success(), "tonne {args:?} should fail");
    String::from_utf8(out.stderr).unwrap()
}

fn bootstrap_twice_gives_two_tenants_and_keys_can_be_managed(db: &TestDb) {
    let url = db.url();
    tonne(&["migrate"], url);
    let first: Value = serde_json::from_str(&tonne(&["bootstrap", "--json"], url)).unwrap();
    let second: Value = serde_json::from_str(&tonne(&["bootstrap", "--json"], url)).unwrap();
    assert_ne!(first["organisation_id"], second["organisation_id"]);
    assert!(
        first["live"]["api_key"]
            .as_str()
            .unwrap()
            .starts_with("tonne_live_")
    );
    assert!(
        first["test"]["api_key"]
            .as_str()
            .unwrap()
            .starts_with("tonne_test_")
    );
    assert!(first["live"]["account_id"].is_string() && first["test"]["account_id"].is_string());

    let org = first["organisation_id"].as_str().unwrap();
    let created: Value = serde_json::from_str(&tonne(
        &[
            "keys",
            "create",
            "--organisation",
            org,
            "--mode",
            "test",
            "--json",
        ],
        url,
    ))
    .unwrap();
    assert_eq!(created["account_id"], first["test"]["account_id"]);
    let listed: Value = serde_json::from_str(&tonne(
        &["keys", "list", "--organisation", org, "--json"],
        url,
    ))
    .unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 3);
    let listed_text = tonne(&["keys", "list", "--organisation", org], url);
    assert!(
        !listed_text.contains(created["api_key"].as_str().unwrap()),
        "secrets are never listed"
    );
    let revoked = tonne(&["keys", "revoke", created["id"].as_str().unwrap()], url);
    assert!(revoked.contains("revoked"));
    let listed: Value = serde_json::from_str(&tonne(
        &["keys", "list", "--organisation", org, "--json"],
        url,
    ))
    .unwrap();
    assert_eq!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .filter(|k| k["revoked"] == true)
            .count(),
        1
    );

    // A key pinned to another organisation's account is refused.
    let other_account = second["live"]["account_id"].as_str().unwrap();
    let err = tonne_fails(&[
        "keys",
        "create",
        "--organisation",
        org,
        "--mode",
        "live",
        "--account",
        other_account,
        "--database-url",
        url,
    ]);
    assert!(err.contains("account not found"), "{err}");
}

#[test]
fn cli_on_sqlite() {
    bootstrap_twice_gives_two_tenants_and_keys_can_be_managed(&TestDb::sqlite());
}

#[test]
fn cli_on_postgres() {
    if let Some(db) = TestDb::postgres() {
        bootstrap_twice_gives_two_tenants_and_keys_can_be_managed(&db);
    }
}

#[test]
fn bad_database_urls_fail_at_start_naming_the_cause() {
    let err = tonne_fails(&["migrate", "--database-url", "mysql://localhost/x"]);
    assert!(
        err.contains("unsupported database URL scheme `mysql`"),
        "{err}"
    );
    let err = tonne_fails(&[
        "migrate",
        "--database-url",
        "postgres://nobody@127.0.0.1:1/none",
    ]);
    assert!(
        err.contains("cannot connect to postgres://nobody@127.0.0.1:1/none"),
        "{err}"
    );
    let err = tonne_fails(&["migrate", "--database-url", "/nonexistent-dir/x/tonne.db"]);
    assert!(
        err.contains("cannot connect to sqlite:///nonexistent-dir/x/tonne.db"),
        "{err}"
    );
}

#[test]
fn every_command_has_help() {
    for args in [
        vec!["--help"],
        vec!["serve", "--help"],
        vec!["migrate", "--help"],
        vec!["backup", "--help"],
        vec!["bootstrap", "--help"],
        vec!["keys", "--help"],
        vec!["keys", "create", "--help"],
        vec!["keys", "list", "--help"],
        vec!["keys", "revoke", "--help"],
        vec!["offset-links", "analytics-url", "--help"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_tonne"))
            .args(&args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("Usage"),
            "{args:?}"
        );
    }
}

/// `tonne serve` as a real process: JSON logs carry the request id of the
/// request they describe, and SIGTERM stops it cleanly (exit 0).
#[test]
fn serve_logs_json_with_request_ids_and_stops_on_sigterm() {
    use std::io::{BufReader, Read as _, Write as _};
    use std::process::Stdio;

    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("serve.db").display());
    let mut child = Command::new(env!("CARGO_BIN_EXE_tonne"))
        .args(["serve", "--bind", "127.0.0.1:0", "--database-url", &url])
        .env("TONNE_METRICS_BIND", "127.0.0.1:0")
        .env("TONNE_LOG_FORMAT", "json")
        .env("TONNE_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // kept open to the end of the test: the server may write on
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let (addr, key, _) = crate::support::process::read_banner(&mut stdout);

    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    write!(
        stream,
        "GET /v1/accounts/me HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {key}\r\nX-Request-Id: trace-me-42\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(
        response
            .to_ascii_lowercase()
            .contains("x-request-id: trace-me-42")
    );

    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    assert!(
        exit.success(),
        "SIGTERM should stop the server cleanly: {exit:?}"
    );
    let mut logs = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut logs)
        .unwrap();
    let entries: Vec<Value> = logs
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert!(
        !entries.is_empty() && entries.len() == logs.lines().count(),
        "every log line is JSON:\n{logs}"
    );
    let finished = entries
        .iter()
        .find(|e| {
            e["fields"]["message"] == "request finished" && e["span"]["request_id"] == "trace-me-42"
        })
        .unwrap_or_else(|| panic!("no request line with the request id:\n{logs}"));
    assert_eq!(finished["fields"]["status"], 200);
    assert!(entries.iter().any(|e| e["fields"]["message"] == "stopped"));
}

/// CLI writes against a running server's database while the server writes
/// without pause: every command waits its turn for the write lock (on SQLite a
/// write transaction takes it at `BEGIN`), none answers `database is locked`,
/// and none of the server's writes fails either.
async fn cli_writes_wait_their_turn_under_server_write_load(db: TestDb) {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    use serde_json::json;

    const WRITERS: usize = 16;
    const CLI_THREADS: usize = 4;
    const COMMANDS_EACH: usize = 20;

    let app = crate::support::TestApp::spawn(db).await;
    let tenant = app.tenant().await;
    let stop = Arc::new(AtomicBool::new(false));
    let mut load = Vec::new();
    for _ in 0..WRITERS {
        let client = app.client.clone();
        let url = format!("{}/v1/estimates/flight", app.base);
        let key = tenant.live_key.clone();
        let stop = Arc::clone(&stop);
        load.push(tokio::spawn(async move {
            let (mut written, mut failed) = (0_usize, Vec::new());
            while !stop.load(Ordering::Relaxed) {
                let res = client
                    .post(&url)
                    .bearer_auth(&key)
                    .json(&json!({"route": {"amount": "800", "unit": "km"}}))
                    .send()
                    .await
                    .expect("request sent");
                let status = res.status();
                if status == 200 {
                    written += 1;
                } else {
                    failed.push(format!(
                        "{status}: {}",
                        res.text().await.unwrap_or_default()
                    ));
                }
            }
            (written, failed)
        }));
    }

    let cli = (0..CLI_THREADS)
        .map(|thread| {
            let url = app.database_url.clone();
            let organisation = tenant.organisation_id.clone();
            std::thread::spawn(move || {
                (0..COMMANDS_EACH)
                    .filter_map(|i| {
                        let out = Command::new(env!("CARGO_BIN_EXE_tonne"))
                            .args(["users", "create", "--organisation", &organisation])
                            .args(["--email", &format!("waits-{thread}-{i}@example.com")])
                            .args(["--database-url", &url])
                            .env_remove("DATABASE_URL")
                            .env_remove("TONNE_CONFIG")
                            // the server's key (TestApp's): no key file beside the database
                            .env("TONNE_SECRETS_KEY", "ab".repeat(32))
                            .output()
                            .expect("run tonne");
                        (!out.status.success())
                            .then(|| String::from_utf8_lossy(&out.stderr).into_owned())
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect::<Vec<_>>();
    let cli_failures = tokio::task::spawn_blocking(move || {
        cli.into_iter()
            .flat_map(|t| t.join().expect("CLI thread"))
            .collect::<Vec<_>>()
    })
    .await
    .unwrap();
    stop.store(true, Ordering::Relaxed);
    let (mut written, mut server_failures) = (0, Vec::new());
    for task in load {
        let (w, f) = task.await.unwrap();
        written += w;
        server_failures.extend(f);
    }

    assert!(
        cli_failures.is_empty() && server_failures.is_empty(),
        "{} of {} CLI writes and {} of the server's writes failed, e.g. {:?}",
        cli_failures.len(),
        CLI_THREADS * COMMANDS_EACH,
        server_failures.len(),
        cli_failures.first().or(server_failures.first())
    );
    assert!(written > 0, "the server wrote meanwhile");
    let listed = tonne(&["users", "list"], &app.database_url);
    assert_eq!(
        listed.matches("@example.com").count(),
        CLI_THREADS * COMMANDS_EACH,
        "{listed}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cli_writes_wait_their_turn_on_sqlite() {
    cli_writes_wait_their_turn_under_server_write_load(TestDb::sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cli_writes_wait_their_turn_on_postgres() {
    if let Some(db) = TestDb::postgres() {
        cli_writes_wait_their_turn_under_server_write_load(db).await;
    }
}
