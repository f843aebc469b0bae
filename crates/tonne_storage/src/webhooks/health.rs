//! How each webhook is doing, for the operator: its last acknowledged
//! attempt, its failing streams and the age of its oldest undelivered event.
//! A page costs a handful of indexed look-ups per webhook (25 a page), not a
//! scan of the attempt log.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use tonne_kernel::{Limit, Page};
use tonne_webhooks::{AttemptOutcome, WebhookHealth};

use super::rows::{WebhookRow, load_webhooks};
use crate::db::Conn;
use crate::mapping::from_sql_time;
use crate::schema::{order_events, webhook_attempts, webhook_streams, webhooks};
use crate::secrets::SecretsKey;

/// Webhooks in id order strictly after `after` (checked to exist), with health.
pub(super) async fn page(
    conn: &mut Conn,
    key: &SecretsKey,
    after: Option<String>,
    limit: Limit,
) -> QueryResult<Page<WebhookHealth>> {
    if let Some(after) = &after {
        on!(&mut *conn, |c| webhooks::table
            .find(after)
            .select(webhooks::id)
            .first::<String>(c)
            .await)?;
    }
    let rows: Vec<WebhookRow> = on!(&mut *conn, |c| {
        let mut q = webhooks::table.into_boxed();
        if let Some(after) = &after {
            q = q.filter(webhooks::id.gt(after.clone()));
        }
        q.order(webhooks::id.asc())
            .limit(i64::from(limit.get()) + 1)
            .select(WebhookRow::as_select())
            .load(c)
            .await
    })?;
    let found = with_health(conn, key, rows).await?;
    Ok(Page::from_overfetch(found, limit))
}

/// One webhook with its health, or `None`.
pub(super) async fn one(
    conn: &mut Conn,
    key: &SecretsKey,
    id: String,
) -> QueryResult<Option<WebhookHealth>> {
    let rows: Vec<WebhookRow> = on!(&mut *conn, |c| webhooks::table
        .find(&id)
        .select(WebhookRow::as_select())
        .load(c)
        .await)?;
    Ok(with_health(conn, key, rows).await?.into_iter().next())
}

async fn with_health(
    conn: &mut Conn,
    key: &SecretsKey,
    rows: Vec<WebhookRow>,
) -> QueryResult<Vec<WebhookHealth>> {
    let webhooks = load_webhooks(&mut *conn, rows, key).await?;
    let mut found = Vec::with_capacity(webhooks.len());
    for webhook in webhooks {
        let id = webhook.id.to_string();
        // newest first through (webhook_id, id): stops at the first success
        let last_success = on!(&mut *conn, |c| webhook_attempts::table
            .filter(webhook_attempts::webhook_id.eq(&id))
            .filter(webhook_attempts::outcome.eq(AttemptOutcome::Delivered.as_str()))
            .order(webhook_attempts::id.desc())
            .select(webhook_attempts::attempted_at)
            .first::<time::PrimitiveDateTime>(c)
            .await)
        .optional()?
        .map(from_sql_time);
        let streams: Vec<(String, i64, i32)> = on!(&mut *conn, |c| webhook_streams::table
            .filter(webhook_streams::webhook_id.eq(&id))
            .select((
                webhook_streams::account_id,
                webhook_streams::acked_sequence,
                webhook_streams::failures,
            ))
            .load(c)
            .await)?;
        let failing = streams.iter().filter(|(_, _, f)| *f > 0).count();
        let mut oldest: Option<time::PrimitiveDateTime> = None;
        for (account, acked, _) in &streams {
            let next = on!(&mut *conn, |c| order_events::table
                .filter(order_events::account_id.eq(account))
                .filter(order_events::sequence.eq(acked + 1))
                .select(order_events::created_at)
                .first::<time::PrimitiveDateTime>(c)
                .await)
            .optional()?;
            oldest = match (oldest, next) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
        found.push(WebhookHealth {
            webhook,
            last_success,
            failing_streams: u32::try_from(failing).unwrap_or(u32::MAX),
            oldest_undelivered: oldest.map(from_sql_time),
        });
    }
    Ok(found)
}
