//! Use case: the totals of a date range, by bundle.

use crate::analytics::Metrics;
use crate::errors::AnalyticsError;
use crate::ports::{AskedRange, Basis, Viewer};

use super::Impact;

impl Impact {
    pub(super) async fn metrics(
        &self,
        viewer: Viewer,
        asked: AskedRange,
    ) -> Result<Metrics, AnalyticsError> {
        let range = self.range(asked)?;
        let sums = self
            .repository
            .project_sums(viewer.account_id, Some(range), Basis::Placed)
            .await?;
        let projects = self.projects_of(&sums).await?;
        Ok(Metrics::of(
            sums.iter()
                .filter(|s| s.quantity.grams() > 0)
                .filter_map(|s| projects.get(&s.project_id))
                .map(|p| p.un_sdg.as_slice()),
        ))
    }
}
