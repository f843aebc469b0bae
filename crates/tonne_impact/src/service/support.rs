//! What several impact use cases share: today, the asked date range, the
//! viewer's currency, and the catalogue's projects and bundles by id.

use std::collections::HashMap;

use time::Date;
use tonne_kernel::{Currency, StoreError};
use tonne_ordering::{BundleId, ProjectId};

use crate::errors::AnalyticsError;
use crate::ports::{AskedRange, ProjectSum, Viewer};
use crate::range::DateRange;

use super::Impact;

impl Impact {
    pub(super) fn today(&self) -> Date {
        self.clock.now().date()
    }

    pub(super) fn range(&self, asked: AskedRange) -> Result<DateRange, AnalyticsError> {
        Ok(DateRange::resolve(asked.from, asked.through, self.today())?)
    }

    pub(super) async fn currency(&self, viewer: &Viewer) -> Result<Currency, StoreError> {
        Ok(self
            .holders
            .holder(viewer.account_id)
            .await?
            .ok_or_else(|| {
                StoreError::Unexpected(anyhow::anyhow!(
                    "acting account {} vanished",
                    viewer.account_id
                ))
            })?
            .currency)
    }

    pub(super) async fn projects_of(
        &self,
        sums: &[ProjectSum],
    ) -> Result<HashMap<ProjectId, tonne_ordering::Project>, StoreError> {
        let ids: Vec<ProjectId> = sums.iter().map(|s| s.project_id).collect();
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        Ok(self
            .catalogue
            .projects(&ids)
            .await?
            .into_iter()
            .map(|p| (p.id, p))
            .collect())
    }

    pub(super) async fn bundles_of(
        &self,
        ids: Vec<BundleId>,
    ) -> Result<HashMap<BundleId, tonne_ordering::Bundle>, StoreError> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        Ok(self
            .catalogue
            .bundles(&ids)
            .await?
            .into_iter()
            .map(|b| (b.id, b))
            .collect())
    }
}
