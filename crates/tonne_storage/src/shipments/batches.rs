//! Batches: stored with all their rows in one transaction (multi-row
//! INSERTs), read with their row results, listed newest first by keyset.

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::RunQueryDsl;
use tonne_kernel::{AccountId, Page, PageRequest};
use tonne_shipments::{
    BATCH_JOB, Batch, BatchDetail, BatchSource, BatchStatus, NewBatch, RowResult, ShipmentBatchId,
};

use super::rows::{BatchRow, NewRowRow, OutcomeRow, int};
use crate::db::Conn;
use crate::jobs;
use crate::schema::{shipment_batch_rows, shipment_batches};

/// Rows per INSERT statement (3 binds each: well under both backends' limits).
const ROWS_PER_INSERT: usize = 1000;

/// Inserts the batch, then its rows, then its job; a used idempotency key fails the first
/// statement (a unique violation), so that nothing is written.
pub(super) async fn insert(conn: &mut Conn, b: &NewBatch) -> QueryResult<()> {
    let row = BatchRow::new(b);
    on!(&mut *conn, |c| diesel::insert_into(shipment_batches::table)
        .values(&row)
        .execute(c)
        .await)?;
    for (first, chunk) in b.rows.chunks(ROWS_PER_INSERT).enumerate() {
        let first = first.saturating_mul(ROWS_PER_INSERT);
        let rows: Vec<NewRowRow> = chunk
            .iter()
            .enumerate()
            .map(|(i, body)| NewRowRow {
                batch_id: row.id.clone(),
                row_index: int(first.saturating_add(i)),
                body: body.clone(),
            })
            .collect();
        let insert = diesel::insert_into(shipment_batch_rows::table).values(rows);
        conn.insert_rows(insert).await?;
    }
    jobs::enqueue(conn, BATCH_JOB, b.account_id, &row.id, b.created_at).await
}

/// A batch of the account, with its processed rows' results once processed.
pub(super) async fn detail(
    conn: &mut Conn,
    account: AccountId,
    id: ShipmentBatchId,
) -> Result<Option<BatchDetail>, DieselError> {
    let id = id.to_string();
    let Some(row) = on!(&mut *conn, |c| shipment_batches::table
        .filter(shipment_batches::id.eq(&id))
        .filter(shipment_batches::account_id.eq(account.to_string()))
        .select(BatchRow::as_select())
        .first(c)
        .await)
    .optional()?
    else {
        return Ok(None);
    };
    let batch = row.into_domain()?;
    let results = if batch.status == BatchStatus::Processed {
        on!(conn, |c| shipment_batch_rows::table
            .filter(shipment_batch_rows::batch_id.eq(&id))
            .filter(shipment_batch_rows::outcome.is_not_null())
            .order(shipment_batch_rows::row_index)
            .select(OutcomeRow::as_select())
            .load(c)
            .await)?
        .into_iter()
        .map(OutcomeRow::into_domain)
        .collect::<Result<Vec<RowResult>, _>>()?
    } else {
        Vec::new()
    };
    Ok(Some(BatchDetail { batch, results }))
}

/// The account's batches of the given sources (all when none), newest first.
pub(super) async fn page(
    conn: &mut Conn,
    account: AccountId,
    sources: &[BatchSource],
    page: &PageRequest<ShipmentBatchId>,
) -> Result<Page<Batch>, DieselError> {
    let rows: Vec<BatchRow> = on!(conn, |c| {
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
        q.order(shipment_batches::id.desc())
            .limit(i64::from(page.limit.get()) + 1)
            .load(c)
            .await
    })?;
    let items = rows
        .into_iter()
        .map(BatchRow::into_domain)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Page::from_overfetch(items, page.limit))
}
