//! Webhooks (secrets sealed at rest), their delivery streams and attempts.

use std::collections::{BTreeSet, HashMap};

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel::sql_types::{BigInt, Integer, Nullable, Text, Timestamp};
use time::{OffsetDateTime, PrimitiveDateTime};
use tonne_kernel::{AccountId, AccountMode, Cursor, OrganisationId, Page, PageRequest, StoreError};
use tonne_webhooks::ports::{DeliveryStore, WebhookRepository};
use tonne_webhooks::{
    Attempt, AttemptId, AttemptOutcome, ClaimedStream, InsertWebhookError, OutboxEvent, Owner,
    Recovery, StreamKey, Target, Webhook, WebhookId, WebhookSecret, WebhookUrl,
};

use crate::db::{AnyConnection, Db};
use crate::error::{corrupt, store_error};
use crate::mapping::{from_sql_time, parse_id, to_sql_time};
use crate::schema::{
    account_event_sequences, order_events, webhook_accounts, webhook_attempts, webhook_streams,
    webhooks,
};
use crate::secrets::SecretsKey;

/// Webhooks and their delivery state on either backend. Secrets are sealed with
/// the [`SecretsKey`]; without one, webhooks can be neither created nor read.
#[derive(Debug, Clone)]
pub struct WebhookStore {
    db: Db,
    key: Option<SecretsKey>,
}

impl WebhookStore {
    /// A repository over a pool; `key` seals secrets at rest.
    pub fn new(db: Db, key: Option<SecretsKey>) -> Self {
        Self { db, key }
    }

    /// How many webhooks exist (start-up refuses to run without a key when there are any).
    pub async fn count(&self) -> Result<i64, StoreError> {
        self.db
            .read(|conn| webhooks::table.count().get_result::<i64>(conn))
            .await
            .map_err(|e| store_error(e, "counting webhooks"))
    }

    fn key(&self) -> Result<SecretsKey, StoreError> {
        self.key.clone().ok_or_else(|| {
            StoreError::Unexpected(anyhow::anyhow!(
                "TONNE_SECRETS_KEY is not set: webhook secrets cannot be sealed or opened"
            ))
        })
    }
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = webhooks)]
struct WebhookRow {
    id: String,
    organisation_id: String,
    mode: String,
    url: String,
    enabled: bool,
    filtered: bool,
    secret_sealed: String,
    secret_last4: String,
    disabled_reason: Option<String>,
    created_at: PrimitiveDateTime,
    updated_at: PrimitiveDateTime,
}

fn webhook_row(w: &Webhook, key: &SecretsKey) -> WebhookRow {
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
    }
}

fn open_secret(key: &SecretsKey, sealed: &str, id: &str) -> Result<WebhookSecret, DieselError> {
    let plain = key
        .open(sealed, id)
        .map_err(|e| DieselError::DeserializationError(Box::new(e)))?;
    WebhookSecret::from_stored(plain).ok_or_else(|| corrupt("webhook secret", "<redacted>"))
}

fn into_webhook(
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
        disabled_reason: row.disabled_reason,
        created_at: from_sql_time(row.created_at),
        updated_at: from_sql_time(row.updated_at),
    })
}

fn load_webhooks(
    conn: &mut AnyConnection,
    rows: Vec<WebhookRow>,
    key: &SecretsKey,
) -> QueryResult<Vec<Webhook>> {
    let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    let pairs: Vec<(String, String)> = webhook_accounts::table
        .filter(webhook_accounts::webhook_id.eq_any(&ids))
        .order((webhook_accounts::webhook_id, webhook_accounts::account_id))
        .select((webhook_accounts::webhook_id, webhook_accounts::account_id))
        .load(conn)?;
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

fn insert_filter(conn: &mut AnyConnection, id: &str, accounts: &[AccountId]) -> QueryResult<()> {
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
        diesel::insert_into(webhook_accounts::table)
            .values(row)
            .execute(conn)?;
    }
    Ok(())
}

/// Streams, positioned at the account's latest event, for every account the webhook
/// covers that has events and no stream yet — except `exclude` (accounts that were
/// covered already: their streams, if missing, are the dispatcher's to create from
/// the start).
fn streams_at_head(
    conn: &mut AnyConnection,
    id: &str,
    now: PrimitiveDateTime,
    exclude: &[String],
) -> QueryResult<usize> {
    let excluded = if exclude.is_empty() {
        String::new()
    } else {
        // ids are 32 hex characters (parsed before they were stored), safe to inline
        let list: Vec<String> = exclude
            .iter()
            .filter(|a| a.bytes().all(|b| b.is_ascii_hexdigit()))
            .map(|a| format!("'{a}'"))
            .collect();
        format!(" AND a.id NOT IN ({})", list.join(","))
    };
    let sql = format!(
        "INSERT INTO webhook_streams (webhook_id, account_id, acked_sequence, failures, next_attempt_at) \
         SELECT w.id, q.account_id, q.last_sequence, 0, $2 \
         FROM webhooks w \
         JOIN accounts a ON a.organisation_id = w.organisation_id AND a.mode = w.mode \
         JOIN account_event_sequences q ON q.account_id = a.id \
         WHERE w.id = $1{excluded} \
           AND (NOT w.filtered OR EXISTS (SELECT 1 FROM webhook_accounts wa WHERE wa.webhook_id = w.id AND wa.account_id = a.id)) \
           AND NOT EXISTS (SELECT 1 FROM webhook_streams s WHERE s.webhook_id = w.id AND s.account_id = a.id) \
         ON CONFLICT DO NOTHING"
    );
    on_conn!(conn, |c| diesel::sql_query(&sql)
        .bind::<Text, _>(id)
        .bind::<Timestamp, _>(now)
        .execute(c))
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = webhook_attempts)]
struct AttemptRow {
    id: String,
    webhook_id: String,
    account_id: String,
    first_sequence: i64,
    last_sequence: i64,
    event_count: i32,
    attempted_at: PrimitiveDateTime,
    status_code: Option<i32>,
    error: Option<String>,
    latency_ms: i64,
    outcome: String,
    next_attempt_at: Option<PrimitiveDateTime>,
}

fn attempt_row(a: &Attempt) -> AttemptRow {
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
    }
}

fn into_attempt(r: AttemptRow) -> Result<Attempt, DieselError> {
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
    })
}

/// Records a failed attempt: counts the failure, sets the next attempt time and
/// releases the lease — one conditional UPDATE, so nothing is written unless this
/// dispatcher still holds the lease. Returns whether it did.
fn record_failure(
    conn: &mut AnyConnection,
    row: &AttemptRow,
    owner: &str,
    failures: i32,
    next_attempt_at: PrimitiveDateTime,
) -> QueryResult<bool> {
    let held = diesel::update(
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
    .execute(conn)?;
    if held == 0 {
        return Ok(false);
    }
    diesel::insert_into(webhook_attempts::table)
        .values(row)
        .execute(conn)?;
    Ok(true)
}

/// The outcome of the insert transaction (a refused insert writes nothing).
enum Inserted {
    Yes,
    LimitReached,
}

#[async_trait]
impl WebhookRepository for WebhookStore {
    async fn insert(&self, webhook: &Webhook, limit: usize) -> Result<(), InsertWebhookError> {
        let key = self.key()?;
        let row = webhook_row(webhook, &key);
        let filter = webhook.account_ids.clone().unwrap_or_default();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let inserted = self
            .db
            .write(move |conn| {
                // Serialise creations per organisation (PostgreSQL; SQLite has one writer).
                if let AnyConnection::Postgresql(c) = conn {
                    diesel::sql_query("SELECT id FROM organisations WHERE id = $1 FOR UPDATE")
                        .bind::<Text, _>(&row.organisation_id)
                        .execute(c)?;
                }
                let existing: i64 = webhooks::table
                    .filter(webhooks::organisation_id.eq(&row.organisation_id))
                    .filter(webhooks::mode.eq(&row.mode))
                    .count()
                    .get_result(conn)?;
                if existing >= limit {
                    return Ok(Inserted::LimitReached);
                }
                diesel::insert_into(webhooks::table)
                    .values(&row)
                    .execute(conn)?;
                insert_filter(conn, &row.id, &filter)?;
                streams_at_head(conn, &row.id, row.created_at, &[])?;
                Ok(Inserted::Yes)
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
            .read(move |conn| {
                let rows: Vec<WebhookRow> = webhooks::table
                    .filter(webhooks::id.eq(&id))
                    .select(WebhookRow::as_select())
                    .load(conn)?;
                Ok(load_webhooks(conn, rows, &key)?.into_iter().next())
            })
            .await
            .map_err(|e| store_error(e, "reading a webhook"))
    }

    async fn list(&self, owner: Owner) -> Result<Vec<Webhook>, StoreError> {
        let key = self.key()?;
        let org = owner.organisation_id.to_string();
        let mode = owner.mode.as_str();
        self.db
            .read(move |conn| {
                let rows: Vec<WebhookRow> = webhooks::table
                    .filter(webhooks::organisation_id.eq(&org))
                    .filter(webhooks::mode.eq(mode))
                    .order(webhooks::id)
                    .select(WebhookRow::as_select())
                    .load(conn)?;
                load_webhooks(conn, rows, &key)
            })
            .await
            .map_err(|e| store_error(e, "listing webhooks"))
    }

    async fn update(&self, webhook: &Webhook, resume: bool) -> Result<(), StoreError> {
        let id = webhook.id.to_string();
        let url = webhook.url.as_str().to_owned();
        let enabled = webhook.enabled;
        let reason = webhook.disabled_reason.clone();
        let updated = to_sql_time(webhook.updated_at);
        let new_filter: Option<BTreeSet<String>> = webhook
            .account_ids
            .as_ref()
            .map(|ids| ids.iter().map(ToString::to_string).collect());
        self.db
            .write(move |conn| {
                let changed = diesel::update(webhooks::table.find(&id))
                    .set((
                        webhooks::url.eq(&url),
                        webhooks::enabled.eq(enabled),
                        webhooks::filtered.eq(new_filter.is_some()),
                        webhooks::disabled_reason.eq(&reason),
                        webhooks::updated_at.eq(updated),
                    ))
                    .execute(conn)?;
                if changed == 0 {
                    return Err(DieselError::NotFound);
                }
                let old: BTreeSet<String> = webhook_accounts::table
                    .filter(webhook_accounts::webhook_id.eq(&id))
                    .select(webhook_accounts::account_id)
                    .load::<String>(conn)?
                    .into_iter()
                    .collect();
                let was_filtered = !old.is_empty();
                match &new_filter {
                    Some(new) if !was_filtered || *new != old => {
                        diesel::delete(
                            webhook_accounts::table.filter(webhook_accounts::webhook_id.eq(&id)),
                        )
                        .execute(conn)?;
                        let ids: Vec<AccountId> = new
                            .iter()
                            .map(|a| parse_id::<AccountId>("account id", a))
                            .collect::<Result<_, _>>()?;
                        insert_filter(conn, &id, &ids)?;
                        diesel::delete(
                            webhook_streams::table
                                .filter(webhook_streams::webhook_id.eq(&id))
                                .filter(
                                    webhook_streams::account_id
                                        .ne_all(new.iter().cloned().collect::<Vec<_>>()),
                                ),
                        )
                        .execute(conn)?;
                        // accounts the filter adds start at their latest event
                        let kept: Vec<String> = if was_filtered {
                            old.intersection(new).cloned().collect()
                        } else {
                            new.iter().cloned().collect()
                        };
                        streams_at_head(conn, &id, updated, &kept)?;
                    }
                    None if was_filtered => {
                        diesel::delete(
                            webhook_accounts::table.filter(webhook_accounts::webhook_id.eq(&id)),
                        )
                        .execute(conn)?;
                        let kept: Vec<String> = old.into_iter().collect();
                        streams_at_head(conn, &id, updated, &kept)?;
                    }
                    _ => {}
                }
                if resume {
                    diesel::update(
                        webhook_streams::table.filter(webhook_streams::webhook_id.eq(&id)),
                    )
                    .set((
                        webhook_streams::failures.eq(0),
                        webhook_streams::next_attempt_at.eq(updated),
                    ))
                    .execute(conn)?;
                }
                Ok(())
            })
            .await
            .map_err(|e| store_error(e, "updating a webhook"))
    }

    async fn rotate_secret(
        &self,
        id: WebhookId,
        secret: &WebhookSecret,
        at: OffsetDateTime,
    ) -> Result<(), StoreError> {
        let key = self.key()?;
        let id = id.to_string();
        let sealed = key.seal(secret.expose(), &id);
        let last4 = secret.last4();
        self.db
            .write(move |conn| {
                let changed = diesel::update(webhooks::table.find(&id))
                    .set((
                        webhooks::secret_sealed.eq(&sealed),
                        webhooks::secret_last4.eq(&last4),
                        webhooks::updated_at.eq(to_sql_time(at)),
                    ))
                    .execute(conn)?;
                if changed == 0 {
                    return Err(DieselError::NotFound);
                }
                Ok(())
            })
            .await
            .map_err(|e| store_error(e, "rotating a webhook secret"))
    }

    async fn delete(&self, id: WebhookId) -> Result<(), StoreError> {
        let id = id.to_string();
        self.db
            .write(move |conn| {
                // children first: SQLite's foreign-key cascade is not relied upon
                diesel::delete(webhook_streams::table.filter(webhook_streams::webhook_id.eq(&id)))
                    .execute(conn)?;
                diesel::delete(
                    webhook_attempts::table.filter(webhook_attempts::webhook_id.eq(&id)),
                )
                .execute(conn)?;
                diesel::delete(
                    webhook_accounts::table.filter(webhook_accounts::webhook_id.eq(&id)),
                )
                .execute(conn)?;
                let gone = diesel::delete(webhooks::table.find(&id)).execute(conn)?;
                if gone == 0 {
                    return Err(DieselError::NotFound);
                }
                Ok(())
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
        let after = page.after.as_ref().map(|c| c.as_str().to_owned());
        let limit = page.limit;
        self.db
            .read(move |conn| {
                let mut q = webhook_attempts::table
                    .filter(webhook_attempts::webhook_id.eq(&id))
                    .order(webhook_attempts::id.desc())
                    .limit(i64::from(limit.get()) + 1)
                    .select(AttemptRow::as_select())
                    .into_boxed();
                if let Some(after) = after {
                    q = q.filter(webhook_attempts::id.lt(after));
                }
                let rows = q.load(conn)?;
                let attempts = rows
                    .into_iter()
                    .map(into_attempt)
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Page::from_overfetch(attempts, limit))
            })
            .await
            .map_err(|e| store_error(e, "listing webhook attempts"))
    }

    async fn skip_backlog(&self, id: WebhookId, at: OffsetDateTime) -> Result<u64, StoreError> {
        let id = id.to_string();
        self.db
            .write(move |conn| {
                let streams: Vec<(String, i64)> = webhook_streams::table
                    .filter(webhook_streams::webhook_id.eq(&id))
                    .select((webhook_streams::account_id, webhook_streams::acked_sequence))
                    .load(conn)?;
                let mut skipped: i64 = 0;
                for (account, acked) in streams {
                    let head: Option<i64> = account_event_sequences::table
                        .find(&account)
                        .select(account_event_sequences::last_sequence)
                        .first(conn)
                        .optional()?;
                    let head = head.unwrap_or(0);
                    if head > acked {
                        skipped = skipped.saturating_add(head - acked);
                        diesel::update(webhook_streams::table.find((&id, &account)))
                            .set((
                                webhook_streams::acked_sequence.eq(head),
                                webhook_streams::failures.eq(0),
                                webhook_streams::next_attempt_at.eq(to_sql_time(at)),
                            ))
                            .execute(conn)?;
                    }
                }
                Ok(u64::try_from(skipped).unwrap_or(0))
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
    ) -> Result<Recovery, StoreError> {
        let (w, only) = (id.to_string(), account.map(|a| a.to_string()));
        let (since, at) = (to_sql_time(since), to_sql_time(at));
        self.db
            .write(move |conn| {
                let mut q = webhook_streams::table
                    .filter(webhook_streams::webhook_id.eq(&w))
                    .select((webhook_streams::account_id, webhook_streams::acked_sequence))
                    .into_boxed();
                if let Some(a) = &only {
                    q = q.filter(webhook_streams::account_id.eq(a.clone()));
                }
                let streams: Vec<(String, i64)> = q.load(conn)?;
                let mut recovery = Recovery::default();
                for (account, acked) in streams {
                    let first: Option<i64> = order_events::table
                        .filter(order_events::account_id.eq(&account))
                        .filter(order_events::created_at.ge(since))
                        .select(diesel::dsl::min(order_events::sequence))
                        .first(conn)?;
                    let Some(first) = first else { continue };
                    let back_to = first - 1;
                    if back_to >= acked {
                        // Everything since then is still to be delivered: nothing to move.
                        continue;
                    }
                    diesel::update(webhook_streams::table.find((&w, &account)))
                        .set((
                            webhook_streams::acked_sequence.eq(back_to),
                            webhook_streams::failures.eq(0),
                            webhook_streams::next_attempt_at.eq(at),
                        ))
                        .execute(conn)?;
                    recovery.streams += 1;
                    recovery.events += u64::try_from(acked - back_to).unwrap_or(0);
                }
                Ok(recovery)
            })
            .await
            .map_err(|e| store_error(e, "recovering a webhook's events"))
    }

    async fn rewind(
        &self,
        key: StreamKey,
        from_sequence: i64,
        at: OffsetDateTime,
    ) -> Result<(), StoreError> {
        let (w, a) = (key.webhook_id.to_string(), key.account_id.to_string());
        self.db
            .write(move |conn| {
                let changed = diesel::update(webhook_streams::table.find((&w, &a)))
                    .set((
                        webhook_streams::acked_sequence.eq(from_sequence.saturating_sub(1).max(0)),
                        webhook_streams::failures.eq(0),
                        webhook_streams::next_attempt_at.eq(to_sql_time(at)),
                    ))
                    .execute(conn)?;
                if changed == 0 {
                    return Err(DieselError::NotFound);
                }
                Ok(())
            })
            .await
            .map_err(|e| store_error(e, "rewinding a webhook stream"))
    }
}

#[derive(QueryableByName)]
struct ClaimedRow {
    #[diesel(sql_type = Text)]
    webhook_id: String,
    #[diesel(sql_type = Text)]
    account_id: String,
    #[diesel(sql_type = BigInt)]
    acked_sequence: i64,
    #[diesel(sql_type = Integer)]
    failures: i32,
}

#[derive(QueryableByName)]
struct OldestRow {
    #[diesel(sql_type = Text)]
    webhook_id: String,
    #[diesel(sql_type = Nullable<Timestamp>)]
    oldest: Option<PrimitiveDateTime>,
}

const MATERIALISE: &str = "INSERT INTO webhook_streams (webhook_id, account_id, acked_sequence, failures, next_attempt_at) \
     SELECT w.id, a.id, 0, 0, $1 \
     FROM webhooks w \
     JOIN accounts a ON a.organisation_id = w.organisation_id AND a.mode = w.mode \
     JOIN account_event_sequences q ON q.account_id = a.id \
     WHERE (NOT w.filtered OR EXISTS (SELECT 1 FROM webhook_accounts wa WHERE wa.webhook_id = w.id AND wa.account_id = a.id)) \
       AND NOT EXISTS (SELECT 1 FROM webhook_streams s WHERE s.webhook_id = w.id AND s.account_id = a.id) \
     ON CONFLICT DO NOTHING";

fn claim_sql(postgres: bool) -> String {
    format!(
        "UPDATE webhook_streams SET lease_owner = $1, lease_until = $2 \
         WHERE (webhook_id, account_id) IN ( \
           SELECT s.webhook_id, s.account_id FROM webhook_streams s \
           JOIN webhooks w ON w.id = s.webhook_id \
           JOIN account_event_sequences q ON q.account_id = s.account_id \
           WHERE w.enabled AND q.last_sequence > s.acked_sequence AND s.next_attempt_at <= $3 \
             AND (s.lease_until IS NULL OR s.lease_until < $3) \
           ORDER BY s.next_attempt_at LIMIT $4{}) \
         RETURNING webhook_id, account_id, acked_sequence, failures",
        if postgres {
            " FOR UPDATE OF s SKIP LOCKED"
        } else {
            ""
        }
    )
}

#[derive(Queryable, Selectable)]
#[diesel(table_name = order_events)]
struct EventRow {
    event_id: String,
    event_type: String,
    account_id: String,
    sequence: i64,
    payload: String,
    created_at: PrimitiveDateTime,
}

#[async_trait]
impl DeliveryStore for WebhookStore {
    async fn materialise_streams(&self, now: OffsetDateTime) -> Result<u64, StoreError> {
        let now = to_sql_time(now);
        self.db
            .write(move |conn| {
                on_conn!(conn, |c| diesel::sql_query(MATERIALISE)
                    .bind::<Timestamp, _>(now)
                    .execute(c))
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
            .write(move |conn| match conn {
                AnyConnection::Postgresql(c) => diesel::sql_query(claim_sql(true))
                    .bind::<Text, _>(&owner)
                    .bind::<Timestamp, _>(until)
                    .bind::<Timestamp, _>(now)
                    .bind::<BigInt, _>(limit)
                    .load(c),
                AnyConnection::Sqlite(c) => diesel::sql_query(claim_sql(false))
                    .bind::<Text, _>(&owner)
                    .bind::<Timestamp, _>(until)
                    .bind::<Timestamp, _>(now)
                    .bind::<BigInt, _>(limit)
                    .load(c),
            })
            .await
            .map_err(|e| store_error(e, "claiming webhook streams"))?;
        rows.into_iter()
            .map(|r| {
                Ok(ClaimedStream {
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
        let (w, a, o) = (
            key.webhook_id.to_string(),
            key.account_id.to_string(),
            owner.to_owned(),
        );
        self.db
            .write(move |conn| {
                diesel::update(
                    webhook_streams::table
                        .find((&w, &a))
                        .filter(webhook_streams::lease_owner.eq(&o)),
                )
                .set(webhook_streams::lease_until.eq(to_sql_time(until)))
                .execute(conn)
                .map(|n| n == 1)
            })
            .await
            .map_err(|e| store_error(e, "renewing a stream lease"))
    }

    async fn release(&self, key: StreamKey, owner: &str) -> Result<(), StoreError> {
        let (w, a, o) = (
            key.webhook_id.to_string(),
            key.account_id.to_string(),
            owner.to_owned(),
        );
        self.db
            .write(move |conn| {
                diesel::update(
                    webhook_streams::table
                        .find((&w, &a))
                        .filter(webhook_streams::lease_owner.eq(&o)),
                )
                .set((
                    webhook_streams::lease_owner.eq(None::<String>),
                    webhook_streams::lease_until.eq(None::<PrimitiveDateTime>),
                ))
                .execute(conn)
                .map(drop)
            })
            .await
            .map_err(|e| store_error(e, "releasing a stream lease"))
    }

    async fn pending(
        &self,
        account: AccountId,
        after_sequence: i64,
        limit: usize,
    ) -> Result<Vec<OutboxEvent>, StoreError> {
        let account = account.to_string();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows: Vec<EventRow> = self
            .db
            .read(move |conn| {
                order_events::table
                    .filter(order_events::account_id.eq(&account))
                    .filter(order_events::sequence.gt(after_sequence))
                    .order(order_events::sequence)
                    .limit(limit)
                    .select(EventRow::as_select())
                    .load(conn)
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
                })
            })
            .collect::<Result<Vec<_>, DieselError>>()
            .map_err(|e| store_error(e.into(), "reading pending events"))
    }

    async fn target(&self, webhook: WebhookId) -> Result<Option<Target>, StoreError> {
        let key = self.key()?;
        let id = webhook.to_string();
        self.db
            .read(move |conn| {
                let row: Option<WebhookRow> = webhooks::table
                    .find(&id)
                    .select(WebhookRow::as_select())
                    .first(conn)
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
            .await
            .map_err(|e| store_error(e, "reading a webhook target"))
    }

    async fn acknowledge(&self, owner: &str, attempt: &Attempt) -> Result<bool, StoreError> {
        let row = attempt_row(attempt);
        let owner = owner.to_owned();
        self.db
            .write(move |conn| {
                let moved = diesel::update(
                    webhook_streams::table
                        .find((&row.webhook_id, &row.account_id))
                        .filter(webhook_streams::lease_owner.eq(&owner))
                        .filter(webhook_streams::acked_sequence.lt(row.last_sequence)),
                )
                .set((
                    webhook_streams::acked_sequence.eq(row.last_sequence),
                    webhook_streams::failures.eq(0),
                ))
                .execute(conn)?;
                if moved == 0 {
                    return Ok(false);
                }
                diesel::insert_into(webhook_attempts::table)
                    .values(&row)
                    .execute(conn)?;
                Ok(true)
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
            .write(move |conn| record_failure(conn, &row, &owner, failures, next))
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
            .write(move |conn| {
                // a disabled webhook's streams are not claimed; re-enabling resets the time
                if !record_failure(conn, &row, &owner, failures, row.attempted_at)? {
                    return Ok(false);
                }
                diesel::update(webhooks::table.find(&row.webhook_id))
                    .set((
                        webhooks::enabled.eq(false),
                        webhooks::disabled_reason.eq(Some(reason)),
                        webhooks::updated_at.eq(row.attempted_at),
                    ))
                    .execute(conn)?;
                Ok(true)
            })
            .await
            .map_err(|e| store_error(e, "disabling a webhook"))
    }

    async fn oldest_undelivered(&self) -> Result<Vec<(WebhookId, OffsetDateTime)>, StoreError> {
        const SQL: &str = "SELECT s.webhook_id AS webhook_id, MIN(e.created_at) AS oldest \
             FROM webhook_streams s \
             JOIN order_events e ON e.account_id = s.account_id AND e.sequence = s.acked_sequence + 1 \
             GROUP BY s.webhook_id";
        let rows: Vec<OldestRow> = self
            .db
            .read(|conn| on_conn!(conn, |c| diesel::sql_query(SQL).load(c)))
            .await
            .map_err(|e| store_error(e, "measuring webhook backlogs"))?;
        rows.into_iter()
            .filter_map(|r| r.oldest.map(|t| (r.webhook_id, t)))
            .map(|(id, t)| Ok((parse_id::<WebhookId>("webhook id", &id)?, from_sql_time(t))))
            .collect::<Result<Vec<_>, DieselError>>()
            .map_err(|e| store_error(e.into(), "measuring webhook backlogs"))
    }
}
