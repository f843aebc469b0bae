//! The permits that bound how many connections are in use at once.
//!
//! One permit per pooled connection: a storage call waits for a permit on the
//! async side, so that only as many blocking threads run as there are
//! connections (without it, every waiting request parks a blocking thread on
//! the pool's condition variable and the kernel spends its time switching
//! between them). A thread's pipelined read connection holds one permit while
//! it has reads in flight (`pipelined`). A call that waits longer than the
//! pool timeout gives up (`Busy`, which callers answer with 503).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Why no permit was had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GateError {
    /// None came free within the wait.
    Busy(Duration),
    /// The gate closed.
    Closed,
}

/// The permits of one database handle.
#[derive(Debug)]
pub(crate) struct Gate {
    permits: Arc<Semaphore>,
    /// Calls waiting for a permit now.
    waiting: AtomicUsize,
    wait: Duration,
    size: usize,
}

impl Gate {
    /// `size` permits (at least one); a call waits at most `wait` for one.
    pub(crate) fn new(size: usize, wait: Duration) -> Self {
        Self {
            permits: Arc::new(Semaphore::new(size.max(1))),
            waiting: AtomicUsize::new(0),
            wait,
            size: size.max(1),
        }
    }

    /// A permit, waited for asynchronously (first come, first served).
    pub(crate) async fn permit(&self) -> Result<OwnedSemaphorePermit, GateError> {
        if let Ok(permit) = Arc::clone(&self.permits).try_acquire_owned() {
            return Ok(permit);
        }
        self.waiting.fetch_add(1, Ordering::Relaxed);
        let _waiting = Waiting(&self.waiting);
        match tokio::time::timeout(self.wait, Arc::clone(&self.permits).acquire_owned()).await {
            Ok(Ok(permit)) => Ok(permit),
            Ok(Err(_)) => Err(GateError::Closed),
            Err(_) => Err(GateError::Busy(self.wait)),
        }
    }

    /// Whether a call is waiting for a permit: then work already holding one
    /// takes no more on (so that a waiting write is not overtaken for ever).
    pub(crate) fn contended(&self) -> bool {
        self.waiting.load(Ordering::Relaxed) > 0
    }

    /// How long a call waits for a permit.
    pub(crate) fn wait(&self) -> Duration {
        self.wait
    }

    /// How many permits there are.
    pub(crate) fn size(&self) -> usize {
        self.size
    }
}

/// Counts a waiting call out again however its wait ends (a cancelled request too).
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_call_waits_for_a_permit_and_gives_up_after_the_wait() {
        let gate = Gate::new(1, Duration::from_millis(50));
        let held = gate.permit().await.unwrap();
        assert!(!gate.contended());
        let waiter = gate.permit();
        tokio::pin!(waiter);
        // Polled once: it is waiting, and counted.
        assert!(futures_util::poll!(waiter.as_mut()).is_pending());
        assert!(gate.contended());
        assert_eq!(
            waiter.await.unwrap_err(),
            GateError::Busy(Duration::from_millis(50))
        );
        assert!(
            !gate.contended(),
            "a call that gave up is no longer waiting"
        );
        drop(held);
        assert!(gate.permit().await.is_ok());
    }
}
