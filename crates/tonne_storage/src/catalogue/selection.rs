//! An account's bundle selection with its bundles: what every quote, order
//! and estimate's offer is shared out over, so it is read on every such
//! request.
//!
//! Its five statements (the account's own selection, else its portfolio's;
//! then the bundles, their prices and their projects) depend on one another
//! only in two steps. On PostgreSQL each step's statements are sent together
//! with `load!` on the thread's pipelined connection (two waits for
//! PostgreSQL instead of five, and no blocking thread); on SQLite the five
//! run one after the other in one unit of work (`Db::query`, one blocking
//! call), which costs less there than a blocking call each.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use tonne_ordering::Bundle;

use super::rows::{BundleRow, MemberRow, PriceRow, assemble_bundles, load_bundles};
use crate::db::{Backend, Conn, Db, DbError};

/// A `(bundle_id, share)` row.
type Share = (String, i32);

/// `(bundle_id, share)` rows in the selection's order.
type Chosen = Vec<Share>;

/// The rows of one `load!`.
type Read<R> = Result<Vec<R>, DbError>;

/// The account's own selection.
macro_rules! own_selection {
    ($account:expr) => {{
        use crate::schema::account_bundle_selections as s;
        s::table
            .filter(s::account_id.eq($account))
            .order(s::position.asc())
            .select((s::bundle_id, s::share))
    }};
}

/// The selection of the portfolio the account follows (none when it follows
/// none, or its id names no portfolio).
macro_rules! portfolio_selection {
    ($account:expr) => {{
        use crate::schema::{accounts as a, bundle_portfolio_bundles as p};
        a::table
            .inner_join(p::table.on(a::bundle_portfolio_id.eq(p::portfolio_id.nullable())))
            .filter(a::id.eq($account))
            .order(p::position.asc())
            .select((p::bundle_id, p::share))
    }};
}

/// The account's selection: its own if it has one, else its portfolio's;
/// each bundle with its share, in the selection's order (a bundle that no
/// longer exists is left out).
pub(super) async fn of_account(db: &Db, account: String) -> Result<Vec<(Bundle, u32)>, DbError> {
    match db.backend() {
        Backend::Postgres => pipelined(db, account).await,
        Backend::Sqlite => {
            db.query(move |conn| Box::pin(async move { in_turn(conn, &account).await }))
                .await
        }
    }
}

async fn pipelined(db: &Db, account: String) -> Result<Vec<(Bundle, u32)>, DbError> {
    let other = account.clone();
    let (own, portfolio): (Read<Share>, Read<Share>) = tokio::join!(
        load!(db, (account) => own_selection!(account)),
        load!(db, (other) => portfolio_selection!(other)),
    );
    let own = own?;
    let chosen = if own.is_empty() { portfolio? } else { own };
    if chosen.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<String> = chosen.iter().map(|(id, _)| id.clone()).collect();
    let (for_prices, for_projects) = (ids.clone(), ids.clone());
    let (rows, prices, members): (Read<BundleRow>, Read<PriceRow>, Read<MemberRow>) = tokio::join!(
        load!(db, (ids) => bundles_by_id!(ids)),
        load!(db, (for_prices) => prices_of_bundles!(for_prices)),
        load!(db, (for_projects) => projects_of_bundles!(for_projects)),
    );
    let found = assemble_bundles(rows?, prices?, members?)?;
    Ok(in_order(chosen, found))
}

/// The five statements one after the other, on one connection.
async fn in_turn(conn: &mut Conn, account: &str) -> QueryResult<Vec<(Bundle, u32)>> {
    let mut chosen: Chosen = on!(&mut *conn, |c| own_selection!(account).load(c).await)?;
    if chosen.is_empty() {
        chosen = on!(&mut *conn, |c| portfolio_selection!(account).load(c).await)?;
    }
    if chosen.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<String> = chosen.iter().map(|(id, _)| id.clone()).collect();
    let rows: Vec<BundleRow> = on!(&mut *conn, |c| bundles_by_id!(&ids).load(c).await)?;
    let found = load_bundles(conn, rows).await?;
    Ok(in_order(chosen, found))
}

/// The chosen bundles with their shares, in the selection's order.
fn in_order(chosen: Chosen, found: Vec<Bundle>) -> Vec<(Bundle, u32)> {
    chosen
        .into_iter()
        .filter_map(|(id, share)| {
            let bundle = found.iter().find(|b| b.id.to_string() == id)?.clone();
            Some((bundle, u32::try_from(share).unwrap_or(0)))
        })
        .collect()
}
