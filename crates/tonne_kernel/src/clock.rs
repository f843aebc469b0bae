//! The two driven ports every domain needs, [`Clock`] and [`IdGenerator`], with
//! their system implementations.

use time::OffsetDateTime;
use uuid::Uuid;

/// The current time. Adapters and tests supply their own.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
pub trait Clock: Send + Sync {
    /// Now, in UTC, truncated to whole microseconds so that it round-trips through
    /// every store (PostgreSQL keeps microseconds).
    fn now(&self) -> OffsetDateTime;
}

/// The system clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> OffsetDateTime {
        let now = OffsetDateTime::now_utc();
        let micros = now.microsecond();
        now.replace_microsecond(micros).unwrap_or(now)
    }
}

/// Source of fresh identifiers.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
pub trait IdGenerator: Send + Sync {
    /// A new, unique, unguessable UUID.
    fn new_uuid(&self) -> Uuid;
}

/// UUIDv7: time-ordered (so keyset pagination by id follows creation order)
/// with 74 random bits.
#[derive(Debug, Clone, Copy, Default)]
pub struct UuidV7Generator;

impl IdGenerator for UuidV7Generator {
    fn new_uuid(&self) -> Uuid {
        Uuid::now_v7()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_clock_has_no_nanoseconds_beyond_micros() {
        let now = SystemClock.now();
        assert_eq!(now.nanosecond() % 1_000, 0);
    }

    #[test]
    fn v7_ids_are_ordered() {
        let a = UuidV7Generator.new_uuid();
        let b = UuidV7Generator.new_uuid();
        assert!(a < b);
    }
}
