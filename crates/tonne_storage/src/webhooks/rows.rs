//! The webhook tables' rows and their mapping to the domain.

use std::collections::HashMap;

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel::sql_types::{BigInt, Integer, Nullable, Text, Timestamp};
use diesel_async::RunQueryDsl;
use time::PrimitiveDateTime;
use tonne_kernel::{AccountId, AccountMode, OrganisationId};
use tonne_webhooks::{
    Attempt, AttemptId, AttemptOutcome, EventType, Webhook, WebhookId, WebhookSecret, WebhookUrl,
};

use crate::db::Conn;
use crate::db::error::corrupt;
use crate::mapping::{from_sql_time, parse_id, to_sql_time};
use crate::schema::{order_events, webhook_accounts, webhook_attempts, webhooks};
use crate::secrets::SecretsKey;

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = webhooks, treat_none_as_default_value = false)]
pub(super) struct WebhookRow {
    pub(super) id: String,
    pub(super) organisation_id: String,
    pub(super) mode: String,
    pub(super) url: String,
    pub(super) enabled: bool,
    pub(super) filtered: bool,
    pub(super) secret_sealed: String,
    pub(super) secret_last4: String,
    pub(super) disabled_reason: Option<String>,
    pub(super) created_at: PrimitiveDateTime,
    pub(super) updated_at: PrimitiveDateTime,
    pub(super) event_types: Option<String>,
}

/// The `event_types` column: `NULL` is every type, else the names comma-separated.
pub(super) fn event_types_text(types: Option<&[EventType]>) -> Option<String> {
    types.map(|types| {
        types
            .iter()
            .map(|t| t.as_str())
            .collect::<Vec<_>>()
            .join(",")
    })
}

/// The inverse of [`event_types_text`]; a name this build does not know is corrupt.
pub(super) fn parse_event_types_text(
    text: Option<&str>,
) -> Result<Option<Vec<EventType>>, DieselError> {
    text.map(|text| {
        text.split(',')
            .map(|name| EventType::parse(name).ok_or_else(|| corrupt("event type", name)))
            .collect()
    })
    .transpose()
}

pub(super) fn webhook_row(w: &Webhook, key: &SecretsKey) -> WebhookRow {
    let id = w.id.to_string();
    WebhookRow {
        secret_sealed: key.seal(w.secret.expose(), &id),
        secret_last4: w.secret.last4(),
        id,
        organisation_id: w.organisation_id.to_string(),
        mode: w.mode.as_str().to_owned(),
        url: w.url.as_str().to_owned(),
        enabled: w.enabled,
        filtered: w.account_ids.is_some(),
        disabled_reason: w.disabled_reason.clone(),
        created_at: to_sql_time(w.created_at),
        updated_at: to_sql_time(w.updated_at),
        event_types: event_types_text(w.event_types.as_deref()),
    }
}

pub(super) fn open_secret(
    key: &SecretsKey,
    sealed: &str,
    id: &str,
) -> Result<WebhookSecret, DieselError> {
    let plain = key
        .open(sealed, id)
        .map_err(|e| DieselError::DeserializationError(Box::new(e)))?;
    WebhookSecret::from_stored(plain).ok_or_else(|| corrupt("webhook secret", "<redacted>"))
}

pub(super) fn into_webhook(
    row: WebhookRow,
    filter: Option<Vec<AccountId>>,
    key: &SecretsKey,
) -> Result<Webhook, DieselError> {
    Ok(Webhook {
        secret: open_secret(key, &row.secret_sealed, &row.id)?,
        id: parse_id::<WebhookId>("webhook id", &row.id)?,
        organisation_id: parse_id::<OrganisationId>("organisation id", &row.organisation_id)?,
        mode: row
            .mode
            .parse::<AccountMode>()
            .map_err(|_| corrupt("mode", &row.mode))?,
        url: WebhookUrl::from_stored(&row.url).map_err(|_| corrupt("webhook url", &row.url))?,
        enabled: row.enabled,
        account_ids: if row.filtered {
            Some(filter.unwrap_or_default())
        } else {
            None
        },
        event_types: parse_event_types_text(row.event_types.as_deref())?,
        disabled_reason: row.disabled_reason,
        created_at: from_sql_time(row.created_at),
        updated_at: from_sql_time(row.updated_at),
    })
}

pub(super) async fn load_webhooks(
    conn: &mut Conn,
    rows: Vec<WebhookRow>,
    key: &SecretsKey,
) -> QueryResult<Vec<Webhook>> {
    let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    let pairs: Vec<(String, String)> = on!(conn, |c| webhook_accounts::table
        .filter(webhook_accounts::webhook_id.eq_any(&ids))
        .order((webhook_accounts::webhook_id, webhook_accounts::account_id))
        .select((webhook_accounts::webhook_id, webhook_accounts::account_id))
        .load(c)
        .await)?;
    let mut filters: HashMap<String, Vec<AccountId>> = HashMap::new();
    for (webhook, account) in pairs {
        filters
            .entry(webhook)
            .or_default()
            .push(parse_id::<AccountId>("account id", &account)?);
    }
    rows.into_iter()
        .map(|r| {
            let filter = filters.remove(&r.id);
            into_webhook(r, filter, key)
        })
        .collect()
}

pub(super) async fn insert_filter(
    conn: &mut Conn,
    id: &str,
    accounts: &[AccountId],
) -> QueryResult<()> {
    let rows: Vec<_> = accounts
        .iter()
        .map(|a| {
            (
                webhook_accounts::webhook_id.eq(id.to_owned()),
                webhook_accounts::account_id.eq(a.to_string()),
            )
        })
        .collect();
    for row in rows {
        on!(&mut *conn, |c| diesel::insert_into(webhook_accounts::table)
            .values(row)
            .execute(c)
            .await)?;
    }
    Ok(())
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = webhook_attempts, treat_none_as_default_value = false)]
pub(super) struct AttemptRow {
    pub(super) id: String,
    pub(super) webhook_id: String,
    pub(super) account_id: String,
    pub(super) first_sequence: i64,
    pub(super) last_sequence: i64,
    pub(super) event_count: i32,
    pub(super) attempted_at: PrimitiveDateTime,
    pub(super) status_code: Option<i32>,
    pub(super) error: Option<String>,
    pub(super) latency_ms: i64,
    pub(super) outcome: String,
    pub(super) next_attempt_at: Option<PrimitiveDateTime>,
    pub(super) response: Option<String>,
}

pub(super) fn attempt_row(a: &Attempt) -> AttemptRow {
    AttemptRow {
        id: a.id.to_string(),
        webhook_id: a.webhook_id.to_string(),
        account_id: a.account_id.to_string(),
        first_sequence: a.first_sequence,
        last_sequence: a.last_sequence,
        event_count: i32::try_from(a.events).unwrap_or(i32::MAX),
        attempted_at: to_sql_time(a.attempted_at),
        status_code: a.status.map(i32::from),
        // bounded: an error text never grows a row without limit
        error: a.error.as_ref().map(|e| e.chars().take(500).collect()),
        latency_ms: i64::try_from(a.latency_ms).unwrap_or(i64::MAX),
        outcome: a.outcome.as_str().to_owned(),
        next_attempt_at: a.next_attempt_at.map(to_sql_time),
        // bounded by the sender (BODY_START_BYTES); absent when there was no answer
        response: (!a.response.is_empty()).then(|| a.response.clone()),
    }
}

pub(super) fn into_attempt(r: AttemptRow) -> Result<Attempt, DieselError> {
    Ok(Attempt {
        id: parse_id::<AttemptId>("attempt id", &r.id)?,
        webhook_id: parse_id::<WebhookId>("webhook id", &r.webhook_id)?,
        account_id: parse_id::<AccountId>("account id", &r.account_id)?,
        first_sequence: r.first_sequence,
        last_sequence: r.last_sequence,
        events: u32::try_from(r.event_count).unwrap_or(0),
        attempted_at: from_sql_time(r.attempted_at),
        status: r.status_code.and_then(|s| u16::try_from(s).ok()),
        error: r.error,
        latency_ms: u64::try_from(r.latency_ms).unwrap_or(0),
        outcome: AttemptOutcome::parse(&r.outcome).ok_or_else(|| corrupt("outcome", &r.outcome))?,
        next_attempt_at: r.next_attempt_at.map(from_sql_time),
        response: r.response.unwrap_or_default(),
    })
}

#[derive(QueryableByName)]
pub(super) struct ClaimedRow {
    #[diesel(sql_type = Text)]
    pub(super) webhook_id: String,
    #[diesel(sql_type = Text)]
    pub(super) account_id: String,
    #[diesel(sql_type = BigInt)]
    pub(super) acked_sequence: i64,
    #[diesel(sql_type = Integer)]
    pub(super) failures: i32,
}

#[derive(QueryableByName)]
pub(super) struct PassedRow {
    #[diesel(sql_type = BigInt)]
    pub(super) acked_sequence: i64,
}

#[derive(QueryableByName)]
pub(super) struct OldestRow {
    #[diesel(sql_type = Text)]
    pub(super) webhook_id: String,
    #[diesel(sql_type = Nullable<Timestamp>)]
    pub(super) oldest: Option<PrimitiveDateTime>,
}

#[derive(Queryable, Selectable)]
#[diesel(table_name = order_events)]
pub(super) struct EventRow {
    pub(super) event_id: String,
    pub(super) event_type: String,
    pub(super) account_id: String,
    pub(super) sequence: i64,
    pub(super) payload: String,
    pub(super) created_at: PrimitiveDateTime,
    pub(super) traceparent: Option<String>,
}
