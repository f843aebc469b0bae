//! Statements kept prepared on their connection, keyed by their SQL text.
//!
//! Diesel keeps a statement prepared only when its SQL cannot vary with its
//! values: an `UPDATE` (its changeset may skip `None` fields), an upsert, an
//! insert with an optional column (`DEFAULT`), a multi-row insert and raw SQL
//! are prepared afresh for each execution. On PostgreSQL, diesel-async then
//! sends the prepare in a round trip of its own, under the connection's
//! statement-cache lock, so statements meant to go out together in one round
//! trip queue behind each other's prepares. Most of an order's writes are of
//! these kinds.
//!
//! [`KeepPrepared::kept`] marks such a statement as safe to keep: the cache
//! then keys it by its SQL text and bind types (not by its Rust type), which
//! is correct whatever values shaped the text. The cache is unbounded, so only
//! statements with a bounded number of texts may be marked: a fixed changeset,
//! a fixed upsert, raw SQL of fixed text, or a multi-row insert whose row
//! count is bounded (an order's lines, at most one per catalogue bundle).

use diesel::backend::Backend;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::result::QueryResult;

/// A statement marked by [`KeepPrepared::kept`].
#[derive(Debug, Clone, Copy)]
#[must_use = "a statement does nothing until it is run"]
pub(crate) struct Kept<Q>(Q);

impl<Q, DB> QueryFragment<DB> for Kept<Q>
where
    DB: Backend,
    Q: QueryFragment<DB>,
{
    fn walk_ast<'b>(&'b self, pass: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        self.0.walk_ast(pass)
    }

    fn is_safe_to_cache_prepared(&self, _backend: &DB) -> QueryResult<bool> {
        Ok(true)
    }
}

/// No static identity: the cache keys the statement by its SQL text.
impl<Q> QueryId for Kept<Q> {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<Q: Query> Query for Kept<Q> {
    type SqlType = Q::SqlType;
}

/// Marks a statement as safe to keep prepared (see the module's note on
/// which statements may be marked).
pub(crate) trait KeepPrepared: Sized {
    /// The statement, kept prepared on its connection by its SQL text.
    fn kept(self) -> Kept<Self> {
        Kept(self)
    }
}

impl<Q> KeepPrepared for Q {}

#[cfg(test)]
mod tests {
    use super::*;
    use diesel::sqlite::Sqlite;

    diesel::table! {
        things (id) {
            id -> Integer,
            name -> Nullable<Text>,
        }
    }

    #[test]
    fn an_update_is_not_kept_by_diesel_but_is_once_marked() {
        use diesel::prelude::*;
        let update =
            diesel::update(things::table.filter(things::id.eq(1))).set(things::name.eq(Some("a")));
        assert!(!update.is_safe_to_cache_prepared(&Sqlite).unwrap());
        let text = diesel::debug_query::<Sqlite, _>(&update).to_string();
        let kept = update.kept();
        assert!(kept.is_safe_to_cache_prepared(&Sqlite).unwrap());
        assert_eq!(
            diesel::debug_query::<Sqlite, _>(&kept).to_string(),
            text,
            "the text is the statement's own"
        );
    }

    /// On PostgreSQL (`TONNE_TEST_POSTGRES_URL`; skipped without it unless
    /// `CI=true`): a marked update stays prepared on its connection after two
    /// executions (one prepare), an unmarked one is prepared and closed again
    /// each time.
    #[tokio::test]
    async fn a_kept_update_is_prepared_once_on_postgres() {
        use diesel::prelude::*;
        use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
        let Some(url) = tonne_test_support::postgres_url() else {
            assert!(
                !tonne_test_support::require_postgres(),
                "CI=true but TONNE_TEST_POSTGRES_URL is not set"
            );
            eprintln!("note: TONNE_TEST_POSTGRES_URL is not set; skipped");
            return;
        };
        diesel::table! {
            kept_things (id) {
                id -> Integer,
                name -> Nullable<Text>,
            }
        }
        let mut c = AsyncPgConnection::establish(&url).await.expect("connect");
        diesel::sql_query("CREATE TEMPORARY TABLE kept_things (id INTEGER PRIMARY KEY, name TEXT)")
            .execute(&mut c)
            .await
            .expect("a session's own table");
        diesel::sql_query("INSERT INTO kept_things VALUES (1, NULL)")
            .execute(&mut c)
            .await
            .expect("a row");
        let prepared = |text: &'static str| {
            diesel::sql_query(
                "SELECT count(*) AS n FROM pg_prepared_statements WHERE statement LIKE $1",
            )
            .bind::<diesel::sql_types::Text, _>(text)
        };
        #[derive(QueryableByName)]
        struct Count {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            n: i64,
        }
        for name in ["a", "b"] {
            diesel::update(kept_things::table.filter(kept_things::id.eq(1)))
                .set(kept_things::name.eq(Some(name)))
                .kept()
                .execute(&mut c)
                .await
                .expect("kept update");
            diesel::update(kept_things::table.filter(kept_things::id.eq(1)))
                .set(kept_things::id.eq(1))
                .execute(&mut c)
                .await
                .expect("unmarked update");
        }
        let kept = prepared("UPDATE \"kept_things\" SET \"name\"%")
            .get_result::<Count>(&mut c)
            .await
            .expect("count")
            .n;
        let unmarked = prepared("UPDATE \"kept_things\" SET \"id\"%")
            .get_result::<Count>(&mut c)
            .await
            .expect("count")
            .n;
        assert_eq!(
            (kept, unmarked),
            (1, 0),
            "kept once, unmarked closed after use"
        );
    }
}
