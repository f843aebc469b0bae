//! The checks of a link's fields on create and update: texts, emails, value,
//! expiry, bundles (existing, enabled, sold in the currency) and limits.

use time::OffsetDateTime;
use tonne_kernel::{Currency, Money};
use tonne_ordering::{BundleId, CatalogueError};

use crate::errors::LinkError;
use crate::limits::{LimitsDraft, LinkLimits, parse_limits};
use crate::models::{Email, MAX_BUNDLES, MAX_EMAILS};

use super::OffsetLinks;
use super::support::invalid;

impl OffsetLinks {
    /// The owner's limits, checked against the server's ceilings.
    pub(super) fn limits(
        &self,
        draft: &LimitsDraft,
        currency: Currency,
    ) -> Result<LinkLimits, LinkError> {
        let ceilings = (self.settings.max_tonnes, self.settings.max_value);
        parse_limits(draft, &self.settings.limits, ceilings, currency)
            .map_err(|(field, reason)| invalid(field, reason))
    }

    /// Checks 1–24 distinct bundles, each existing, enabled and sold in `currency`.
    pub(super) async fn bundles(
        &self,
        raw: &[String],
        currency: Currency,
    ) -> Result<Vec<BundleId>, LinkError> {
        if raw.is_empty() || raw.len() > MAX_BUNDLES {
            return Err(LinkError::BundlesSize(format!(
                "bundles: an offset link offers 1 to {MAX_BUNDLES} bundles, {} given",
                raw.len()
            )));
        }
        let mut ids = Vec::with_capacity(raw.len());
        for id in raw {
            let bad = |why: &str| LinkError::BundleInvalid(format!("bundle `{id}` {why}"));
            let parsed: BundleId = id.parse().map_err(|_| bad("does not exist"))?;
            if ids.contains(&parsed) {
                return Err(bad("is listed twice"));
            }
            let view = match self.ordering.bundle(id).await {
                Ok(v) => v,
                Err(CatalogueError::NotFound | CatalogueError::Invalid { .. }) => {
                    return Err(bad("does not exist"));
                }
                Err(CatalogueError::Unexpected(e)) => return Err(LinkError::Unexpected(e)),
            };
            if view.bundle.disabled {
                return Err(bad("is disabled"));
            }
            if self
                .ordering
                .display_price(&view.bundle, currency)
                .is_none()
            {
                return Err(bad(&format!("is not sold in {}", currency.code())));
            }
            ids.push(parsed);
        }
        Ok(ids)
    }

    pub(super) fn check_expiry(&self, expires_at: Option<OffsetDateTime>) -> Result<(), LinkError> {
        match expires_at {
            Some(at) if at <= self.clock.now() => {
                Err(invalid("expires_at", "must be in the future"))
            }
            _ => Ok(()),
        }
    }
}

pub(super) fn text(
    field: &'static str,
    raw: Option<String>,
    max: usize,
    required: bool,
) -> Result<Option<String>, LinkError> {
    let Some(raw) = raw else {
        return if required {
            Err(invalid(field, "is required"))
        } else {
            Ok(None)
        };
    };
    let value = raw.trim();
    if value.is_empty() {
        return if required {
            Err(invalid(field, "must not be empty"))
        } else {
            Ok(None)
        };
    }
    if value.chars().count() > max {
        return Err(invalid(field, format!("must be at most {max} characters")));
    }
    if value
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\r' && c != '\t')
    {
        return Err(invalid(field, "must not contain control characters"));
    }
    Ok(Some(value.to_owned()))
}

pub(super) fn emails(raw: Vec<String>) -> Result<Vec<Email>, LinkError> {
    if raw.len() > MAX_EMAILS {
        return Err(invalid("emails", format!("at most {MAX_EMAILS} addresses")));
    }
    let mut out: Vec<Email> = Vec::with_capacity(raw.len());
    for (i, e) in raw.iter().enumerate() {
        let email = Email::parse(e).ok_or_else(|| {
            invalid(
                "emails",
                format!("entry {i} (`{e}`) is not an email address"),
            )
        })?;
        if !out.iter().any(|o| o.same_as(&email)) {
            out.push(email);
        }
    }
    Ok(out)
}

pub(super) fn parse_value(raw: &str, currency: Currency) -> Result<Money, LinkError> {
    Money::parse_positive(raw, currency).map_err(|why| invalid("value", format!("`{raw}` {why}")))
}
