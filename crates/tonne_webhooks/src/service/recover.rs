//! Use cases: re-send a webhook's events since a time (the owner's, and the
//! operator's).

use tonne_kernel::{AccountId, Actor, AuditEntry, Snapshot};

use crate::errors::{InvalidField, RecoverError};
use crate::models::{Owner, Recovery, WebhookId};
use crate::ports::StoreError;

use super::Webhooks;

impl Webhooks {
    pub(super) async fn recover(
        &self,
        owner: Owner,
        id: &str,
        since: time::OffsetDateTime,
        account: Option<AccountId>,
        by: &Actor,
    ) -> Result<Recovery, RecoverError> {
        let webhook = self.owned(owner, id).await?;
        let now = self.clock.now();
        if since > now {
            return Err(InvalidField::new("since", "is in the future").into());
        }
        if let Some(a) = account {
            self.check_covers(&webhook, a, "account_id").await?;
        }
        let mut replay = Snapshot::new().with("replay from", since);
        if let Some(account) = account {
            replay = replay.with("account", account);
        }
        let audit = AuditEntry::new(now, by.clone(), "webhook.replayed", "webhook", webhook.id)
            .in_organisation(owner.organisation_id)
            .after(replay);
        Ok(self
            .webhooks
            .recover(webhook.id, since, account, now, audit)
            .await
            .map_err(StoreError::unexpected)?)
    }

    pub(super) async fn admin_recover(
        &self,
        id: WebhookId,
        since: time::OffsetDateTime,
        by: &Actor,
    ) -> Result<Recovery, RecoverError> {
        let webhook = self
            .webhooks
            .get(id)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or(RecoverError::NotFound)?;
        self.recover(webhook.owner(), &id.to_string(), since, None, by)
            .await
    }
}
