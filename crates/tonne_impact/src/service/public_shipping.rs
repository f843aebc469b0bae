//! Use case: the public shipping figures' gate: a public account and its range.

use crate::errors::AnalyticsError;
use crate::pages::PageHolder;
use crate::ports::AskedRange;
use crate::range::DateRange;

use super::Impact;

impl Impact {
    pub(super) async fn public_shipping(
        &self,
        account: &str,
        asked: AskedRange,
    ) -> Result<(PageHolder, DateRange), AnalyticsError> {
        let account = account.parse().map_err(|_| AnalyticsError::NotPublic)?;
        let holder = self
            .holders
            .holder(account)
            .await?
            .filter(|h| h.public)
            .ok_or(AnalyticsError::NotPublic)?;
        Ok((holder, self.range(asked)?))
    }
}
