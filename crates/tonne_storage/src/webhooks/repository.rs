//! `WebhookRepository`: the webhooks themselves (create, read, change, delete,
//! their attempts, skipping and recovering).

use std::collections::BTreeSet;

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, AuditEntry, Cursor, Page, PageRequest, StoreError};
use tonne_webhooks::ports::WebhookRepository;
use tonne_webhooks::{
    Attempt, InsertWebhookError, Owner, Recovery, StreamKey, Webhook, WebhookHealth, WebhookId,
    WebhookSecret,
};

use crate::db::error::store_error;
use crate::mapping::{parse_id, to_sql_time};
use crate::schema::{
    account_event_sequences, order_events, webhook_accounts, webhook_attempts, webhook_streams,
    webhooks,
};

use super::WebhookStore;
use super::rows::{
    AttemptRow, WebhookRow, event_types_text, insert_filter, into_attempt, load_webhooks,
    webhook_row,
};
use super::sql::{lock_organisation, streams_at_head};

/// The outcome of the insert transaction (a refused insert writes nothing).
enum Inserted {
    Yes,
    LimitReached,
}

#[async_trait]
impl WebhookRepository for WebhookStore {
    async fn insert(
        &self,
        webhook: &Webhook,
        limit: usize,
        audit: AuditEntry,
    ) -> Result<(), InsertWebhookError> {
        let key = self.key()?;
        let row = webhook_row(webhook, &key);
        let filter = webhook.account_ids.clone().unwrap_or_default();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let inserted = self
            .db
            .transaction(move |conn| {
                Box::pin(async move {
                    lock_organisation(conn, &row.organisation_id).await?;
                    let existing: i64 = on!(&mut *conn, |c| webhooks::table
                        .filter(webhooks::organisation_id.eq(&row.organisation_id))
                        .filter(webhooks::mode.eq(&row.mode))
                        .count()
                        .get_result(c)
                        .await)?;
                    if existing >= limit {
                        return Ok(Inserted::LimitReached);
                    }
                    on!(&mut *conn, |c| diesel::insert_into(webhooks::table)
                        .values(&row)
                        .execute(c)
                        .await)?;
                    insert_filter(conn, &row.id, &filter).await?;
                    streams_at_head(conn, &row.id, row.created_at, &[]).await?;
                    crate::audit::record(conn, [&audit]).await?;
                    Ok(Inserted::Yes)
                })
            })
            .await
            .map_err(|e| store_error(e, "inserting a webhook"))?;
        match inserted {
            Inserted::Yes => Ok(()),
            Inserted::LimitReached => Err(InsertWebhookError::LimitReached),
        }
    }

    async fn get(&self, id: WebhookId) -> Result<Option<Webhook>, StoreError> {
        let key = self.key()?;
        let id = id.to_string();
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let rows: Vec<WebhookRow> = on!(&mut *conn, |c| webhooks::table
                        .filter(webhooks::id.eq(&id))
                        .select(WebhookRow::as_select())
                        .load(c)
                        .await)?;
                    Ok(load_webhooks(conn, rows, &key).await?.into_iter().next())
                })
            })
            .await
            .map_err(|e| store_error(e, "reading a webhook"))
    }

    async fn list(&self, owner: Owner) -> Result<Vec<Webhook>, StoreError> {
        let key = self.key()?;
        let org = owner.organisation_id.to_string();
        let mode = owner.mode.as_str();
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let rows: Vec<WebhookRow> = on!(&mut *conn, |c| webhooks::table
                        .filter(webhooks::organisation_id.eq(&org))
                        .filter(webhooks::mode.eq(mode))
                        .order(webhooks::id)
                        .select(WebhookRow::as_select())
                        .load(c)
                        .await)?;
                    load_webhooks(conn, rows, &key).await
                })
            })
            .await
            .map_err(|e| store_error(e, "listing webhooks"))
    }

    async fn update(
        &self,
        webhook: &Webhook,
        resume: bool,
        audit: Option<AuditEntry>,
    ) -> Result<(), StoreError> {
        let id = webhook.id.to_string();
        let url = webhook.url.as_str().to_owned();
        let enabled = webhook.enabled;
        let reason = webhook.disabled_reason.clone();
        let event_types = event_types_text(webhook.event_types.as_deref());
        let updated = to_sql_time(webhook.updated_at);
        let new_filter: Option<BTreeSet<String>> = webhook
            .account_ids
            .as_ref()
            .map(|ids| ids.iter().map(ToString::to_string).collect());
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    let changed = on!(&mut *conn, |c| diesel::update(webhooks::table.find(&id))
                        .set((
                            webhooks::url.eq(&url),
                            webhooks::enabled.eq(enabled),
                            webhooks::filtered.eq(new_filter.is_some()),
                            webhooks::disabled_reason.eq(&reason),
                            webhooks::event_types.eq(&event_types),
                            webhooks::updated_at.eq(updated),
                        ))
                        .execute(c)
                        .await)?;
                    if changed == 0 {
                        return Err(DieselError::NotFound);
                    }
                    let old: BTreeSet<String> = on!(&mut *conn, |c| webhook_accounts::table
                        .filter(webhook_accounts::webhook_id.eq(&id))
                        .select(webhook_accounts::account_id)
                        .load::<String>(c)
                        .await)?
                    .into_iter()
                    .collect();
                    let was_filtered = !old.is_empty();
                    match &new_filter {
                        Some(new) if !was_filtered || *new != old => {
                            on!(&mut *conn, |c| diesel::delete(
                                webhook_accounts::table
                                    .filter(webhook_accounts::webhook_id.eq(&id)),
                            )
                            .execute(c)
                            .await)?;
                            let ids: Vec<AccountId> = new
                                .iter()
                                .map(|a| parse_id::<AccountId>("account id", a))
                                .collect::<Result<_, _>>()?;
                            insert_filter(conn, &id, &ids).await?;
                            on!(&mut *conn, |c| diesel::delete(
                                webhook_streams::table
                                    .filter(webhook_streams::webhook_id.eq(&id))
                                    .filter(
                                        webhook_streams::account_id
                                            .ne_all(new.iter().cloned().collect::<Vec<_>>()),
                                    ),
                            )
                            .execute(c)
                            .await)?;
                            // accounts the filter adds start at their latest event
                            let kept: Vec<String> = if was_filtered {
                                old.intersection(new).cloned().collect()
                            } else {
                                new.iter().cloned().collect()
                            };
                            streams_at_head(conn, &id, updated, &kept).await?;
                        }
                        None if was_filtered => {
                            on!(&mut *conn, |c| diesel::delete(
                                webhook_accounts::table
                                    .filter(webhook_accounts::webhook_id.eq(&id)),
                            )
                            .execute(c)
                            .await)?;
                            let kept: Vec<String> = old.into_iter().collect();
                            streams_at_head(conn, &id, updated, &kept).await?;
                        }
                        _ => {}
                    }
                    if resume {
                        on!(&mut *conn, |c| diesel::update(
                            webhook_streams::table.filter(webhook_streams::webhook_id.eq(&id)),
                        )
                        .set((
                            webhook_streams::failures.eq(0),
                            webhook_streams::next_attempt_at.eq(updated),
                        ))
                        .execute(c)
                        .await)?;
                    }
                    crate::audit::record(conn, &audit).await
                })
            })
            .await
            .map_err(|e| store_error(e, "updating a webhook"))
    }

    async fn rotate_secret(
        &self,
        id: WebhookId,
        secret: &WebhookSecret,
        at: OffsetDateTime,
        audit: AuditEntry,
    ) -> Result<(), StoreError> {
        let key = self.key()?;
        let id = id.to_string();
        let sealed = key.seal(secret.expose(), &id);
        let last4 = secret.last4();
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    let changed = on!(&mut *conn, |c| diesel::update(webhooks::table.find(&id))
                        .set((
                            webhooks::secret_sealed.eq(&sealed),
                            webhooks::secret_last4.eq(&last4),
                            webhooks::updated_at.eq(to_sql_time(at)),
                        ))
                        .execute(c)
                        .await)?;
                    crate::audit::record_change(conn, changed, &audit).await
                })
            })
            .await
            .map_err(|e| store_error(e, "rotating a webhook secret"))
    }

    async fn delete(&self, id: WebhookId, audit: AuditEntry) -> Result<(), StoreError> {
        let id = id.to_string();
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    // children first: SQLite's foreign-key cascade is not relied upon
                    on!(&mut *conn, |c| diesel::delete(
                        webhook_streams::table.filter(webhook_streams::webhook_id.eq(&id))
                    )
                    .execute(c)
                    .await)?;
                    on!(&mut *conn, |c| diesel::delete(
                        webhook_attempts::table.filter(webhook_attempts::webhook_id.eq(&id)),
                    )
                    .execute(c)
                    .await)?;
                    on!(&mut *conn, |c| diesel::delete(
                        webhook_accounts::table.filter(webhook_accounts::webhook_id.eq(&id)),
                    )
                    .execute(c)
                    .await)?;
                    let gone = on!(&mut *conn, |c| diesel::delete(webhooks::table.find(&id))
                        .execute(c)
                        .await)?;
                    crate::audit::record_change(conn, gone, &audit).await
                })
            })
            .await
            .map_err(|e| store_error(e, "deleting a webhook"))
    }

    async fn attempts(
        &self,
        id: WebhookId,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Attempt>, StoreError> {
        let id = id.to_string();
        let (after, limit) = crate::mapping::keyset(page);
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let rows: Vec<AttemptRow> = on!(conn, |c| {
                        let mut q = webhook_attempts::table
                            .filter(webhook_attempts::webhook_id.eq(&id))
                            .order(webhook_attempts::id.desc())
                            .limit(i64::from(limit.get()) + 1)
                            .select(AttemptRow::as_select())
                            .into_boxed();
                        if let Some(after) = after {
                            q = q.filter(webhook_attempts::id.lt(after));
                        }
                        q.load(c).await
                    })?;
                    let attempts = rows
                        .into_iter()
                        .map(into_attempt)
                        .collect::<Result<Vec<_>, _>>()?;
                    Ok(Page::from_overfetch(attempts, limit))
                })
            })
            .await
            .map_err(|e| store_error(e, "listing webhook attempts"))
    }

    async fn skip_backlog(
        &self,
        id: WebhookId,
        at: OffsetDateTime,
        audit: AuditEntry,
    ) -> Result<u64, StoreError> {
        let id = id.to_string();
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    let streams: Vec<(String, i64)> = on!(&mut *conn, |c| webhook_streams::table
                        .filter(webhook_streams::webhook_id.eq(&id))
                        .select((webhook_streams::account_id, webhook_streams::acked_sequence))
                        .load(c)
                        .await)?;
                    let mut skipped: i64 = 0;
                    for (account, acked) in streams {
                        let head: Option<i64> = on!(&mut *conn, |c| account_event_sequences::table
                            .find(&account)
                            .select(account_event_sequences::last_sequence)
                            .first(c)
                            .await)
                        .optional()?;
                        let head = head.unwrap_or(0);
                        if head > acked {
                            skipped = skipped.saturating_add(head - acked);
                            on!(&mut *conn, |c| diesel::update(
                                webhook_streams::table.find((&id, &account))
                            )
                            .set((
                                webhook_streams::acked_sequence.eq(head),
                                webhook_streams::failures.eq(0),
                                webhook_streams::next_attempt_at.eq(to_sql_time(at)),
                            ))
                            .execute(c)
                            .await)?;
                        }
                    }
                    let skipped = u64::try_from(skipped).unwrap_or(0);
                    let mut entry = audit.clone();
                    entry.after = entry.after.with("skipped events", skipped);
                    crate::audit::record(conn, [&entry]).await?;
                    Ok(skipped)
                })
            })
            .await
            .map_err(|e| store_error(e, "skipping a webhook's backlog"))
    }

    async fn recover(
        &self,
        id: WebhookId,
        since: OffsetDateTime,
        account: Option<AccountId>,
        at: OffsetDateTime,
        audit: AuditEntry,
    ) -> Result<Recovery, StoreError> {
        let (w, only) = (id.to_string(), account.map(|a| a.to_string()));
        let (since, at) = (to_sql_time(since), to_sql_time(at));
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    let streams: Vec<(String, i64)> = on!(&mut *conn, |c| {
                        let mut q = webhook_streams::table
                            .filter(webhook_streams::webhook_id.eq(&w))
                            .select((webhook_streams::account_id, webhook_streams::acked_sequence))
                            .into_boxed();
                        if let Some(a) = &only {
                            q = q.filter(webhook_streams::account_id.eq(a.clone()));
                        }
                        q.load(c).await
                    })?;
                    let mut recovery = Recovery::default();
                    for (account, acked) in streams {
                        let first: Option<i64> = on!(&mut *conn, |c| order_events::table
                            .filter(order_events::account_id.eq(&account))
                            .filter(order_events::created_at.ge(since))
                            .select(diesel::dsl::min(order_events::sequence))
                            .first(c)
                            .await)?;
                        let Some(first) = first else { continue };
                        let back_to = first - 1;
                        if back_to >= acked {
                            // Everything since then is still to be delivered: nothing to move.
                            continue;
                        }
                        on!(&mut *conn, |c| diesel::update(
                            webhook_streams::table.find((&w, &account))
                        )
                        .set((
                            webhook_streams::acked_sequence.eq(back_to),
                            webhook_streams::failures.eq(0),
                            webhook_streams::next_attempt_at.eq(at),
                        ))
                        .execute(c)
                        .await)?;
                        recovery.streams += 1;
                        recovery.events += u64::try_from(acked - back_to).unwrap_or(0);
                    }
                    // The entry says what the replay moved, known only here.
                    let mut entry = audit.clone();
                    entry.after = entry
                        .after
                        .with("streams", recovery.streams)
                        .with("events", recovery.events);
                    crate::audit::record(conn, [&entry]).await?;
                    Ok(recovery)
                })
            })
            .await
            .map_err(|e| store_error(e, "recovering a webhook's events"))
    }

    async fn rewind(
        &self,
        key: StreamKey,
        from_sequence: i64,
        at: OffsetDateTime,
        audit: AuditEntry,
    ) -> Result<(), StoreError> {
        let (w, a) = (key.webhook_id.to_string(), key.account_id.to_string());
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    let changed = on!(&mut *conn, |c| diesel::update(
                        webhook_streams::table.find((&w, &a))
                    )
                    .set((
                        webhook_streams::acked_sequence.eq(from_sequence.saturating_sub(1).max(0)),
                        webhook_streams::failures.eq(0),
                        webhook_streams::next_attempt_at.eq(to_sql_time(at)),
                    ))
                    .execute(c)
                    .await)?;
                    crate::audit::record_change(conn, changed, &audit).await
                })
            })
            .await
            .map_err(|e| store_error(e, "rewinding a webhook stream"))
    }

    async fn health(&self, page: &PageRequest<Cursor>) -> Result<Page<WebhookHealth>, StoreError> {
        let key = self.key()?;
        let (after, limit) = crate::mapping::keyset(page);
        self.db
            .query(move |conn| {
                Box::pin(async move { super::health::page(conn, &key, after, limit).await })
            })
            .await
            .map_err(|e| store_error(e, "reading webhooks' health"))
    }

    async fn attempt_counts(&self, since: OffsetDateTime) -> Result<(u64, u64), StoreError> {
        crate::stats::attempts(&self.db, since).await
    }

    async fn health_of(&self, id: WebhookId) -> Result<Option<WebhookHealth>, StoreError> {
        let key = self.key()?;
        let id = id.to_string();
        self.db
            .query(move |conn| Box::pin(async move { super::health::one(conn, &key, id).await }))
            .await
            .map_err(|e| store_error(e, "reading a webhook's health"))
    }
}
