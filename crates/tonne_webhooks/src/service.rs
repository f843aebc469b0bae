use std::collections::BTreeSet;
use std::sync::Arc;

use async_trait::async_trait;
use tonne_kernel::{
    AccountId, Actor, AuditEntry, Clock, Cursor, IdGenerator, Page, PageRequest, Snapshot,
};

use crate::errors::{
    AdminWebhookError, CreateWebhookError, InsertWebhookError, InvalidField, ListWebhooksError,
    RecoverError, TestEventError, UpdateWebhookError, WebhookError, unexpected,
};
use crate::models::{
    Attempt, NewWebhook, Owner, Recovery, StreamKey, Webhook, WebhookChanges, WebhookHealth,
    WebhookId,
};
use crate::policy::SendOutcome;
use crate::ports::{
    AccountDirectory, EventEncoder, HostResolver, OutboundRequest, StoreError, WebhookRepository,
    WebhookSender, WebhooksService,
};
use crate::secret::WebhookSecret;
use crate::signature;
use crate::target::{TargetHost, TargetPolicy, WebhookUrl};
use crate::test_event::{self, TestDelivery};

/// Most webhooks per organisation and mode, unless configured.
pub const DEFAULT_WEBHOOK_LIMIT: usize = 10;
/// Most ids in an `account_ids` filter.
pub const MAX_FILTER_ACCOUNTS: usize = 100;

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
/// `Service::new` takes the ports in the order of the fields.
#[derive(Clone, derive_more::Constructor)]
pub struct Service {
    webhooks: Arc<dyn WebhookRepository>,
    accounts: Arc<dyn AccountDirectory>,
    resolver: Arc<dyn HostResolver>,
    outbound: Outbound,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
    settings: Settings,
}

impl Service {
    /// URL rules, then every address the host resolves to.
    async fn check_url(&self, raw: &str) -> Result<WebhookUrl, InvalidField> {
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
    async fn check_accounts(
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
            match self.accounts.owner_of(id).await.map_err(unexpected)? {
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
    async fn check_covers(
        &self,
        webhook: &Webhook,
        account: AccountId,
        field: &str,
    ) -> Result<(), CheckAccountsError> {
        let covered = match &webhook.account_ids {
            Some(ids) => ids.contains(&account),
            None => {
                self.accounts.owner_of(account).await.map_err(unexpected)? == Some(webhook.owner())
            }
        };
        if covered {
            Ok(())
        } else {
            Err(InvalidField::new(field, "is not an account this webhook delivers for").into())
        }
    }

    async fn owned(&self, owner: Owner, id: &str) -> Result<Webhook, WebhookError> {
        let Ok(id) = id.parse::<WebhookId>() else {
            return Err(WebhookError::NotFound);
        };
        match self.webhooks.get(id).await.map_err(unexpected)? {
            Some(w) if w.owner() == owner => Ok(w),
            _ => Err(WebhookError::NotFound),
        }
    }
}

#[derive(Debug, thiserror::Error)]
enum CheckAccountsError {
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

fn not_found_to<E>(e: StoreError, not_found: E) -> Result<(), E>
where
    E: From<anyhow::Error>,
{
    match e {
        StoreError::NotFound => Err(not_found),
        other => Err(unexpected(other).into()),
    }
}

#[async_trait]
impl WebhooksService for Service {
    async fn create(
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
        let now = self.clock.now();
        let webhook = Webhook {
            id: WebhookId::generate(self.ids.as_ref()),
            organisation_id: owner.organisation_id,
            mode: owner.mode,
            url,
            enabled: true,
            account_ids,
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
            Err(InsertWebhookError::Store(e)) => Err(unexpected(e).into()),
        }
    }

    async fn list(
        &self,
        owner: Owner,
        account_ids: Vec<String>,
    ) -> Result<Vec<Webhook>, ListWebhooksError> {
        let filter = if account_ids.is_empty() {
            None
        } else {
            Some(self.check_accounts(owner, &account_ids).await?)
        };
        let all = self.webhooks.list(owner).await.map_err(unexpected)?;
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

    async fn get(&self, owner: Owner, id: &str) -> Result<Webhook, WebhookError> {
        self.owned(owner, id).await
    }

    async fn update(
        &self,
        owner: Owner,
        id: &str,
        changes: WebhookChanges,
        by: &Actor,
    ) -> Result<Webhook, UpdateWebhookError> {
        let current = self.owned(owner, id).await.map_err(|e| match e {
            WebhookError::NotFound => UpdateWebhookError::NotFound,
            WebhookError::Unexpected(e) => UpdateWebhookError::Unexpected(e),
        })?;
        let url = self.check_url(&changes.url).await?;
        let account_ids = match &changes.account_ids {
            Some(raw) => Some(self.check_accounts(owner, raw).await?),
            None => current.account_ids.clone(),
        };
        let enabled = changes.enabled.unwrap_or(current.enabled);
        let resume = enabled && !current.enabled;
        let updated = Webhook {
            url,
            enabled,
            account_ids,
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

    async fn delete(&self, owner: Owner, id: &str, by: &Actor) -> Result<(), WebhookError> {
        let webhook = self.owned(owner, id).await?;
        let audit =
            entry(&webhook, self.clock.now(), by, "webhook.deleted").before(snapshot(&webhook));
        if let Err(e) = self.webhooks.delete(webhook.id, audit).await {
            not_found_to(e, WebhookError::NotFound)?;
        }
        Ok(())
    }

    async fn rotate_secret(
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

    async fn attempts(
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
            .map_err(unexpected)?)
    }

    async fn recover(
        &self,
        owner: Owner,
        id: &str,
        since: time::OffsetDateTime,
        account: Option<AccountId>,
        by: &Actor,
    ) -> Result<Recovery, RecoverError> {
        let webhook = self.owned(owner, id).await.map_err(|e| match e {
            WebhookError::NotFound => RecoverError::NotFound,
            WebhookError::Unexpected(e) => RecoverError::Unexpected(e),
        })?;
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
            .map_err(unexpected)?)
    }

    async fn send_test(
        &self,
        owner: Owner,
        id: &str,
        account: AccountId,
    ) -> Result<TestDelivery, TestEventError> {
        let webhook = self.owned(owner, id).await.map_err(|e| match e {
            WebhookError::NotFound => TestEventError::NotFound,
            WebhookError::Unexpected(e) => TestEventError::Unexpected(e),
        })?;
        self.check_covers(&webhook, account, "account").await?;
        let event_id = format!("test_{}", self.ids.new_uuid().simple());
        let attempted_at = self.clock.now();
        let body = self.outbound.encoder.encode(&[test_event::event(
            &webhook,
            account,
            event_id.clone(),
            attempted_at,
        )]);
        let request = OutboundRequest {
            signature: signature::header_value(
                webhook.secret.expose(),
                webhook.organisation_id,
                attempted_at.unix_timestamp(),
                &body,
            ),
            url: webhook.url,
            body,
            traceparent: None,
        };
        let started = std::time::Instant::now();
        let outcome = self.outbound.sender.send(&request).await;
        Ok(TestDelivery {
            event_id,
            account_id: account,
            attempted_at,
            status: outcome.status(),
            error: outcome.error(),
            latency_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            response: match outcome {
                SendOutcome::Response { body_start, .. } => body_start,
                _ => String::new(),
            },
        })
    }

    async fn admin_attempts(
        &self,
        id: WebhookId,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Attempt>, AdminWebhookError> {
        if self.webhooks.get(id).await.map_err(unexpected)?.is_none() {
            return Err(AdminWebhookError::WebhookNotFound);
        }
        Ok(self
            .webhooks
            .attempts(id, &page)
            .await
            .map_err(unexpected)?)
    }

    async fn skip_backlog(&self, id: WebhookId, by: &Actor) -> Result<u64, AdminWebhookError> {
        let webhook = self
            .webhooks
            .get(id)
            .await
            .map_err(unexpected)?
            .ok_or(AdminWebhookError::WebhookNotFound)?;
        let now = self.clock.now();
        let audit = AuditEntry::new(now, by.clone(), "webhook.backlog_skipped", "webhook", id)
            .in_organisation(webhook.organisation_id);
        Ok(self
            .webhooks
            .skip_backlog(id, now, audit)
            .await
            .map_err(unexpected)?)
    }

    async fn health(
        &self,
        page: PageRequest<Cursor>,
    ) -> Result<Page<WebhookHealth>, AdminWebhookError> {
        match self.webhooks.health(&page).await {
            Ok(found) => Ok(found),
            Err(StoreError::NotFound) => Err(AdminWebhookError::WebhookNotFound),
            Err(e) => Err(unexpected(e).into()),
        }
    }

    async fn attempt_counts(
        &self,
        since: time::OffsetDateTime,
    ) -> Result<(u64, u64), AdminWebhookError> {
        Ok(self
            .webhooks
            .attempt_counts(since)
            .await
            .map_err(unexpected)?)
    }

    async fn health_of(&self, id: WebhookId) -> Result<WebhookHealth, AdminWebhookError> {
        self.webhooks
            .health_of(id)
            .await
            .map_err(unexpected)?
            .ok_or(AdminWebhookError::WebhookNotFound)
    }

    async fn admin_recover(
        &self,
        id: WebhookId,
        since: time::OffsetDateTime,
        by: &Actor,
    ) -> Result<Recovery, RecoverError> {
        let webhook = self
            .webhooks
            .get(id)
            .await
            .map_err(unexpected)?
            .ok_or(RecoverError::NotFound)?;
        self.recover(webhook.owner(), &id.to_string(), since, None, by)
            .await
    }

    async fn admin_enable(&self, id: WebhookId, by: &Actor) -> Result<Webhook, AdminWebhookError> {
        let webhook = self
            .webhooks
            .get(id)
            .await
            .map_err(unexpected)?
            .ok_or(AdminWebhookError::WebhookNotFound)?;
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
            Err(e) => Err(unexpected(e).into()),
        }
    }

    async fn redeliver(
        &self,
        id: WebhookId,
        account: AccountId,
        from_sequence: i64,
        by: &Actor,
    ) -> Result<(), AdminWebhookError> {
        if from_sequence < 1 {
            return Err(InvalidField::new("--from-sequence", "must be 1 or more").into());
        }
        let webhook = self
            .webhooks
            .get(id)
            .await
            .map_err(unexpected)?
            .ok_or(AdminWebhookError::WebhookNotFound)?;
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
            Err(e) => Err(unexpected(e).into()),
        }
    }
}

/// An audit entry about a webhook, in its organisation.
fn entry(webhook: &Webhook, at: time::OffsetDateTime, by: &Actor, action: &str) -> AuditEntry {
    AuditEntry::new(at, by.clone(), action, "webhook", webhook.id)
        .in_organisation(webhook.organisation_id)
}

/// What the audit log keeps of a webhook (never its secret).
fn snapshot(webhook: &Webhook) -> Snapshot {
    let accounts = match &webhook.account_ids {
        None => "every account of the mode".to_owned(),
        Some(ids) => ids
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    };
    Snapshot::new()
        .with("url", webhook.url.as_str())
        .with("mode", webhook.mode.as_str())
        .with("enabled", webhook.enabled)
        .with("accounts", accounts)
}

#[cfg(test)]
mod tests;
