//! Use case: create a link (the API, unaudited, and the console, audited).

use tonne_kernel::{AccountId, Actor, AuditEntry};

use crate::errors::LinkError;
use crate::models::{
    LinkDetails, LinkDraft, MAX_DESCRIPTION, MAX_NAME, MAX_TITLE, OffsetLink, OffsetLinkId,
};
use crate::ports::StoreError;

use super::OffsetLinks;
use super::checks::{emails, parse_value, text};
use super::support::snapshot;

impl OffsetLinks {
    /// Creates a link; audited when `by` is given (the console), not for the
    /// API's business writes.
    pub(super) async fn create_by(
        &self,
        account: AccountId,
        draft: LinkDraft,
        by: Option<&Actor>,
    ) -> Result<LinkDetails, LinkError> {
        let profile = self.profile(account).await?;
        let name = text("name", Some(draft.name), MAX_NAME, true)?.unwrap_or_default();
        let title = text("title", draft.title, MAX_TITLE, false)?;
        let description = text("description", draft.description, MAX_DESCRIPTION, false)?;
        self.check_expiry(draft.expires_at)?;
        let emails = emails(draft.emails.unwrap_or_default())?;
        let value = draft
            .value
            .as_deref()
            .map(|v| parse_value(v, profile.currency))
            .transpose()?;
        let bundle_ids = self.bundles(&draft.bundles, profile.currency).await?;
        let limits = self.limits(&draft.limits, profile.currency)?;
        let now = self.clock.now();
        let link = OffsetLink {
            id: OffsetLinkId::generate(self.ids.as_ref()),
            account_id: account,
            mode: profile.mode,
            name,
            title,
            description,
            bundle_ids,
            value,
            currency: profile.currency,
            emails,
            expires_at: draft.expires_at,
            use_logo: draft.use_logo,
            require_payment: draft.require_payment,
            switched_off: false,
            limits,
            created_at: now,
            updated_at: now,
        };
        let audit = by.map(|by| {
            AuditEntry::new(
                now,
                by.clone(),
                "offset_link.created",
                "offset_link",
                link.id,
            )
            .in_organisation(profile.organisation_id)
            .after(snapshot(&link))
        });
        match self.links.insert(&link, audit).await {
            Ok(()) => {}
            Err(StoreError::Duplicate) => return Err(LinkError::NameTaken(link.name)),
            Err(e) => return Err(e.unexpected().into()),
        }
        Ok(self.details(link).await?)
    }
}
