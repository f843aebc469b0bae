//! Orders on either backend: the repository, with its rows (`rows`), reads
//! (`read`), stock reservations (`reservations`) and placing refusals
//! (`placing`) in rooms of their own, and PostgreSQL's road for placing
//! (`pg`). The event outbox (`outbox`) and the
//! impact domain's daily figures (`impact::rollups`) are written in the same
//! transactions.

mod payment_events;
mod pg;
mod placing;
mod read;
mod reservations;
mod rows;

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use tonne_kernel::{
    AccountId, AccountMode, AuditEntry, Cursor, OrganisationId, Page, PageRequest, StoreError,
};
use tonne_ordering::ports::OrderRepository;
use tonne_ordering::{
    AllocationEvent, AwaitingFilter, IdempotencyKey, NewEvent, Order, OrderId, OrderStats,
    OrderStatus, PlaceError, ProjectAllocation, RetirementRecord,
};

use crate::db::error::store_error;
use crate::db::{Conn, Db};
use crate::impact::rollups;
use crate::mapping::to_sql_time;
use crate::outbox::{append_allocation_events, append_event};
use crate::schema::{order_lines, order_projects, orders};

use placing::{claim_estimate, claimed, key_count, key_unused, place_error};
use read::{Scope, load_order, load_orders, newest_first};
use reservations::{release, reserve, stock_limits};
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
    /// One transaction. On PostgreSQL its statements go out in two round
    /// trips between `BEGIN` and `COMMIT`: the idempotency key's check with
    /// the bundles' stock limits and the reservations, then the order, its
    /// estimate's claim, its lines, its event and its daily figures together.
    async fn place(&self, order: &Order, event: NewEvent) -> Result<Order, PlaceError> {
        let mut order = order.clone();
        let named_estimate = order.estimate_id.is_some();
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    let wanted: Vec<(String, i64)> = order
                        .lines
                        .iter()
                        .map(|l| (l.bundle_id.to_string(), l.quantity.grams()))
                        .collect();
                    // A repeated key is answered as such even when the estimate it
                    // names is taken too; the unique index stays the arbiter of races.
                    // On PostgreSQL the stock is taken in the same round trip
                    // (a refusal rolls the whole transaction back).
                    let covered = match conn {
                        Conn::Pg(c) => pg::reserve(c, &order, &wanted).await?,
                        Conn::Sqlite(c) => {
                            key_unused(match key_count!(order) {
                                Some(q) => q.get_result::<i64>(&mut **c).await?,
                                None => 0,
                            })?;
                            let unlimited = stock_limits(&mut *conn, &wanted).await?;
                            reserve(&mut *conn, &wanted, &unlimited).await?
                        }
                    };
                    for (line, covered) in order.lines.iter_mut().zip(covered) {
                        line.insufficient_available_quantity = !covered;
                    }
                    let row = order_row(&order)?;
                    let lines = line_rows(&order);
                    let estimate = order.estimate_id.map(|e| e.to_string());
                    match conn {
                        Conn::Pg(c) => {
                            pg::write(c, &order, &row, &lines, estimate.as_deref(), &event).await?
                        }
                        Conn::Sqlite(c) => {
                            diesel::insert_into(orders::table)
                                .values(&row)
                                .execute(&mut **c)
                                .await?;
                            if let Some(e) = &estimate {
                                claimed(claim_estimate!(order, e).execute(&mut **c).await?)?;
                            }
                            if !lines.is_empty() {
                                // Diesel writes SQLite's batch insert on the blocking
                                // connection itself.
                                c.spawn_blocking(move |c| {
                                    diesel::RunQueryDsl::execute(
                                        diesel::insert_into(order_lines::table).values(lines),
                                        c,
                                    )
                                })
                                .await?;
                            }
                            append_event(&mut *conn, &order, &event).await?;
                            rollups::order_placed(&mut *conn, &order).await?;
                        }
                    }
                    Ok(order)
                })
            })
            .await
            .map_err(|e| place_error(e, named_estimate))
    }

    async fn get(&self, id: OrderId) -> Result<Option<Order>, StoreError> {
        let id = id.to_string();
        self.db
            .query(move |conn| Box::pin(async move { load_order(conn, &id).await }))
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
            .query(move |conn| {
                Box::pin(async move {
                    let rows: Vec<OrderRow> = on!(&mut *conn, |c| orders::table
                        .filter(orders::account_id.eq(&account))
                        .filter(orders::idempotency_key.eq(&key))
                        .select(OrderRow::as_select())
                        .load(c)
                        .await)?;
                    Ok(load_orders(conn, rows).await?.into_iter().next())
                })
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
        let (after, limit) = crate::mapping::keyset(page);
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let position = page_position!(&mut *conn, orders, &after, &account);
                    let rows: Vec<OrderRow> = on!(&mut *conn, |c| {
                        let mut q = orders::table
                            .filter(orders::account_id.eq(&account))
                            .select(OrderRow::as_select())
                            .into_boxed();
                        if let Some(link) = &offset_link_id {
                            q = q.filter(orders::offset_link_id.eq(link.clone()));
                        }
                        newest_first_page!(q, orders, &position, limit, c)
                    })?;
                    Ok(Page::from_overfetch(load_orders(conn, rows).await?, limit))
                })
            })
            .await
            .map_err(|e| store_error(e, "listing orders"))
    }

    async fn awaiting(
        &self,
        filter: AwaitingFilter,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Order>, StoreError> {
        let scope = Scope::Awaiting {
            statuses: filter.statuses().iter().map(|s| s.as_str()).collect(),
            organisation: filter.organisation.map(|o| o.to_string()),
        };
        let (after, limit) = crate::mapping::keyset(page);
        self.db
            .query(move |conn| Box::pin(newest_first(conn, scope, after, limit)))
            .await
            .map_err(|e| store_error(e, "listing the orders awaiting action"))
    }

    async fn of_organisation(
        &self,
        organisation: OrganisationId,
        mode: AccountMode,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Order>, StoreError> {
        let scope = Scope::Organisation {
            organisation: organisation.to_string(),
            mode: mode.as_str(),
        };
        let (after, limit) = crate::mapping::keyset(page);
        self.db
            .query(move |conn| Box::pin(newest_first(conn, scope, after, limit)))
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
            .query(move |conn| {
                Box::pin(async move {
                    let rows: Vec<OrderRow> = on!(&mut *conn, |c| orders::table
                        .filter(orders::id.eq(&id))
                        .filter(
                            orders::account_id.eq_any(
                                crate::schema::accounts::table
                                    .filter(
                                        crate::schema::accounts::organisation_id.eq(&organisation),
                                    )
                                    .select(crate::schema::accounts::id),
                            ),
                        )
                        .select(OrderRow::as_select())
                        .load(c)
                        .await)?;
                    Ok(load_orders(conn, rows).await?.into_iter().next())
                })
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
            .transaction(move |conn| {
                Box::pin(async move {
                    let moved = on!(&mut *conn, |c| diesel::update(
                        orders::table
                            .filter(orders::id.eq(&id))
                            .filter(orders::status.eq(from.as_str())),
                    )
                    .set((
                        orders::status.eq(event.status.as_str()),
                        orders::updated_at.eq(to_sql_time(event.at)),
                    ))
                    .execute(c)
                    .await)?;
                    if moved == 0 {
                        return Err(DieselError::NotFound);
                    }
                    let mut replaced = None;
                    if let Some(projects) = &projects {
                        replaced = Some(rollups::allocated(&mut *conn, &id).await?);
                        on!(&mut *conn, |c| diesel::delete(
                            order_projects::table.filter(order_projects::order_id.eq(&id))
                        )
                        .execute(c)
                        .await)?;
                        for row in project_rows(&id, projects) {
                            on!(&mut *conn, |c| diesel::insert_into(order_projects::table)
                                .values(&row)
                                .execute(c)
                                .await)?;
                        }
                    }
                    let order = load_order(&mut *conn, &id)
                        .await?
                        .ok_or(DieselError::NotFound)?;
                    if matches!(event.status, OrderStatus::Cancelled | OrderStatus::Failed) {
                        release(&mut *conn, &order).await?;
                    }
                    append_event(&mut *conn, &order, &event).await?;
                    append_allocation_events(&mut *conn, &order, &allocations).await?;
                    rollups::order_moved(&mut *conn, &order, from, replaced.as_deref()).await?;
                    crate::audit::record(conn, &audit).await?;
                    Ok(order)
                })
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
            .transaction(move |conn| {
                Box::pin(async move {
                    for r in &records {
                        let project = r.project_id.to_string();
                        if let Some(serial) = &r.serial {
                            on!(&mut *conn, |c| diesel::update(
                                order_projects::table
                                    .filter(order_projects::order_id.eq(&id))
                                    .filter(order_projects::project_id.eq(&project)),
                            )
                            .set(order_projects::serial.eq(Some(serial)))
                            .execute(c)
                            .await)?;
                        }
                        if let Some(url) = &r.url {
                            on!(&mut *conn, |c| diesel::update(
                                order_projects::table
                                    .filter(order_projects::order_id.eq(&id))
                                    .filter(order_projects::project_id.eq(&project)),
                            )
                            .set(order_projects::registry_record.eq(Some(url)))
                            .execute(c)
                            .await)?;
                        }
                    }
                    let order = load_order(&mut *conn, &id)
                        .await?
                        .ok_or(DieselError::NotFound)?;
                    append_allocation_events(&mut *conn, &order, &allocations).await?;
                    crate::audit::record(conn, [&audit]).await?;
                    Ok(order)
                })
            })
            .await
            .map_err(|e| store_error(e, "recording a retirement"))
    }

    async fn live_stats(&self, since: OffsetDateTime) -> Result<OrderStats, StoreError> {
        crate::stats::orders(&self.db, since).await
    }

    async fn release_hold(
        &self,
        id: OrderId,
        audit: AuditEntry,
    ) -> Result<Option<Order>, StoreError> {
        payment_events::release_hold(&self.db, id, audit).await
    }

    async fn apply_payment_event(
        &self,
        id: &str,
        kind: &str,
        at: OffsetDateTime,
        hold: Option<(String, String)>,
    ) -> Result<tonne_ordering::PaymentEventApplied, StoreError> {
        payment_events::apply(&self.db, id, kind, at, hold).await
    }

    async fn stale_test_orders(
        &self,
        updated_before: OffsetDateTime,
        limit: u32,
    ) -> Result<Vec<Order>, StoreError> {
        let before = to_sql_time(updated_before);
        let limit = i64::from(limit);
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let rows: Vec<OrderRow> = on!(&mut *conn, |c| orders::table
                        .filter(orders::mode.eq("test"))
                        .filter(orders::status.eq_any(["received", "placed", "paid", "retiring"]))
                        // a held order moves only by hand
                        .filter(orders::held_reason.is_null())
                        .filter(orders::updated_at.lt(before))
                        .order(orders::updated_at.asc())
                        .limit(limit)
                        .select(OrderRow::as_select())
                        .load(c)
                        .await)?;
                    load_orders(conn, rows).await
                })
            })
            .await
            .map_err(|e| store_error(e, "finding test orders to advance"))
    }
}
