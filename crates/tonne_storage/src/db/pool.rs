//! The pooled handle [`Db`]: units of work on PostgreSQL's pooled
//! asynchronous connections or on SQLite's connections on a blocking thread,
//! on PostgreSQL the pipelined one-statement reads and writes, and the
//! permits that bound them all (the migrations: `migrations.rs`).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::BoxFuture;
use tracing::Instrument as _;

use super::backend::{Backend, SqliteManager};
use super::error::{ConnectError, DbError};
use super::gate::Gate;
use super::pg_pool::PgPool;
use super::pipelined::{Lease, Pipe, PipelineError, PipelineStatus, PipelinedReads};
use super::unit_of_work::Conn;
use super::url::DatabaseUrl;

/// Pool sizing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolSettings {
    /// Most connections open at once.
    pub max_size: u32,
    /// How long a request waits for a free connection before failing.
    pub connection_timeout: Duration,
}

impl Default for PoolSettings {
    fn default() -> Self {
        Self {
            max_size: 16,
            connection_timeout: Duration::from_secs(5),
        }
    }
}

/// The pool's state, for `/metrics`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolStatus {
    /// Open connections.
    pub connections: u32,
    /// Of which idle.
    pub idle: u32,
    /// Configured maximum.
    pub max_size: u32,
}

/// A pooled database handle, cheap to clone: what both backends share (the
/// permits, the caches that follow changes) around the [`Engine`] of one.
#[derive(Clone)]
pub struct Db {
    url: DatabaseUrl,
    engine: Engine,
    /// The pool size.
    max_size: u32,
    /// One permit per pooled connection (see `gate`): the pool size bounds the
    /// connections in use over both kinds, and a pool held busy answers 503
    /// after the wait whichever kind the next call needs.
    gate: Arc<Gate>,
    /// The caches that forget what this handle's stores change.
    followers: Arc<super::followers::Followers>,
}

/// The connections of one backend.
#[derive(Clone)]
enum Engine {
    Postgres {
        /// The per-thread connections that serve [`Db::load`] and
        /// [`Db::write_one`], pipelined.
        pipelined: Arc<PipelinedReads>,
        /// The connections lent whole to units of work.
        pool: Arc<PgPool>,
    },
    Sqlite {
        /// The embedded connections behind [`Conn`].
        pool: r2d2::Pool<SqliteManager>,
        /// SQLite allows one writer: write transactions of this process take
        /// their turn here, and each takes the file's write lock at `BEGIN`
        /// (`unit_of_work::begin`), so that one beside another process (the
        /// CLI) waits for it rather than failing. (Several servers need
        /// PostgreSQL.)
        writer: Arc<Mutex<()>>,
    },
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Db")
            .field("backend", &self.backend())
            .finish_non_exhaustive()
    }
}

impl Db {
    /// Opens a pool. One connection is made first, outside the pool, so that an
    /// unreachable database fails here with the driver's own message. A SQLite
    /// file is created with mode 0600 first, and an existing one readable
    /// beyond its owner is tightened (see `sqlite_file`).
    pub fn connect(url: &DatabaseUrl, settings: PoolSettings) -> Result<Self, DbError> {
        let failed = |source| DbError::Connect {
            url: url.to_string(),
            source,
        };
        if let DatabaseUrl::Sqlite(path) = url {
            super::sqlite_file::secure(path).map_err(|e| failed(e.into()))?;
        }
        super::backend::try_connect(url).map_err(failed)?;
        let size = settings.max_size.max(1);
        let gate = Arc::new(Gate::new(
            usize::try_from(size).unwrap_or(1),
            settings.connection_timeout,
        ));
        let engine = match url {
            DatabaseUrl::Postgres(raw) => {
                let config = raw.parse::<tokio_postgres::Config>().map_err(|e| {
                    failed(ConnectError::Connection(
                        diesel::ConnectionError::InvalidConnectionUrl(e.to_string()),
                    ))
                })?;
                Engine::Postgres {
                    pipelined: PipelinedReads::new(raw, Arc::clone(&gate))
                        .map_err(|e| failed(ConnectError::Connection(e)))?,
                    pool: PgPool::new(config, Arc::clone(&gate)),
                }
            }
            DatabaseUrl::Sqlite(path) => Engine::Sqlite {
                pool: r2d2::Pool::builder()
                    .max_size(size)
                    .min_idle(Some(1))
                    .connection_timeout(settings.connection_timeout)
                    .test_on_check_out(false)
                    .build(SqliteManager { path: path.clone() })?,
                writer: Arc::new(Mutex::new(())),
            },
        };
        Ok(Self {
            url: url.clone(),
            engine,
            max_size: size,
            gate,
            followers: Arc::default(),
        })
    }

    /// Hands a change this process's store has committed to the caches that
    /// follow `channel` (see [`follow`](super::follow)).
    pub(crate) fn announced(&self, channel: &'static str, payload: &str) {
        self.followers.hand_over(channel, payload);
    }

    pub(super) fn followers(&self) -> &super::followers::Followers {
        &self.followers
    }

    /// Runs reads of several statements, each seeing what is committed when
    /// it runs (no transaction): on PostgreSQL on a pooled asynchronous
    /// connection, on SQLite on a blocking thread. The work states its
    /// statements with `on!`.
    pub async fn query<T, F>(&self, work: F) -> Result<T, DbError>
    where
        F: for<'c> FnOnce(&'c mut Conn) -> BoxFuture<'c, diesel::QueryResult<T>> + Send + 'static,
        T: Send + 'static,
    {
        let span = self.span::<F>("read");
        self.unit(span, false, work).await
    }

    /// Runs work in one transaction: everything it writes commits together or
    /// not at all. On PostgreSQL on a pooled asynchronous connection (a unit
    /// whose caller goes away mid-way leaves its connection, which is closed:
    /// the server rolls back); on SQLite on a blocking thread, one writer at a
    /// time, holding the write lock from `BEGIN IMMEDIATE` (read-only work
    /// of several statements belongs in [`Db::query`], which takes none).
    pub async fn transaction<T, F>(&self, work: F) -> Result<T, DbError>
    where
        F: for<'c> FnOnce(&'c mut Conn) -> BoxFuture<'c, diesel::QueryResult<T>> + Send + 'static,
        T: Send + 'static,
    {
        let span = self.span::<F>("write");
        self.unit(span, true, work).await
    }

    async fn unit<T, F>(
        &self,
        span: tracing::Span,
        transaction: bool,
        work: F,
    ) -> Result<T, DbError>
    where
        F: for<'c> FnOnce(&'c mut Conn) -> BoxFuture<'c, diesel::QueryResult<T>> + Send + 'static,
        T: Send + 'static,
    {
        let (pool, writer) = match &self.engine {
            Engine::Postgres { pool, .. } => {
                return async move {
                    let lease = pool.get().await.map_err(|e| self.lease_error(e))?;
                    let mut conn = Conn::Pg(lease);
                    let result = run(&mut conn, transaction, work).await;
                    match (result, &conn) {
                        (Ok(value), _) => Ok(value),
                        (Err(e), Conn::Pg(lease)) => {
                            Err(DbError::Query(ended(e, || lease.is_closed()).await))
                        }
                        (Err(e), Conn::Sqlite(_)) => Err(DbError::Query(e)),
                    }
                }
                .instrument(span)
                .await;
            }
            Engine::Sqlite { pool, writer } => {
                (pool.clone(), transaction.then(|| Arc::clone(writer)))
            }
        };
        let inner = span.clone();
        let permit = self.permit().instrument(span.clone()).await?;
        let runtime = tokio::runtime::Handle::current();
        blocking(move || {
            let _permit = permit;
            inner.in_scope(|| {
                let lease = pool.get()?;
                let _guard = writer
                    .as_ref()
                    .map(|m| m.lock().unwrap_or_else(|p| p.into_inner()));
                let mut conn = Conn::Sqlite(super::unit_of_work::SqliteLease(lease));
                Ok(runtime.block_on(run(&mut conn, transaction, work))?)
            })
        })
        .instrument(span)
        .await
    }

    /// A permit to use a connection, waited for asynchronously (at most the
    /// pool timeout: then `Busy`, which callers answer with 503).
    async fn permit(&self) -> Result<tokio::sync::OwnedSemaphorePermit, DbError> {
        Ok(self.gate.permit().await?)
    }

    /// The database it opens connections to.
    pub fn url(&self) -> &DatabaseUrl {
        &self.url
    }

    /// The backend.
    pub fn backend(&self) -> Backend {
        match self.engine {
            Engine::Postgres { .. } => Backend::Postgres,
            Engine::Sqlite { .. } => Backend::Sqlite,
        }
    }

    /// The pools' state: open and idle connections of the blocking pool
    /// plus, on PostgreSQL, every thread's read connection; the maximum is
    /// the pool size, which bounds the connections in use at once over both
    /// kinds.
    pub fn status(&self) -> PoolStatus {
        let ((open, idle), local) = match &self.engine {
            Engine::Postgres { pipelined, pool } => (pool.status(), pipelined.status()),
            Engine::Sqlite { pool, .. } => {
                let state = pool.state();
                (
                    (state.connections, state.idle_connections),
                    PipelineStatus::default(),
                )
            }
        };
        PoolStatus {
            connections: local.connections.saturating_add(open),
            idle: local.idle.saturating_add(idle),
            max_size: self.max_size,
        }
    }

    /// Whether the database answers (`SELECT 1` on a pooled connection):
    /// `/ready` asks this.
    pub async fn ping(&self) -> Result<(), DbError> {
        self.query(|conn| {
            Box::pin(async move {
                on!(conn, |c| {
                    diesel_async::SimpleAsyncConnection::batch_execute(c, "SELECT 1").await
                })
            })
        })
        .await
    }

    /// Runs one read-only statement and returns its rows; called through
    /// the crate's `load!`, which writes the statement once and builds it for
    /// each backend (`captures` are the values it uses). On PostgreSQL it is
    /// sent on the calling thread's own asynchronous connection, pipelined
    /// with the thread's other reads: the task waits for the answer without a
    /// blocking thread, so the call costs no switch between threads (see
    /// `pipelined`). On SQLite it runs as [`Db::query`] does.
    ///
    /// Work of several statements that must see one another stays with
    /// [`Db::query`] and [`Db::transaction`]; reads whose statements are independent
    /// are several calls to this.
    pub(crate) async fn load<C, U, QA, QP, FA, FP, ST>(
        &self,
        captures: C,
        any: FA,
        pg: FP,
    ) -> Result<Vec<U>, DbError>
    where
        C: Send + 'static,
        FA: FnOnce(C) -> QA + Send + 'static,
        FP: FnOnce(C) -> QP + Send + 'static,
        QA: diesel::RunQueryDsl<diesel::SqliteConnection>
            + diesel::query_dsl::LoadQuery<'static, diesel::SqliteConnection, U>
            + Send
            + 'static,
        // What diesel-async asks of a statement loaded on a shared
        // `&AsyncPgConnection` (the connection's own lifetime cannot be named here).
        QP: diesel::query_builder::AsQuery + Send + 'static,
        QP::Query: diesel::query_builder::QueryFragment<diesel::pg::Pg>
            + diesel::query_builder::QueryId
            + Send
            + 'static,
        QP::SqlType: diesel::query_dsl::CompatibleType<U, diesel::pg::Pg, SqlType = ST>,
        U: diesel::deserialize::FromSqlRow<ST, diesel::pg::Pg> + Send + 'static,
        diesel::pg::Pg: diesel::expression::QueryMetadata<QP::SqlType>,
        ST: 'static,
    {
        let span = self.span::<FA>("read");
        let Engine::Postgres { pipelined, .. } = &self.engine else {
            return self
                .unit(span, false, move |conn| {
                    Box::pin(async move {
                        match conn {
                            Conn::Sqlite(c) => {
                                let query = any(captures);
                                c.spawn_blocking(move |c| diesel::RunQueryDsl::load(query, c))
                                    .await
                            }
                            Conn::Pg(_) => Err(diesel::result::Error::QueryBuilderError(
                                "a PostgreSQL read without its pipelined connections".into(),
                            )),
                        }
                    })
                })
                .await;
        };
        let query = pg(captures);
        async move {
            let lease = self.lease(pipelined).await?;
            let rows = diesel_async::RunQueryDsl::load(query, &mut lease.pipe().pg()).await;
            answered(rows, lease.pipe()).await
        }
        .instrument(span)
        .await
    }

    /// Runs a write that PostgreSQL takes as one statement, sent on the
    /// calling thread's pipelined connection (a statement alone commits by
    /// itself, so it needs no transaction). PostgreSQL only: on SQLite it
    /// answers an error (callers write in a [`Db::transaction`] there).
    pub(crate) async fn write_one<Q>(&self, pg: Q) -> Result<(), DbError>
    where
        Q: diesel::query_builder::QueryFragment<diesel::pg::Pg>
            + diesel::query_builder::QueryId
            + Send
            + 'static,
    {
        let Engine::Postgres { pipelined, .. } = &self.engine else {
            return Err(DbError::Query(diesel::result::Error::QueryBuilderError(
                "a one-statement write is PostgreSQL's".into(),
            )));
        };
        let span = self.span::<Q>("write");
        async move {
            let lease = self.lease(pipelined).await?;
            let changed = diesel_async::RunQueryDsl::execute(pg, &mut lease.pipe().pg()).await;
            answered(changed, lease.pipe()).await.map(drop)
        }
        .instrument(span)
        .await
    }

    fn lease_error(&self, e: PipelineError) -> DbError {
        match e {
            PipelineError::Gate(e) => e.into(),
            PipelineError::Connect(source) => DbError::Connect {
                url: self.url.to_string(),
                source: ConnectError::Connection(source),
            },
        }
    }

    /// A place on the calling thread's pipelined connection, its failures
    /// reported as the blocking pool's would be: no permit within the wait is
    /// `Busy` (503), a connection that could not be opened is `Connect` with
    /// the driver's message.
    async fn lease(&self, pipelined: &Arc<PipelinedReads>) -> Result<Lease, DbError> {
        pipelined.enter().await.map_err(|e| self.lease_error(e))
    }

    /// The span of one storage call (pool wait and queries), named after the
    /// store method whose closure `F` is; built only when traces are exported,
    /// and only inside another span (a request, a delivery): the background
    /// loops' polling is not traced.
    fn span<F>(&self, access: &'static str) -> tracing::Span {
        if tracing::Span::current().is_none() {
            return tracing::Span::none();
        }
        let span = tracing::debug_span!(
            "store",
            otel.name = tracing::field::Empty,
            db.system = self.backend().system_name(),
            db.access = access,
        );
        if !span.is_disabled() {
            let operation = tonne_telemetry::operation_name(std::any::type_name::<F>());
            span.record("otel.name", format!("store {operation}"));
        }
        span
    }
}

/// The answer to a statement sent on a pipelined connection, its failure
/// marked as a lost connection when the server ended the session.
async fn answered<R>(answer: diesel::QueryResult<R>, pipe: &Pipe) -> Result<R, DbError> {
    match answer {
        Ok(r) => Ok(r),
        Err(e) => Err(DbError::Query(ended(e, || pipe.is_closed()).await)),
    }
}

/// How long a failed read waits to learn whether the server ended its session.
const SESSION_END_WAIT: Duration = Duration::from_millis(100);

/// A statement that failed because the server ended the session: a restart's
/// or an administrator's `57P01` arrives on an asynchronous connection as an
/// ordinary error just before the socket closes (libpq reports the closed
/// connection instead). Once the connection's task has seen the socket close,
/// the error is marked as a lost connection, so that callers answer 503 as
/// they do for the blocking path (the thread opens a new connection for its next read).
async fn ended(e: diesel::result::Error, closed: impl Fn() -> bool) -> diesel::result::Error {
    use diesel::result::{DatabaseErrorKind, Error};
    let Error::DatabaseError(DatabaseErrorKind::Unknown, info) = e else {
        return e;
    };
    // A session ended by the server closes its socket right after the error
    // (the backend exits): wait briefly for the connection's task to see it.
    // Other errors of unknown kind (a cancelled statement, bad input) keep
    // their kind after this short wait; they are rare on reads.
    let closed = tokio::time::timeout(SESSION_END_WAIT, async {
        while !closed() {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    })
    .await
    .is_ok();
    let kind = if closed {
        DatabaseErrorKind::ClosedConnection
    } else {
        DatabaseErrorKind::Unknown
    };
    Error::DatabaseError(kind, info)
}

/// Runs a unit of work on its connection, in a transaction or not.
async fn run<T, F>(conn: &mut Conn, transaction: bool, work: F) -> diesel::QueryResult<T>
where
    F: for<'c> FnOnce(&'c mut Conn) -> BoxFuture<'c, diesel::QueryResult<T>>,
{
    if !transaction {
        return work(conn).await;
    }
    super::unit_of_work::begin(conn).await?;
    let result = work(conn).await;
    super::unit_of_work::end(conn, result).await
}

/// The one place blocking storage work leaves the async runtime.
async fn blocking<T, F>(work: F) -> Result<T, DbError>
where
    F: FnOnce() -> Result<T, DbError> + Send + 'static,
    T: Send + 'static,
{
    match tokio::task::spawn_blocking(work).await {
        Ok(result) => result,
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(_) => Err(DbError::Cancelled),
    }
}
