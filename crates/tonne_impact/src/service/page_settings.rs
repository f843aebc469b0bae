//! Use cases: an account's own sustainability page: create, change, read.

use crate::errors::{PageError, PageWriteError};
use crate::pages::{PageSettings, SustainabilityPage};
use crate::ports::Viewer;

use super::Impact;

impl Impact {
    pub(super) async fn create_page(
        &self,
        viewer: Viewer,
        settings: PageSettings,
    ) -> Result<SustainabilityPage, PageError> {
        let now = self.clock.now();
        let page = SustainabilityPage {
            account_id: viewer.account_id,
            organisation_id: viewer.organisation_id,
            mode: viewer.mode,
            settings,
            created_at: now,
            updated_at: now,
        };
        match self.repository.save_page(&page, true).await {
            Ok(()) => Ok(page),
            Err(PageWriteError::SlugTaken) => Err(PageError::SlugTaken),
            Err(PageWriteError::Conflict) => Err(PageError::Exists),
            Err(PageWriteError::Store(e)) => Err(e.into()),
        }
    }

    pub(super) async fn update_page(
        &self,
        viewer: Viewer,
        settings: PageSettings,
    ) -> Result<SustainabilityPage, PageError> {
        let existing = self
            .repository
            .page(viewer.account_id)
            .await?
            .ok_or(PageError::NotFound)?;
        let page = SustainabilityPage {
            settings,
            updated_at: self.clock.now(),
            ..existing
        };
        match self.repository.save_page(&page, false).await {
            Ok(()) => Ok(page),
            Err(PageWriteError::SlugTaken) => Err(PageError::SlugTaken),
            Err(PageWriteError::Conflict) => Err(PageError::NotFound),
            Err(PageWriteError::Store(e)) => Err(e.into()),
        }
    }

    pub(super) async fn current_page(
        &self,
        viewer: Viewer,
    ) -> Result<SustainabilityPage, PageError> {
        self.repository
            .page(viewer.account_id)
            .await?
            .ok_or(PageError::NotFound)
    }
}
