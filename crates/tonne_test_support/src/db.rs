//! `TestDb`: an isolated database for one test — a fresh SQLite file, or a
//! PostgreSQL database cloned from a migrated template.

use std::sync::{Mutex, OnceLock};

use diesel::connection::SimpleConnection as _;
use diesel::{Connection as _, RunQueryDsl as _};

/// PostgreSQL's administration connection: diesel-async's, seen as a blocking
/// one (no libpq).
type Admin =
    diesel_async::async_connection_wrapper::AsyncConnectionWrapper<diesel_async::AsyncPgConnection>;

/// Runs `work` on an administration connection, on a thread of its own: the
/// wrapper drives its connection with a runtime of its own, which must not
/// run inside a test's.
fn with_admin<T: Send>(
    url: &str,
    work: impl FnOnce(&mut Admin) -> T + Send,
) -> diesel::ConnectionResult<T> {
    std::thread::scope(|scope| {
        scope
            .spawn(|| Admin::establish(url).map(|mut c| work(&mut c)))
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}
use tonne_storage::{DatabaseUrl, Db, PoolSettings};

/// The environment variable naming a PostgreSQL server for tests, e.g.
/// `postgres://postgres@127.0.0.1:5432/test`. The database it names is used only
/// to create and drop per-test databases.
pub const POSTGRES_ENV: &str = "TONNE_TEST_POSTGRES_URL";

/// The PostgreSQL admin URL, if configured.
pub fn postgres_url() -> Option<String> {
    std::env::var(POSTGRES_ENV)
        .ok()
        .filter(|v| !v.trim().is_empty())
}

/// Whether PostgreSQL tests must run: under `CI=true` a missing server is a failure, not a skip.
pub fn require_postgres() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// An isolated, migrated database that disappears when dropped.
pub struct TestDb {
    db: Db,
    url: String,
    cleanup: Cleanup,
}

enum Cleanup {
    Sqlite(#[allow(dead_code)] tempfile::TempDir),
    Postgres { admin_url: String, name: String },
}

impl TestDb {
    /// A fresh SQLite database in a temporary directory.
    pub fn sqlite() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("tonne-test.db");
        let url = format!("sqlite://{}", path.display());
        let db =
            Db::connect(&DatabaseUrl::Sqlite(path), PoolSettings::default()).expect("open sqlite");
        db.migrate().expect("migrate sqlite");
        Self {
            db,
            url,
            cleanup: Cleanup::Sqlite(dir),
        }
    }

    /// A fresh PostgreSQL database cloned from a migrated template, or `None` when
    /// `TONNE_TEST_POSTGRES_URL` is unset (and `CI` is not `true`: then it panics).
    pub fn postgres() -> Option<Self> {
        let Some(admin_url) = postgres_url() else {
            assert!(
                !require_postgres(),
                "CI=true but {POSTGRES_ENV} is not set: the PostgreSQL suite is mandatory in CI"
            );
            eprintln!("note: {POSTGRES_ENV} is not set; skipping the PostgreSQL variant");
            return None;
        };
        let template = template(&admin_url);
        let name = format!(
            "tonne_test_{}_{}",
            std::process::id(),
            uuid::Uuid::new_v4().simple()
        );
        {
            let _serial = CREATE_LOCK.lock().unwrap_or_else(|p| p.into_inner());
            with_admin(&admin_url, |admin| {
                admin
                    .batch_execute(&format!(
                        "CREATE DATABASE \"{name}\" TEMPLATE \"{template}\""
                    ))
                    .expect("clone the template database");
            })
            .expect("connect to the test server");
        }
        let url = with_database(&admin_url, &name);
        let db = Db::connect(
            &DatabaseUrl::Postgres(url.clone()),
            PoolSettings {
                max_size: 8,
                ..PoolSettings::default()
            },
        )
        .expect("open the cloned database");
        Some(Self {
            db,
            url,
            cleanup: Cleanup::Postgres { admin_url, name },
        })
    }

    /// The pooled handle.
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// The URL, for a server process or the CLI.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Cleanup::Postgres { admin_url, name } = &self.cleanup {
            let _ = with_admin(admin_url, |admin| {
                admin.batch_execute(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
            });
        }
    }
}

static CREATE_LOCK: Mutex<()> = Mutex::new(());
static TEMPLATE: OnceLock<String> = OnceLock::new();

/// Replaces the database name in a PostgreSQL URL.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let host_part = base.get(scheme_end..).unwrap_or_default();
    let prefix = match host_part.find('/') {
        Some(slash) => base.get(..scheme_end + slash).unwrap_or(base),
        None => base,
    };
    match query {
        Some(q) => format!("{prefix}/{name}?{q}"),
        None => format!("{prefix}/{name}"),
    }
}

/// Once per process: the migrated template (named after this build's migrations,
/// created under an advisory lock so parallel test processes agree), after sweeping
/// databases left by test processes that no longer run.
fn template(admin_url: &str) -> String {
    TEMPLATE
        .get_or_init(|| {
            let name = format!("tonne_tpl_{}", migrations_fingerprint());
            with_admin(admin_url, |admin| build_template(admin, admin_url, &name))
                .expect("connect to the test server");
            name
        })
        .clone()
}

/// Creates the template `name` unless it exists, under an advisory lock.
fn build_template(admin: &mut Admin, admin_url: &str, name: &str) {
    admin
        .batch_execute("SELECT pg_advisory_lock(7461746)")
        .expect("lock");
    sweep_leftovers(admin);
    let exists: bool = diesel::select(diesel::dsl::sql::<diesel::sql_types::Bool>(&format!(
        "EXISTS (SELECT 1 FROM pg_database WHERE datname = '{name}')"
    )))
    .get_result(admin)
    .expect("query pg_database");
    if !exists {
        let building = format!("{name}_building");
        admin
            .batch_execute(&format!(
                "DROP DATABASE IF EXISTS \"{building}\" WITH (FORCE)"
            ))
            .expect("drop a half-built template");
        admin
            .batch_execute(&format!("CREATE DATABASE \"{building}\""))
            .expect("create the template");
        {
            let db = Db::connect(
                &DatabaseUrl::Postgres(with_database(admin_url, &building)),
                PoolSettings {
                    max_size: 1,
                    ..PoolSettings::default()
                },
            )
            .expect("open the template");
            db.migrate().expect("migrate the template");
        }
        admin
            .batch_execute(&format!(
                "ALTER DATABASE \"{building}\" RENAME TO \"{name}\""
            ))
            .expect("publish the template");
    }
    admin
        .batch_execute("SELECT pg_advisory_unlock(7461746)")
        .expect("unlock");
}

fn sweep_leftovers(admin: &mut Admin) {
    #[derive(diesel::QueryableByName)]
    struct Name {
        #[diesel(sql_type = diesel::sql_types::Text)]
        datname: String,
    }
    let names: Vec<Name> =
        diesel::sql_query("SELECT datname FROM pg_database WHERE datname LIKE 'tonne\\_test\\_%'")
            .load(admin)
            .unwrap_or_default();
    for Name { datname } in names {
        let pid = datname
            .split('_')
            .nth(2)
            .and_then(|p| p.parse::<u32>().ok());
        let alive = pid.is_some_and(|p| std::path::Path::new(&format!("/proc/{p}")).exists());
        if !alive {
            let _ = admin.batch_execute(&format!(
                "DROP DATABASE IF EXISTS \"{datname}\" WITH (FORCE)"
            ));
        }
    }
}

/// A short hash of the PostgreSQL migration files, so a changed migration gets a new template.
fn migrations_fingerprint() -> String {
    use std::hash::{Hash as _, Hasher as _};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../migrations/postgres");
    let mut entries: Vec<_> = walk(&root);
    entries.sort();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for path in entries {
        path.to_string_lossy().hash(&mut hasher);
        std::fs::read(&path).unwrap_or_default().hash(&mut hasher);
    }
    format!("{:016x}", hasher.finish())
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    if let Ok(read) = std::fs::read_dir(dir) {
        for entry in read.flatten() {
            let path = entry.path();
            if path.is_dir() {
                out.extend(walk(&path));
            } else {
                out.push(path);
            }
        }
    }
    out
}

/// The number a counting statement (`SELECT count(*) AS n FROM …`) answers,
/// on either backend: tests check what was stored with it.
pub async fn count(db: &Db, sql: impl Into<String>) -> i64 {
    let sql: String = sql.into();
    #[derive(diesel::QueryableByName)]
    struct Count {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let statement = sql.clone();
    db.query(move |conn| {
        Box::pin(async move {
            use tonne_storage::Conn;
            let query = diesel::sql_query(statement);
            match conn {
                Conn::Pg(c) => {
                    diesel_async::RunQueryDsl::get_result::<Count>(query, &mut **c).await
                }
                Conn::Sqlite(c) => {
                    diesel_async::RunQueryDsl::get_result::<Count>(query, &mut **c).await
                }
            }
        })
    })
    .await
    .map(|c| c.n)
    .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// Runs a statement of the test's own (a row to set up) in a transaction, on
/// either backend.
pub async fn execute(db: &Db, sql: String) {
    db.transaction(move |conn| {
        Box::pin(async move {
            use tonne_storage::Conn;
            let query = diesel::sql_query(sql);
            match conn {
                Conn::Pg(c) => diesel_async::RunQueryDsl::execute(query, &mut **c).await,
                Conn::Sqlite(c) => diesel_async::RunQueryDsl::execute(query, &mut **c).await,
            }
        })
    })
    .await
    .unwrap_or_else(|e| panic!("a test statement: {e}"));
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn swaps_the_database_name() {
        assert_eq!(
            with_database("postgres://u@h:5432/test", "x"),
            "postgres://u@h:5432/x"
        );
        assert_eq!(
            with_database("postgres://u@h/test?sslmode=disable", "x"),
            "postgres://u@h/x?sslmode=disable"
        );
        assert_eq!(with_database("postgres://u@h", "x"), "postgres://u@h/x");
    }
}
