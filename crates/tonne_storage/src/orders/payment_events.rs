//! The card processor's events, each recorded once, and the hold a dispute
//! puts on its order — in one transaction, so an event delivered twice (or
//! twice at once) acts once.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use tonne_kernel::AuditEntry;
use tonne_kernel::StoreError;
use tonne_ordering::{Order, OrderId, PaymentEventApplied};

use crate::db::Db;
use crate::db::error::store_error;
use crate::mapping::{parse_id, to_sql_time};
use crate::schema::{orders, stripe_events};

use super::read::load_order;

pub(super) async fn apply(
    db: &Db,
    id: &str,
    kind: &str,
    at: OffsetDateTime,
    hold: Option<(String, String)>,
) -> Result<PaymentEventApplied, StoreError> {
    let values = (
        stripe_events::id.eq(id.to_owned()),
        stripe_events::event_type.eq(kind.to_owned()),
        stripe_events::received_at.eq(to_sql_time(at)),
    );
    let now = to_sql_time(at);
    db.transaction(move |conn| {
        Box::pin(async move {
            let new = on!(&mut *conn, |c| diesel::insert_into(stripe_events::table)
                .values(values)
                .on_conflict_do_nothing()
                .execute(c)
                .await)?;
            if new == 0 {
                return Ok(PaymentEventApplied::Repeated);
            }
            let Some((reference, reason)) = hold else {
                return Ok(PaymentEventApplied::New { held: None });
            };
            let found: Option<String> = on!(&mut *conn, |c| orders::table
                .filter(orders::payment_reference.eq(&reference))
                .select(orders::id)
                .first(c)
                .await
                .optional())?;
            let Some(order) = found else {
                return Ok(PaymentEventApplied::New { held: None });
            };
            on!(&mut *conn, |c| diesel::update(
                orders::table.filter(orders::id.eq(&order))
            )
            .set((
                orders::held_reason.eq(Some(reason.clone())),
                orders::updated_at.eq(now),
            ))
            .execute(c)
            .await)?;
            let held = Some(parse_id::<OrderId>("order id", &order)?);
            Ok(PaymentEventApplied::New { held })
        })
    })
    .await
    .map_err(|e| store_error(e, "recording a card processor's event"))
}

pub(super) async fn release_hold(
    db: &Db,
    id: OrderId,
    audit: AuditEntry,
) -> Result<Option<Order>, StoreError> {
    let id = id.to_string();
    db.transaction(move |conn| {
        Box::pin(async move {
            let released = on!(&mut *conn, |c| diesel::update(
                orders::table
                    .filter(orders::id.eq(&id))
                    .filter(orders::held_reason.is_not_null())
            )
            .set(orders::held_reason.eq(None::<String>))
            .execute(c)
            .await)?;
            if released == 0 {
                return Ok(None);
            }
            crate::audit::record(&mut *conn, [&audit]).await?;
            load_order(&mut *conn, &id).await
        })
    })
    .await
    .map_err(|e| store_error(e, "releasing an order's hold"))
}
