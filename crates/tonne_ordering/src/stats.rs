//! The installation's live orders in figures, for the operator's overview:
//! orders and tonnes per day, and revenue per currency.
//!
//! ```
//! use time::macros::date;
//! use tonne_kernel::Mass;
//! use tonne_ordering::{DailyOrders, fill_days};
//!
//! let sparse = vec![DailyOrders { day: date!(2026-11-20), orders: 2, quantity: Mass::from_grams(3) }];
//! let days = fill_days(&sparse, date!(2026-11-19), date!(2026-11-21));
//! assert_eq!(days.iter().map(|d| d.orders).collect::<Vec<_>>(), [0, 2, 0]);
//! ```

use time::Date;
use tonne_kernel::{Mass, Money};

/// One day of live orders (placed, not cancelled or failed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DailyOrders {
    pub day: Date,
    pub orders: u64,
    pub quantity: Mass,
}

/// Live orders since a day: per day, and what they brought in per currency.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OrderStats {
    /// Every day of the period, oldest first (days without orders are zero).
    pub daily: Vec<DailyOrders>,
    /// Total cost of the period's orders, one sum per currency, by code.
    pub revenue: Vec<Money>,
}

/// Every day from `first` to `last` (inclusive), with the figures of the days
/// that have some and zero for the others.
pub fn fill_days(sparse: &[DailyOrders], first: Date, last: Date) -> Vec<DailyOrders> {
    let mut days = Vec::new();
    let mut day = first;
    while day <= last {
        days.push(
            sparse
                .iter()
                .find(|d| d.day == day)
                .copied()
                .unwrap_or(DailyOrders {
                    day,
                    orders: 0,
                    quantity: Mass::from_grams(0),
                }),
        );
        match day.next_day() {
            Some(next) => day = next,
            None => break,
        }
    }
    days
}
