//! The daily figures agree with the raw orders and estimates: per account and
//! basis, in bundle and month totals, and estimates per day and kind.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use time::Date;
use time::macros::date;
use tonne_impact::DateRange;
use tonne_impact::ports::{Basis, ImpactRepository};
use tonne_kernel::{AccountId, UuidV7Generator};
use tonne_ordering::ProjectId;
use tonne_storage::ImpactStore;
use tonne_test_support::TestDb;

use super::fixtures::{D2, D3, LAST, T0, bundle_id, estimates, project, scenario};
use super::raw_sums::{
    raw_bundles, raw_estimates, raw_projects, rolled_bundles, rolled_estimates, rolled_projects,
};

pub(super) async fn daily_figures_equal_the_raw_orders_per_account_and_basis(t: TestDb) {
    let accounts = scenario(&t).await;
    let impact = ImpactStore::new(t.db().clone());
    let all = (Date::MIN, LAST);
    let everything = DateRange::new(date!(2026 - 01 - 01), LAST).unwrap();
    let d2 = D2.date();
    for account in [&accounts.live, &accounts.test, &accounts.other] {
        for basis in [Basis::Placed, Basis::Completed] {
            let raw = raw_bundles(&t, account.id, all, basis).await;
            assert!(!raw.is_empty());
            assert_eq!(
                rolled_bundles(&impact, account.id, None, LAST, basis).await,
                raw,
                "{basis:?} of {:?}",
                account.mode
            );
            assert_eq!(
                rolled_bundles(&impact, account.id, Some(d2), d2, basis).await,
                raw_bundles(&t, account.id, (d2, d2), basis).await,
                "one day, {basis:?}"
            );
            let raw = raw_projects(&t, account.id, all, basis).await;
            assert_eq!(
                rolled_projects(&impact, account.id, None, basis).await,
                raw,
                "projects, {basis:?}"
            );
            assert_eq!(
                rolled_projects(&impact, account.id, Some(everything), basis).await,
                raw
            );
            let d3 = D3.date();
            assert_eq!(
                rolled_projects(
                    &impact,
                    account.id,
                    Some(DateRange::new(d3, d3).unwrap()),
                    basis
                )
                .await,
                raw_projects(&t, account.id, (d3, d3), basis).await,
                "projects of one day, {basis:?}"
            );
        }
    }

    // The figures themselves, so that the comparison above is not vacuous.
    let live = accounts.live.id;
    let days = impact
        .bundle_days(live, None, LAST, Basis::Placed)
        .await
        .unwrap();
    let first = &days[0];
    assert_eq!(
        (first.day, first.bundle_id, first.quantity.grams()),
        (T0.date(), bundle_id(11), 3_000_000),
        "the cancelled order is not counted"
    );
    assert_eq!(
        first.bundle_name, "Bundle 11 renamed",
        "the row keeps the newest order's name"
    );
    assert!(
        !days
            .iter()
            .any(|d| d.day == d2 && d.bundle_id == bundle_id(12)),
        "the failed order's day and bundle has nothing placed"
    );
    let grams =
        |days: &[tonne_impact::BundleDay]| -> i64 { days.iter().map(|d| d.quantity.grams()).sum() };
    assert_eq!(grams(&days), 15_500_000);
    let done = impact
        .bundle_days(live, None, LAST, Basis::Completed)
        .await
        .unwrap();
    assert_eq!(
        grams(&done),
        8_800_000,
        "only complete orders, only this account's"
    );
    assert_eq!(
        impact
            .bundle_days(live, Some(D3.date()), LAST, Basis::Completed)
            .await
            .unwrap()
            .iter()
            .map(|d| (d.bundle_id, d.quantity.grams()))
            .collect::<Vec<_>>(),
        vec![(bundle_id(11), 4_300_000), (bundle_id(12), 500_000)]
    );
    let tonnes = |sums: Vec<(ProjectId, i64, i64)>| -> Vec<(ProjectId, i64)> {
        sums.into_iter().map(|(p, g, _)| (p, g)).collect()
    };
    assert_eq!(
        tonnes(rolled_projects(&impact, live, None, Basis::Completed).await),
        vec![
            (project(1).id, 5_650_000),
            (project(2).id, 1_650_000),
            (project(3).id, 1_500_000),
        ],
        "re-allocated orders count their last allocation"
    );
    assert_eq!(
        tonnes(rolled_projects(&impact, live, None, Basis::Placed).await),
        vec![
            (project(1).id, 6_150_000),
            (project(2).id, 2_150_000),
            (project(3).id, 1_500_000),
        ],
        "the retiring order counts; the failed one does not"
    );
    assert_eq!(
        tonnes(rolled_projects(&impact, accounts.other.id, None, Basis::Placed).await),
        vec![(project(1).id, 4_000_000), (project(2).id, 4_000_000)]
    );
    assert!(
        impact
            .bundle_days(
                AccountId::generate(&UuidV7Generator),
                None,
                LAST,
                Basis::Placed
            )
            .await
            .unwrap()
            .is_empty()
    );
}

pub(super) async fn bundle_and_month_totals_sum_the_daily_figures(t: TestDb) {
    use std::collections::BTreeMap;
    let accounts = scenario(&t).await;
    let impact = ImpactStore::new(t.db().clone());
    for account in [&accounts.live, &accounts.test, &accounts.other] {
        for basis in [Basis::Placed, Basis::Completed] {
            for from in [None, Some(D2.date())] {
                let days = impact
                    .bundle_days(account.id, from, LAST, basis)
                    .await
                    .unwrap();
                // (grams, minor, newest day, its name) per bundle, from the days
                let mut expected: BTreeMap<String, (i64, i64, Date, String)> = BTreeMap::new();
                for d in &days {
                    let e = expected.entry(d.bundle_id.to_string()).or_insert((
                        0,
                        0,
                        d.day,
                        d.bundle_name.clone(),
                    ));
                    e.0 += d.quantity.grams();
                    e.1 += d.value_minor;
                    if d.day >= e.2 {
                        e.2 = d.day;
                        e.3 = d.bundle_name.clone();
                    }
                }
                // whole months answer with the month's first day as the newest
                for e in expected.values_mut() {
                    e.2 = e.2.replace_day(1).unwrap();
                }
                let totals: BTreeMap<String, (i64, i64, Date, String)> = impact
                    .bundle_totals(account.id, from, LAST, basis)
                    .await
                    .unwrap()
                    .into_iter()
                    .map(|t| {
                        (
                            t.bundle_id.to_string(),
                            (
                                t.quantity.grams(),
                                t.value_minor,
                                t.last_day.replace_day(1).unwrap(),
                                t.bundle_name,
                            ),
                        )
                    })
                    .collect();
                assert!(!totals.is_empty() || days.is_empty());
                assert_eq!(totals, expected, "{basis:?} from {from:?}");
            }
            let days = impact
                .bundle_days(account.id, None, LAST, basis)
                .await
                .unwrap();
            let mut expected: BTreeMap<Date, (i64, i64)> = BTreeMap::new();
            for d in &days {
                let e = expected.entry(d.day.replace_day(1).unwrap()).or_default();
                e.0 += d.quantity.grams();
                e.1 += d.value_minor;
            }
            let months: BTreeMap<Date, (i64, i64)> = impact
                .month_totals(account.id, basis)
                .await
                .unwrap()
                .into_iter()
                .map(|m| (m.month, (m.quantity.grams(), m.value_minor)))
                .collect();
            assert_eq!(months, expected, "months, {basis:?}");
        }
    }
    // Whole months come from the monthly rows: March whole, and everything to
    // the end of the year, answer as the days do.
    for account in [&accounts.live, &accounts.test, &accounts.other] {
        for basis in [Basis::Placed, Basis::Completed] {
            let by_days = impact
                .bundle_totals(account.id, None, LAST, basis)
                .await
                .unwrap();
            for (from, through) in [
                (Some(date!(2026 - 03 - 01)), date!(2026 - 03 - 31)),
                (None, date!(2026 - 12 - 31)),
                (Some(date!(2026 - 02 - 15)), date!(2026 - 04 - 15)),
            ] {
                assert_eq!(
                    impact
                        .bundle_totals(account.id, from, through, basis)
                        .await
                        .unwrap()
                        .iter()
                        .map(|t| (t.bundle_id, t.quantity.grams(), t.value_minor))
                        .collect::<Vec<_>>(),
                    by_days
                        .iter()
                        .map(|t| (t.bundle_id, t.quantity.grams(), t.value_minor))
                        .collect::<Vec<_>>(),
                    "{basis:?} {from:?}–{through}"
                );
                let range = DateRange::new(from.unwrap_or(date!(2020 - 01 - 01)), through).unwrap();
                assert_eq!(
                    rolled_projects(&impact, account.id, Some(range), basis).await,
                    rolled_projects(&impact, account.id, None, basis).await,
                    "projects, {basis:?} {range:?}"
                );
            }
        }
    }
    let live = impact
        .bundle_totals(accounts.live.id, None, LAST, Basis::Placed)
        .await
        .unwrap();
    // Bundle 11's first day carries another name ("Bundle 11 renamed"): still
    // one total, under the newest day's name.
    assert_eq!(
        live.iter()
            .map(|t| (t.bundle_name.as_str(), t.quantity.grams()))
            .collect::<Vec<_>>(),
        vec![
            ("Bundle 11", 8_300_000),
            ("Bundle 12", 1_500_000),
            ("Bundle 13", 5_700_000)
        ],
        "{live:?}"
    );
    assert_eq!(
        live.iter().map(|t| t.quantity.grams()).sum::<i64>(),
        15_500_000
    );
}

pub(super) async fn estimates_are_counted_per_day_and_kind_over_accounts(t: TestDb) {
    let accounts = scenario(&t).await;
    let client = estimates(&t, &accounts).await;
    let impact = ImpactStore::new(t.db().clone());
    let range = DateRange::new(date!(2026 - 03 - 04), date!(2026 - 03 - 06)).unwrap();
    let both = vec![accounts.live.id, client.id];
    let counted = rolled_estimates(&impact, both.clone(), range).await;
    assert_eq!(
        counted,
        vec![
            (date!(2026 - 03 - 04), "company".to_owned(), 1, 5_000),
            (date!(2026 - 03 - 04), "transaction".to_owned(), 3, 4_500),
            (date!(2026 - 03 - 05), "transaction".to_owned(), 1, 2_000),
        ]
    );
    assert_eq!(
        counted,
        raw_estimates(
            &t,
            [accounts.live.id, client.id],
            (range.from(), range.through())
        )
        .await
    );
    let wide = DateRange::new(date!(2026 - 03 - 01), LAST).unwrap();
    assert_eq!(
        rolled_estimates(&impact, both, wide).await,
        raw_estimates(
            &t,
            [accounts.live.id, client.id],
            (wide.from(), wide.through())
        )
        .await
    );
    assert_eq!(
        rolled_estimates(&impact, vec![accounts.other.id], range).await,
        vec![(date!(2026 - 03 - 04), "transaction".to_owned(), 1, 99_999)]
    );
    assert!(rolled_estimates(&impact, vec![], range).await.is_empty());
}
