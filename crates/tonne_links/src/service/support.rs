//! What several offset link use cases share: the owner's profile, a link with
//! its bundles, a link of its owner, an owner's audited change, the audit
//! snapshot and the invalid-field errors.

use tonne_kernel::{AccountId, Actor, AuditEntry, OrganisationId, Snapshot};
use tonne_ordering::CatalogueError;

use crate::errors::{CheckoutError, LinkError};
use crate::limits::LinkLimits;
use crate::models::{AccountProfile, LinkDetails, OffsetLink, OffsetLinkId};
use crate::ports::StoreError;

use super::OffsetLinks;

impl OffsetLinks {
    pub(super) async fn profile(
        &self,
        account: AccountId,
    ) -> Result<AccountProfile, anyhow::Error> {
        self.accounts
            .profile(account)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or_else(|| anyhow::anyhow!("account {account} of an offset link is missing"))
    }

    pub(super) async fn details(&self, link: OffsetLink) -> Result<LinkDetails, anyhow::Error> {
        let mut bundles = Vec::with_capacity(link.bundle_ids.len());
        for id in &link.bundle_ids {
            match self.ordering.bundle(&id.to_string()).await {
                Ok(view) => bundles.push(view),
                Err(CatalogueError::NotFound | CatalogueError::Invalid { .. }) => {}
                Err(CatalogueError::Unexpected(e)) => return Err(e),
            }
        }
        Ok(LinkDetails { link, bundles })
    }

    pub(super) async fn owned(
        &self,
        account: AccountId,
        id: &str,
    ) -> Result<OffsetLink, LinkError> {
        let id: OffsetLinkId = id.parse().map_err(|_| LinkError::NotFound)?;
        match self.links.get(id).await.map_err(StoreError::unexpected)? {
            Some(link) if link.account_id == account => Ok(link),
            _ => Err(LinkError::NotFound),
        }
    }

    /// Stores a change the owner's console made to `link` (as it stood
    /// `before`) with its audit entry `action` in `organisation`; the link as
    /// it now stands.
    pub(super) async fn save_audited(
        &self,
        link: OffsetLink,
        before: Snapshot,
        organisation: OrganisationId,
        action: &str,
        by: &Actor,
    ) -> Result<LinkDetails, LinkError> {
        let audit = AuditEntry::new(link.updated_at, by.clone(), action, "offset_link", link.id)
            .in_organisation(organisation)
            .before(before)
            .after(snapshot(&link));
        match self.links.update(&link, Some(audit)).await {
            Ok(()) => {}
            Err(StoreError::NotFound) => return Err(LinkError::NotFound),
            Err(e) => return Err(e.unexpected().into()),
        }
        Ok(self.details(link).await?)
    }
}

pub(super) fn invalid(field: &'static str, reason: impl Into<String>) -> LinkError {
    LinkError::Invalid {
        field,
        reason: reason.into(),
    }
}

pub(super) fn checkout_invalid(field: &'static str, reason: impl Into<String>) -> CheckoutError {
    CheckoutError::Invalid {
        field,
        reason: reason.into(),
    }
}

/// What the audit log keeps of a link.
pub(super) fn snapshot(link: &OffsetLink) -> Snapshot {
    Snapshot::new()
        .with("name", &link.name)
        .with("mode", link.mode.as_str())
        .with("bundles", link.bundle_ids.len())
        .with("require_payment", link.require_payment)
        .with("state", if link.switched_off { "off" } else { "on" })
        .with("limits", limits_text(&link.limits))
}

/// The limits in one line of the audit log.
fn limits_text(l: &LinkLimits) -> String {
    format!(
        "{} t / {} {} per order; {} orders / {} t per day; {} per visitor per day",
        l.order_mass.to_tonnes_string(),
        l.order_value.to_decimal_string(),
        l.order_value.currency().code(),
        l.daily_orders,
        l.daily_mass.to_tonnes_string(),
        l.visitor_daily_orders
    )
}
