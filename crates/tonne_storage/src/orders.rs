//! Orders, their lines, inventory reservations and the event outbox (and,
//! in the same transactions, the impact domain's daily figures).

use std::collections::HashMap;

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use time::{OffsetDateTime, PrimitiveDateTime};
use tonne_kernel::{
    AccountId, AccountMode, AuditEntry, Currency, Cursor, EstimateId, Limit, Mass, Money,
    OrganisationId, Page, PageRequest, StoreError,
};
use tonne_ordering::ports::OrderRepository;
use tonne_ordering::{
    AllocationEvent, AllocationId, AwaitingFilter, BundleId, IdempotencyKey, NewEvent, Order,
    OrderId, OrderKind, OrderStats, OrderStatus, PaymentMethod, PlaceError, ProjectAllocation,
    ProjectId, QuoteLine, Registry, RetirementRecord,
};

use crate::db::{AnyConnection, Db};
use crate::error::{corrupt, decode_error, encode_error, store_error};
use crate::impact::rollups;
use crate::mapping::{from_sql_time, parse_id, to_sql_time};
use crate::outbox::{append_allocation_events, append_event};
use crate::schema::{bundles, estimates, order_lines, order_projects, orders};

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

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = orders)]
struct OrderRow {
    id: String,
    account_id: String,
    mode: String,
    idempotency_key: Option<String>,
    kind: String,
    status: String,
    currency: String,
    quantity_grams: i64,
    offset_cost_minor: i64,
    commission_minor: i64,
    total_cost_minor: i64,
    requested_quantity_grams: Option<i64>,
    requested_value_minor: Option<i64>,
    metadata: String,
    offset_link_id: Option<String>,
    email: Option<String>,
    created_at: PrimitiveDateTime,
    updated_at: PrimitiveDateTime,
    estimate_id: Option<String>,
    payment_method: String,
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = order_lines)]
struct LineRow {
    order_id: String,
    position: i32,
    bundle_id: String,
    bundle_name: String,
    quantity_grams: i64,
    unit_price_minor: i64,
    gross_unit_price_minor: i64,
    offset_cost_minor: i64,
    insufficient_available_quantity: bool,
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = order_projects)]
struct ProjectRow {
    order_id: String,
    position: i32,
    project_id: String,
    project_name: String,
    project_type: String,
    project_slug: String,
    registry_name: String,
    quantity_grams: i64,
    unit_price_minor: i64,
    offset_cost_minor: i64,
    serial: Option<String>,
    registry_record: Option<String>,
    id: String,
    allocated_at: PrimitiveDateTime,
}

fn project_rows(order: &str, projects: &[ProjectAllocation]) -> Vec<ProjectRow> {
    projects
        .iter()
        .enumerate()
        .map(|(i, p)| ProjectRow {
            order_id: order.to_owned(),
            position: i32::try_from(i).unwrap_or(i32::MAX),
            project_id: p.project_id.to_string(),
            project_name: p.project_name.clone(),
            project_type: p.project_type.clone(),
            project_slug: p.project_slug.clone(),
            registry_name: p.registry.as_str().to_owned(),
            quantity_grams: p.quantity.grams(),
            unit_price_minor: p.unit_price.minor(),
            offset_cost_minor: p.offset_cost.minor(),
            serial: p.serial.clone(),
            registry_record: p.registry_record.clone(),
            id: p.id.to_string(),
            allocated_at: to_sql_time(p.allocated_at),
        })
        .collect()
}

fn into_allocation(row: ProjectRow, currency: Currency) -> Result<ProjectAllocation, DieselError> {
    Ok(ProjectAllocation {
        id: parse_id::<AllocationId>("allocation id", &row.id)?,
        allocated_at: from_sql_time(row.allocated_at),
        project_id: parse_id::<ProjectId>("project id", &row.project_id)?,
        registry: Registry::parse(&row.registry_name)
            .ok_or_else(|| corrupt("registry", &row.registry_name))?,
        project_name: row.project_name,
        project_type: row.project_type,
        project_slug: row.project_slug,
        quantity: Mass::from_grams(row.quantity_grams),
        unit_price: Money::from_minor(row.unit_price_minor, currency),
        offset_cost: Money::from_minor(row.offset_cost_minor, currency),
        serial: row.serial,
        registry_record: row.registry_record,
    })
}

fn order_row(o: &Order) -> Result<OrderRow, DieselError> {
    let metadata: serde_json::Map<String, serde_json::Value> = o
        .metadata
        .iter()
        .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
        .collect();
    Ok(OrderRow {
        id: o.id.to_string(),
        account_id: o.account_id.to_string(),
        mode: o.mode.as_str().to_owned(),
        idempotency_key: o.idempotency_key.as_ref().map(|k| k.as_str().to_owned()),
        kind: o.kind.as_str().to_owned(),
        status: o.status.as_str().to_owned(),
        currency: o.currency.code().to_owned(),
        quantity_grams: o.quantity.grams(),
        offset_cost_minor: o.offset_cost.minor(),
        commission_minor: o.commission.minor(),
        total_cost_minor: o.total_cost.minor(),
        requested_quantity_grams: o.requested_quantity.map(|m| m.grams()),
        requested_value_minor: o.requested_value.map(|m| m.minor()),
        metadata: serde_json::to_string(&metadata).map_err(encode_error)?,
        offset_link_id: o.offset_link_id.clone(),
        email: o.email.clone(),
        created_at: to_sql_time(o.created_at),
        updated_at: to_sql_time(o.updated_at),
        estimate_id: o.estimate_id.map(|e| e.to_string()),
        payment_method: o.payment_method.as_str().to_owned(),
    })
}

fn line_rows(o: &Order) -> Vec<LineRow> {
    o.lines
        .iter()
        .enumerate()
        .map(|(i, l)| LineRow {
            order_id: o.id.to_string(),
            position: i32::try_from(i).unwrap_or(i32::MAX),
            bundle_id: l.bundle_id.to_string(),
            bundle_name: l.bundle_name.clone(),
            quantity_grams: l.quantity.grams(),
            unit_price_minor: l.unit_price.minor(),
            gross_unit_price_minor: l.gross_unit_price.minor(),
            offset_cost_minor: l.offset_cost.minor(),
            insufficient_available_quantity: l.insufficient_available_quantity,
        })
        .collect()
}

fn into_order(
    row: OrderRow,
    lines: Vec<LineRow>,
    projects: Vec<ProjectRow>,
) -> Result<Order, DieselError> {
    let currency: Currency = row
        .currency
        .parse()
        .map_err(|_| corrupt("currency", &row.currency))?;
    let metadata: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&row.metadata).map_err(decode_error)?;
    let lines = lines
        .into_iter()
        .map(|l| {
            Ok(QuoteLine {
                bundle_id: parse_id::<BundleId>("bundle id", &l.bundle_id)?,
                bundle_name: l.bundle_name,
                quantity: Mass::from_grams(l.quantity_grams),
                unit_price: Money::from_minor(l.unit_price_minor, currency),
                gross_unit_price: Money::from_minor(l.gross_unit_price_minor, currency),
                offset_cost: Money::from_minor(l.offset_cost_minor, currency),
                insufficient_available_quantity: l.insufficient_available_quantity,
            })
        })
        .collect::<Result<Vec<_>, DieselError>>()?;
    Ok(Order {
        id: parse_id::<OrderId>("order id", &row.id)?,
        account_id: parse_id::<AccountId>("account id", &row.account_id)?,
        mode: row.mode.parse().map_err(|_| corrupt("mode", &row.mode))?,
        idempotency_key: row
            .idempotency_key
            .as_deref()
            .map(|k| IdempotencyKey::parse(k).ok_or_else(|| corrupt("idempotency key", k)))
            .transpose()?,
        kind: OrderKind::parse(&row.kind).ok_or_else(|| corrupt("kind", &row.kind))?,
        status: OrderStatus::parse(&row.status).ok_or_else(|| corrupt("status", &row.status))?,
        currency,
        quantity: Mass::from_grams(row.quantity_grams),
        offset_cost: Money::from_minor(row.offset_cost_minor, currency),
        commission: Money::from_minor(row.commission_minor, currency),
        total_cost: Money::from_minor(row.total_cost_minor, currency),
        lines,
        requested_quantity: row.requested_quantity_grams.map(Mass::from_grams),
        requested_value: row
            .requested_value_minor
            .map(|m| Money::from_minor(m, currency)),
        metadata: metadata
            .into_iter()
            .map(|(k, v)| (k, v.as_str().unwrap_or_default().to_owned()))
            .collect(),
        projects: projects
            .into_iter()
            .map(|p| into_allocation(p, currency))
            .collect::<Result<Vec<_>, _>>()?,
        offset_link_id: row.offset_link_id,
        email: row.email,
        estimate_id: row
            .estimate_id
            .as_deref()
            .map(|e| parse_id::<EstimateId>("estimate id", e))
            .transpose()?,
        payment_method: PaymentMethod::parse(&row.payment_method)
            .ok_or_else(|| corrupt("payment method", &row.payment_method))?,
        created_at: from_sql_time(row.created_at),
        updated_at: from_sql_time(row.updated_at),
    })
}

/// A scope's orders, most recent first, strictly after the cursor order, which
/// must be in the scope (`NotFound` otherwise). `scope` builds the filtered
/// query afresh for each statement. `created_at <= at` bounds the index range
/// scan and the `OR` only breaks ties at the boundary, so a deep page costs
/// what the first one does.
fn newest_first(
    conn: &mut AnyConnection,
    scope: impl Fn() -> orders::BoxedQuery<'static, <AnyConnection as diesel::Connection>::Backend>,
    after: Option<String>,
    limit: Limit,
) -> QueryResult<Page<Order>> {
    let position: Option<(PrimitiveDateTime, String)> = match after {
        None => None,
        Some(after) => Some(
            scope()
                .filter(orders::id.eq(after))
                .select((orders::created_at, orders::id))
                .first(conn)?,
        ),
    };
    let mut q = scope().select(OrderRow::as_select());
    if let Some((at, id)) = position {
        q = q
            .filter(orders::created_at.le(at))
            .filter(orders::created_at.lt(at).or(orders::id.lt(id)));
    }
    let rows: Vec<OrderRow> = q
        .order((orders::created_at.desc(), orders::id.desc()))
        .limit(i64::from(limit.get()) + 1)
        .load(conn)?;
    Ok(Page::from_overfetch(load_orders(conn, rows)?, limit))
}

fn load_orders(conn: &mut AnyConnection, rows: Vec<OrderRow>) -> QueryResult<Vec<Order>> {
    let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    let line_rows: Vec<LineRow> = order_lines::table
        .filter(order_lines::order_id.eq_any(&ids))
        .order((order_lines::order_id.asc(), order_lines::position.asc()))
        .select(LineRow::as_select())
        .load(conn)?;
    let mut by_order: HashMap<String, Vec<LineRow>> = HashMap::new();
    for line in line_rows {
        by_order
            .entry(line.order_id.clone())
            .or_default()
            .push(line);
    }
    let project_rows: Vec<ProjectRow> = order_projects::table
        .filter(order_projects::order_id.eq_any(&ids))
        .order((
            order_projects::order_id.asc(),
            order_projects::position.asc(),
        ))
        .select(ProjectRow::as_select())
        .load(conn)?;
    let mut allocations: HashMap<String, Vec<ProjectRow>> = HashMap::new();
    for p in project_rows {
        allocations.entry(p.order_id.clone()).or_default().push(p);
    }
    rows.into_iter()
        .map(|r| {
            let lines = by_order.remove(&r.id).unwrap_or_default();
            let allocated = allocations.remove(&r.id).unwrap_or_default();
            into_order(r, lines, allocated)
        })
        .collect()
}

fn load_order(conn: &mut AnyConnection, id: &str) -> QueryResult<Option<Order>> {
    let rows: Vec<OrderRow> = orders::table
        .find(id)
        .select(OrderRow::as_select())
        .load(conn)?;
    Ok(load_orders(conn, rows)?.into_iter().next())
}

/// Takes each line's grams from its bundle if it has them (never below zero).
/// Returns, line by line, whether it is covered: reserved, or the bundle's
/// inventory is unlimited. Which bundles are unlimited is read first, in one
/// statement that takes no lock, so that the row locks of the reservations
/// (held until the order's transaction ends, and wanted by every concurrent
/// order of the same bundles) are taken by one UPDATE per limited bundle and
/// nothing else. A bundle that does not exist fails the order, as before.
fn reserve(conn: &mut AnyConnection, lines: &[(String, i64)]) -> QueryResult<Vec<bool>> {
    let ids: Vec<&str> = lines.iter().map(|(bundle, _)| bundle.as_str()).collect();
    let inventories: HashMap<String, bool> = bundles::table
        .filter(bundles::id.eq_any(&ids))
        .select((bundles::id, bundles::available_grams.is_null()))
        .load::<(String, bool)>(conn)?
        .into_iter()
        .collect();
    lines
        .iter()
        .map(|(bundle, grams)| match inventories.get(bundle) {
            None => Err(DieselError::NotFound),
            Some(true) => Ok(true),
            Some(false) => {
                let taken = diesel::update(
                    bundles::table
                        .filter(bundles::id.eq(bundle))
                        .filter(bundles::available_grams.ge(grams)),
                )
                .set(bundles::available_grams.eq(bundles::available_grams - grams))
                .execute(conn)?;
                Ok(taken == 1)
            }
        })
        .collect()
}

/// Marks the estimate as bought by `order`, in the order's transaction: only if
/// it is the account's, has no order yet and still has the mass being ordered
/// (a concurrent update changes it). Otherwise the whole order rolls back as a
/// unique violation (one order per estimate).
fn claim_estimate(conn: &mut AnyConnection, order: &Order, estimate: &str) -> QueryResult<()> {
    let claimed = diesel::update(
        estimates::table
            .filter(estimates::id.eq(estimate))
            .filter(estimates::account_id.eq(order.account_id.to_string()))
            .filter(estimates::order_id.is_null())
            .filter(estimates::mass_grams.eq(order.requested_quantity.map(|m| m.grams()))),
    )
    .set(estimates::order_id.eq(order.id.to_string()))
    .execute(conn)?;
    if claimed == 1 {
        Ok(())
    } else {
        Err(DieselError::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            Box::new(String::from(ESTIMATE_CLAIM_FAILED)),
        ))
    }
}

/// The messages of the placing transaction's own refusals (no database message contains them).
const ESTIMATE_CLAIM_FAILED: &str = "tonne: the estimate is ordered already or changed";
const IDEMPOTENCY_KEY_TAKEN: &str = "tonne: the idempotency key is taken";

/// Which constraint refused an order: the idempotency key's unique index
/// (`orders_idempotency`), the estimate's (`orders_estimate`) or its claim.
fn place_error(e: crate::db::DbError, named_estimate: bool) -> PlaceError {
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
        other => PlaceError::Unexpected(crate::error::unexpected(other, "placing an order")),
    }
}

fn release(conn: &mut AnyConnection, order: &Order) -> QueryResult<()> {
    for line in order
        .lines
        .iter()
        .filter(|l| !l.insufficient_available_quantity)
    {
        diesel::update(
            bundles::table
                .filter(bundles::id.eq(line.bundle_id.to_string()))
                .filter(bundles::available_grams.is_not_null()),
        )
        .set(bundles::available_grams.eq(bundles::available_grams + line.quantity.grams()))
        .execute(conn)?;
    }
    Ok(())
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
                crate::audit::record(conn, &audit)?;
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
                crate::audit::record(conn, [&audit])?;
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
