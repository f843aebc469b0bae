//! One-statement reads on PostgreSQL: one asynchronous connection per runtime
//! thread, which all of that thread's reads share, pipelined.
//!
//! A statement sent on an [`AsyncPgConnection`] leaves the calling task free:
//! the runtime goes on with other requests while PostgreSQL answers, and the
//! answer arrives through the runtime's own event loop (the blocking path,
//! [`Db::query`](crate::Db::query), hands the call to a blocking thread and
//! wakes the runtime again when it is done: two more task switches per call).
//!
//! A connection's socket is driven by a task on the runtime that opened it, so
//! every thread (an actix worker is a single-threaded runtime) reads on its own
//! connection. The reads of one thread do not wait for each other's answers:
//! they are sent on that connection one after the other while earlier ones are
//! still being answered (tokio-postgres pipelines them: several statements go
//! out in one write and their answers come back in one read), and PostgreSQL
//! runs them in order on one backend. Under load that is a few system calls and
//! one wake-up of the backend for many reads, instead of a round trip each.
//!
//! The pool size still bounds the connections in use ([`Gate`]): a thread's
//! connection holds one permit while it has reads in flight, and a read joins
//! it without a permit of its own unless another call is waiting for a permit
//! (a write must not be overtaken for ever) or the connection has stopped
//! answering (a statement stuck behind a lock): then the read waits for a
//! permit like any call, and answers 503 when none comes within the wait. A
//! read that took a permit because the connection stopped answering does not
//! queue behind the stuck statement: it and the reads after it go on a new
//! connection, and the old one is closed once its reads are done (each
//! connection with reads in flight holds a permit, so the pool size still
//! bounds them all).

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, Instant};

use diesel_async::AsyncPgConnection;
use tokio::sync::OwnedSemaphorePermit;

use super::gate::{Gate, GateError};

/// How long a connection with reads in flight may go without answering before
/// new reads stop joining it.
const STALLED_AFTER: Duration = Duration::from_millis(50);

/// Distinguishes the connections of several [`PipelinedReads`] on one thread.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

thread_local! {
    /// This thread's read connections, one per live [`PipelinedReads`].
    static SLOTS: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

struct Entry {
    id: u64,
    owner: Weak<PipelinedReads>,
    slot: Arc<Slot>,
}

impl Drop for Entry {
    /// A thread that ends closes its connection (its task ran on the
    /// thread's runtime) and leaves the list.
    fn drop(&mut self) {
        self.slot.close();
        if let Some(owner) = self.owner.upgrade() {
            owner
                .all
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .retain(|s| !Arc::ptr_eq(s, &self.slot));
        }
    }
}

/// Why a read could not be sent.
#[derive(Debug)]
pub(crate) enum PipelineError {
    /// No permit (the pool stayed busy for the wait, or closed).
    Gate(GateError),
    /// The connection could not be opened (the driver's message), or not in time.
    Connect(diesel::ConnectionError),
}

impl From<GateError> for PipelineError {
    fn from(e: GateError) -> Self {
        Self::Gate(e)
    }
}

/// One open connection and whether its socket has closed.
pub(crate) struct Pipe {
    pg: AsyncPgConnection,
    closed: Arc<AtomicBool>,
    /// The thread that opened it, whose runtime drives its socket.
    home: std::thread::ThreadId,
}

impl Pipe {
    /// Opens a connection, giving up after `wait`.
    pub(crate) async fn open_within(
        config: &tokio_postgres::Config,
        wait: Duration,
    ) -> Result<Self, PipelineError> {
        match tokio::time::timeout(wait, Self::open(config)).await {
            Ok(Ok(pipe)) => Ok(pipe),
            Ok(Err(e)) => Err(PipelineError::Connect(e)),
            Err(_) => Err(PipelineError::Connect(
                diesel::ConnectionError::BadConnection(format!("no connection within {wait:?}")),
            )),
        }
    }

    async fn open(config: &tokio_postgres::Config) -> Result<Self, diesel::ConnectionError> {
        let (client, connection) = config
            .connect(tokio_postgres::NoTls)
            .await
            .map_err(|e| diesel::ConnectionError::BadConnection(e.to_string()))?;
        let closed = Arc::new(AtomicBool::new(false));
        let flag = Closes(Arc::clone(&closed));
        // The socket's task: it ends when the server or the client closes the
        // connection, and is dropped with its runtime; either way the flag says so.
        tokio::spawn(async move {
            let _flag = flag;
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "a database connection ended");
            }
        });
        let pg = AsyncPgConnection::try_from(client).await?;
        Ok(Self {
            pg,
            closed,
            home: std::thread::current().id(),
        })
    }

    /// The connection, lent whole (see `pg_pool`).
    pub(crate) fn pg_mut(&mut self) -> &mut AsyncPgConnection {
        &mut self.pg
    }

    /// The thread that opened it.
    pub(crate) fn home(&self) -> std::thread::ThreadId {
        self.home
    }

    /// The connection, to send statements on (`&mut pipe.pg()`: diesel-async
    /// pipelines statements sent through shared references).
    pub(crate) fn pg(&self) -> &AsyncPgConnection {
        &self.pg
    }

    /// Whether the socket has closed (the server ended the session, or the
    /// runtime that drove it is gone).
    pub(crate) fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Acquire)
    }
}

/// Sets its flag when dropped.
struct Closes(Arc<AtomicBool>);

impl Drop for Closes {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

/// A thread's connection and the reads in flight on it.
struct Slot {
    state: Mutex<State>,
    /// Held while the connection is being opened, so that it is opened once.
    opening: tokio::sync::Mutex<()>,
}

struct State {
    pipe: Option<Arc<Pipe>>,
    in_flight: usize,
    /// Held while reads are in flight: one per connection that has some (a
    /// connection left behind a stuck statement keeps its own).
    permits: Vec<OwnedSemaphorePermit>,
    /// When the connection last answered, or took its permit.
    progress: Instant,
}

impl Slot {
    fn new() -> Self {
        Self {
            state: Mutex::new(State {
                pipe: None,
                in_flight: 0,
                permits: Vec::new(),
                progress: Instant::now(),
            }),
            opening: tokio::sync::Mutex::new(()),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The open connection, if there is one.
    fn current(&self) -> Option<Arc<Pipe>> {
        self.state().pipe.clone().filter(|p| !p.is_closed())
    }

    /// Forgets the connection (dropped outside the lock; reads in flight
    /// keep it until they are answered).
    fn close(&self) {
        let pipe = self.state().pipe.take();
        drop(pipe);
    }
}

/// A read in flight: counted on its thread's connection until dropped.
pub(crate) struct Lease {
    _counted: Counted,
    pipe: Arc<Pipe>,
}

impl Lease {
    pub(crate) fn pipe(&self) -> &Pipe {
        &self.pipe
    }
}

/// Counts a read out of its slot: an answer (or a cancelled read), and the
/// permit goes back when the last read in flight is done.
struct Counted(Arc<Slot>);

impl Drop for Counted {
    fn drop(&mut self) {
        let permits = {
            let mut state = self.0.state();
            state.in_flight = state.in_flight.saturating_sub(1);
            state.progress = Instant::now();
            if state.in_flight == 0 {
                std::mem::take(&mut state.permits)
            } else {
                Vec::new()
            }
        };
        drop(permits);
    }
}

/// The per-thread read connections of one database.
pub(crate) struct PipelinedReads {
    id: u64,
    config: tokio_postgres::Config,
    gate: Arc<Gate>,
    /// Every thread's slot: closed when the database handle goes, counted by `/metrics`.
    all: Mutex<Vec<Arc<Slot>>>,
}

impl std::fmt::Debug for PipelinedReads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PipelinedReads").finish_non_exhaustive()
    }
}

/// Open connections, and those with no read in flight, over every thread.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct PipelineStatus {
    pub connections: u32,
    pub idle: u32,
}

impl PipelinedReads {
    /// Reads on the database at `url` (a PostgreSQL URL), bounded by `gate`.
    pub(crate) fn new(url: &str, gate: Arc<Gate>) -> Result<Arc<Self>, diesel::ConnectionError> {
        let config = url
            .parse::<tokio_postgres::Config>()
            .map_err(|e| diesel::ConnectionError::InvalidConnectionUrl(e.to_string()))?;
        Ok(Arc::new(Self {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            config,
            gate,
            all: Mutex::new(Vec::new()),
        }))
    }

    /// A place for one read on this thread's connection (opened on first use):
    /// joining the reads in flight, or with a permit of its own.
    pub(crate) async fn enter(self: &Arc<Self>) -> Result<Lease, PipelineError> {
        let slot = self.slot();
        let joined = {
            let mut state = slot.state();
            let join = state.in_flight > 0
                && !state.permits.is_empty()
                && !self.gate.contended()
                && state.progress.elapsed() < STALLED_AFTER;
            if join {
                state.in_flight += 1;
            }
            join
        };
        if !joined {
            let permit = self.gate.permit().await?;
            let mut state = slot.state();
            let stalled = state.in_flight > 0 && state.progress.elapsed() >= STALLED_AFTER;
            if state.permits.is_empty() || stalled {
                if stalled {
                    // Not behind the stuck statement: a new connection for
                    // this read and the next; the old one lives on in the
                    // leases of its reads, and closes when they are done.
                    state.pipe = None;
                }
                state.permits.push(permit);
                state.progress = Instant::now();
            }
            // Else the connection already holds one: this one goes back.
            state.in_flight += 1;
        }
        // Counted from here: a failure to open, or a cancelled read, counts it out.
        let counted = Counted(slot);
        let pipe = self.connection(&counted.0).await?;
        Ok(Lease {
            _counted: counted,
            pipe,
        })
    }

    /// The slot's open connection, opened (once) when it has none or its
    /// socket closed.
    async fn connection(&self, slot: &Slot) -> Result<Arc<Pipe>, PipelineError> {
        if let Some(pipe) = slot.current() {
            return Ok(pipe);
        }
        let _opening = slot.opening.lock().await;
        if let Some(pipe) = slot.current() {
            return Ok(pipe);
        }
        let pipe = Arc::new(Pipe::open_within(&self.config, self.gate.wait()).await?);
        slot.state().pipe = Some(Arc::clone(&pipe));
        Ok(pipe)
    }

    /// Connections open, and idle, over every thread.
    pub(crate) fn status(&self) -> PipelineStatus {
        let all = self.all.lock().unwrap_or_else(PoisonError::into_inner);
        all.iter().fold(PipelineStatus::default(), |sum, slot| {
            let state = slot.state();
            match &state.pipe {
                Some(pipe) if !pipe.is_closed() => PipelineStatus {
                    connections: sum.connections + 1,
                    idle: sum.idle + u32::from(state.in_flight == 0),
                },
                _ => sum,
            }
        })
    }

    fn slot(self: &Arc<Self>) -> Arc<Slot> {
        SLOTS.with(|cell| {
            let mut slots = cell.borrow_mut();
            slots.retain(|e| e.owner.strong_count() > 0);
            if let Some(entry) = slots.iter().find(|e| e.id == self.id) {
                return Arc::clone(&entry.slot);
            }
            let slot = Arc::new(Slot::new());
            self.all
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(Arc::clone(&slot));
            slots.push(Entry {
                id: self.id,
                owner: Arc::downgrade(self),
                slot: Arc::clone(&slot),
            });
            slot
        })
    }
}

impl Drop for PipelinedReads {
    /// Closes every thread's connection (reads in flight finish first: each
    /// holds its connection until answered).
    fn drop(&mut self) {
        let all = self.all.get_mut().unwrap_or_else(PoisonError::into_inner);
        for slot in all.drain(..) {
            slot.close();
        }
    }
}
