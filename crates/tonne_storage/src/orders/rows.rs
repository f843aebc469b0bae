//! An order's rows (the order, its lines, its project allocations) and their
//! conversion to and from the domain's [`Order`].

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use time::PrimitiveDateTime;
use tonne_kernel::{AccountId, Currency, EstimateId, Mass, Money};
use tonne_ordering::{
    AllocationId, BundleId, IdempotencyKey, Order, OrderId, OrderKind, OrderStatus, PaymentMethod,
    ProjectAllocation, ProjectId, QuoteLine, Registry,
};

use crate::db::error::{corrupt, decode_error, encode_error};
use crate::mapping::{from_sql_time, parse_id, to_sql_time};
use crate::schema::{order_lines, order_projects, orders};

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = orders, treat_none_as_default_value = false)]
pub(super) struct OrderRow {
    pub(super) id: String,
    pub(super) account_id: String,
    pub(super) mode: String,
    pub(super) idempotency_key: Option<String>,
    pub(super) kind: String,
    pub(super) status: String,
    pub(super) currency: String,
    pub(super) quantity_grams: i64,
    pub(super) offset_cost_minor: i64,
    pub(super) commission_minor: i64,
    pub(super) total_cost_minor: i64,
    pub(super) requested_quantity_grams: Option<i64>,
    pub(super) requested_value_minor: Option<i64>,
    pub(super) metadata: String,
    pub(super) offset_link_id: Option<String>,
    pub(super) email: Option<String>,
    pub(super) created_at: PrimitiveDateTime,
    pub(super) updated_at: PrimitiveDateTime,
    pub(super) estimate_id: Option<String>,
    pub(super) payment_method: String,
    pub(super) payment_reference: Option<String>,
    pub(super) held_reason: Option<String>,
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = order_lines)]
pub(super) struct LineRow {
    pub(super) order_id: String,
    pub(super) position: i32,
    pub(super) bundle_id: String,
    pub(super) bundle_name: String,
    pub(super) quantity_grams: i64,
    pub(super) unit_price_minor: i64,
    pub(super) gross_unit_price_minor: i64,
    pub(super) offset_cost_minor: i64,
    pub(super) insufficient_available_quantity: bool,
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = order_projects, treat_none_as_default_value = false)]
pub(super) struct ProjectRow {
    pub(super) order_id: String,
    pub(super) position: i32,
    pub(super) project_id: String,
    pub(super) project_name: String,
    pub(super) project_type: String,
    pub(super) project_slug: String,
    pub(super) registry_name: String,
    pub(super) quantity_grams: i64,
    pub(super) unit_price_minor: i64,
    pub(super) offset_cost_minor: i64,
    pub(super) serial: Option<String>,
    pub(super) registry_record: Option<String>,
    pub(super) id: String,
    pub(super) allocated_at: PrimitiveDateTime,
}

pub(super) fn project_rows(order: &str, projects: &[ProjectAllocation]) -> Vec<ProjectRow> {
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

pub(super) fn into_allocation(
    row: ProjectRow,
    currency: Currency,
) -> Result<ProjectAllocation, DieselError> {
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

pub(super) fn order_row(o: &Order) -> Result<OrderRow, DieselError> {
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
        payment_reference: o.payment_reference.clone(),
        held_reason: o.held.clone(),
    })
}

pub(super) fn line_rows(o: &Order) -> Vec<LineRow> {
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

pub(super) fn into_order(
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
        payment_reference: row.payment_reference,
        held: row.held_reason,
        created_at: from_sql_time(row.created_at),
        updated_at: from_sql_time(row.updated_at),
    })
}
