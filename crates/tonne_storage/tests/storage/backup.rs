//! The files that hold a SQLite database: backups taken while writers run
//! (`Db::backup`), and the database's own mode (0600, with its `-wal`/`-shm`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use diesel::connection::SimpleConnection as _;
use diesel::{Connection as _, RunQueryDsl as _, SqliteConnection};
use tonne_storage::{BackupError, Conn, DatabaseUrl, Db, PoolSettings};
use tonne_test_support::TestDb;

#[derive(diesel::QueryableByName)]
struct Count {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    n: i64,
}

#[derive(diesel::QueryableByName)]
struct Text {
    #[diesel(sql_type = diesel::sql_types::Text)]
    value: String,
}

/// The directory of a SQLite test database (removed with it).
fn dir_of(t: &TestDb) -> PathBuf {
    let path = t.url().strip_prefix("sqlite://").unwrap();
    Path::new(path).parent().unwrap().to_owned()
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

/// One write: two organisations in one transaction (`a-N` and `b-N`), so a
/// copy that tore a transaction would hold one without the other.
async fn write_pair(db: &Db, n: u64) {
    db.transaction(move |conn| {
        Box::pin(async move {
            for side in ["a", "b"] {
                let insert = diesel::sql_query(format!(
                    "INSERT INTO organisations (id, name, created_at) \
                     VALUES ('{side}-{n}', 'pair', CURRENT_TIMESTAMP)"
                ));
                match &mut *conn {
                    Conn::Pg(c) => diesel_async::RunQueryDsl::execute(insert, &mut **c).await?,
                    Conn::Sqlite(c) => diesel_async::RunQueryDsl::execute(insert, &mut **c).await?,
                };
            }
            Ok(())
        })
    })
    .await
    .unwrap();
}

fn count(conn: &mut SqliteConnection, sql: &str) -> i64 {
    diesel::sql_query(sql)
        .get_result::<Count>(conn)
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_backup_taken_while_writers_run_holds_every_committed_transaction_whole() {
    let t = TestDb::sqlite();
    let db = t.db().clone();
    // Four writers commit pairs until told to stop; `acked` is how many
    // pairs (0..acked) have committed, in order, per writer.
    let stop = Arc::new(AtomicBool::new(false));
    let acked: Vec<Arc<AtomicU64>> = (0..4).map(|_| Arc::new(AtomicU64::new(0))).collect();
    let mut writers = Vec::new();
    for (w, done) in acked.iter().enumerate() {
        let (db, stop, done) = (db.clone(), Arc::clone(&stop), Arc::clone(done));
        writers.push(tokio::spawn(async move {
            let mut i = 0_u64;
            while !stop.load(Ordering::SeqCst) {
                write_pair(&db, u64::try_from(w).unwrap() * 1_000_000 + i).await;
                i += 1;
                done.store(i, Ordering::SeqCst);
            }
        }));
    }
    while acked.iter().map(|a| a.load(Ordering::SeqCst)).sum::<u64>() < 200 {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let before: Vec<u64> = acked.iter().map(|a| a.load(Ordering::SeqCst)).collect();
    let target = dir_of(&t).join("copy.db");
    let backup = db.backup(&target).await.unwrap();
    let after: u64 = acked.iter().map(|a| a.load(Ordering::SeqCst)).sum();
    stop.store(true, Ordering::SeqCst);
    for w in writers {
        w.await.unwrap();
    }
    assert!(
        after > before.iter().sum::<u64>(),
        "the writers kept committing while the backup ran"
    );

    assert_eq!(backup.path, target);
    assert_eq!(mode(&target), "600", "the backup is its owner's only");
    assert!(backup.bytes > 0);
    let mut copy = SqliteConnection::establish(target.to_str().unwrap()).unwrap();
    let journal = diesel::sql_query("PRAGMA journal_mode")
        .get_result::<JournalMode>(&mut copy)
        .unwrap();
    assert_eq!(journal.journal_mode, "delete", "one self-contained file");
    let check = diesel::sql_query("PRAGMA integrity_check")
        .load::<IntegrityCheck>(&mut copy)
        .unwrap();
    assert_eq!(check.len(), 1);
    assert_eq!(check[0].integrity_check, "ok");
    // Every pair acknowledged before the backup began is in it, and no pair is torn.
    for (w, n) in before.iter().enumerate() {
        for i in 0..*n {
            let id = u64::try_from(w).unwrap() * 1_000_000 + i;
            let found = count(
                &mut copy,
                &format!(
                    "SELECT count(*) AS n FROM organisations WHERE id IN ('a-{id}', 'b-{id}')"
                ),
            );
            assert_eq!(found, 2, "pair {id} was committed before the backup began");
        }
    }
    let a = count(
        &mut copy,
        "SELECT count(*) AS n FROM organisations WHERE id LIKE 'a-%'",
    );
    let b = count(
        &mut copy,
        "SELECT count(*) AS n FROM organisations WHERE id LIKE 'b-%'",
    );
    assert_eq!(a, b, "no transaction is torn in the copy");
    assert!(
        a >= i64::try_from(before.iter().sum::<u64>()).unwrap(),
        "{a} pairs"
    );
    // The copy opens as a Tonne database with nothing to migrate.
    drop(copy);
    let restored = Db::connect(
        &DatabaseUrl::Sqlite(target.clone()),
        PoolSettings::default(),
    )
    .unwrap();
    assert_eq!(restored.migrate().unwrap(), Vec::<String>::new());
}

#[derive(diesel::QueryableByName)]
struct JournalMode {
    #[diesel(sql_type = diesel::sql_types::Text)]
    journal_mode: String,
}

#[derive(diesel::QueryableByName)]
struct IntegrityCheck {
    #[diesel(sql_type = diesel::sql_types::Text)]
    integrity_check: String,
}

#[tokio::test]
async fn a_backup_never_overwrites_a_file() {
    let t = TestDb::sqlite();
    let target = dir_of(&t).join("taken.db");
    std::fs::write(&target, "keep me").unwrap();
    let err = t.db().backup(&target).await.unwrap_err();
    assert!(
        matches!(err, BackupError::Exists(ref p) if p == &target),
        "{err}"
    );
    assert!(err.to_string().contains("never overwrites"), "{err}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
    // A directory that does not exist: named, nothing left behind.
    let missing = dir_of(&t).join("no-such-dir").join("x.db");
    let err = t.db().backup(&missing).await.unwrap_err();
    assert!(matches!(err, BackupError::Create { .. }), "{err}");
}

#[tokio::test]
async fn postgres_is_backed_up_with_pg_dump() {
    let Some(t) = TestDb::postgres() else {
        return;
    };
    let target = std::env::temp_dir().join(format!("tonne-pg-{}.db", uuid::Uuid::new_v4()));
    let err = t.db().backup(&target).await.unwrap_err();
    assert!(matches!(err, BackupError::Postgres), "{err}");
    assert!(err.to_string().contains("pg_dump"), "{err}");
    assert!(!target.exists(), "nothing written");
}

#[tokio::test]
async fn a_new_database_and_its_wal_are_readable_by_their_owner_only() {
    let t = TestDb::sqlite();
    let path = dir_of(&t).join("fresh.db");
    let db = Db::connect(&DatabaseUrl::Sqlite(path.clone()), PoolSettings::default()).unwrap();
    db.migrate().unwrap();
    // While connections are open, SQLite keeps the -wal and -shm files.
    db.query(|conn| {
        Box::pin(async move {
            let select = diesel::sql_query("SELECT 'x' AS value");
            match conn {
                Conn::Pg(c) => {
                    diesel_async::RunQueryDsl::get_result::<Text>(select, &mut **c).await
                }
                Conn::Sqlite(c) => {
                    diesel_async::RunQueryDsl::get_result::<Text>(select, &mut **c).await
                }
            }
            .map(|t| t.value)
        })
    })
    .await
    .unwrap();
    assert_eq!(mode(&path), "600");
    for suffix in ["-wal", "-shm"] {
        let companion = beside(&path, suffix);
        assert!(companion.exists(), "{suffix} exists in WAL mode");
        assert_eq!(mode(&companion), "600", "{suffix}");
    }
}

#[test]
fn an_existing_database_readable_by_others_is_tightened() {
    let t = TestDb::sqlite();
    let path = dir_of(&t).join("old.db");
    {
        let mut conn = SqliteConnection::establish(path.to_str().unwrap()).unwrap();
        conn.batch_execute(
            "PRAGMA journal_mode = WAL; CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);",
        )
        .unwrap();
        // Keep the -wal: a second connection holds it open while the mode changes.
        for file in [path.clone(), beside(&path, "-wal")] {
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        Db::connect(&DatabaseUrl::Sqlite(path.clone()), PoolSettings::default()).unwrap();
        assert_eq!(mode(&path), "600");
        assert_eq!(mode(&beside(&path, "-wal")), "600");
    }
}
