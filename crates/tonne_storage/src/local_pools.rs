//! Asynchronous PostgreSQL connections for one-statement reads, a pool per thread.
//!
//! A statement sent on an [`AsyncPgConnection`] leaves the calling task free:
//! the runtime goes on with other requests while PostgreSQL answers, and the
//! answer arrives through the runtime's own event loop. The blocking path
//! ([`Db::read`](crate::Db::read)) hands the call to a blocking thread instead
//! and wakes the runtime again when it is done: two more task switches per
//! call, which were most of the server's time under load (docs/performance.md).
//!
//! A connection's socket is driven by a task on the runtime that opened it.
//! So that this task runs on the thread whose requests use the connection
//! (an actix worker is a single-threaded runtime), every thread keeps its own
//! small pool, made on its first read; a pool shared by all threads would make
//! half the calls wake another thread and undo the gain.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use diesel_async::AsyncPgConnection;
use diesel_async::pooled_connection::deadpool::{Object, Pool, PoolError};
use diesel_async::pooled_connection::{
    AsyncDieselConnectionManager, ManagerConfig, RecyclingMethod,
};

/// Distinguishes the pools of several [`LocalPools`] on one thread.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

thread_local! {
    /// This thread's pools, one per live [`LocalPools`].
    static POOLS: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

struct Entry {
    id: u64,
    owner: Weak<LocalPools>,
    pool: Pool<AsyncPgConnection>,
}

impl Drop for Entry {
    /// A thread that ends takes its pool with it: the connections' tasks ran
    /// on its runtime, so they are closed, and the pool leaves the list.
    fn drop(&mut self) {
        self.pool.close();
        if let Some(owner) = self.owner.upgrade() {
            let pool = &self.pool;
            owner
                .all
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .retain(|p| !same_pool(p, pool));
        }
    }
}

/// Whether two handles are of one pool (a handle is a shared pointer).
fn same_pool(a: &Pool<AsyncPgConnection>, b: &Pool<AsyncPgConnection>) -> bool {
    std::ptr::eq(a.manager(), b.manager())
}

/// The per-thread pools of one database.
pub(crate) struct LocalPools {
    id: u64,
    url: String,
    /// Most connections of one thread's pool.
    per_thread: usize,
    /// How long a read waits for a connection (then `Busy`), and for one to open.
    wait: Duration,
    /// Every thread's pool: closed when the database handle goes, counted by `/metrics`.
    all: Mutex<Vec<Pool<AsyncPgConnection>>>,
}

impl std::fmt::Debug for LocalPools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalPools")
            .field("per_thread", &self.per_thread)
            .finish_non_exhaustive()
    }
}

/// Open and idle connections over every thread's pool.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct LocalStatus {
    pub connections: u32,
    pub idle: u32,
}

impl LocalPools {
    pub(crate) fn new(url: &str, per_thread: usize, wait: Duration) -> Arc<Self> {
        Arc::new(Self {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            url: url.to_owned(),
            per_thread: per_thread.max(1),
            wait,
            all: Mutex::new(Vec::new()),
        })
    }

    /// A connection from this thread's pool: an idle one, a new one while the
    /// pool is not full, else the first to come back within the wait.
    /// (`Db` turns deadpool's errors into the storage errors callers see.)
    pub(crate) async fn get(self: &Arc<Self>) -> Result<Object<AsyncPgConnection>, PoolError> {
        self.pool()?.get().await
    }

    /// Connections open, and idle, over every thread.
    pub(crate) fn status(&self) -> LocalStatus {
        let all = self.all.lock().unwrap_or_else(PoisonError::into_inner);
        all.iter().fold(LocalStatus::default(), |sum, pool| {
            let s = pool.status();
            LocalStatus {
                connections: sum.connections + u32::try_from(s.size).unwrap_or(u32::MAX),
                idle: sum.idle + u32::try_from(s.available).unwrap_or(u32::MAX),
            }
        })
    }

    fn pool(self: &Arc<Self>) -> Result<Pool<AsyncPgConnection>, PoolError> {
        POOLS.with(|cell| {
            let mut pools = cell.borrow_mut();
            pools.retain(|e| e.owner.strong_count() > 0);
            if let Some(entry) = pools.iter().find(|e| e.id == self.id) {
                return Ok(entry.pool.clone());
            }
            let pool = self.build()?;
            self.all
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(pool.clone());
            pools.push(Entry {
                id: self.id,
                owner: Arc::downgrade(self),
                pool: pool.clone(),
            });
            Ok(pool)
        })
    }

    fn build(&self) -> Result<Pool<AsyncPgConnection>, PoolError> {
        let mut config = ManagerConfig::default();
        // A connection is checked when it comes back (an open transaction, a
        // closed socket), not with a round trip before each use: a connection
        // the server closed since fails its next statement once (503) and is
        // then dropped, as on the blocking path.
        config.recycling_method = RecyclingMethod::Fast;
        let manager =
            AsyncDieselConnectionManager::<AsyncPgConnection>::new_with_config(&self.url, config);
        Pool::builder(manager)
            .max_size(self.per_thread)
            .wait_timeout(Some(self.wait))
            .create_timeout(Some(self.wait))
            .runtime(deadpool::Runtime::Tokio1)
            .build()
            // deadpool's one build error: timeouts without a runtime (set above).
            .map_err(|_| PoolError::NoRuntimeSpecified)
    }
}

impl Drop for LocalPools {
    /// Closes every thread's pool: idle connections go at once, busy ones when returned.
    fn drop(&mut self) {
        let all = self.all.get_mut().unwrap_or_else(PoisonError::into_inner);
        for pool in all.drain(..) {
            pool.close();
        }
    }
}
