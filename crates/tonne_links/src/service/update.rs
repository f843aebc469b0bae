//! Use cases: change a link (the API's update) and switch it on or off (the
//! console, audited).

use tonne_kernel::{AccountId, Actor};

use crate::errors::LinkError;
use crate::models::{LinkChanges, LinkDetails, LinkStatus, MAX_DESCRIPTION, MAX_NAME, MAX_TITLE};
use crate::ports::StoreError;

use super::OffsetLinks;
use super::checks::{emails, parse_value, text};
use super::support::{invalid, snapshot};

impl OffsetLinks {
    pub(super) async fn update(
        &self,
        account: AccountId,
        id: &str,
        changes: LinkChanges,
    ) -> Result<LinkDetails, LinkError> {
        let mut link = self.owned(account, id).await?;
        if changes
            .require_payment
            .is_some_and(|r| r != link.require_payment)
        {
            return Err(invalid(
                "require_payment",
                "cannot be changed once the offset link exists",
            ));
        }
        link.name = text("name", Some(changes.name), MAX_NAME, true)?.unwrap_or_default();
        if changes.title.is_some() {
            link.title = text("title", changes.title, MAX_TITLE, false)?;
        }
        if changes.description.is_some() {
            link.description = text("description", changes.description, MAX_DESCRIPTION, false)?;
        }
        if changes.expires_at.is_some() {
            self.check_expiry(changes.expires_at)?;
            link.expires_at = changes.expires_at;
        }
        if let Some(list) = changes.emails {
            link.emails = emails(list)?;
        }
        if let Some(v) = changes.value.as_deref() {
            link.value = Some(parse_value(v, link.currency)?);
        }
        if let Some(bundles) = changes.bundles.as_deref() {
            link.bundle_ids = self.bundles(bundles, link.currency).await?;
        }
        if let Some(limits) = &changes.limits {
            link.limits = self.limits(limits, link.currency)?;
        }
        link.use_logo = changes.use_logo;
        if let Some(status) = changes.status {
            link.switched_off = status == LinkStatus::Disabled;
        }
        link.updated_at = self.clock.now();
        match self.links.update(&link, None).await {
            Ok(()) => {}
            Err(StoreError::Duplicate) => return Err(LinkError::NameTaken(link.name)),
            Err(StoreError::NotFound) => return Err(LinkError::NotFound),
            Err(e) => return Err(e.unexpected().into()),
        }
        Ok(self.details(link).await?)
    }

    pub(super) async fn switch_as(
        &self,
        account: AccountId,
        id: &str,
        on: bool,
        by: &Actor,
    ) -> Result<LinkDetails, LinkError> {
        let mut link = self.owned(account, id).await?;
        if link.switched_off != on {
            return Ok(self.details(link).await?);
        }
        let profile = self.profile(account).await?;
        let before = snapshot(&link);
        link.switched_off = !on;
        link.updated_at = self.clock.now();
        let action = if on {
            "offset_link.enabled"
        } else {
            "offset_link.disabled"
        };
        self.save_audited(link, before, profile.organisation_id, action, by)
            .await
    }
}
