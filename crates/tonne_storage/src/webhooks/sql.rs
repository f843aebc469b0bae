//! Every webhook statement written as SQL text, in one place: the
//! dialect-neutral upserts and claims (`$n` parameters, which SQLite reads by
//! position too) and the PostgreSQL-only ones (`FOR UPDATE`, `SKIP LOCKED`).

use diesel::prelude::*;
use diesel::sql_types::{Text, Timestamp};
use diesel_async::RunQueryDsl;
use time::PrimitiveDateTime;

use tonne_webhooks::EventType;

use crate::db::Conn;

/// Streams, positioned at the account's latest event, for every account the webhook
/// covers that has events and no stream yet — except `exclude` (accounts that were
/// covered already: their streams, if missing, are the dispatcher's to create from
/// the start).
pub(super) async fn streams_at_head(
    conn: &mut Conn,
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
         SELECT w.id, q.account_id, q.last_sequence, 0, $1 \
         FROM webhooks w \
         JOIN accounts a ON a.organisation_id = w.organisation_id AND a.mode = w.mode \
         JOIN account_event_sequences q ON q.account_id = a.id \
         WHERE w.id = $2{excluded} \
           AND (NOT w.filtered OR EXISTS (SELECT 1 FROM webhook_accounts wa WHERE wa.webhook_id = w.id AND wa.account_id = a.id)) \
           AND NOT EXISTS (SELECT 1 FROM webhook_streams s WHERE s.webhook_id = w.id AND s.account_id = a.id) \
         ON CONFLICT DO NOTHING"
    );
    // Numbered in order of appearance: SQLite numbers `$N` parameters as
    // they first appear in the text and binds them by that position.
    on!(conn, |c| diesel::sql_query(&sql)
        .bind::<Timestamp, _>(now)
        .bind::<Text, _>(id)
        .execute(c)
        .await)
}

pub(super) const MATERIALISE: &str = "INSERT INTO webhook_streams (webhook_id, account_id, acked_sequence, failures, next_attempt_at) \
     SELECT w.id, a.id, 0, 0, $1 \
     FROM webhooks w \
     JOIN accounts a ON a.organisation_id = w.organisation_id AND a.mode = w.mode \
     JOIN account_event_sequences q ON q.account_id = a.id \
     WHERE (NOT w.filtered OR EXISTS (SELECT 1 FROM webhook_accounts wa WHERE wa.webhook_id = w.id AND wa.account_id = a.id)) \
       AND NOT EXISTS (SELECT 1 FROM webhook_streams s WHERE s.webhook_id = w.id AND s.account_id = a.id) \
     ON CONFLICT DO NOTHING";

pub(super) fn claim_sql(postgres: bool) -> String {
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

/// Moves a leased stream (`$2`, account `$1`, held by `$3`, standing at `$4`)
/// to its account's latest event when no event of the types in `only` follows
/// `$4` — one statement, so an event committed meanwhile is either seen (and
/// nothing moves) or not yet counted in the account's latest. The names come
/// from `EventType::as_str` (no quotes), safe to inline.
pub(super) fn pass_sql(only: &[EventType]) -> String {
    let wanted = if only.is_empty() {
        String::new()
    } else {
        let names: Vec<String> = only.iter().map(|t| format!("'{}'", t.as_str())).collect();
        format!(
            " AND NOT EXISTS (SELECT 1 FROM order_events e WHERE e.account_id = $1 \
               AND e.sequence > $4 AND e.event_type IN ({}))",
            names.join(",")
        )
    };
    // Numbered in order of appearance (SQLite binds `$N` by first appearance).
    format!(
        "UPDATE webhook_streams SET acked_sequence = \
           (SELECT q.last_sequence FROM account_event_sequences q WHERE q.account_id = $1) \
         WHERE webhook_id = $2 AND account_id = $1 AND lease_owner = $3 AND acked_sequence = $4 \
           AND acked_sequence < (SELECT q.last_sequence FROM account_event_sequences q WHERE q.account_id = $1){wanted} \
         RETURNING acked_sequence"
    )
}

/// Serialises webhook creations per organisation (PostgreSQL's row lock; SQLite
/// has one writer, so nothing to do there).
pub(super) async fn lock_organisation(conn: &mut Conn, organisation_id: &str) -> QueryResult<()> {
    if let Conn::Pg(c) = conn {
        diesel::sql_query("SELECT id FROM organisations WHERE id = $1 FOR UPDATE")
            .bind::<Text, _>(organisation_id)
            .execute(&mut **c)
            .await?;
    }
    Ok(())
}

/// Each webhook's oldest undelivered event: the event after each stream's
/// acknowledged one.
pub(super) const OLDEST_UNDELIVERED: &str = "SELECT s.webhook_id AS webhook_id, MIN(e.created_at) AS oldest \
     FROM webhook_streams s \
     JOIN order_events e ON e.account_id = s.account_id AND e.sequence = s.acked_sequence + 1 \
     GROUP BY s.webhook_id";
