//! At most [`PER_ACCOUNT`] reports of one account in flight in this process:
//! a report walks every shipment the filter selects (up to an account's
//! million), so one key asking for many at once would hold the database's
//! connections and the workers' time that other tenants' requests need. A
//! slot is held until the answer's body is written out (or dropped).

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};

use tonne_kernel::AccountId;

/// Reports of one account in flight at once, per process.
pub const PER_ACCOUNT: u32 = 2;

fn in_flight() -> &'static Mutex<HashMap<AccountId, u32>> {
    static IN_FLIGHT: OnceLock<Mutex<HashMap<AccountId, u32>>> = OnceLock::new();
    IN_FLIGHT.get_or_init(|| Mutex::new(HashMap::new()))
}

/// A report's place; released when dropped.
#[derive(Debug)]
pub struct Slot(AccountId);

impl Slot {
    /// A place for one more report of `account`, or `None` while it has
    /// [`PER_ACCOUNT`] in flight.
    pub fn take(account: AccountId) -> Option<Self> {
        let mut map = in_flight().lock().unwrap_or_else(PoisonError::into_inner);
        let n = map.entry(account).or_insert(0);
        if *n >= PER_ACCOUNT {
            return None;
        }
        *n += 1;
        Some(Self(account))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut map = in_flight().lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(n) = map.get_mut(&self.0) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                map.remove(&self.0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn an_account_has_two_places_and_gets_one_back_when_a_report_ends() {
        let a: AccountId = "0190e0a0a0a070008000000000000a01".parse().unwrap();
        let b: AccountId = "0190e0a0a0a070008000000000000b02".parse().unwrap();
        let first = Slot::take(a).unwrap();
        let _second = Slot::take(a).unwrap();
        assert!(Slot::take(a).is_none(), "a third is refused");
        let _other = Slot::take(b).expect("another account is not held up");
        drop(first);
        assert!(
            Slot::take(a).is_some(),
            "a place is back once a report ends"
        );
    }
}
