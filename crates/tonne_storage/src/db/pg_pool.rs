//! PostgreSQL's pool of asynchronous connections, lent whole to one unit of
//! work at a time (a transaction, or reads that must not interleave with
//! other tasks' statements); one-statement reads share the pipelined
//! connections instead (`pipelined`).
//!
//! A connection's socket is driven by a task on the runtime that opened it. An
//! idle connection goes to a unit on the thread that opened it, so that its
//! answers wake the thread that is waiting for them rather than passing
//! through another (each such pass is a switch between threads, and waits
//! while that thread is busy): a thread with none idle opens its own while
//! the pool has fewer connections open than its size, and only then borrows
//! another thread's. Every lent connection holds a permit of the [`Gate`], so
//! the pool size bounds the connections lent at once.
//!
//! A connection goes back to the idle list only when it is clean: its socket
//! open, no transaction left open (a unit whose caller gave up mid-way, such as
//! a request past its deadline), its transaction state not broken. Any other
//! is dropped, which closes its socket: PostgreSQL then rolls back whatever it
//! had begun.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::ThreadId;

use diesel_async::AsyncPgConnection;
use tokio::sync::OwnedSemaphorePermit;

use super::gate::Gate;
use super::pipelined::{Pipe, PipelineError};

/// The pool of one database handle.
pub(crate) struct PgPool {
    config: tokio_postgres::Config,
    gate: Arc<Gate>,
    // Boxed: a lease holds the box, so lending and returning a connection
    // moves a pointer, and `Conn` stays small.
    #[allow(clippy::vec_box)]
    idle: Mutex<Vec<Box<Pipe>>>,
    /// Connections lent now.
    lent: AtomicU32,
}

impl std::fmt::Debug for PgPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgPool").finish_non_exhaustive()
    }
}

impl PgPool {
    pub(crate) fn new(config: tokio_postgres::Config, gate: Arc<Gate>) -> Arc<Self> {
        Arc::new(Self {
            config,
            gate,
            idle: Mutex::new(Vec::new()),
            lent: AtomicU32::new(0),
        })
    }

    /// A connection for one unit of work: an idle one (preferably opened on
    /// this thread) or a new one, with a permit; no permit within the wait
    /// is `Busy`.
    pub(crate) async fn get(self: &Arc<Self>) -> Result<PgLease, PipelineError> {
        let permit = self.gate.permit().await?;
        let pipe = match self.take_idle(std::thread::current().id()) {
            Some(pipe) => pipe,
            None => Box::new(Pipe::open_within(&self.config, self.gate.wait()).await?),
        };
        self.lent.fetch_add(1, Ordering::Relaxed);
        Ok(PgLease {
            pipe: Some(pipe),
            pool: Arc::clone(self),
            _permit: permit,
        })
    }

    /// An idle connection of this thread's; else none while the pool may
    /// open another (this thread opens its own); else another thread's.
    fn take_idle(&self, here: ThreadId) -> Option<Box<Pipe>> {
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        idle.retain(|p| !p.is_closed());
        if let Some(at) = idle.iter().rposition(|p| p.home() == here) {
            return Some(idle.swap_remove(at));
        }
        let open = idle.len().saturating_add(
            usize::try_from(self.lent.load(Ordering::Relaxed)).unwrap_or(usize::MAX),
        );
        if open < self.gate.size() {
            return None;
        }
        idle.pop()
    }

    /// Open connections and of which idle, for `/metrics`.
    pub(crate) fn status(&self) -> (u32, u32) {
        let idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        let idle =
            u32::try_from(idle.iter().filter(|p| !p.is_closed()).count()).unwrap_or(u32::MAX);
        (idle.saturating_add(self.lent.load(Ordering::Relaxed)), idle)
    }
}

/// A connection lent to one unit of work; it goes back to the pool when
/// dropped if it is clean (see the module's documentation).
pub struct PgLease {
    pipe: Option<Box<Pipe>>,
    pool: Arc<PgPool>,
    _permit: OwnedSemaphorePermit,
}

impl PgLease {
    /// Whether the server closed the connection's socket.
    pub(crate) fn is_closed(&self) -> bool {
        self.pipe.as_ref().is_none_or(|p| p.is_closed())
    }
}

impl std::ops::Deref for PgLease {
    type Target = AsyncPgConnection;
    fn deref(&self) -> &AsyncPgConnection {
        match &self.pipe {
            Some(pipe) => pipe.pg(),
            None => unreachable!("a lease holds its connection until dropped"),
        }
    }
}

impl std::ops::DerefMut for PgLease {
    fn deref_mut(&mut self) -> &mut AsyncPgConnection {
        match &mut self.pipe {
            Some(pipe) => pipe.pg_mut(),
            None => unreachable!("a lease holds its connection until dropped"),
        }
    }
}

impl Drop for PgLease {
    fn drop(&mut self) {
        self.pool.lent.fetch_sub(1, Ordering::Relaxed);
        let Some(mut pipe) = self.pipe.take() else {
            return;
        };
        if pipe.is_closed() || !super::reuse::reusable(pipe.pg_mut()) {
            return;
        }
        self.pool
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(pipe);
    }
}
