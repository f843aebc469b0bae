//! Data at rest: `tonne backup` taken while the server takes orders restores
//! every acknowledged order with its events; the SQLite database, its
//! `-wal`/`-shm` and its secrets key file are their owner's only.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use diesel::{Connection as _, RunQueryDsl as _, SqliteConnection};
use serde_json::json;
use tonne_test_support::TestDb;

use crate::support::TestApp;
use crate::support::process::free_port;

/// The key `TestApp` seals webhook secrets with.
fn test_key() -> String {
    "ab".repeat(32)
}

/// `tonne backup FILE --database-url URL [--secrets-key K]`, run as the binary.
fn backup(file: &Path, database_url: &str, key: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tonne"));
    cmd.arg("backup")
        .arg(file)
        .args(["--database-url", database_url])
        .env_remove("DATABASE_URL")
        .env_remove("TONNE_SECRETS_KEY")
        .env_remove("TONNE_CONFIG");
    if let Some(key) = key {
        cmd.args(["--secrets-key", key]);
    }
    cmd.output().expect("run tonne backup")
}

/// The file's permission bits, in octal (`"600"`).
fn mode(path: &Path) -> String {
    format!(
        "{:o}",
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    )
}

fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

#[derive(diesel::QueryableByName)]
struct Count {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    n: i64,
}

#[derive(diesel::QueryableByName)]
struct Check {
    #[diesel(sql_type = diesel::sql_types::Text)]
    integrity_check: String,
}

#[derive(diesel::QueryableByName)]
struct Sealed {
    #[diesel(sql_type = diesel::sql_types::Text)]
    secret_sealed: String,
}

fn count(conn: &mut SqliteConnection, sql: &str) -> i64 {
    diesel::sql_query(sql)
        .get_result::<Count>(conn)
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .n
}

/// An order acknowledged (200) by the server, and when its answer arrived.
type Acked = Arc<Mutex<Vec<(String, Instant)>>>;

async fn place_until(app: Arc<TestApp>, key: String, stop: Arc<AtomicBool>, acked: Acked) {
    let mut n = 0;
    while !stop.load(Ordering::SeqCst) {
        n += 1;
        let res = app.order_tonnes(&key, "0.1").await;
        assert_eq!(res.status, 200, "order {n}: {}", res.body);
        let id = res.body["id"].as_str().unwrap().to_owned();
        acked.lock().unwrap().push((id, Instant::now()));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_backup_under_concurrent_orders_holds_every_acknowledged_order_and_event() {
    let db = TestDb::sqlite();
    let url = db.url().to_owned();
    // Test-mode orders move by themselves: transitions write events during the backup too.
    let app = TestApp::spawn_with(db, |o| o.test_order_step = Duration::from_millis(100)).await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let hook = app
        .post(
            "/v1/webhooks",
            &t.test_key,
            &json!({"url": "http://127.0.0.1:9/tonne"}),
        )
        .await;
    assert_eq!(hook.status, 200, "{}", hook.body);
    let hook_id = hook.body["id"].as_str().unwrap().to_owned();

    let app = Arc::new(app);
    let stop = Arc::new(AtomicBool::new(false));
    let acked: Acked = Arc::default();
    let placers: Vec<_> = (0..4)
        .map(|_| {
            tokio::spawn(place_until(
                Arc::clone(&app),
                t.test_key.clone(),
                Arc::clone(&stop),
                Arc::clone(&acked),
            ))
        })
        .collect();
    while acked.lock().unwrap().len() < 40 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("tonne-backup.db");
    let started = Instant::now();
    let out = {
        let (copy, url) = (copy.clone(), url.clone());
        let key = test_key();
        tokio::task::spawn_blocking(move || backup(&copy, &url, Some(&key)))
            .await
            .unwrap()
    };
    let finished = Instant::now();
    // Let a few more orders through, then stop.
    tokio::time::sleep(Duration::from_millis(100)).await;
    stop.store(true, Ordering::SeqCst);
    for p in placers {
        p.await.unwrap();
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "tonne backup failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("integrity_check ok"), "{stdout}");
    assert!(
        stdout.contains("keep with it the TONNE_SECRETS_KEY"),
        "it names what the backup lacks: {stdout}"
    );
    let acked = acked.lock().unwrap().clone();
    let during = acked
        .iter()
        .filter(|(_, at)| *at > started && *at < finished)
        .count();
    assert!(during > 0, "orders were acknowledged while the backup ran");
    let before: Vec<&String> = acked
        .iter()
        .filter(|(_, at)| *at < started)
        .map(|(id, _)| id)
        .collect();
    assert!(before.len() >= 40);

    assert_eq!(mode(&copy), "600", "the copy is its owner's only");
    let mut conn = SqliteConnection::establish(copy.to_str().unwrap()).unwrap();
    let check = diesel::sql_query("PRAGMA integrity_check")
        .load::<Check>(&mut conn)
        .unwrap();
    assert_eq!(
        check
            .iter()
            .map(|c| c.integrity_check.as_str())
            .collect::<Vec<_>>(),
        ["ok"]
    );
    for id in &before {
        assert_eq!(
            count(
                &mut conn,
                &format!("SELECT count(*) AS n FROM orders WHERE id = '{id}'")
            ),
            1,
            "order {id} was acknowledged before the backup began"
        );
        assert_eq!(
            count(
                &mut conn,
                &format!(
                    "SELECT count(*) AS n FROM order_events \
                     WHERE order_id = '{id}' AND event_type = 'order.received'"
                )
            ),
            1,
            "the outbox event of order {id}"
        );
    }
    // One snapshot: the account's events run 1..=last with no gap, the last
    // being the counter's, and every order in the copy has its event.
    let account = &t.test_account;
    let events = count(
        &mut conn,
        &format!("SELECT count(*) AS n FROM order_events WHERE account_id = '{account}'"),
    );
    let highest = count(
        &mut conn,
        &format!("SELECT max(sequence) AS n FROM order_events WHERE account_id = '{account}'"),
    );
    let counter = count(
        &mut conn,
        &format!(
            "SELECT last_sequence AS n FROM account_event_sequences WHERE account_id = '{account}'"
        ),
    );
    assert_eq!((events, highest), (counter, counter));
    assert_eq!(
        count(
            &mut conn,
            "SELECT count(*) AS n FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_events e \
             WHERE e.order_id = o.id AND e.event_type = 'order.received')"
        ),
        0
    );
    // The webhook is there, and its secret opens with the key kept beside the copy.
    let sealed = diesel::sql_query(format!(
        "SELECT secret_sealed FROM webhooks WHERE id = '{hook_id}'"
    ))
    .get_result::<Sealed>(&mut conn)
    .unwrap();
    let key = tonne_storage::SecretsKey::parse(&test_key()).unwrap();
    assert!(key.open(&sealed.secret_sealed, &hook_id).is_ok());
    drop(conn);

    // A second backup to the same name is refused; the copy is untouched.
    let size = std::fs::metadata(&copy).unwrap().len();
    let again = backup(&copy, &url, None);
    assert!(!again.status.success());
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(stderr.contains("never overwrites"), "{stderr}");
    assert_eq!(std::fs::metadata(&copy).unwrap().len(), size);

    // Restore as docs/operations.md says (the copy in place with mode 0600,
    // the same key, start): every order acknowledged before the backup
    // answers, and so does the webhook.
    let restored = dir.path().join("restored.db");
    std::fs::copy(&copy, &restored).unwrap();
    std::fs::set_permissions(&restored, std::fs::Permissions::from_mode(0o600)).unwrap();
    let port = free_port();
    let _server = serve(&restored, &format!("127.0.0.1:{port}"), Some(&test_key()));
    let base = format!("http://127.0.0.1:{port}");
    let start = Instant::now();
    loop {
        let ready = app.client.get(format!("{base}/ready")).send().await;
        if ready.is_ok_and(|r| r.status() == 200) {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the restored server did not start"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for path in before
        .iter()
        .map(|id| format!("/v1/orders/{id}"))
        .chain([format!("/v1/webhooks/{hook_id}")])
    {
        let res = app
            .client
            .get(format!("{base}{path}"))
            .bearer_auth(&t.test_key)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "{path} on the restored server");
    }
}

/// `tonne serve` on a SQLite file (no demo, no rate limit to speak of),
/// killed when dropped.
fn serve(database: &Path, bind: &str, key: Option<&str>) -> Serving {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tonne"));
    cmd.args(["serve", "--bind", bind, "--no-demo"])
        // tests run side by side: the metrics listener takes any free port
        .env("TONNE_METRICS_BIND", "127.0.0.1:0")
        .args([
            "--rate-limit-per-second",
            "100000",
            "--rate-limit-burst",
            "100000",
        ])
        .arg("--database-url")
        .arg(format!("sqlite://{}", database.display()))
        .env_remove("DATABASE_URL")
        .env_remove("TONNE_SECRETS_KEY")
        .env_remove("TONNE_CONFIG")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(key) = key {
        cmd.args(["--secrets-key", key]);
    }
    Serving(cmd.spawn().expect("start tonne serve"))
}

/// `tonne serve` started on a new path, killed when dropped.
struct Serving(std::process::Child);

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_first_start_creates_the_database_its_wal_and_key_for_their_owner_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tonne.db");
    let url = format!("sqlite://{}", path.display());
    let _server = serve(&path, "127.0.0.1:0", None);
    // The key file is written after the database is opened and migrated.
    let key_file = beside(&path, ".secrets-key");
    let start = Instant::now();
    while std::fs::metadata(&key_file).map_or(true, |m| m.len() == 0) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the server made no key file"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(mode(&path), "600", "the database");
    assert_eq!(mode(&key_file), "600", "the secrets key file");
    for suffix in ["-wal", "-shm"] {
        let companion = beside(&path, suffix);
        if companion.exists() {
            assert_eq!(mode(&companion), "600", "{suffix}");
        }
    }
    // A backup of it names the key file it lacks.
    let out = backup(&dir.path().join("copy.db"), &url, None);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(&format!("the secrets key file {}", key_file.display())),
        "{stdout}"
    );
}

#[test]
fn on_postgres_the_backup_is_pg_dumps_job() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x.dump");
    // Refused before any connection: the procedure, and a failure status.
    let out = backup(&file, "postgres://nobody@127.0.0.1:1/none", None);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    for needed in [
        "pg_dump --format=custom",
        "pg_restore",
        "TONNE_SECRETS_KEY",
        "WAL archiving",
    ] {
        assert!(stderr.contains(needed), "{needed}: {stderr}");
    }
    assert!(!file.exists());
    // Nor does it create a SQLite database that does not exist.
    let missing = dir.path().join("none.db");
    let out = backup(&file, &format!("sqlite://{}", missing.display()), None);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no SQLite database at"));
    assert!(!missing.exists() && !file.exists());
}
