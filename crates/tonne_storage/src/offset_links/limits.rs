//! The daily counts behind offset links' limits: one row per link and UTC day,
//! one per link, day and visitor address (hashed). A claim is decided and
//! counted by conditional `UPDATE`s inside one transaction: on PostgreSQL the
//! link-day row's lock, taken by the first update, serialises every claim of
//! the link until commit (a waiting update re-reads the row and re-checks its
//! condition); on SQLite writes are serialised by the store's writer lock and
//! the database's own. So two concurrent claims never both take the last slot.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use tonne_links::{Claim, ClaimOutcome, LimitReached};

use crate::db::Conn;
use crate::schema::{offset_link_days, offset_link_visitor_days};

/// Counts the claim when every limit holds after it; else counts nothing.
pub(super) async fn claim(conn: &mut Conn, claim: &Claim) -> QueryResult<ClaimOutcome> {
    let link = claim.link.to_string();
    let day = claim.day.to_string();
    let visitor = claim.visitor.as_str().to_owned();
    let grams = claim.mass.grams();
    let day_row = (
        offset_link_days::link_id.eq(link.clone()),
        offset_link_days::day.eq(day.clone()),
        offset_link_days::orders.eq(0_i64),
        offset_link_days::grams.eq(0_i64),
    );
    on!(&mut *conn, |c| diesel::insert_into(offset_link_days::table)
        .values(day_row)
        .on_conflict_do_nothing()
        .execute(c)
        .await)?;
    let this_day = offset_link_days::table
        .filter(offset_link_days::link_id.eq(&link))
        .filter(offset_link_days::day.eq(&day));
    let taken = on!(&mut *conn, |c| diesel::update(
        this_day
            .filter(offset_link_days::orders.lt(i64::from(claim.daily_orders)))
            .filter((offset_link_days::grams + grams).le(claim.daily_mass.grams())),
    )
    .set((
        offset_link_days::orders.eq(offset_link_days::orders + 1),
        offset_link_days::grams.eq(offset_link_days::grams + grams),
    ))
    .execute(c)
    .await)?;
    if taken == 0 {
        let orders: i64 = on!(conn, |c| this_day
            .select(offset_link_days::orders)
            .first(c)
            .await)?;
        let reached = if orders >= i64::from(claim.daily_orders) {
            LimitReached::DailyOrders
        } else {
            LimitReached::DailyMass
        };
        return Ok(ClaimOutcome::Refused(reached));
    }
    let visitor_row = (
        offset_link_visitor_days::link_id.eq(link.clone()),
        offset_link_visitor_days::day.eq(day.clone()),
        offset_link_visitor_days::visitor.eq(visitor.clone()),
        offset_link_visitor_days::orders.eq(0_i64),
    );
    on!(&mut *conn, |c| diesel::insert_into(
        offset_link_visitor_days::table
    )
    .values(visitor_row)
    .on_conflict_do_nothing()
    .execute(c)
    .await)?;
    let counted = on!(&mut *conn, |c| diesel::update(
        offset_link_visitor_days::table
            .filter(offset_link_visitor_days::link_id.eq(&link))
            .filter(offset_link_visitor_days::day.eq(&day))
            .filter(offset_link_visitor_days::visitor.eq(&visitor))
            .filter(offset_link_visitor_days::orders.lt(i64::from(claim.visitor_daily_orders))),
    )
    .set(offset_link_visitor_days::orders.eq(offset_link_visitor_days::orders + 1))
    .execute(c)
    .await)?;
    if counted == 0 {
        // the link's day was counted above: give it back in the same transaction
        give_back_day(conn, &link, &day, grams).await?;
        return Ok(ClaimOutcome::Refused(LimitReached::VisitorOrders));
    }
    Ok(ClaimOutcome::Granted)
}

/// Gives a granted claim back (never below zero).
pub(super) async fn release(conn: &mut Conn, claim: &Claim) -> QueryResult<()> {
    let link = claim.link.to_string();
    let day = claim.day.to_string();
    give_back_day(&mut *conn, &link, &day, claim.mass.grams()).await?;
    on!(conn, |c| diesel::update(
        offset_link_visitor_days::table
            .filter(offset_link_visitor_days::link_id.eq(&link))
            .filter(offset_link_visitor_days::day.eq(&day))
            .filter(offset_link_visitor_days::visitor.eq(claim.visitor.as_str()))
            .filter(offset_link_visitor_days::orders.gt(0_i64)),
    )
    .set(offset_link_visitor_days::orders.eq(offset_link_visitor_days::orders - 1))
    .execute(c)
    .await)?;
    Ok(())
}

async fn give_back_day(conn: &mut Conn, link: &str, day: &str, grams: i64) -> QueryResult<()> {
    on!(conn, |c| diesel::update(
        offset_link_days::table
            .filter(offset_link_days::link_id.eq(link))
            .filter(offset_link_days::day.eq(day))
            .filter(offset_link_days::orders.gt(0_i64))
            .filter(offset_link_days::grams.ge(grams)),
    )
    .set((
        offset_link_days::orders.eq(offset_link_days::orders - 1),
        offset_link_days::grams.eq(offset_link_days::grams - grams),
    ))
    .execute(c)
    .await)?;
    Ok(())
}
