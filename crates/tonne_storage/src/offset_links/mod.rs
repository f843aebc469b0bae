//! Offset links, the bundles they offer, their visitors, and the orders placed through them.

use std::collections::{BTreeMap, HashMap};

use async_trait::async_trait;
use diesel::dsl::count_star;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::RunQueryDsl;
use time::{Date, PrimitiveDateTime};
use tonne_kernel::{AccountId, AuditEntry, Cursor, Mass, Page, PageRequest, StoreError};
use tonne_links::ports::OffsetLinkRepository;
use tonne_links::{
    Claim, ClaimOutcome, DailyFigures, LinkOrder, OffsetLink, OffsetLinkId, VisitorHash,
};
use tonne_ordering::{OrderId, OrderStatus};

use crate::db::error::store_error;
use crate::db::{Conn, Db};
use crate::mapping::{from_sql_time, parse_id, to_sql_time};
use crate::schema::{offset_link_visits, offset_links, order_lines, orders};

mod limits;
mod pay;
mod rows;

use rows::{LinkRow, day_of, link_row, load_links, write_bundles};

/// Offset links on either backend.
#[derive(Debug, Clone)]
pub struct OffsetLinkStore {
    db: Db,
}

impl OffsetLinkStore {
    /// A repository over a pool.
    pub fn new(db: Db) -> Self {
        Self { db }
    }
}

#[async_trait]
impl OffsetLinkRepository for OffsetLinkStore {
    async fn insert(&self, link: &OffsetLink, audit: Option<AuditEntry>) -> Result<(), StoreError> {
        let link = link.clone();
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    on!(&mut *conn, |c| diesel::insert_into(offset_links::table)
                        .values(link_row(&link))
                        .execute(c)
                        .await)?;
                    write_bundles(conn, &link).await?;
                    crate::audit::record(conn, &audit).await
                })
            })
            .await
            .map_err(|e| store_error(e, "inserting an offset link"))
    }

    async fn get(&self, id: OffsetLinkId) -> Result<Option<OffsetLink>, StoreError> {
        let id = id.to_string();
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let rows: Vec<LinkRow> = on!(&mut *conn, |c| offset_links::table
                        .filter(offset_links::id.eq(&id))
                        .select(LinkRow::as_select())
                        .load(c)
                        .await)?;
                    Ok(load_links(conn, rows).await?.pop())
                })
            })
            .await
            .map_err(|e| store_error(e, "reading an offset link"))
    }

    async fn list(
        &self,
        account: AccountId,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<OffsetLink>, StoreError> {
        let account = account.to_string();
        let (after, limit) = crate::mapping::keyset(page);
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let cursor = page_position!(&mut *conn, offset_links, &after, &account);
                    let rows: Vec<LinkRow> = on!(&mut *conn, |c| {
                        let q = offset_links::table
                            .filter(offset_links::account_id.eq(&account))
                            .select(LinkRow::as_select())
                            .into_boxed();
                        newest_first_page!(q, offset_links, &cursor, limit, c)
                    })?;
                    Ok(Page::from_overfetch(load_links(conn, rows).await?, limit))
                })
            })
            .await
            .map_err(|e| store_error(e, "listing offset links"))
    }

    async fn update(&self, link: &OffsetLink, audit: Option<AuditEntry>) -> Result<(), StoreError> {
        let link = link.clone();
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    let row = link_row(&link);
                    let changed = on!(&mut *conn, |c| diesel::update(
                        offset_links::table.find(&row.id)
                    )
                    .set(&row)
                    .execute(c)
                    .await)?;
                    if changed == 0 {
                        return Err(DieselError::NotFound);
                    }
                    write_bundles(conn, &link).await?;
                    crate::audit::record(conn, &audit).await
                })
            })
            .await
            .map_err(|e| store_error(e, "updating an offset link"))
    }

    async fn record_visit(
        &self,
        link: OffsetLinkId,
        day: Date,
        visitor: &VisitorHash,
    ) -> Result<(), StoreError> {
        let values = (
            offset_link_visits::link_id.eq(link.to_string()),
            offset_link_visits::day.eq(day.to_string()),
            offset_link_visits::visitor.eq(visitor.as_str().to_owned()),
        );
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    on!(conn, |c| diesel::insert_into(offset_link_visits::table)
                        .values(values)
                        .on_conflict_do_nothing()
                        .execute(c)
                        .await)
                    .map(drop)
                })
            })
            .await
            .map_err(|e| store_error(e, "counting a visitor"))
    }

    async fn totals(&self, link: OffsetLinkId) -> Result<(u64, u64), StoreError> {
        let link = link.to_string();
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let visitors = offset_link_visits::table
                        .filter(offset_link_visits::link_id.eq(&link))
                        .select(count_star());
                    let orders = orders::table
                        .filter(orders::offset_link_id.eq(&link))
                        .select(count_star());
                    let (visitors, orders): (i64, i64) = match conn {
                        // Two independent counts: sent together, one round trip.
                        Conn::Pg(c) => {
                            let c: &diesel_async::AsyncPgConnection = c;
                            crate::db::sent_together!(
                                visitors.first(&mut &*c),
                                orders.first(&mut &*c),
                            )?
                        }
                        Conn::Sqlite(c) => {
                            let c: &mut crate::db::SqliteConn = c;
                            (visitors.first(c).await?, orders.first(c).await?)
                        }
                    };
                    Ok((
                        u64::try_from(visitors).unwrap_or(0),
                        u64::try_from(orders).unwrap_or(0),
                    ))
                })
            })
            .await
            .map_err(|e| store_error(e, "counting an offset link's visitors and orders"))
    }

    async fn orders(&self, link: OffsetLinkId, limit: u32) -> Result<Vec<LinkOrder>, StoreError> {
        let link = link.to_string();
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let rows: Vec<(String, PrimitiveDateTime, Option<String>, i64)> =
                        on!(&mut *conn, |c| orders::table
                            .filter(orders::offset_link_id.eq(&link))
                            .order((orders::created_at.desc(), orders::id.desc()))
                            .limit(i64::from(limit))
                            .select((
                                orders::id,
                                orders::created_at,
                                orders::email,
                                orders::quantity_grams,
                            ))
                            .load(c)
                            .await)?;
                    if rows.is_empty() {
                        return Ok(Vec::new());
                    }
                    let ids: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
                    let lines: Vec<(String, String, String)> = on!(conn, |c| order_lines::table
                        .filter(order_lines::order_id.eq_any(&ids))
                        .order((order_lines::order_id, order_lines::position))
                        .select((
                            order_lines::order_id,
                            order_lines::bundle_id,
                            order_lines::bundle_name,
                        ))
                        .load(c)
                        .await)?;
                    let mut by_order: HashMap<String, Vec<(String, String)>> = HashMap::new();
                    for (order, bundle, name) in lines {
                        by_order.entry(order).or_default().push((bundle, name));
                    }
                    Ok(rows
                        .into_iter()
                        .map(|(id, at, email, grams)| LinkOrder {
                            bundles: by_order.remove(&id).unwrap_or_default(),
                            order_id: id,
                            created_at: from_sql_time(at),
                            email: email.unwrap_or_default(),
                            quantity: Mass::from_grams(grams),
                        })
                        .collect())
                })
            })
            .await
            .map_err(|e| store_error(e, "reading an offset link's orders"))
    }

    async fn daily(&self, link: OffsetLinkId) -> Result<Vec<DailyFigures>, StoreError> {
        let link = link.to_string();
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let visits = offset_link_visits::table
                        .filter(offset_link_visits::link_id.eq(&link))
                        .group_by(offset_link_visits::day)
                        .select((offset_link_visits::day, count_star()));
                    let placed = orders::table
                        .filter(orders::offset_link_id.eq(&link))
                        .select((orders::created_at, orders::quantity_grams));
                    type Visits = Vec<(String, i64)>;
                    type Placed = Vec<(PrimitiveDateTime, i64)>;
                    let (visits, placed): (Visits, Placed) = match conn {
                        // Two independent reads: sent together, one round trip.
                        Conn::Pg(c) => {
                            let c: &diesel_async::AsyncPgConnection = c;
                            crate::db::sent_together!(visits.load(&mut &*c), placed.load(&mut &*c),)?
                        }
                        Conn::Sqlite(c) => {
                            let c: &mut crate::db::SqliteConn = c;
                            (visits.load(c).await?, placed.load(c).await?)
                        }
                    };
                    let mut days: BTreeMap<Date, DailyFigures> = BTreeMap::new();
                    let blank = |day| DailyFigures {
                        day,
                        visitors: 0,
                        orders: 0,
                        quantity: Mass::from_grams(0),
                    };
                    for (day, n) in visits {
                        let day = day_of(&day)?;
                        days.entry(day).or_insert_with(|| blank(day)).visitors =
                            u64::try_from(n).unwrap_or(0);
                    }
                    for (at, grams) in placed {
                        let day = at.date();
                        let f = days.entry(day).or_insert_with(|| blank(day));
                        f.orders += 1;
                        f.quantity = Mass::from_grams(f.quantity.grams().saturating_add(grams));
                    }
                    Ok(days.into_values().collect())
                })
            })
            .await
            .map_err(|e| store_error(e, "reading an offset link's daily figures"))
    }

    async fn claim(&self, claim: &Claim) -> Result<ClaimOutcome, StoreError> {
        let claim = claim.clone();
        self.db
            .transaction(move |conn| Box::pin(async move { limits::claim(conn, &claim).await }))
            .await
            .map_err(|e| store_error(e, "counting a hosted-page order against its limits"))
    }

    async fn release(&self, claim: &Claim) -> Result<(), StoreError> {
        let claim = claim.clone();
        self.db
            .transaction(move |conn| Box::pin(async move { limits::release(conn, &claim).await }))
            .await
            .map_err(|e| store_error(e, "giving back a hosted-page order's count"))
    }

    async fn pay_origins(&self, account: AccountId) -> Result<Vec<String>, StoreError> {
        pay::origins(&self.db, account).await
    }

    async fn set_pay_origins(
        &self,
        account: AccountId,
        origins: &[String],
    ) -> Result<(), StoreError> {
        pay::set_origins(&self.db, account, origins).await
    }

    async fn record_temporary_id(
        &self,
        temporary_id: uuid::Uuid,
        order: OrderId,
        at: time::OffsetDateTime,
    ) -> Result<uuid::Uuid, StoreError> {
        pay::record(&self.db, temporary_id, order, at).await
    }

    async fn order_by_temporary_id(
        &self,
        temporary_id: uuid::Uuid,
        since: time::OffsetDateTime,
    ) -> Result<Option<OrderId>, StoreError> {
        pay::order_of(&self.db, temporary_id, since).await
    }

    async fn unconfirmed_orders(
        &self,
        placed_before: time::OffsetDateTime,
        limit: u32,
    ) -> Result<Vec<OrderId>, StoreError> {
        let before = to_sql_time(placed_before);
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    // the partial index `orders_link_unconfirmed` matches this predicate
                    let ids: Vec<String> = on!(conn, |c| orders::table
                        .filter(orders::offset_link_id.is_not_null())
                        .filter(orders::status.eq(OrderStatus::Received.as_str()))
                        .filter(orders::created_at.lt(before))
                        .order((orders::created_at, orders::id))
                        .limit(i64::from(limit))
                        .select(orders::id)
                        .load(c)
                        .await)?;
                    ids.iter()
                        .map(|id| parse_id::<OrderId>("order id", id))
                        .collect()
                })
            })
            .await
            .map_err(|e| store_error(e, "finding unconfirmed hosted-page orders"))
    }
}
