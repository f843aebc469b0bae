//! What a change adds to the rollups' rows, computed before anything is
//! written: an order's key (account, day, month), its weights by status, and
//! its deltas per bundle and per project.

use std::collections::BTreeMap;

use time::Date;
use tonne_ordering::{Order, OrderStatus};

use crate::mapping::to_sql_time;

/// A UTC day as the rollups key it: `YYYY-MM-DD`, the order of text being the
/// order of days.
pub(crate) fn day_text(day: Date) -> String {
    format!(
        "{:04}-{:02}-{:02}",
        day.year(),
        u8::from(day.month()),
        day.day()
    )
}

/// What one change adds to a row's figures (negative to take away).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct Delta {
    pub(super) placed_grams: i64,
    pub(super) placed_minor: i64,
    pub(super) completed_grams: i64,
    pub(super) completed_minor: i64,
}

impl Delta {
    /// `grams` and `minor` counted `placed` times towards the placed figures
    /// and `completed` times towards the completed ones (each -1, 0 or 1).
    pub(super) fn of(grams: i64, minor: i64, (placed, completed): (i64, i64)) -> Self {
        Self {
            placed_grams: grams.saturating_mul(placed),
            placed_minor: minor.saturating_mul(placed),
            completed_grams: grams.saturating_mul(completed),
            completed_minor: minor.saturating_mul(completed),
        }
    }

    pub(super) fn plus(self, other: Self) -> Self {
        Self {
            placed_grams: self.placed_grams.saturating_add(other.placed_grams),
            placed_minor: self.placed_minor.saturating_add(other.placed_minor),
            completed_grams: self.completed_grams.saturating_add(other.completed_grams),
            completed_minor: self.completed_minor.saturating_add(other.completed_minor),
        }
    }

    pub(super) fn is_zero(self) -> bool {
        self == Self::default()
    }
}

/// What an order in `status` counts towards: (placed, completed), each 0 or 1.
pub(super) fn weights(status: OrderStatus) -> (i64, i64) {
    (
        i64::from(!matches!(
            status,
            OrderStatus::Cancelled | OrderStatus::Failed
        )),
        i64::from(status == OrderStatus::Complete),
    )
}

pub(super) fn negated((placed, completed): (i64, i64)) -> (i64, i64) {
    (-placed, -completed)
}

/// One project row of an order: project id, grams, offset cost in minor units.
pub(crate) type Allocated = (String, i64, i64);

pub(super) fn allocation_of(order: &Order) -> Vec<Allocated> {
    order
        .projects
        .iter()
        .map(|p| {
            (
                p.project_id.to_string(),
                p.quantity.grams(),
                p.offset_cost.minor(),
            )
        })
        .collect()
}

/// A UTC month as the monthly rollups key it: `YYYY-MM`, the first seven
/// characters of [`day_text`].
pub(crate) fn month_text(day: Date) -> String {
    format!("{:04}-{:02}", day.year(), u8::from(day.month()))
}

/// The account, day and month an order's figures belong to.
pub(super) struct OrderKey {
    pub(super) account: String,
    pub(super) day: String,
    pub(super) month: String,
}

impl OrderKey {
    pub(super) fn of(order: &Order) -> Self {
        let day = to_sql_time(order.created_at).date();
        Self {
            account: order.account_id.to_string(),
            day: day_text(day),
            month: month_text(day),
        }
    }
}

/// The order's lines per bundle (in bundle order): the last line's name and
/// the lines' figures weighted by `weights`.
pub(super) fn by_bundle(order: &Order, weights: (i64, i64)) -> BTreeMap<String, (String, Delta)> {
    let mut out: BTreeMap<String, (String, Delta)> = BTreeMap::new();
    for line in &order.lines {
        let delta = Delta::of(line.quantity.grams(), line.offset_cost.minor(), weights);
        let entry = out
            .entry(line.bundle_id.to_string())
            .or_insert_with(|| (line.bundle_name.clone(), Delta::default()));
        entry.0.clone_from(&line.bundle_name);
        entry.1 = entry.1.plus(delta);
    }
    out
}

/// Adds project rows, weighted, to per-project deltas.
pub(super) fn add_projects(
    into: &mut BTreeMap<String, Delta>,
    rows: &[Allocated],
    weights: (i64, i64),
) {
    for (project, grams, minor) in rows {
        let entry = into.entry(project.clone()).or_default();
        *entry = entry.plus(Delta::of(*grams, *minor, weights));
    }
}

/// One bundle's change: bundle id, the name on the order's line, the delta.
pub(super) type BundleDelta = (String, String, Delta);

pub(super) fn placed_rows(order: &Order) -> (OrderKey, Vec<BundleDelta>) {
    let rows = by_bundle(order, weights(order.status))
        .into_iter()
        .filter(|(_, (_, delta))| !delta.is_zero())
        .map(|(bundle, (name, delta))| (bundle, name, delta))
        .collect();
    (OrderKey::of(order), rows)
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    #[test]
    fn days_are_iso_dates_ordered_as_text() {
        assert_eq!(day_text(date!(2026 - 03 - 04)), "2026-03-04");
        assert!(day_text(Date::MIN) < day_text(date!(0001 - 01 - 01)));
        assert!(day_text(date!(2026 - 12 - 31)) < day_text(Date::MAX));
    }

    #[test]
    fn a_status_counts_once_towards_what_it_is() {
        assert_eq!(weights(OrderStatus::Received), (1, 0));
        assert_eq!(weights(OrderStatus::Retiring), (1, 0));
        assert_eq!(weights(OrderStatus::Complete), (1, 1));
        assert_eq!(weights(OrderStatus::Cancelled), (0, 0));
        assert_eq!(weights(OrderStatus::Failed), (0, 0));
        assert!(Delta::of(5, 7, (0, 0)).is_zero());
        assert_eq!(
            Delta::of(5, 7, (-1, 1)),
            Delta {
                placed_grams: -5,
                placed_minor: -7,
                completed_grams: 5,
                completed_minor: 7
            }
        );
    }
}
