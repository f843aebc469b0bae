//! Use cases: change a webhook (URL, accounts, enabled), delete it, and rotate
//! its secret (audited without the secret).

use tonne_kernel::{Actor, Snapshot};

use crate::errors::{UpdateWebhookError, WebhookError};
use crate::events::parse_event_types;
use crate::models::{Owner, Webhook, WebhookChanges};
use crate::secret::WebhookSecret;

use super::Webhooks;
use super::support::{entry, not_found_to, snapshot};

impl Webhooks {
    pub(super) async fn update(
        &self,
        owner: Owner,
        id: &str,
        changes: WebhookChanges,
        by: &Actor,
    ) -> Result<Webhook, UpdateWebhookError> {
        let current = self.owned(owner, id).await?;
        let url = self.check_url(&changes.url).await?;
        let account_ids = match &changes.account_ids {
            Some(raw) => Some(self.check_accounts(owner, raw).await?),
            None => current.account_ids.clone(),
        };
        let event_types = match &changes.event_types {
            Some(Some(raw)) => Some(parse_event_types(raw)?),
            Some(None) => None,
            None => current.event_types.clone(),
        };
        let enabled = changes.enabled.unwrap_or(current.enabled);
        let resume = enabled && !current.enabled;
        let updated = Webhook {
            url,
            enabled,
            account_ids,
            event_types,
            disabled_reason: if enabled {
                None
            } else {
                current.disabled_reason.clone()
            },
            updated_at: self.clock.now(),
            ..current.clone()
        };
        let audit = entry(&updated, updated.updated_at, by, "webhook.updated")
            .before(snapshot(&current))
            .after(snapshot(&updated));
        if let Err(e) = self.webhooks.update(&updated, resume, Some(audit)).await {
            not_found_to(e, UpdateWebhookError::NotFound)?;
        }
        Ok(updated)
    }

    pub(super) async fn delete(
        &self,
        owner: Owner,
        id: &str,
        by: &Actor,
    ) -> Result<(), WebhookError> {
        let webhook = self.owned(owner, id).await?;
        let audit =
            entry(&webhook, self.clock.now(), by, "webhook.deleted").before(snapshot(&webhook));
        if let Err(e) = self.webhooks.delete(webhook.id, audit).await {
            not_found_to(e, WebhookError::NotFound)?;
        }
        Ok(())
    }

    pub(super) async fn rotate_secret(
        &self,
        owner: Owner,
        id: &str,
        by: &Actor,
    ) -> Result<Webhook, WebhookError> {
        let webhook = self.owned(owner, id).await?;
        let secret = WebhookSecret::generate();
        let now = self.clock.now();
        // the log says that it changed, never what it is
        let audit = entry(&webhook, now, by, "webhook.secret_rotated")
            .before(Snapshot::new().with("secret", format!("…{}", webhook.secret.last4())))
            .after(Snapshot::new().with("secret", format!("…{}", secret.last4())));
        if let Err(e) = self
            .webhooks
            .rotate_secret(webhook.id, &secret, now, audit)
            .await
        {
            not_found_to(e, WebhookError::NotFound)?;
        }
        Ok(Webhook {
            secret,
            updated_at: now,
            ..webhook
        })
    }
}
