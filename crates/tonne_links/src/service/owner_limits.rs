//! Use case: the link's owner sets its hosted page's limits (the console).

use tonne_kernel::{AccountId, Actor};

use super::OffsetLinks;
use super::support::snapshot;
use crate::errors::LinkError;
use crate::limits::LimitsDraft;
use crate::models::LinkDetails;

impl OffsetLinks {
    /// Checks the limits against the server's ceilings and stores them with
    /// their audit entry; the same limits again write nothing.
    pub(super) async fn set_limits(
        &self,
        account: AccountId,
        id: &str,
        draft: LimitsDraft,
        by: &Actor,
    ) -> Result<LinkDetails, LinkError> {
        let mut link = self.owned(account, id).await?;
        let limits = self.limits(&draft, link.currency)?;
        if limits == link.limits {
            return Ok(self.details(link).await?);
        }
        let profile = self.profile(account).await?;
        let before = snapshot(&link);
        link.limits = limits;
        link.updated_at = self.clock.now();
        self.save_audited(
            link,
            before,
            profile.organisation_id,
            "offset_link.limits_changed",
            by,
        )
        .await
    }
}
