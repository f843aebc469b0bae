//! What several webhook use cases share: the checks of a URL (every address it
//! resolves to) and of an account filter, a webhook of its owner, and the audit
//! entry and snapshot of a webhook.

use std::collections::BTreeSet;

use tonne_kernel::{AccountId, Actor, AuditEntry, Snapshot};

use crate::errors::{
    CreateWebhookError, InvalidField, ListWebhooksError, RecoverError, TestEventError,
    UpdateWebhookError, WebhookError,
};
use crate::models::{Owner, Webhook, WebhookId};
use crate::ports::StoreError;
use crate::target::{TargetHost, WebhookUrl};

use super::Webhooks;

/// Most ids in an `account_ids` filter.
pub const MAX_FILTER_ACCOUNTS: usize = 100;

impl Webhooks {
    /// URL rules, then every address the host resolves to.
    pub(super) async fn check_url(&self, raw: &str) -> Result<WebhookUrl, InvalidField> {
        let url = WebhookUrl::parse(raw, self.settings.targets)?;
        if let TargetHost::Domain(host) = url.host() {
            // The caller learns only that the host is refused; what it resolves
            // to (perhaps an address inside the operator's network) stays in
            // the log.
            let addresses = self.resolver.resolve(host, url.port()).await.map_err(|e| {
                tracing::info!(host, error = %e, "webhook URL refused: the host does not resolve");
                InvalidField::new("url", format!("the host `{host}` does not resolve"))
            })?;
            if addresses.is_empty() {
                return Err(InvalidField::new(
                    "url",
                    format!("the host `{host}` has no address"),
                ));
            }
            for ip in addresses {
                self.settings.targets.check_address(ip).map_err(|reason| {
                    tracing::info!(
                        host,
                        address = %ip,
                        reason = reason.describe(),
                        "webhook URL refused: the host resolves to a refused address"
                    );
                    InvalidField::new(
                        "url",
                        format!("the host `{host}` must resolve to public addresses only"),
                    )
                })?;
            }
        }
        Ok(url)
    }

    /// Each id must be an account or client account of the owner; duplicates collapse.
    pub(super) async fn check_accounts(
        &self,
        owner: Owner,
        raw: &[String],
    ) -> Result<Vec<AccountId>, CheckAccountsError> {
        if raw.is_empty() {
            return Err(
                InvalidField::new("account_ids", "must list at least one account id").into(),
            );
        }
        if raw.len() > MAX_FILTER_ACCOUNTS {
            return Err(InvalidField::new(
                "account_ids",
                format!("must list at most {MAX_FILTER_ACCOUNTS} account ids"),
            )
            .into());
        }
        let mut ids = BTreeSet::new();
        for (i, text) in raw.iter().enumerate() {
            let field = format!("account_ids[{i}]");
            let id: AccountId = text
                .parse()
                .map_err(|_| InvalidField::new(field.clone(), "not an account id"))?;
            match self
                .accounts
                .owner_of(id)
                .await
                .map_err(StoreError::unexpected)?
            {
                Some(o) if o == owner => {
                    ids.insert(id);
                }
                _ => {
                    return Err(InvalidField::new(
                        field,
                        "no account or client account of this organisation and mode has this id",
                    )
                    .into());
                }
            }
        }
        Ok(ids.into_iter().collect())
    }

    /// `Invalid` (named `field`) unless the webhook sends `account`'s events.
    pub(super) async fn check_covers(
        &self,
        webhook: &Webhook,
        account: AccountId,
        field: &str,
    ) -> Result<(), CheckAccountsError> {
        let covered = match &webhook.account_ids {
            Some(ids) => ids.contains(&account),
            None => {
                self.accounts
                    .owner_of(account)
                    .await
                    .map_err(StoreError::unexpected)?
                    == Some(webhook.owner())
            }
        };
        if covered {
            Ok(())
        } else {
            Err(InvalidField::new(field, "is not an account this webhook delivers for").into())
        }
    }

    pub(super) async fn owned(&self, owner: Owner, id: &str) -> Result<Webhook, WebhookError> {
        let Ok(id) = id.parse::<WebhookId>() else {
            return Err(WebhookError::NotFound);
        };
        match self
            .webhooks
            .get(id)
            .await
            .map_err(StoreError::unexpected)?
        {
            Some(w) if w.owner() == owner => Ok(w),
            _ => Err(WebhookError::NotFound),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub(super) enum CheckAccountsError {
    #[error(transparent)]
    Invalid(#[from] InvalidField),
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// Each error with `Invalid` and `Unexpected` takes a failed account check.
macro_rules! from_account_check {
    ($($error:ty),+) => {$(
        impl From<CheckAccountsError> for $error {
            fn from(e: CheckAccountsError) -> Self {
                match e {
                    CheckAccountsError::Invalid(f) => f.into(),
                    CheckAccountsError::Unexpected(e) => e.into(),
                }
            }
        }
    )+};
}

from_account_check!(
    CreateWebhookError,
    UpdateWebhookError,
    ListWebhooksError,
    RecoverError,
    TestEventError
);

/// Each error with `NotFound` and `Unexpected` takes a failed lookup of the
/// caller's webhook (`owned`).
macro_rules! from_webhook_lookup {
    ($($error:ty),+) => {$(
        impl From<WebhookError> for $error {
            fn from(e: WebhookError) -> Self {
                match e {
                    WebhookError::NotFound => Self::NotFound,
                    WebhookError::Unexpected(e) => Self::Unexpected(e),
                }
            }
        }
    )+};
}

from_webhook_lookup!(UpdateWebhookError, RecoverError, TestEventError);

pub(super) fn not_found_to<E>(e: StoreError, not_found: E) -> Result<(), E>
where
    E: From<anyhow::Error>,
{
    match e {
        StoreError::NotFound => Err(not_found),
        other => Err(other.unexpected().into()),
    }
}

/// An audit entry about a webhook, in its organisation.
pub(super) fn entry(
    webhook: &Webhook,
    at: time::OffsetDateTime,
    by: &Actor,
    action: &str,
) -> AuditEntry {
    AuditEntry::new(at, by.clone(), action, "webhook", webhook.id)
        .in_organisation(webhook.organisation_id)
}

/// What the audit log keeps of a webhook (never its secret).
pub(super) fn snapshot(webhook: &Webhook) -> Snapshot {
    let accounts = match &webhook.account_ids {
        None => "every account of the mode".to_owned(),
        Some(ids) => ids
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    };
    let event_types = match &webhook.event_types {
        None => "every type".to_owned(),
        Some(types) => types
            .iter()
            .map(|t| t.as_str())
            .collect::<Vec<_>>()
            .join(", "),
    };
    Snapshot::new()
        .with("url", webhook.url.as_str())
        .with("mode", webhook.mode.as_str())
        .with("enabled", webhook.enabled)
        .with("accounts", accounts)
        .with("event_types", event_types)
}
