//! [`Webhooks`]: the webhook use cases behind the [`WebhooksService`] port, one
//! module each: [`create`], [`reads`], [`update`] (and delete, rotate), [`recover`],
//! [`send_test`], and the [`operator`]'s.

use std::sync::Arc;

use async_trait::async_trait;
use tonne_kernel::{AccountId, Actor, Clock, Cursor, IdGenerator, Page, PageRequest};

use crate::errors::{
    AdminWebhookError, CreateWebhookError, ListWebhooksError, RecoverError, TestEventError,
    UpdateWebhookError, WebhookError,
};
use crate::models::{
    Attempt, NewWebhook, Owner, Recovery, Webhook, WebhookChanges, WebhookHealth, WebhookId,
};
use crate::ports::{
    AccountDirectory, EventEncoder, HostResolver, WebhookRepository, WebhookSender, WebhooksService,
};
use crate::target::TargetPolicy;
use crate::test_event::TestDelivery;

mod create;
mod operator;
mod reads;
mod recover;
mod send_test;
mod support;
#[cfg(test)]
mod tests;
mod update;

pub use support::MAX_FILTER_ACCOUNTS;

/// Most webhooks per organisation and mode, unless configured.
pub const DEFAULT_WEBHOOK_LIMIT: usize = 10;

/// Settings of the webhook use cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// Most webhooks per organisation and mode (`webhook_limit_reached` beyond).
    pub limit: usize,
    /// Which targets are allowed.
    pub targets: TargetPolicy,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            limit: DEFAULT_WEBHOOK_LIMIT,
            targets: TargetPolicy::default(),
        }
    }
}

/// How the use cases send a request themselves (the test event): the
/// dispatcher's client and body encoder.
#[derive(Clone)]
pub struct Outbound {
    /// Sends a signed request.
    pub sender: Arc<dyn WebhookSender>,
    /// Renders the `{"events":[…]}` body.
    pub encoder: Arc<dyn EventEncoder>,
}

/// The webhook use cases over their driven ports.
///
/// `Webhooks::new` takes the ports in the order of the fields; the binary
/// wires it over the storage adapters and the dispatcher's client:
///
/// ```
/// use std::sync::Arc;
///
/// use tonne_kernel::{SystemClock, UuidV7Generator};
/// use tonne_webhooks::ports::{AccountDirectory, HostResolver, WebhookRepository};
/// use tonne_webhooks::{Outbound, Settings, Webhooks, WebhooksService};
///
/// fn wire(
///     webhooks: Arc<dyn WebhookRepository>,
///     accounts: Arc<dyn AccountDirectory>,
///     resolver: Arc<dyn HostResolver>,
///     outbound: Outbound,
/// ) -> Arc<dyn WebhooksService> {
///     let clock = Arc::new(SystemClock);
///     let ids = Arc::new(UuidV7Generator);
///     Arc::new(Webhooks::new(webhooks, accounts, resolver, outbound, clock, ids, Settings::default()))
/// }
/// # let _ = wire;
/// assert_eq!(Settings::default().limit, tonne_webhooks::DEFAULT_WEBHOOK_LIMIT);
/// ```
#[derive(Clone, derive_more::Constructor)]
pub struct Webhooks {
    webhooks: Arc<dyn WebhookRepository>,
    accounts: Arc<dyn AccountDirectory>,
    resolver: Arc<dyn HostResolver>,
    outbound: Outbound,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
    settings: Settings,
}

#[async_trait]
impl WebhooksService for Webhooks {
    async fn create(
        &self,
        owner: Owner,
        new: NewWebhook,
        by: &Actor,
    ) -> Result<Webhook, CreateWebhookError> {
        self.create(owner, new, by).await
    }

    async fn list(
        &self,
        owner: Owner,
        account_ids: Vec<String>,
    ) -> Result<Vec<Webhook>, ListWebhooksError> {
        self.list(owner, account_ids).await
    }

    async fn get(&self, owner: Owner, id: &str) -> Result<Webhook, WebhookError> {
        self.get(owner, id).await
    }

    async fn update(
        &self,
        owner: Owner,
        id: &str,
        changes: WebhookChanges,
        by: &Actor,
    ) -> Result<Webhook, UpdateWebhookError> {
        self.update(owner, id, changes, by).await
    }

    async fn delete(&self, owner: Owner, id: &str, by: &Actor) -> Result<(), WebhookError> {
        self.delete(owner, id, by).await
    }

    async fn rotate_secret(
        &self,
        owner: Owner,
        id: &str,
        by: &Actor,
    ) -> Result<Webhook, WebhookError> {
        self.rotate_secret(owner, id, by).await
    }

    async fn attempts(
        &self,
        owner: Owner,
        id: &str,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Attempt>, WebhookError> {
        self.attempts(owner, id, page).await
    }

    async fn recover(
        &self,
        owner: Owner,
        id: &str,
        since: time::OffsetDateTime,
        account: Option<AccountId>,
        by: &Actor,
    ) -> Result<Recovery, RecoverError> {
        self.recover(owner, id, since, account, by).await
    }

    async fn send_test(
        &self,
        owner: Owner,
        id: &str,
        account: AccountId,
    ) -> Result<TestDelivery, TestEventError> {
        self.send_test(owner, id, account).await
    }

    async fn admin_attempts(
        &self,
        id: WebhookId,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Attempt>, AdminWebhookError> {
        self.admin_attempts(id, page).await
    }

    async fn skip_backlog(&self, id: WebhookId, by: &Actor) -> Result<u64, AdminWebhookError> {
        self.skip_backlog(id, by).await
    }

    async fn health(
        &self,
        page: PageRequest<Cursor>,
    ) -> Result<Page<WebhookHealth>, AdminWebhookError> {
        self.health(page).await
    }

    async fn attempt_counts(
        &self,
        since: time::OffsetDateTime,
    ) -> Result<(u64, u64), AdminWebhookError> {
        self.attempt_counts(since).await
    }

    async fn health_of(&self, id: WebhookId) -> Result<WebhookHealth, AdminWebhookError> {
        self.health_of(id).await
    }

    async fn admin_recover(
        &self,
        id: WebhookId,
        since: time::OffsetDateTime,
        by: &Actor,
    ) -> Result<Recovery, RecoverError> {
        self.admin_recover(id, since, by).await
    }

    async fn admin_enable(&self, id: WebhookId, by: &Actor) -> Result<Webhook, AdminWebhookError> {
        self.admin_enable(id, by).await
    }

    async fn redeliver(
        &self,
        id: WebhookId,
        account: AccountId,
        from_sequence: i64,
        by: &Actor,
    ) -> Result<(), AdminWebhookError> {
        self.redeliver(id, account, from_sequence, by).await
    }
}
