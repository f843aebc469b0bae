//! Use cases: list an owner's webhooks (optionally by account), read one, and
//! its delivery attempts.

use tonne_kernel::{Cursor, Page, PageRequest};

use crate::errors::{ListWebhooksError, WebhookError};
use crate::models::{Attempt, Owner, Webhook};
use crate::ports::StoreError;

use super::Webhooks;

impl Webhooks {
    pub(super) async fn list(
        &self,
        owner: Owner,
        account_ids: Vec<String>,
    ) -> Result<Vec<Webhook>, ListWebhooksError> {
        let filter = if account_ids.is_empty() {
            None
        } else {
            Some(self.check_accounts(owner, &account_ids).await?)
        };
        let all = self
            .webhooks
            .list(owner)
            .await
            .map_err(StoreError::unexpected)?;
        Ok(match filter {
            None => all,
            Some(wanted) => all
                .into_iter()
                .filter(|w| match &w.account_ids {
                    None => true,
                    Some(ids) => ids.iter().any(|id| wanted.contains(id)),
                })
                .collect(),
        })
    }

    pub(super) async fn get(&self, owner: Owner, id: &str) -> Result<Webhook, WebhookError> {
        self.owned(owner, id).await
    }

    pub(super) async fn attempts(
        &self,
        owner: Owner,
        id: &str,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Attempt>, WebhookError> {
        let webhook = self.owned(owner, id).await?;
        Ok(self
            .webhooks
            .attempts(webhook.id, &page)
            .await
            .map_err(StoreError::unexpected)?)
    }
}
