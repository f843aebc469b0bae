//! Use case: register a webhook (within the organisation's limit).

use tonne_kernel::Actor;

use crate::errors::{CreateWebhookError, InsertWebhookError};
use crate::events::parse_event_types;
use crate::models::{NewWebhook, Owner, Webhook, WebhookId};
use crate::secret::WebhookSecret;

use super::Webhooks;
use super::support::{entry, snapshot};

impl Webhooks {
    pub(super) async fn create(
        &self,
        owner: Owner,
        new: NewWebhook,
        by: &Actor,
    ) -> Result<Webhook, CreateWebhookError> {
        let url = self.check_url(&new.url).await?;
        let account_ids = match &new.account_ids {
            Some(raw) => Some(self.check_accounts(owner, raw).await?),
            None => None,
        };
        let event_types = new
            .event_types
            .as_deref()
            .map(parse_event_types)
            .transpose()?;
        let now = self.clock.now();
        let webhook = Webhook {
            id: WebhookId::generate(self.ids.as_ref()),
            organisation_id: owner.organisation_id,
            mode: owner.mode,
            url,
            enabled: true,
            account_ids,
            event_types,
            secret: WebhookSecret::generate(),
            disabled_reason: None,
            created_at: now,
            updated_at: now,
        };
        let audit = entry(&webhook, now, by, "webhook.created").after(snapshot(&webhook));
        match self
            .webhooks
            .insert(&webhook, self.settings.limit, audit)
            .await
        {
            Ok(()) => Ok(webhook),
            Err(InsertWebhookError::LimitReached) => Err(CreateWebhookError::LimitReached {
                limit: self.settings.limit,
            }),
            Err(InsertWebhookError::Store(e)) => Err(e.unexpected().into()),
        }
    }
}
