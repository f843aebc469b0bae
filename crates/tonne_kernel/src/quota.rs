//! Bounds per account: what one account may have waiting and stored, so that
//! one tenant cannot stall the others or grow the server without bound.
//!
//! Five [`Quota`]s, each a number per account (a live account and its test
//! sibling are counted apart): [`Limits`] holds them all, the installation's
//! defaults come from the settings and an operator may override any of them
//! for an organisation ([`LimitOverrides`]). A write asks for room as a
//! [`Bounds`] (the limits in force and what the write adds); the store counts
//! the account's [`Usage`] inside the write's own transaction and the write is
//! refused, nothing written, when [`Bounds::admit`] answers [`Exceeded`].
//!
//! ```
//! use tonne_kernel::{Quota, LimitOverrides, Limits, Usage};
//!
//! let mut overrides = LimitOverrides::default();
//! overrides.set(Quota::PendingBatches, Some(3));
//! let limits = overrides.apply(&Limits::DEFAULT);
//! assert_eq!(limits.get(Quota::PendingBatches), 3);
//! assert_eq!(limits.get(Quota::OutstandingCalculations), 2);
//!
//! let bounds = limits.bounds(&[(Quota::PendingBatches, 1)]);
//! let mut usage = Usage::default();
//! usage.set(Quota::PendingBatches, 2);
//! assert!(bounds.admit(&usage).is_ok());
//! usage.set(Quota::PendingBatches, 3);
//! let refused = bounds.admit(&usage).unwrap_err();
//! assert_eq!((refused.limit, refused.max), (Quota::PendingBatches, 3));
//! ```

use crate::store::StoreError;

/// One bound per account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Quota {
    /// Shipment calculations queued or running (`POST /v1/shipments/calculate`).
    OutstandingCalculations,
    /// Shipment batches uploaded and not yet processed (pending or processing).
    PendingBatches,
    /// Asynchronous transaction documents queued or running.
    PendingDocuments,
    /// Shipment rows stored (every row of every batch uploaded; each becomes
    /// at most one shipment).
    StoredShipments,
    /// Bytes of shipment rows stored, as sent (UTF-8).
    StoredBytes,
}

impl Quota {
    /// Every limit, in the order pages and settings list them.
    pub const ALL: [Quota; 5] = [
        Quota::OutstandingCalculations,
        Quota::PendingBatches,
        Quota::PendingDocuments,
        Quota::StoredShipments,
        Quota::StoredBytes,
    ];

    /// The limit's name in settings, messages, the CLI and the console
    /// (`max_pending_batches`).
    pub fn key(self) -> &'static str {
        match self {
            Quota::OutstandingCalculations => "max_outstanding_calculations",
            Quota::PendingBatches => "max_pending_batches",
            Quota::PendingDocuments => "max_pending_documents",
            Quota::StoredShipments => "max_stored_shipments",
            Quota::StoredBytes => "max_stored_bytes",
        }
    }

    /// The limit named by its [`Quota::key`].
    pub fn from_key(key: &str) -> Option<Quota> {
        Quota::ALL.into_iter().find(|l| l.key() == key)
    }

    /// What is counted, in words.
    pub fn counts(self) -> &'static str {
        match self {
            Quota::OutstandingCalculations => "shipment calculations queued or running",
            Quota::PendingBatches => "shipment batches waiting to be processed",
            Quota::PendingDocuments => "transaction documents waiting to be processed",
            Quota::StoredShipments => "shipments stored",
            Quota::StoredBytes => "bytes of shipment rows stored",
        }
    }

    /// Whether the bound frees itself as background work finishes (a
    /// caller should retry later: 429), rather than a storage quota that only
    /// an operator can raise.
    pub fn is_transient(self) -> bool {
        matches!(
            self,
            Quota::OutstandingCalculations | Quota::PendingBatches | Quota::PendingDocuments
        )
    }

    /// For a transient limit, how long a caller should wait before trying
    /// again, in seconds.
    pub fn retry_after_secs(self) -> u64 {
        match self {
            Quota::OutstandingCalculations => 30,
            Quota::PendingBatches => 10,
            Quota::PendingDocuments => 5,
            Quota::StoredShipments | Quota::StoredBytes => 0,
        }
    }
}

/// A value per [`Quota`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PerLimit<T> {
    pub outstanding_calculations: T,
    pub pending_batches: T,
    pub pending_documents: T,
    pub stored_shipments: T,
    pub stored_bytes: T,
}

impl<T: Copy> PerLimit<T> {
    /// The value of one limit.
    pub fn get(&self, limit: Quota) -> T {
        match limit {
            Quota::OutstandingCalculations => self.outstanding_calculations,
            Quota::PendingBatches => self.pending_batches,
            Quota::PendingDocuments => self.pending_documents,
            Quota::StoredShipments => self.stored_shipments,
            Quota::StoredBytes => self.stored_bytes,
        }
    }

    /// Sets the value of one limit.
    pub fn set(&mut self, limit: Quota, value: T) {
        let slot = match limit {
            Quota::OutstandingCalculations => &mut self.outstanding_calculations,
            Quota::PendingBatches => &mut self.pending_batches,
            Quota::PendingDocuments => &mut self.pending_documents,
            Quota::StoredShipments => &mut self.stored_shipments,
            Quota::StoredBytes => &mut self.stored_bytes,
        };
        *slot = value;
    }
}

/// The limits in force for an account.
pub type Limits = PerLimit<u64>;

/// What an account has of each limit's kind.
pub type Usage = PerLimit<u64>;

/// An organisation's own limits: `None` keeps the installation's default.
pub type LimitOverrides = PerLimit<Option<u64>>;

impl Limits {
    /// The built-in defaults (the settings' `[quotas]` start from these;
    /// docs/operations.md says why each).
    pub const DEFAULT: Limits = PerLimit {
        outstanding_calculations: 2,
        pending_batches: 20,
        pending_documents: 100,
        stored_shipments: 1_000_000,
        stored_bytes: 1 << 30,
    };

    /// The bounds of a write adding `demands` under these limits.
    pub fn bounds(&self, demands: &[(Quota, u64)]) -> Bounds {
        Bounds {
            limits: *self,
            demands: demands.to_vec(),
        }
    }
}

impl LimitOverrides {
    /// The limits in force: each override where set, else the default.
    pub fn apply(&self, defaults: &Limits) -> Limits {
        let mut limits = *defaults;
        for limit in Quota::ALL {
            if let Some(value) = self.get(limit) {
                limits.set(limit, value);
            }
        }
        limits
    }

    /// Whether no limit is overridden.
    pub fn is_empty(&self) -> bool {
        Quota::ALL.into_iter().all(|l| self.get(l).is_none())
    }
}

/// What a write asks for: the limits in force and, per limit, how much the
/// write adds (one batch, its rows and their bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bounds {
    pub limits: Limits,
    pub demands: Vec<(Quota, u64)>,
}

impl Bounds {
    /// The limits the write counts against (what the store must count).
    pub fn counted(&self) -> impl Iterator<Item = Quota> + '_ {
        self.demands.iter().map(|(l, _)| *l)
    }

    /// Admits the write if, for every limit it counts against, what the
    /// account has (before the write) plus what it adds stays within the
    /// limit; else the first limit it would pass.
    pub fn admit(&self, before: &Usage) -> Result<(), Exceeded> {
        for &(limit, adding) in &self.demands {
            let max = self.limits.get(limit);
            let used = before.get(limit);
            if used.saturating_add(adding) > max {
                return Err(Exceeded { limit, max, used });
            }
        }
        Ok(())
    }
}

/// A write refused by a bound: which, its value, and what the account had.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{}: the account has {used} {} and may have at most {max}{}", limit.key(), limit.counts(), if limit.is_transient() { "; retry once some are processed" } else { "; an operator can raise the limit" })]
pub struct Exceeded {
    pub limit: Quota,
    pub max: u64,
    pub used: u64,
}

/// Why a bounded write did not happen (nothing was written).
#[derive(Debug, thiserror::Error)]
pub enum BoundedWriteError {
    /// A bound would be passed.
    #[error(transparent)]
    Exceeded(Exceeded),
    /// The store failed (a unique key included: `Duplicate`).
    #[error(transparent)]
    Store(#[from] StoreError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_override_replaces_only_its_own_default() {
        let mut o = LimitOverrides::default();
        assert!(o.is_empty());
        assert_eq!(o.apply(&Limits::DEFAULT), Limits::DEFAULT);
        o.set(Quota::StoredBytes, Some(10));
        let limits = o.apply(&Limits::DEFAULT);
        assert_eq!(limits.get(Quota::StoredBytes), 10);
        for l in Quota::ALL.into_iter().filter(|l| *l != Quota::StoredBytes) {
            assert_eq!(limits.get(l), Limits::DEFAULT.get(l), "{l:?}");
        }
        // an override may also raise a default, or set it to zero
        o.set(Quota::PendingBatches, Some(0));
        o.set(Quota::StoredShipments, Some(u64::MAX));
        let limits = o.apply(&Limits::DEFAULT);
        assert_eq!(limits.pending_batches, 0);
        assert_eq!(limits.stored_shipments, u64::MAX);
    }

    #[test]
    fn a_write_is_admitted_up_to_the_limit_and_not_past_it() {
        let mut limits = Limits::DEFAULT;
        limits.set(Quota::StoredShipments, 100);
        let bounds = limits.bounds(&[(Quota::StoredShipments, 40)]);
        let mut usage = Usage::default();
        usage.set(Quota::StoredShipments, 60);
        assert_eq!(bounds.admit(&usage), Ok(()), "exactly the limit");
        usage.set(Quota::StoredShipments, 61);
        assert_eq!(
            bounds.admit(&usage),
            Err(Exceeded {
                limit: Quota::StoredShipments,
                max: 100,
                used: 61
            })
        );
        // near u64::MAX the sum saturates rather than wraps
        usage.set(Quota::StoredShipments, u64::MAX);
        assert!(bounds.admit(&usage).is_err());
    }

    #[test]
    fn only_the_limits_a_write_counts_against_apply() {
        let bounds = Limits::DEFAULT.bounds(&[(Quota::PendingDocuments, 1)]);
        let mut usage = Usage::default();
        usage.set(Quota::PendingBatches, 1_000);
        usage.set(Quota::StoredBytes, u64::MAX);
        assert_eq!(bounds.admit(&usage), Ok(()));
        assert_eq!(
            bounds.counted().collect::<Vec<_>>(),
            [Quota::PendingDocuments]
        );
    }

    #[test]
    fn the_first_limit_passed_is_named_with_its_value() {
        let mut limits = Limits::DEFAULT;
        limits.set(Quota::PendingBatches, 2);
        let bounds = limits.bounds(&[(Quota::PendingBatches, 1), (Quota::StoredBytes, 5)]);
        let mut usage = Usage::default();
        usage.set(Quota::PendingBatches, 2);
        usage.set(Quota::StoredBytes, u64::MAX);
        let e = bounds.admit(&usage).unwrap_err();
        assert_eq!(e.limit, Quota::PendingBatches);
        assert_eq!(
            e.to_string(),
            "max_pending_batches: the account has 2 shipment batches waiting to be processed and may have at most 2; retry once some are processed"
        );
        assert!(e.limit.is_transient());
        assert!(!Quota::StoredBytes.is_transient());
    }

    #[test]
    fn keys_name_each_limit_once() {
        for l in Quota::ALL {
            assert_eq!(Quota::from_key(l.key()), Some(l));
        }
        assert_eq!(Quota::from_key("max_nothing"), None);
    }
}
