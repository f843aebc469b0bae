//! Use case: the emission calculations (estimates) of a date range, by interval
//! and by kind.

use std::collections::BTreeMap;

use time::Date;
use tonne_kernel::Mass;

use crate::analytics::{CountPoint, EstimateMetrics, KindTotal};
use crate::errors::AnalyticsError;
use crate::ports::{AskedRange, Viewer};
use crate::range::Interval;

use super::Impact;

impl Impact {
    pub(super) async fn emission_calculations(
        &self,
        viewer: Viewer,
        asked: AskedRange,
        interval: Interval,
        all_accounts: bool,
    ) -> Result<EstimateMetrics, AnalyticsError> {
        let range = self.range(asked)?;
        let accounts = if all_accounts && !viewer.client_account {
            self.holders
                .accounts(viewer.organisation_id, viewer.mode)
                .await?
        } else {
            vec![viewer.account_id]
        };
        let rows = self.repository.estimate_days(accounts, range).await?;
        let mut buckets: BTreeMap<Date, u64> = range
            .buckets(interval)
            .into_iter()
            .map(|d| (d, 0))
            .collect();
        let mut kinds: BTreeMap<String, (u64, i64)> = BTreeMap::new();
        for row in rows.into_iter().filter(|r| range.contains(r.day)) {
            *buckets.entry(interval.bucket_of(row.day)).or_default() += row.count;
            let kind = kinds.entry(row.kind).or_default();
            kind.0 += row.count;
            kind.1 = kind.1.saturating_add(row.mass.grams());
        }
        Ok(EstimateMetrics {
            timeseries: buckets
                .into_iter()
                .map(|(date, count)| CountPoint { date, count })
                .collect(),
            by_kind: kinds
                .into_iter()
                .map(|(kind, (count, grams))| KindTotal {
                    kind,
                    count,
                    mass: Mass::from_grams(grams),
                })
                .collect(),
        })
    }
}
