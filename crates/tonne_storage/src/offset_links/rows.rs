//! An offset link's row and the bundles it offers: written and read back
//! as the domain's link.

use std::collections::HashMap;

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::RunQueryDsl;
use time::{Date, PrimitiveDateTime};
use tonne_kernel::{AccountId, AccountMode, Currency, Mass, Money};
use tonne_links::{Email, LinkLimits, OffsetLink, OffsetLinkId};
use tonne_ordering::BundleId;

use crate::db::Conn;
use crate::db::error::corrupt;
use crate::mapping::{from_sql_time, parse_id, to_sql_time};
use crate::schema::{offset_link_bundles, offset_links};

#[derive(Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = offset_links, treat_none_as_null = true)]
pub(super) struct LinkRow {
    pub(super) id: String,
    account_id: String,
    mode: String,
    name: String,
    title: Option<String>,
    description: Option<String>,
    currency: String,
    value_minor: Option<i64>,
    emails: String,
    expires_at: Option<PrimitiveDateTime>,
    use_logo: bool,
    require_payment: bool,
    switched_off: bool,
    created_at: PrimitiveDateTime,
    updated_at: PrimitiveDateTime,
    limit_order_grams: i64,
    limit_order_value_minor: i64,
    limit_daily_orders: i64,
    limit_daily_grams: i64,
    limit_visitor_daily_orders: i64,
}

pub(super) fn link_row(l: &OffsetLink) -> LinkRow {
    LinkRow {
        id: l.id.to_string(),
        account_id: l.account_id.to_string(),
        mode: l.mode.as_str().to_owned(),
        name: l.name.clone(),
        title: l.title.clone(),
        description: l.description.clone(),
        currency: l.currency.code().to_owned(),
        value_minor: l.value.map(|v| v.minor()),
        emails: l
            .emails
            .iter()
            .map(Email::as_str)
            .collect::<Vec<_>>()
            .join("\n"),
        expires_at: l.expires_at.map(to_sql_time),
        use_logo: l.use_logo,
        require_payment: l.require_payment,
        switched_off: l.switched_off,
        created_at: to_sql_time(l.created_at),
        updated_at: to_sql_time(l.updated_at),
        limit_order_grams: l.limits.order_mass.grams(),
        limit_order_value_minor: l.limits.order_value.minor(),
        limit_daily_orders: i64::from(l.limits.daily_orders),
        limit_daily_grams: l.limits.daily_mass.grams(),
        limit_visitor_daily_orders: i64::from(l.limits.visitor_daily_orders),
    }
}

pub(super) fn into_link(row: LinkRow, bundles: Vec<String>) -> Result<OffsetLink, DieselError> {
    let currency: Currency = row
        .currency
        .parse()
        .map_err(|_| corrupt("currency", &row.currency))?;
    Ok(OffsetLink {
        id: parse_id::<OffsetLinkId>("offset link id", &row.id)?,
        account_id: parse_id::<AccountId>("account id", &row.account_id)?,
        mode: row
            .mode
            .parse::<AccountMode>()
            .map_err(|_| corrupt("mode", &row.mode))?,
        name: row.name,
        title: row.title,
        description: row.description,
        bundle_ids: bundles
            .iter()
            .map(|b| parse_id::<BundleId>("bundle id", b))
            .collect::<Result<_, _>>()?,
        value: row.value_minor.map(|m| Money::from_minor(m, currency)),
        currency,
        emails: row
            .emails
            .lines()
            .filter(|l| !l.is_empty())
            .map(|e| Email::parse(e).ok_or_else(|| corrupt("email", e)))
            .collect::<Result<_, _>>()?,
        expires_at: row.expires_at.map(from_sql_time),
        use_logo: row.use_logo,
        require_payment: row.require_payment,
        switched_off: row.switched_off,
        limits: LinkLimits {
            order_mass: Mass::from_grams(row.limit_order_grams),
            order_value: Money::from_minor(row.limit_order_value_minor, currency),
            daily_orders: u32::try_from(row.limit_daily_orders)
                .map_err(|_| corrupt("daily orders limit", &row.limit_daily_orders.to_string()))?,
            daily_mass: Mass::from_grams(row.limit_daily_grams),
            visitor_daily_orders: u32::try_from(row.limit_visitor_daily_orders).map_err(|_| {
                corrupt(
                    "visitor orders limit",
                    &row.limit_visitor_daily_orders.to_string(),
                )
            })?,
        },
        created_at: from_sql_time(row.created_at),
        updated_at: from_sql_time(row.updated_at),
    })
}

pub(super) async fn load_links(
    conn: &mut Conn,
    rows: Vec<LinkRow>,
) -> QueryResult<Vec<OffsetLink>> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    let pairs: Vec<(String, String)> = on!(conn, |c| offset_link_bundles::table
        .filter(offset_link_bundles::link_id.eq_any(&ids))
        .order((offset_link_bundles::link_id, offset_link_bundles::position))
        .select((offset_link_bundles::link_id, offset_link_bundles::bundle_id))
        .load(c)
        .await)?;
    let mut by_link: HashMap<String, Vec<String>> = HashMap::new();
    for (link, bundle) in pairs {
        by_link.entry(link).or_default().push(bundle);
    }
    rows.into_iter()
        .map(|r| {
            let bundles = by_link.remove(&r.id).unwrap_or_default();
            into_link(r, bundles)
        })
        .collect()
}

pub(super) async fn write_bundles(conn: &mut Conn, link: &OffsetLink) -> QueryResult<()> {
    let id = link.id.to_string();
    on!(&mut *conn, |c| diesel::delete(
        offset_link_bundles::table.filter(offset_link_bundles::link_id.eq(&id))
    )
    .execute(c)
    .await)?;
    let rows: Vec<_> = link
        .bundle_ids
        .iter()
        .zip(0..)
        .map(|(b, position): (&BundleId, i32)| {
            (
                offset_link_bundles::link_id.eq(id.clone()),
                offset_link_bundles::position.eq(position),
                offset_link_bundles::bundle_id.eq(b.to_string()),
            )
        })
        .collect();
    if rows.is_empty() {
        return Ok(());
    }
    let insert = diesel::insert_into(offset_link_bundles::table).values(rows);
    conn.insert_rows(insert).await?;
    Ok(())
}

pub(super) fn day_of(raw: &str) -> Result<Date, DieselError> {
    Date::parse(
        raw,
        time::macros::format_description!("[year]-[month]-[day]"),
    )
    .map_err(|_| corrupt("visit day", raw))
}
