//! The placing transaction's own refusals: the estimate an order buys is
//! claimed in the same transaction, and a refused order is told apart as a
//! repeated idempotency key or an estimate ordered already.

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use tonne_ordering::PlaceError;

/// Marks the estimate as bought by `order`, in the order's transaction: only if
/// it is the account's, has no order yet and still has the mass being ordered
/// (a concurrent update changes it). [`claimed`] checks the count it returns.
macro_rules! claim_estimate {
    ($order:expr, $estimate:expr) => {
        crate::db::KeepPrepared::kept(
            diesel::update(
                crate::schema::estimates::table
                    .filter(crate::schema::estimates::id.eq($estimate))
                    .filter(crate::schema::estimates::account_id.eq($order.account_id.to_string()))
                    .filter(crate::schema::estimates::order_id.is_null())
                    .filter(
                        crate::schema::estimates::mass_grams
                            .eq($order.requested_quantity.map(|m| m.grams())),
                    ),
            )
            .set(crate::schema::estimates::order_id.eq($order.id.to_string())),
        )
    };
}
pub(super) use claim_estimate;

/// How many orders of the account hold the order's idempotency key (the
/// count query; `None` when the order has none).
macro_rules! key_count {
    ($order:expr) => {
        $order.idempotency_key.as_ref().map(|key| {
            crate::schema::orders::table
                .filter(crate::schema::orders::account_id.eq($order.account_id.to_string()))
                .filter(crate::schema::orders::idempotency_key.eq(key.as_str().to_owned()))
                .count()
        })
    };
}
pub(super) use key_count;

/// The claim of [`claim_estimate!`] took the estimate; otherwise the whole
/// order rolls back as a unique violation (one order per estimate).
pub(super) fn claimed(claimed: usize) -> QueryResult<()> {
    if claimed == 1 {
        Ok(())
    } else {
        Err(DieselError::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            Box::new(String::from(ESTIMATE_CLAIM_FAILED)),
        ))
    }
}

/// The idempotency key is not taken yet (`count` orders of the account carry
/// it); otherwise the order is refused as a unique violation of the key.
pub(super) fn key_unused(count: i64) -> QueryResult<()> {
    if count == 0 {
        Ok(())
    } else {
        Err(DieselError::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            Box::new(String::from(IDEMPOTENCY_KEY_TAKEN)),
        ))
    }
}

/// The messages of the placing transaction's own refusals (no database message contains them).
pub(super) const ESTIMATE_CLAIM_FAILED: &str = "tonne: the estimate is ordered already or changed";
pub(super) const IDEMPOTENCY_KEY_TAKEN: &str = "tonne: the idempotency key is taken";

/// Which constraint refused an order: the idempotency key's unique index
/// (`orders_idempotency`), the estimate's (`orders_estimate`) or its claim.
pub(super) fn place_error(e: crate::db::DbError, named_estimate: bool) -> PlaceError {
    use diesel::result::DatabaseErrorKind::UniqueViolation;
    match e {
        crate::db::DbError::Query(DieselError::DatabaseError(UniqueViolation, info)) => {
            let message = info.message();
            let constraint = info.constraint_name().unwrap_or_default();
            let estimate = message == ESTIMATE_CLAIM_FAILED
                || constraint == "orders_estimate"
                || message.contains("orders.estimate_id");
            let key = message == IDEMPOTENCY_KEY_TAKEN
                || constraint == "orders_idempotency"
                || message.contains("orders.idempotency_key");
            if key || !(estimate || named_estimate) {
                PlaceError::IdempotencyKeyTaken
            } else {
                PlaceError::EstimateAlreadyOrdered
            }
        }
        other => PlaceError::Unexpected(crate::db::error::unexpected(other, "placing an order")),
    }
}
