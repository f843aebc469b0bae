//! Batches: stored with all their rows in one transaction (multi-row
//! INSERTs), read with their row results, listed newest first by keyset.

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use tonne_kernel::{AccountId, Page, PageRequest};
use tonne_shipments::{
    Batch, BatchDetail, BatchSource, BatchStatus, NewBatch, RowResult, ShipmentBatchId,
};

use super::rows::{BatchRow, NewRowRow, OutcomeRow, int};
use crate::db::AnyConnection;
use crate::schema::{shipment_batch_rows, shipment_batches};

/// Rows per INSERT statement (3 binds each: well under both backends' limits).
const ROWS_PER_INSERT: usize = 1000;

/// Inserts the batch, then its rows; a used idempotency key fails the first
/// statement (a unique violation), so that nothing is written.
pub(super) fn insert(conn: &mut AnyConnection, b: &NewBatch) -> QueryResult<()> {
    let row = BatchRow::new(b);
    diesel::insert_into(shipment_batches::table)
        .values(&row)
        .execute(conn)?;
    let rows: Vec<NewRowRow<'_>> = b
        .rows
        .iter()
        .enumerate()
        .map(|(i, body)| NewRowRow {
            batch_id: &row.id,
            row_index: int(i),
            body,
        })
        .collect();
    for chunk in rows.chunks(ROWS_PER_INSERT) {
        // multi-row inserts are not in the multi-backend dialect: the same
        // statement on the concrete connection
        let insert = diesel::insert_into(shipment_batch_rows::table).values(chunk);
        on_conn!(conn, |c| insert.execute(c))?;
    }
    Ok(())
}

/// A batch of the account, with its processed rows' results once processed.
pub(super) fn detail(
    conn: &mut AnyConnection,
    account: AccountId,
    id: ShipmentBatchId,
) -> Result<Option<BatchDetail>, DieselError> {
    let id = id.to_string();
    let Some(row) = shipment_batches::table
        .filter(shipment_batches::id.eq(&id))
        .filter(shipment_batches::account_id.eq(account.to_string()))
        .select(BatchRow::as_select())
        .first(conn)
        .optional()?
    else {
        return Ok(None);
    };
    let batch = row.into_domain()?;
    let results = if batch.status == BatchStatus::Processed {
        shipment_batch_rows::table
            .filter(shipment_batch_rows::batch_id.eq(&id))
            .filter(shipment_batch_rows::outcome.is_not_null())
            .order(shipment_batch_rows::row_index)
            .select(OutcomeRow::as_select())
            .load(conn)?
            .into_iter()
            .map(OutcomeRow::into_domain)
            .collect::<Result<Vec<RowResult>, _>>()?
    } else {
        Vec::new()
    };
    Ok(Some(BatchDetail { batch, results }))
}

/// The account's batches of the given sources (all when none), newest first.
pub(super) fn page(
    conn: &mut AnyConnection,
    account: AccountId,
    sources: &[BatchSource],
    page: &PageRequest<ShipmentBatchId>,
) -> Result<Page<Batch>, DieselError> {
    let mut q = shipment_batches::table
        .filter(shipment_batches::account_id.eq(account.to_string()))
        .select(BatchRow::as_select())
        .into_boxed();
    if !sources.is_empty() {
        let names: Vec<&'static str> = sources.iter().map(|s| s.as_str()).collect();
        q = q.filter(shipment_batches::source.eq_any(names));
    }
    if let Some(after) = page.after {
        q = q.filter(shipment_batches::id.lt(after.to_string()));
    }
    let rows: Vec<BatchRow> = q
        .order(shipment_batches::id.desc())
        .limit(i64::from(page.limit.get()) + 1)
        .load(conn)?;
    let items = rows
        .into_iter()
        .map(BatchRow::into_domain)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Page::from_overfetch(items, page.limit))
}
