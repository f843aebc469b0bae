//! Use case: the cumulative quantity and value offset per bundle, day by day.

use std::collections::{BTreeMap, HashMap};

use time::Date;
use tonne_ordering::BundleId;

use crate::analytics::{BundleSeries, Figures, Point};
use crate::errors::AnalyticsError;
use crate::ports::{AskedRange, Basis, Viewer};
use crate::range::Interval;

use super::Impact;

impl Impact {
    pub(super) async fn cumulative_per_bundle(
        &self,
        viewer: Viewer,
        asked: AskedRange,
    ) -> Result<Vec<BundleSeries>, AnalyticsError> {
        let range = self.range(asked)?;
        let currency = self.currency(&viewer).await?;
        let before = match range.from().previous_day() {
            Some(eve) => {
                self.repository
                    .bundle_totals(viewer.account_id, None, eve, Basis::Placed)
                    .await?
            }
            None => Vec::new(),
        };
        let rows = self
            .repository
            .bundle_days(
                viewer.account_id,
                Some(range.from()),
                range.through(),
                Basis::Placed,
            )
            .await?;
        struct Acc {
            name: (Date, String),
            before: Figures,
            days: HashMap<Date, Figures>,
        }
        let mut bundles: BTreeMap<BundleId, Acc> = BTreeMap::new();
        for t in before {
            let mut figures = Figures::zero(currency);
            figures.add(t.quantity.grams(), t.value_minor);
            bundles.insert(
                t.bundle_id,
                Acc {
                    name: (t.last_day, t.bundle_name),
                    before: figures,
                    days: HashMap::new(),
                },
            );
        }
        for row in rows {
            let acc = bundles.entry(row.bundle_id).or_insert_with(|| Acc {
                name: (row.day, row.bundle_name.clone()),
                before: Figures::zero(currency),
                days: HashMap::new(),
            });
            if row.day >= acc.name.0 {
                acc.name = (row.day, row.bundle_name.clone());
            }
            acc.days
                .entry(row.day)
                .or_insert_with(|| Figures::zero(currency))
                .add(row.quantity.grams(), row.value_minor);
        }
        let days = range.buckets(Interval::Day);
        let mut out: Vec<BundleSeries> = bundles
            .into_iter()
            .map(|(bundle_id, acc)| {
                let mut running = acc.before;
                let points = days
                    .iter()
                    .map(|day| {
                        if let Some(f) = acc.days.get(day) {
                            running.add(f.quantity.grams(), f.value.minor());
                        }
                        Point {
                            date: *day,
                            figures: running,
                        }
                    })
                    .collect();
                BundleSeries {
                    bundle_id,
                    bundle_name: acc.name.1,
                    points,
                }
            })
            .collect();
        out.sort_by(|a, b| a.bundle_name.cmp(&b.bundle_name));
        Ok(out)
    }
}
