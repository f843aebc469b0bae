//! A new estimate and its daily count in one statement, on PostgreSQL.
//!
//! Storing an estimate also counts it in `estimate_daily_counts` (the impact
//! domain's figures, `impact::rollups`). As a transaction that is four waits
//! for PostgreSQL (`BEGIN`, the insert, the count, `COMMIT`), the count's row
//! locked from its upsert until the client's `COMMIT` arrives — and every
//! estimate of one account on one day wants that row. As one statement (a
//! data-modifying `WITH`) it commits by itself: one wait, the row locked only
//! while PostgreSQL runs the statement and flushes its commit, and it can be
//! sent on the thread's pipelined connection. The statement is a type of its
//! own (not raw SQL) so that it is prepared once per connection and reused.

use std::sync::Arc;

use diesel::QueryResult;
use diesel::pg::Pg;
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::sql_types::{BigInt, Bool, Nullable, Text, Timestamp};

use super::rows::EstimateRow;
use crate::impact::rollups;

/// Inserts one estimate and adds it to its account's count of the day.
pub(super) struct CountedInsert {
    /// One row (shared with the transaction that SQLite runs instead).
    rows: Arc<[EstimateRow]>,
    day: String,
    grams: i64,
}

impl CountedInsert {
    /// The statement when `rows` is one row.
    pub(super) fn of_one(rows: &Arc<[EstimateRow]>) -> Option<Self> {
        let [row] = &**rows else { return None };
        let counted = super::counted(row);
        let day = rollups::day_text(counted.created_at.date());
        let grams = counted.grams;
        Some(Self {
            rows: Arc::clone(rows),
            day,
            grams,
        })
    }
}

impl QueryId for CountedInsert {
    type QueryId = Self;
    const HAS_STATIC_QUERY_ID: bool = true;
}

/// Pushes bind parameters separated by commas.
macro_rules! binds {
    ($out:ident, $first_type:ty => $first:expr $(, $type:ty => $value:expr)* $(,)?) => {
        $out.push_bind_param::<$first_type, _>($first)?;
        $(
            $out.push_sql(", ");
            $out.push_bind_param::<$type, _>($value)?;
        )*
    };
}

impl QueryFragment<Pg> for CountedInsert {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        let [r] = &*self.rows else {
            return Err(diesel::result::Error::QueryBuilderError(
                "a counted insert is of one row".into(),
            ));
        };
        out.push_sql(
            "WITH inserted AS (INSERT INTO estimates (id, account_id, kind, mass_grams, \
             request, result, order_id, created_at, updated_at, idempotency_key, metadata, \
             actual, occurred_at) VALUES (",
        );
        binds!(out,
            Text => &r.id,
            Text => &r.account_id,
            Text => &r.kind,
            Nullable<BigInt> => &r.mass_grams,
            Text => &r.request,
            Text => &r.result,
            Nullable<Text> => &r.order_id,
            Timestamp => &r.created_at,
            Timestamp => &r.updated_at,
            Nullable<Text> => &r.idempotency_key,
            Text => &r.metadata,
            Nullable<Bool> => &r.actual,
            Nullable<Timestamp> => &r.occurred_at,
        );
        out.push_sql(
            ") RETURNING account_id, kind) \
             INSERT INTO estimate_daily_counts (account_id, day, kind, estimates, mass_grams) \
             SELECT account_id, ",
        );
        binds!(out, Text => &self.day);
        out.push_sql(", kind, 1, ");
        binds!(out, BigInt => &self.grams);
        out.push_sql(
            " FROM inserted ON CONFLICT (account_id, day, kind) DO UPDATE SET \
             estimates = estimate_daily_counts.estimates + 1, \
             mass_grams = estimate_daily_counts.mass_grams + EXCLUDED.mass_grams",
        );
        Ok(())
    }
}
