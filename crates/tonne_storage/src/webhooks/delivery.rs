//! `DeliveryStore`: the dispatcher's side (materialising streams, leases,
//! pending events, acknowledging and failing attempts, disabling).

use std::collections::HashMap;

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel::sql_types::{BigInt, Text, Timestamp};
use diesel_async::RunQueryDsl;
use time::{OffsetDateTime, PrimitiveDateTime};
use tonne_kernel::{AccountId, OrganisationId, StoreError};
use tonne_webhooks::ports::DeliveryStore;
use tonne_webhooks::{
    Attempt, ClaimedStream, EventType, OutboxEvent, StreamKey, Subscription, Target, WebhookId,
    WebhookUrl,
};

use crate::db::error::{corrupt, store_error};
use crate::db::{Conn, KeepPrepared};
use crate::mapping::{from_sql_time, parse_id, to_sql_time};
use crate::schema::{
    order_events, organisation_api_versions as pins, webhook_attempts, webhook_streams, webhooks,
};

use super::WebhookStore;
use super::rows::{
    AttemptRow, ClaimedRow, EventRow, OldestRow, PassedRow, WebhookRow, attempt_row, open_secret,
    parse_event_types_text,
};
use super::sql::{MATERIALISE, OLDEST_UNDELIVERED, claim_sql, pass_sql};

/// Records a failed attempt: counts the failure, sets the next attempt time and
/// releases the lease — one conditional UPDATE, so nothing is written unless this
/// dispatcher still holds the lease. Returns whether it did.
async fn record_failure(
    conn: &mut Conn,
    row: &AttemptRow,
    owner: &str,
    failures: i32,
    next_attempt_at: PrimitiveDateTime,
) -> QueryResult<bool> {
    let held = on!(&mut *conn, |c| diesel::update(
        webhook_streams::table
            .find((&row.webhook_id, &row.account_id))
            .filter(webhook_streams::lease_owner.eq(owner)),
    )
    .set((
        webhook_streams::failures.eq(failures),
        webhook_streams::next_attempt_at.eq(next_attempt_at),
        webhook_streams::lease_owner.eq(None::<String>),
        webhook_streams::lease_until.eq(None::<PrimitiveDateTime>),
    ))
    .kept()
    .execute(c)
    .await)?;
    if held == 0 {
        return Ok(false);
    }
    on!(conn, |c| diesel::insert_into(webhook_attempts::table)
        .values(row)
        .execute(c)
        .await)?;
    Ok(true)
}

impl WebhookStore {
    /// What each claimed stream's webhook delivers: its event types and its
    /// organisation's pinned version (two reads, whatever the number of streams).
    async fn subscriptions(
        &self,
        claimed: &[ClaimedRow],
    ) -> Result<HashMap<String, Subscription>, StoreError> {
        if claimed.is_empty() {
            return Ok(HashMap::new());
        }
        let ids: Vec<String> = claimed.iter().map(|r| r.webhook_id.clone()).collect();
        let (hooks, pinned) = self
            .db
            .query(move |conn| {
                Box::pin(async move {
                    let hooks: Vec<(String, String, Option<String>)> =
                        on!(&mut *conn, |c| webhooks::table
                            .filter(webhooks::id.eq_any(&ids))
                            .select((
                                webhooks::id,
                                webhooks::organisation_id,
                                webhooks::event_types,
                            ))
                            .load(c)
                            .await)?;
                    let organisations: Vec<&String> = hooks.iter().map(|h| &h.1).collect();
                    let pinned: Vec<(String, String)> = on!(conn, |c| pins::table
                        .filter(pins::organisation_id.eq_any(&organisations))
                        .select((pins::organisation_id, pins::version))
                        .load(c)
                        .await)?;
                    Ok((hooks, pinned))
                })
            })
            .await
            .map_err(|e| store_error(e, "reading what claimed webhooks receive"))?;
        let pinned: HashMap<String, String> = pinned.into_iter().collect();
        hooks
            .into_iter()
            .map(|(id, organisation, types)| {
                Ok((
                    id,
                    Subscription {
                        event_types: parse_event_types_text(types.as_deref())?,
                        pinned_version: pinned.get(&organisation).cloned(),
                    },
                ))
            })
            .collect::<Result<HashMap<_, _>, DieselError>>()
            .map_err(|e| store_error(e.into(), "reading what claimed webhooks receive"))
    }
}

/// A stream's webhook and account ids, and the owner of its lease, as
/// stored.
fn held_by(key: StreamKey, owner: &str) -> (String, String, String) {
    (
        key.webhook_id.to_string(),
        key.account_id.to_string(),
        owner.to_owned(),
    )
}

/// The stream of webhook `$w` and account `$a` while `$o` holds its lease.
macro_rules! held_stream {
    ($w:expr, $a:expr, $o:expr) => {
        webhook_streams::table
            .find(($w, $a))
            .filter(webhook_streams::lease_owner.eq($o))
    };
}

#[async_trait]
impl DeliveryStore for WebhookStore {
    async fn materialise_streams(&self, now: OffsetDateTime) -> Result<u64, StoreError> {
        let now = to_sql_time(now);
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    on!(conn, |c| diesel::sql_query(MATERIALISE)
                        .bind::<Timestamp, _>(now)
                        .kept()
                        .execute(c)
                        .await)
                })
            })
            .await
            .map(|n| u64::try_from(n).unwrap_or(0))
            .map_err(|e| store_error(e, "creating webhook streams"))
    }

    async fn claim(
        &self,
        owner: &str,
        now: OffsetDateTime,
        until: OffsetDateTime,
        limit: usize,
    ) -> Result<Vec<ClaimedStream>, StoreError> {
        let owner = owner.to_owned();
        let (now, until) = (to_sql_time(now), to_sql_time(until));
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows: Vec<ClaimedRow> = self
            .db
            .transaction(move |conn| {
                Box::pin(async move {
                    // PostgreSQL skips the streams other dispatchers hold
                    // locked; SQLite has one writer.
                    let postgres = matches!(conn, Conn::Pg(_));
                    on!(conn, |c| diesel::sql_query(claim_sql(postgres))
                        .bind::<Text, _>(&owner)
                        .bind::<Timestamp, _>(until)
                        .bind::<Timestamp, _>(now)
                        .bind::<BigInt, _>(limit)
                        .kept()
                        .load(c)
                        .await)
                })
            })
            .await
            .map_err(|e| store_error(e, "claiming webhook streams"))?;
        let subscriptions = self.subscriptions(&rows).await?;
        rows.into_iter()
            .map(|r| {
                Ok(ClaimedStream {
                    subscription: subscriptions
                        .get(&r.webhook_id)
                        .cloned()
                        .unwrap_or_default(),
                    key: StreamKey {
                        webhook_id: parse_id::<WebhookId>("webhook id", &r.webhook_id)?,
                        account_id: parse_id::<AccountId>("account id", &r.account_id)?,
                    },
                    acked_sequence: r.acked_sequence,
                    failures: u32::try_from(r.failures).unwrap_or(0),
                })
            })
            .collect::<Result<Vec<_>, DieselError>>()
            .map_err(|e| store_error(e.into(), "reading claimed streams"))
    }

    async fn renew(
        &self,
        key: StreamKey,
        owner: &str,
        until: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        let (w, a, o) = held_by(key, owner);
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    on!(conn, |c| diesel::update(held_stream!(&w, &a, &o))
                        .set(webhook_streams::lease_until.eq(to_sql_time(until)))
                        .kept()
                        .execute(c)
                        .await)
                    .map(|n| n == 1)
                })
            })
            .await
            .map_err(|e| store_error(e, "renewing a stream lease"))
    }

    async fn release(&self, key: StreamKey, owner: &str) -> Result<(), StoreError> {
        let (w, a, o) = held_by(key, owner);
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    on!(conn, |c| diesel::update(held_stream!(&w, &a, &o))
                        .set((
                            webhook_streams::lease_owner.eq(None::<String>),
                            webhook_streams::lease_until.eq(None::<PrimitiveDateTime>),
                        ))
                        .kept()
                        .execute(c)
                        .await)
                    .map(drop)
                })
            })
            .await
            .map_err(|e| store_error(e, "releasing a stream lease"))
    }

    async fn pending(
        &self,
        account: AccountId,
        after_sequence: i64,
        limit: usize,
        only: Option<Vec<EventType>>,
    ) -> Result<Vec<OutboxEvent>, StoreError> {
        let account = account.to_string();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let only: Option<Vec<&'static str>> =
            only.map(|types| types.iter().map(|t| t.as_str()).collect());
        let opt_in: Vec<&'static str> = EventType::OPT_IN.iter().map(|t| t.as_str()).collect();
        let rows: Vec<EventRow> = self
            .db
            .query(move |conn| {
                Box::pin(async move {
                    match &only {
                        // the contract's types: never an opt-in one
                        None => on!(conn, |c| order_events::table
                            .filter(order_events::account_id.eq(&account))
                            .filter(order_events::sequence.gt(after_sequence))
                            .filter(order_events::event_type.ne_all(opt_in.clone()))
                            .order(order_events::sequence)
                            .limit(limit)
                            .select(EventRow::as_select())
                            .load(c)
                            .await),
                        // a webhook choosing types, or an organisation whose
                        // version predates some: only what it receives
                        Some(types) => on!(conn, |c| order_events::table
                            .filter(order_events::account_id.eq(&account))
                            .filter(order_events::sequence.gt(after_sequence))
                            .filter(order_events::event_type.eq_any(types))
                            .order(order_events::sequence)
                            .limit(limit)
                            .select(EventRow::as_select())
                            .load(c)
                            .await),
                    }
                })
            })
            .await
            .map_err(|e| store_error(e, "reading pending events"))?;
        rows.into_iter()
            .map(|r| {
                Ok(OutboxEvent {
                    account_id: parse_id::<AccountId>("account id", &r.account_id)?,
                    event_id: r.event_id,
                    event_type: r.event_type,
                    sequence: r.sequence,
                    data_json: r.payload,
                    created_at: from_sql_time(r.created_at),
                    traceparent: r.traceparent,
                })
            })
            .collect::<Result<Vec<_>, DieselError>>()
            .map_err(|e| store_error(e.into(), "reading pending events"))
    }

    async fn pass(
        &self,
        owner: &str,
        key: StreamKey,
        after_sequence: i64,
        only: Vec<EventType>,
    ) -> Result<Option<i64>, StoreError> {
        let (w, a, o) = held_by(key, owner);
        let sql = pass_sql(&only);
        let rows: Vec<PassedRow> = self
            .db
            .transaction(move |conn| {
                Box::pin(async move {
                    on!(conn, |c| diesel::sql_query(&sql)
                        .bind::<Text, _>(&a)
                        .bind::<Text, _>(&w)
                        .bind::<Text, _>(&o)
                        .bind::<BigInt, _>(after_sequence)
                        .load(c)
                        .await)
                })
            })
            .await
            .map_err(|e| store_error(e, "passing events a webhook does not receive"))?;
        Ok(rows.into_iter().next().map(|r| r.acked_sequence))
    }

    async fn target(&self, webhook: WebhookId) -> Result<Option<Target>, StoreError> {
        let key = self.key()?;
        let id = webhook.to_string();
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let row: Option<WebhookRow> = on!(conn, |c| webhooks::table
                        .find(&id)
                        .select(WebhookRow::as_select())
                        .first(c)
                        .await)
                    .optional()?;
                    row.map(|r| {
                        Ok(Target {
                            organisation_id: parse_id::<OrganisationId>(
                                "organisation id",
                                &r.organisation_id,
                            )?,
                            url: WebhookUrl::from_stored(&r.url)
                                .map_err(|_| corrupt("webhook url", &r.url))?,
                            secret: open_secret(&key, &r.secret_sealed, &r.id)?,
                            enabled: r.enabled,
                        })
                    })
                    .transpose()
                })
            })
            .await
            .map_err(|e| store_error(e, "reading a webhook target"))
    }

    async fn acknowledge(&self, owner: &str, attempt: &Attempt) -> Result<bool, StoreError> {
        let row = attempt_row(attempt);
        let owner = owner.to_owned();
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    let moved = on!(&mut *conn, |c| diesel::update(
                        webhook_streams::table
                            .find((&row.webhook_id, &row.account_id))
                            .filter(webhook_streams::lease_owner.eq(&owner))
                            .filter(webhook_streams::acked_sequence.lt(row.last_sequence)),
                    )
                    .set((
                        webhook_streams::acked_sequence.eq(row.last_sequence),
                        webhook_streams::failures.eq(0),
                    ))
                    .kept()
                    .execute(c)
                    .await)?;
                    if moved == 0 {
                        return Ok(false);
                    }
                    on!(conn, |c| diesel::insert_into(webhook_attempts::table)
                        .values(&row)
                        .execute(c)
                        .await)?;
                    Ok(true)
                })
            })
            .await
            .map_err(|e| store_error(e, "acknowledging a webhook batch"))
    }

    async fn fail(
        &self,
        owner: &str,
        attempt: &Attempt,
        failures: u32,
        next_attempt_at: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        let row = attempt_row(attempt);
        let owner = owner.to_owned();
        let failures = i32::try_from(failures).unwrap_or(i32::MAX);
        let next = to_sql_time(next_attempt_at);
        self.db
            .transaction(move |conn| {
                Box::pin(async move { record_failure(conn, &row, &owner, failures, next).await })
            })
            .await
            .map_err(|e| store_error(e, "recording a failed webhook attempt"))
    }

    async fn disable(
        &self,
        owner: &str,
        attempt: &Attempt,
        failures: u32,
        reason: &str,
    ) -> Result<bool, StoreError> {
        let row = attempt_row(attempt);
        let owner = owner.to_owned();
        let reason = reason.to_owned();
        let failures = i32::try_from(failures).unwrap_or(i32::MAX);
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    // a disabled webhook's streams are not claimed; re-enabling resets the time
                    if !record_failure(&mut *conn, &row, &owner, failures, row.attempted_at).await?
                    {
                        return Ok(false);
                    }
                    on!(conn, |c| diesel::update(
                        webhooks::table.find(&row.webhook_id)
                    )
                    .set((
                        webhooks::enabled.eq(false),
                        webhooks::disabled_reason.eq(Some(&reason)),
                        webhooks::updated_at.eq(row.attempted_at),
                    ))
                    .kept()
                    .execute(c)
                    .await)?;
                    Ok(true)
                })
            })
            .await
            .map_err(|e| store_error(e, "disabling a webhook"))
    }

    async fn oldest_undelivered(&self) -> Result<Vec<(WebhookId, OffsetDateTime)>, StoreError> {
        let rows: Vec<OldestRow> = self
            .db
            .query(|conn| {
                Box::pin(async move {
                    on!(conn, |c| diesel::sql_query(OLDEST_UNDELIVERED)
                        .kept()
                        .load(c)
                        .await)
                })
            })
            .await
            .map_err(|e| store_error(e, "measuring webhook backlogs"))?;
        rows.into_iter()
            .filter_map(|r| r.oldest.map(|t| (r.webhook_id, t)))
            .map(|(id, t)| Ok((parse_id::<WebhookId>("webhook id", &id)?, from_sql_time(t))))
            .collect::<Result<Vec<_>, DieselError>>()
            .map_err(|e| store_error(e.into(), "measuring webhook backlogs"))
    }
}
