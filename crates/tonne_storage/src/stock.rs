//! The operator's side of bundles on either backend: the stock ledger (each
//! change a conditional update, its row and its audit entry in one
//! transaction) and enabling or disabling a bundle. `CatalogueStore` answers
//! the port with these.

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::RunQueryDsl;
use time::{OffsetDateTime, PrimitiveDateTime};
use tonne_kernel::{Actor, AuditEntry, Mass, Page, PageRequest, StoreError};
use tonne_ordering::{BundleEdit, BundleId, StockEntry, StockEntryId};

use crate::db::Db;
use crate::db::error::{corrupt, store_error};
use crate::mapping::{from_sql_time, parse_id, to_sql_time};
use crate::schema::{bundle_prices, bundles, stock_ledger};

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = stock_ledger, treat_none_as_default_value = false)]
struct LedgerRow {
    id: String,
    bundle_id: String,
    at: PrimitiveDateTime,
    actor_kind: String,
    actor: String,
    delta_grams: i64,
    reason: String,
    available_after_grams: i64,
}

impl LedgerRow {
    fn into_domain(self) -> QueryResult<StockEntry> {
        Ok(StockEntry {
            id: parse_id::<StockEntryId>("stock entry id", &self.id)?,
            bundle_id: parse_id::<BundleId>("bundle id", &self.bundle_id)?,
            at: from_sql_time(self.at),
            actor: Actor::from_parts(&self.actor_kind, &self.actor)
                .ok_or_else(|| corrupt("stock actor", &self.actor_kind))?,
            delta_grams: self.delta_grams,
            reason: self.reason,
            available_after: Mass::from_grams(self.available_after_grams),
        })
    }
}

pub(crate) async fn adjust(
    db: &Db,
    entry: StockEntry,
    audit: AuditEntry,
) -> Result<Option<StockEntry>, StoreError> {
    let bundle = entry.bundle_id.to_string();
    let delta = entry.delta_grams;
    db.transaction(move |conn| {
        Box::pin(async move {
            let before: Option<i64> = on!(&mut *conn, |c| bundles::table
                .find(&bundle)
                .select(bundles::available_grams)
                .first(c)
                .await)?;
            // Never below zero, whatever ran in between: the guard is in the update.
            let changed = on!(&mut *conn, |c| diesel::update(
                bundles::table
                    .find(&bundle)
                    .filter(bundles::available_grams.is_not_null())
                    .filter((bundles::available_grams + delta).ge(0)),
            )
            .set(bundles::available_grams.eq(bundles::available_grams + delta))
            .execute(c)
            .await)?;
            if changed == 0 {
                return Ok(None);
            }
            let after: Option<i64> = on!(&mut *conn, |c| bundles::table
                .find(&bundle)
                .select(bundles::available_grams)
                .first(c)
                .await)?;
            let after = after.ok_or_else(|| corrupt("available grams", "NULL"))?;
            let stored = StockEntry {
                available_after: Mass::from_grams(after),
                ..entry.clone()
            };
            let row = LedgerRow {
                id: stored.id.to_string(),
                bundle_id: bundle.clone(),
                at: to_sql_time(stored.at),
                actor_kind: stored.actor.kind().to_owned(),
                actor: stored.actor.name(),
                delta_grams: delta,
                reason: stored.reason.clone(),
                available_after_grams: after,
            };
            on!(&mut *conn, |c| diesel::insert_into(stock_ledger::table)
                .values(&row)
                .execute(c)
                .await)?;
            let tonnes = |g: i64| format!("{} t", Mass::from_grams(g).to_tonnes_string());
            let mut audited = audit.clone();
            audited.before = audited
                .before
                .with("available", tonnes(before.unwrap_or_default()));
            audited.after = audited.after.with("available", tonnes(after));
            crate::audit::record(conn, [&audited]).await?;
            Ok(Some(stored))
        })
    })
    .await
    .map_err(|e| store_error(e, "changing a bundle's stock"))
}

pub(crate) async fn ledger(
    db: &Db,
    bundle: BundleId,
    page: &PageRequest<StockEntryId>,
) -> Result<Page<StockEntry>, StoreError> {
    let bundle = bundle.to_string();
    let after = page.after.map(|a| a.to_string());
    let limit = page.limit;
    db.query(move |conn| {
        Box::pin(async move {
            if let Some(after) = &after {
                on!(&mut *conn, |c| stock_ledger::table
                    .find(after)
                    .filter(stock_ledger::bundle_id.eq(&bundle))
                    .select(stock_ledger::id)
                    .first::<String>(c)
                    .await)?;
            }
            let rows: Vec<LedgerRow> = on!(conn, |c| {
                let mut q = stock_ledger::table
                    .filter(stock_ledger::bundle_id.eq(&bundle))
                    .into_boxed();
                if let Some(after) = &after {
                    q = q.filter(stock_ledger::id.lt(after.clone()));
                }
                q.order(stock_ledger::id.desc())
                    .limit(i64::from(limit.get()) + 1)
                    .select(LedgerRow::as_select())
                    .load(c)
                    .await
            })?;
            let entries = rows
                .into_iter()
                .map(LedgerRow::into_domain)
                .collect::<QueryResult<Vec<_>>>()?;
            Ok(Page::from_overfetch(entries, limit))
        })
    })
    .await
    .map_err(|e| store_error(e, "reading a stock ledger"))
}

pub(crate) async fn update(
    db: &Db,
    bundle: BundleId,
    edit: BundleEdit,
    at: OffsetDateTime,
    audit: AuditEntry,
) -> Result<(), StoreError> {
    let bundle = bundle.to_string();
    db.transaction(move |conn| {
        Box::pin(async move {
            let changed = on!(&mut *conn, |c| diesel::update(bundles::table.find(&bundle))
                .set((
                    bundles::description.eq(edit.description.clone()),
                    bundles::updated_at.eq(to_sql_time(at)),
                ))
                .execute(c)
                .await)?;
            if changed == 0 {
                return Err(DieselError::NotFound);
            }
            for price in &edit.prices {
                let changed = on!(&mut *conn, |c| diesel::update(
                    bundle_prices::table.find((&bundle, price.currency().code()))
                )
                .set(bundle_prices::unit_price_minor.eq(price.minor()))
                .execute(c)
                .await)?;
                if changed == 0 {
                    // not sold in this currency: the whole edit is refused
                    return Err(DieselError::NotFound);
                }
            }
            crate::audit::record(conn, [&audit]).await
        })
    })
    .await
    .map_err(|e| store_error(e, "editing a bundle"))
}

pub(crate) async fn set_disabled(
    db: &Db,
    bundle: BundleId,
    at: Option<OffsetDateTime>,
    audit: AuditEntry,
) -> Result<(), StoreError> {
    let bundle = bundle.to_string();
    let updated_at = to_sql_time(audit.at);
    db.transaction(move |conn| {
        Box::pin(async move {
            let changed = on!(&mut *conn, |c| diesel::update(bundles::table.find(&bundle))
                .set((
                    bundles::disabled.eq(at.is_some()),
                    bundles::disabled_at.eq(at.map(to_sql_time)),
                    bundles::updated_at.eq(updated_at),
                ))
                .execute(c)
                .await)?;
            crate::audit::record_change(conn, changed, &audit).await
        })
    })
    .await
    .map_err(|e| store_error(e, "enabling or disabling a bundle"))
}
