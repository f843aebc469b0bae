//! Failed sign-ins, kept to slow down guessing: counted per email and per
//! address over a window, recorded, cleared on success.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use tonne_accounts::users::{AttemptSource, RecentFailures, SignInFailure, TokenHash};
use tonne_kernel::StoreError;

use crate::db::error::store_error;
use crate::db::{Conn, Db};
use crate::mapping::{from_sql_time, to_sql_time};
use crate::schema::sign_in_failures as failures;

pub(super) async fn recent_sign_in_failures(
    db: &Db,
    email: &TokenHash,
    source: &AttemptSource,
    since: OffsetDateTime,
    most: usize,
) -> Result<RecentFailures, StoreError> {
    let email = email.as_str().to_owned();
    let address = source.address().to_owned();
    let network = source.network().to_owned();
    let since = to_sql_time(since);
    let most = i64::try_from(most).unwrap_or(i64::MAX);
    db.query(move |conn| {
        Box::pin(async move {
            let newest = failures::table
                .filter(failures::at.ge(since))
                .order(failures::at.desc())
                .limit(most)
                .select(failures::at);
            let times = |rows: Vec<time::PrimitiveDateTime>| {
                rows.into_iter().map(from_sql_time).collect::<Vec<_>>()
            };
            let pair = newest
                .filter(failures::email_hash.eq(&email))
                .filter(failures::address.eq(&address));
            let by_email = newest.filter(failures::email_hash.eq(&email));
            let by_network = newest.filter(failures::network.eq(&network));
            let (pair, by_email, by_network) = match conn {
                // Three independent reads: sent together, one round trip.
                Conn::Pg(c) => {
                    let c: &diesel_async::AsyncPgConnection = c;
                    crate::db::sent_together!(
                        pair.load(&mut &*c),
                        by_email.load(&mut &*c),
                        by_network.load(&mut &*c),
                    )?
                }
                Conn::Sqlite(c) => {
                    let c: &mut crate::db::SqliteConn = c;
                    (
                        pair.load(c).await?,
                        by_email.load(c).await?,
                        by_network.load(c).await?,
                    )
                }
            };
            Ok(RecentFailures {
                pair: times(pair),
                email: times(by_email),
                network: times(by_network),
            })
        })
    })
    .await
    .map_err(|e| store_error(e, "reading failed sign-ins"))
}

pub(super) async fn record_sign_in_failure(
    db: &Db,
    failure: &SignInFailure,
    forget_before: OffsetDateTime,
) -> Result<(), StoreError> {
    let row = (
        failures::email_hash.eq(failure.email.as_str().to_owned()),
        failures::address.eq(failure.source.address().to_owned()),
        failures::network.eq(failure.source.network().to_owned()),
        failures::at.eq(to_sql_time(failure.at)),
    );
    let forget_before = to_sql_time(forget_before);
    db.transaction(move |conn| {
        Box::pin(async move {
            on!(&mut *conn, |c| diesel::insert_into(failures::table)
                .values(row)
                .execute(c)
                .await)?;
            on!(conn, |c| diesel::delete(
                failures::table.filter(failures::at.lt(forget_before))
            )
            .execute(c)
            .await)
            .map(drop)
        })
    })
    .await
    .map_err(|e| store_error(e, "recording a failed sign-in"))
}

pub(super) async fn clear_sign_in_failures(
    db: &Db,
    email: &TokenHash,
    source: &AttemptSource,
) -> Result<(), StoreError> {
    let email = email.as_str().to_owned();
    let address = source.address().to_owned();
    db.transaction(move |conn| {
        Box::pin(async move {
            on!(conn, |c| diesel::delete(
                failures::table
                    .filter(failures::email_hash.eq(email))
                    .filter(failures::address.eq(address)),
            )
            .execute(c)
            .await)
            .map(drop)
        })
    })
    .await
    .map_err(|e| store_error(e, "forgetting failed sign-ins"))
}
