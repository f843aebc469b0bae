//! Orders on either backend: the repository, with its rows (`rows`), reads
//! (`read`), stock reservations (`reservations`) and placing refusals
//! (`placing`) in rooms of their own. The event outbox (`outbox`) and the
//! impact domain's daily figures (`impact::rollups`) are written in the same
//! transactions.

mod placing;
mod read;
mod reservations;
mod rows;

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use time::{OffsetDateTime, PrimitiveDateTime};
use tonne_kernel::{
    AccountId, AccountMode, AuditEntry, Cursor, OrganisationId, Page, PageRequest, StoreError,
};
use tonne_ordering::ports::OrderRepository;
use tonne_ordering::{
    AllocationEvent, AwaitingFilter, IdempotencyKey, NewEvent, Order, OrderId, OrderStats,
    OrderStatus, PlaceError, ProjectAllocation, RetirementRecord,
};

use crate::db::Db;
use crate::db::error::store_error;
use crate::impact::rollups;
use crate::mapping::to_sql_time;
use crate::outbox::{append_allocation_events, append_event};
use crate::schema::{order_lines, order_projects, orders};

use placing::{IDEMPOTENCY_KEY_TAKEN, claim_estimate, place_error};
use read::{load_order, load_orders, newest_first};
use reservations::{release, reserve};
use rows::{OrderRow, line_rows, order_row, project_rows};

/// Orders and their outbox on either backend.
#[derive(Debug, Clone)]
pub struct OrderStore {
    db: Db,
}

impl OrderStore {
    /// A repository over a pool.
    pub fn new(db: Db) -> Self {
        Self { db }
    }
}

#[async_trait]
impl OrderRepository for OrderStore {
    async fn place(&self, order: &Order, event: NewEvent) -> Result<Order, PlaceError> {
        let mut order = order.clone();
        let named_estimate = order.estimate_id.is_some();
        self.db
            .write(move |conn| {
                // A repeated key is answered as such even when the estimate it
                // names is taken too; the unique index stays the arbiter of races.
                if let Some(key) = &order.idempotency_key {
                    let taken: i64 = orders::table
                        .filter(orders::account_id.eq(order.account_id.to_string()))
                        .filter(orders::idempotency_key.eq(key.as_str()))
                        .count()
                        .get_result(conn)?;
                    if taken > 0 {
                        return Err(DieselError::DatabaseError(
                            diesel::result::DatabaseErrorKind::UniqueViolation,
                            Box::new(String::from(IDEMPOTENCY_KEY_TAKEN)),
                        ));
                    }
                }
                let wanted: Vec<(String, i64)> = order
                    .lines
                    .iter()
                    .map(|l| (l.bundle_id.to_string(), l.quantity.grams()))
                    .collect();
                let covered = reserve(conn, &wanted)?;
                for (line, covered) in order.lines.iter_mut().zip(covered) {
                    line.insufficient_available_quantity = !covered;
                }
                diesel::insert_into(orders::table)
                    .values(&order_row(&order)?)
                    .execute(conn)?;
                if let Some(estimate) = order.estimate_id {
                    claim_estimate(conn, &order, &estimate.to_string())?;
                }
                // All lines in one statement (a batch insert is not in Diesel's
                // multi-backend dialect: it runs on the concrete connection).
                let lines = line_rows(&order);
                if !lines.is_empty() {
                    let insert = diesel::insert_into(order_lines::table).values(&lines);
                    on_conn!(conn, |c| insert.execute(c))?;
                }
                append_event(conn, &order, &event)?;
                rollups::order_placed(conn, &order)?;
                Ok(order)
            })
            .await
            .map_err(|e| place_error(e, named_estimate))
    }

    async fn get(&self, id: OrderId) -> Result<Option<Order>, StoreError> {
        let id = id.to_string();
        self.db
            .read(move |conn| load_order(conn, &id))
            .await
            .map_err(|e| store_error(e, "reading an order"))
    }

    async fn by_idempotency_key(
        &self,
        account: AccountId,
        key: &IdempotencyKey,
    ) -> Result<Option<Order>, StoreError> {
        let account = account.to_string();
        let key = key.as_str().to_owned();
        self.db
            .read(move |conn| {
                let rows: Vec<OrderRow> = orders::table
                    .filter(orders::account_id.eq(account))
                    .filter(orders::idempotency_key.eq(key))
                    .select(OrderRow::as_select())
                    .load(conn)?;
                Ok(load_orders(conn, rows)?.into_iter().next())
            })
            .await
            .map_err(|e| store_error(e, "reading an order by idempotency key"))
    }

    async fn list(
        &self,
        account: AccountId,
        offset_link_id: Option<String>,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Order>, StoreError> {
        let account = account.to_string();
        let after = page.after.as_ref().map(|c| c.as_str().to_owned());
        let limit = page.limit;
        self.db
            .read(move |conn| {
                let position: Option<(PrimitiveDateTime, String)> = match after {
                    None => None,
                    Some(after) => Some(
                        orders::table
                            .filter(orders::id.eq(&after))
                            .filter(orders::account_id.eq(&account))
                            .select((orders::created_at, orders::id))
                            .first(conn)?,
                    ),
                };
                let mut q = orders::table
                    .filter(orders::account_id.eq(&account))
                    .select(OrderRow::as_select())
                    .into_boxed();
                if let Some(link) = offset_link_id {
                    q = q.filter(orders::offset_link_id.eq(link));
                }
                if let Some((at, id)) = position {
                    // `created_at <= at` bounds the index range scan; the OR only
                    // breaks ties at the boundary, so a deep page costs what the
                    // first one does.
                    q = q
                        .filter(orders::created_at.le(at))
                        .filter(orders::created_at.lt(at).or(orders::id.lt(id)));
                }
                let rows: Vec<OrderRow> = q
                    .order((orders::created_at.desc(), orders::id.desc()))
                    .limit(i64::from(limit.get()) + 1)
                    .load(conn)?;
                Ok(Page::from_overfetch(load_orders(conn, rows)?, limit))
            })
            .await
            .map_err(|e| store_error(e, "listing orders"))
    }

    async fn awaiting(
        &self,
        filter: AwaitingFilter,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Order>, StoreError> {
        let statuses: Vec<&'static str> = filter.statuses().iter().map(|s| s.as_str()).collect();
        let organisation = filter.organisation.map(|o| o.to_string());
        let after = page.after.as_ref().map(|c| c.as_str().to_owned());
        let limit = page.limit;
        self.db
            .read(move |conn| {
                // The partial index `orders_awaiting` matches this predicate exactly.
                let queue = || {
                    let mut q = orders::table
                        .filter(orders::mode.eq("live"))
                        .filter(orders::status.eq_any(statuses.clone()))
                        .into_boxed();
                    if let Some(o) = &organisation {
                        q = q.filter(
                            orders::account_id.eq_any(
                                crate::schema::accounts::table
                                    .filter(crate::schema::accounts::organisation_id.eq(o.clone()))
                                    .select(crate::schema::accounts::id),
                            ),
                        );
                    }
                    q
                };
                newest_first(conn, queue, after, limit)
            })
            .await
            .map_err(|e| store_error(e, "listing the orders awaiting action"))
    }

    async fn of_organisation(
        &self,
        organisation: OrganisationId,
        mode: AccountMode,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Order>, StoreError> {
        let organisation = organisation.to_string();
        let mode = mode.as_str();
        let after = page.after.as_ref().map(|c| c.as_str().to_owned());
        let limit = page.limit;
        self.db
            .read(move |conn| {
                let mine = || {
                    orders::table
                        .filter(orders::mode.eq(mode))
                        .filter(
                            orders::account_id.eq_any(
                                crate::schema::accounts::table
                                    .filter(
                                        crate::schema::accounts::organisation_id
                                            .eq(organisation.clone()),
                                    )
                                    .select(crate::schema::accounts::id),
                            ),
                        )
                        .into_boxed()
                };
                newest_first(conn, mine, after, limit)
            })
            .await
            .map_err(|e| store_error(e, "listing an organisation's orders"))
    }

    async fn in_organisation(
        &self,
        organisation: OrganisationId,
        id: OrderId,
    ) -> Result<Option<Order>, StoreError> {
        let (organisation, id) = (organisation.to_string(), id.to_string());
        self.db
            .read(move |conn| {
                let rows: Vec<OrderRow> = orders::table
                    .filter(orders::id.eq(id))
                    .filter(
                        orders::account_id.eq_any(
                            crate::schema::accounts::table
                                .filter(crate::schema::accounts::organisation_id.eq(organisation))
                                .select(crate::schema::accounts::id),
                        ),
                    )
                    .select(OrderRow::as_select())
                    .load(conn)?;
                Ok(load_orders(conn, rows)?.into_iter().next())
            })
            .await
            .map_err(|e| store_error(e, "reading an organisation's order"))
    }

    async fn transition(
        &self,
        id: OrderId,
        from: OrderStatus,
        event: NewEvent,
        projects: Option<Vec<ProjectAllocation>>,
        allocations: Vec<AllocationEvent>,
        audit: Option<AuditEntry>,
    ) -> Result<Order, StoreError> {
        let id = id.to_string();
        self.db
            .write(move |conn| {
                let moved = diesel::update(
                    orders::table
                        .filter(orders::id.eq(&id))
                        .filter(orders::status.eq(from.as_str())),
                )
                .set((
                    orders::status.eq(event.status.as_str()),
                    orders::updated_at.eq(to_sql_time(event.at)),
                ))
                .execute(conn)?;
                if moved == 0 {
                    return Err(DieselError::NotFound);
                }
                let mut replaced = None;
                if let Some(projects) = &projects {
                    replaced = Some(rollups::allocated(conn, &id)?);
                    diesel::delete(order_projects::table.filter(order_projects::order_id.eq(&id)))
                        .execute(conn)?;
                    for row in project_rows(&id, projects) {
                        diesel::insert_into(order_projects::table)
                            .values(&row)
                            .execute(conn)?;
                    }
                }
                let order = load_order(conn, &id)?.ok_or(DieselError::NotFound)?;
                if matches!(event.status, OrderStatus::Cancelled | OrderStatus::Failed) {
                    release(conn, &order)?;
                }
                append_event(conn, &order, &event)?;
                append_allocation_events(conn, &order, &allocations)?;
                rollups::order_moved(conn, &order, from, replaced.as_deref())?;
                crate::audit::record_blocking(conn, &audit)?;
                Ok(order)
            })
            .await
            .map_err(|e| store_error(e, "moving an order"))
    }

    async fn record_retirement(
        &self,
        id: OrderId,
        records: Vec<RetirementRecord>,
        allocations: Vec<AllocationEvent>,
        audit: AuditEntry,
    ) -> Result<Order, StoreError> {
        let id = id.to_string();
        self.db
            .write(move |conn| {
                for r in &records {
                    let row = order_projects::table
                        .filter(order_projects::order_id.eq(&id))
                        .filter(order_projects::project_id.eq(r.project_id.to_string()));
                    if let Some(serial) = &r.serial {
                        diesel::update(row.clone())
                            .set(order_projects::serial.eq(Some(serial)))
                            .execute(conn)?;
                    }
                    if let Some(url) = &r.url {
                        diesel::update(row)
                            .set(order_projects::registry_record.eq(Some(url)))
                            .execute(conn)?;
                    }
                }
                let order = load_order(conn, &id)?.ok_or(DieselError::NotFound)?;
                append_allocation_events(conn, &order, &allocations)?;
                crate::audit::record_blocking(conn, [&audit])?;
                Ok(order)
            })
            .await
            .map_err(|e| store_error(e, "recording a retirement"))
    }

    async fn live_stats(&self, since: OffsetDateTime) -> Result<OrderStats, StoreError> {
        crate::stats::orders(&self.db, since).await
    }

    async fn stale_test_orders(
        &self,
        updated_before: OffsetDateTime,
        limit: u32,
    ) -> Result<Vec<Order>, StoreError> {
        let before = to_sql_time(updated_before);
        let limit = i64::from(limit);
        self.db
            .read(move |conn| {
                let rows: Vec<OrderRow> = orders::table
                    .filter(orders::mode.eq("test"))
                    .filter(orders::status.eq_any(["received", "placed", "paid", "retiring"]))
                    .filter(orders::updated_at.lt(before))
                    .order(orders::updated_at.asc())
                    .limit(limit)
                    .select(OrderRow::as_select())
                    .load(conn)?;
                load_orders(conn, rows)
            })
            .await
            .map_err(|e| store_error(e, "finding test orders to advance"))
    }
}
