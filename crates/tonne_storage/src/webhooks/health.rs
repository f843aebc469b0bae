//! How each webhook is doing, for the operator: its last acknowledged
//! attempt, its failing streams and the age of its oldest undelivered event.
//! A page costs a handful of indexed look-ups per webhook (25 a page), not a
//! scan of the attempt log.

use diesel::prelude::*;
use tonne_kernel::{Limit, Page};
use tonne_webhooks::{AttemptOutcome, WebhookHealth};

use super::rows::{WebhookRow, load_webhooks};
use crate::db::AnyConnection;
use crate::mapping::from_sql_time;
use crate::schema::{order_events, webhook_attempts, webhook_streams, webhooks};
use crate::secrets::SecretsKey;

/// Webhooks in id order strictly after `after` (checked to exist), with health.
pub(super) fn page(
    conn: &mut AnyConnection,
    key: &SecretsKey,
    after: Option<String>,
    limit: Limit,
) -> QueryResult<Page<WebhookHealth>> {
    let mut q = webhooks::table.into_boxed();
    if let Some(after) = after {
        webhooks::table
            .find(&after)
            .select(webhooks::id)
            .first::<String>(conn)?;
        q = q.filter(webhooks::id.gt(after));
    }
    let rows: Vec<WebhookRow> = q
        .order(webhooks::id.asc())
        .limit(i64::from(limit.get()) + 1)
        .select(WebhookRow::as_select())
        .load(conn)?;
    let found = with_health(conn, key, rows)?;
    Ok(Page::from_overfetch(found, limit))
}

/// One webhook with its health, or `None`.
pub(super) fn one(
    conn: &mut AnyConnection,
    key: &SecretsKey,
    id: String,
) -> QueryResult<Option<WebhookHealth>> {
    let rows: Vec<WebhookRow> = webhooks::table
        .find(&id)
        .select(WebhookRow::as_select())
        .load(conn)?;
    Ok(with_health(conn, key, rows)?.into_iter().next())
}

fn with_health(
    conn: &mut AnyConnection,
    key: &SecretsKey,
    rows: Vec<WebhookRow>,
) -> QueryResult<Vec<WebhookHealth>> {
    load_webhooks(conn, rows, key)?
        .into_iter()
        .map(|webhook| {
            let id = webhook.id.to_string();
            // newest first through (webhook_id, id): stops at the first success
            let last_success = webhook_attempts::table
                .filter(webhook_attempts::webhook_id.eq(&id))
                .filter(webhook_attempts::outcome.eq(AttemptOutcome::Delivered.as_str()))
                .order(webhook_attempts::id.desc())
                .select(webhook_attempts::attempted_at)
                .first::<time::PrimitiveDateTime>(conn)
                .optional()?
                .map(from_sql_time);
            let streams: Vec<(String, i64, i32)> = webhook_streams::table
                .filter(webhook_streams::webhook_id.eq(&id))
                .select((
                    webhook_streams::account_id,
                    webhook_streams::acked_sequence,
                    webhook_streams::failures,
                ))
                .load(conn)?;
            let failing = streams.iter().filter(|(_, _, f)| *f > 0).count();
            let mut oldest: Option<time::PrimitiveDateTime> = None;
            for (account, acked, _) in &streams {
                let next = order_events::table
                    .filter(order_events::account_id.eq(account))
                    .filter(order_events::sequence.eq(acked + 1))
                    .select(order_events::created_at)
                    .first::<time::PrimitiveDateTime>(conn)
                    .optional()?;
                oldest = match (oldest, next) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
            }
            Ok(WebhookHealth {
                webhook,
                last_success,
                failing_streams: u32::try_from(failing).unwrap_or(u32::MAX),
                oldest_undelivered: oldest.map(from_sql_time),
            })
        })
        .collect()
}
