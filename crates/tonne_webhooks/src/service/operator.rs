//! Use cases of the operator: a webhook's attempts and health, the attempt
//! counts, skipping a backlog, re-enabling a webhook and redelivering a stream.

use tonne_kernel::{AccountId, Actor, AuditEntry, Cursor, Page, PageRequest, Snapshot};

use crate::errors::{AdminWebhookError, InvalidField};
use crate::models::{Attempt, StreamKey, Webhook, WebhookHealth, WebhookId};
use crate::ports::StoreError;

use super::Webhooks;

impl Webhooks {
    /// Webhook `id`, or `WebhookNotFound`.
    async fn existing(&self, id: WebhookId) -> Result<Webhook, AdminWebhookError> {
        self.webhooks
            .get(id)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or(AdminWebhookError::WebhookNotFound)
    }

    pub(super) async fn admin_attempts(
        &self,
        id: WebhookId,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Attempt>, AdminWebhookError> {
        if self
            .webhooks
            .get(id)
            .await
            .map_err(StoreError::unexpected)?
            .is_none()
        {
            return Err(AdminWebhookError::WebhookNotFound);
        }
        Ok(self
            .webhooks
            .attempts(id, &page)
            .await
            .map_err(StoreError::unexpected)?)
    }

    pub(super) async fn skip_backlog(
        &self,
        id: WebhookId,
        by: &Actor,
    ) -> Result<u64, AdminWebhookError> {
        let webhook = self.existing(id).await?;
        let now = self.clock.now();
        let audit = AuditEntry::new(now, by.clone(), "webhook.backlog_skipped", "webhook", id)
            .in_organisation(webhook.organisation_id);
        Ok(self
            .webhooks
            .skip_backlog(id, now, audit)
            .await
            .map_err(StoreError::unexpected)?)
    }

    pub(super) async fn health(
        &self,
        page: PageRequest<Cursor>,
    ) -> Result<Page<WebhookHealth>, AdminWebhookError> {
        match self.webhooks.health(&page).await {
            Ok(found) => Ok(found),
            Err(StoreError::NotFound) => Err(AdminWebhookError::WebhookNotFound),
            Err(e) => Err(e.unexpected().into()),
        }
    }

    pub(super) async fn attempt_counts(
        &self,
        since: time::OffsetDateTime,
    ) -> Result<(u64, u64), AdminWebhookError> {
        Ok(self
            .webhooks
            .attempt_counts(since)
            .await
            .map_err(StoreError::unexpected)?)
    }

    pub(super) async fn health_of(
        &self,
        id: WebhookId,
    ) -> Result<WebhookHealth, AdminWebhookError> {
        self.webhooks
            .health_of(id)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or(AdminWebhookError::WebhookNotFound)
    }

    pub(super) async fn admin_enable(
        &self,
        id: WebhookId,
        by: &Actor,
    ) -> Result<Webhook, AdminWebhookError> {
        let webhook = self.existing(id).await?;
        if webhook.enabled {
            return Ok(webhook);
        }
        let now = self.clock.now();
        let state = |w: &Webhook| match (&w.enabled, &w.disabled_reason) {
            (true, _) => "enabled".to_owned(),
            (false, Some(reason)) => format!("disabled: {reason}"),
            (false, None) => "disabled".to_owned(),
        };
        let enabled = Webhook {
            enabled: true,
            disabled_reason: None,
            updated_at: now,
            ..webhook.clone()
        };
        let audit = AuditEntry::new(now, by.clone(), "webhook.enabled", "webhook", id)
            .in_organisation(webhook.organisation_id)
            .before(Snapshot::new().with("state", state(&webhook)))
            .after(Snapshot::new().with("state", state(&enabled)));
        match self.webhooks.update(&enabled, true, Some(audit)).await {
            Ok(()) => Ok(enabled),
            Err(StoreError::NotFound) => Err(AdminWebhookError::WebhookNotFound),
            Err(e) => Err(e.unexpected().into()),
        }
    }

    pub(super) async fn redeliver(
        &self,
        id: WebhookId,
        account: AccountId,
        from_sequence: i64,
        by: &Actor,
    ) -> Result<(), AdminWebhookError> {
        if from_sequence < 1 {
            return Err(InvalidField::new("--from-sequence", "must be 1 or more").into());
        }
        let webhook = self.existing(id).await?;
        let key = StreamKey {
            webhook_id: id,
            account_id: account,
        };
        let now = self.clock.now();
        let audit = AuditEntry::new(now, by.clone(), "webhook.redelivered", "webhook", id)
            .in_organisation(webhook.organisation_id)
            .after(
                Snapshot::new()
                    .with("account", account)
                    .with("from sequence", from_sequence),
            );
        match self.webhooks.rewind(key, from_sequence, now, audit).await {
            Ok(()) => Ok(()),
            Err(StoreError::NotFound) => Err(AdminWebhookError::StreamNotFound),
            Err(e) => Err(e.unexpected().into()),
        }
    }
}
