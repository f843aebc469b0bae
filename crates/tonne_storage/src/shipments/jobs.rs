//! The steps' writes of the two shipments jobs, batches and calculations.
//!
//! The job engine (`crate::jobs`) claims a job; a step opens its subject
//! (`open_batch`, `open_calculation`: marked processing, `None` once
//! finished) and every write of the step first holds the job's lease in its
//! own transaction (`jobs::hold`) — zero rows changed means another worker
//! took the job over: the transaction rolls back and answers `NotFound`.
//! That UPDATE also locks the job's row until the transaction ends, so a
//! takeover waits for the chunk in flight, and each chunk is written once.

use diesel::dsl::count_star;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, JobLease};
use tonne_shipments::{
    BatchClaim, BatchStatus, CALCULATION_JOB, CalculationClaim, CalculationId, NewCalculation,
    PendingRow, RowDone, ShipmentBatchId, ShipmentEmissions, ShipmentId,
};

use super::encoding::{decode_filter, encode_filter};
use super::rows::{
    ClaimedBatch, ClaimedCalculation, FAILED, STORED, ShipmentRow, emissions_columns, int,
};
use crate::db::Conn;
use crate::db::error::{corrupt, encode_error};
use crate::db::statement::{Bind, Sql};
use crate::jobs;
use crate::mapping::{parse_id, to_sql_time};
use crate::schema::{shipment_batch_rows, shipment_batches, shipment_calculations};

/// Shipments per INSERT statement (16 binds each).
const SHIPMENTS_PER_INSERT: usize = 500;
/// Rows per multi-row UPDATE (4 or 5 binds each).
const ROWS_PER_UPDATE: usize = 1000;

const PROCESSING: &str = "processing";
const QUEUED: &str = "queued";
const DONE: &str = "done";

/// The batch a job works on, marked processing; `None` once processed.
pub(super) async fn open_batch(
    conn: &mut Conn,
    lease: &JobLease,
    batch: ShipmentBatchId,
) -> Result<Option<BatchClaim>, DieselError> {
    let mut sql = Sql::new(&format!(
        "UPDATE shipment_batches SET status = '{PROCESSING}' WHERE id = "
    ));
    sql.text(batch.to_string()).push(&format!(
        " AND status IN ('{}', '{PROCESSING}') \
         RETURNING id, account_id, account_name, contact_id, calculate",
        BatchStatus::Pending.as_str()
    ));
    let Some(row) = sql.load::<ClaimedBatch>(conn).await?.into_iter().next() else {
        return Ok(None);
    };
    Ok(Some(BatchClaim {
        batch_id: parse_id::<ShipmentBatchId>("shipment batch id", &row.id)?,
        account_id: parse_id::<AccountId>("account id", &row.account_id)?,
        account_name: row.account_name,
        contact_id: row.contact_id,
        calculate: row.calculate,
        lease: lease.clone(),
    }))
}

pub(super) async fn pending_rows(
    conn: &mut Conn,
    batch: ShipmentBatchId,
    limit: u32,
) -> Result<Vec<PendingRow>, DieselError> {
    on!(conn, |c| shipment_batch_rows::table
        .filter(shipment_batch_rows::batch_id.eq(batch.to_string()))
        .filter(shipment_batch_rows::outcome.is_null())
        .order(shipment_batch_rows::row_index)
        .limit(i64::from(limit))
        .select((shipment_batch_rows::row_index, shipment_batch_rows::body))
        .load::<(i64, String)>(c)
        .await)?
    .into_iter()
    .map(|(i, row)| {
        Ok(PendingRow {
            row_index: u32::try_from(i).map_err(|_| corrupt("row index", &i.to_string()))?,
            row,
        })
    })
    .collect()
}

pub(super) async fn complete_rows(
    conn: &mut Conn,
    claim: &BatchClaim,
    rows: &[(u32, RowDone)],
    until: OffsetDateTime,
) -> QueryResult<()> {
    jobs::hold(conn, &claim.lease, Some(until)).await?;
    let data_sheet_id: Option<String> = on!(&mut *conn, |c| shipment_batches::table
        .find(claim.batch_id.to_string())
        .select(shipment_batches::data_sheet_id)
        .first(c)
        .await)?;
    let shipments = rows
        .iter()
        .filter_map(|(_, done)| match done {
            RowDone::Stored(s) => Some(ShipmentRow::new(s, data_sheet_id.clone())),
            RowDone::Failed(_) => None,
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut shipments = shipments.into_iter().peekable();
    while shipments.peek().is_some() {
        let chunk: Vec<ShipmentRow> = shipments.by_ref().take(SHIPMENTS_PER_INSERT).collect();
        let insert = diesel::insert_into(crate::schema::shipments::table).values(chunk);
        conn.insert_rows(insert).await?;
    }
    let mut updated = 0_usize;
    for chunk in rows.chunks(ROWS_PER_UPDATE) {
        let mut sql = Sql::new(
            "UPDATE shipment_batch_rows SET outcome = v.column2, shipment_id = v.column3, \
             error = v.column4 FROM (VALUES ",
        );
        for (i, (index, done)) in chunk.iter().enumerate() {
            let (outcome, shipment, error) = match done {
                RowDone::Stored(s) => (STORED, Some(s.id.to_string()), None),
                RowDone::Failed(e) => (FAILED, None, Some(e.clone())),
            };
            sql.push(if i == 0 { "(" } else { ", (" })
                .bind(Bind::Int(int(*index)))
                .push(", ")
                .text(outcome)
                .push(", ")
                .bind(Bind::OptText(shipment))
                .push(", ")
                .bind(Bind::OptText(error))
                .push(")");
        }
        sql.push(
            ") AS v WHERE shipment_batch_rows.row_index = v.column1 \
             AND shipment_batch_rows.outcome IS NULL AND shipment_batch_rows.batch_id = ",
        )
        .text(claim.batch_id.to_string());
        updated = updated.saturating_add(sql.execute(conn).await?);
    }
    if updated == rows.len() {
        Ok(())
    } else {
        // a row was processed already (or is not the batch's): undo the chunk
        Err(DieselError::NotFound)
    }
}

pub(super) async fn finish_batch(
    conn: &mut Conn,
    claim: &BatchClaim,
    batch_error: Option<String>,
) -> QueryResult<()> {
    jobs::hold(conn, &claim.lease, None).await?;
    let id = claim.batch_id.to_string();
    let rows = shipment_batch_rows::table.filter(shipment_batch_rows::batch_id.eq(&id));
    let counts = match batch_error {
        Some(_) => (None, None),
        None => {
            let pending: i64 = on!(&mut *conn, |c| rows
                .filter(shipment_batch_rows::outcome.is_null())
                .select(count_star())
                .first(c)
                .await)?;
            if pending > 0 {
                // the batch is not done: it stays claimed, to be taken over
                return Err(DieselError::NotFound);
            }
            let stored: i64 = on!(&mut *conn, |c| rows
                .filter(shipment_batch_rows::outcome.eq(STORED))
                .select(count_star())
                .first(c)
                .await)?;
            let failed: i64 = on!(&mut *conn, |c| rows
                .filter(shipment_batch_rows::outcome.eq(FAILED))
                .select(count_star())
                .first(c)
                .await)?;
            (Some(stored), Some(failed))
        }
    };
    on!(conn, |c| diesel::update(shipment_batches::table.find(&id))
        .set((
            shipment_batches::status.eq(BatchStatus::Processed.as_str()),
            shipment_batches::lease_owner.eq(None::<String>),
            shipment_batches::lease_until.eq(None::<time::PrimitiveDateTime>),
            shipment_batches::success_count.eq(counts.0),
            shipment_batches::failed_count.eq(counts.1),
            shipment_batches::batch_error.eq(batch_error),
        ))
        .execute(c)
        .await)?;
    Ok(())
}

#[derive(Insertable)]
#[diesel(table_name = shipment_calculations, treat_none_as_default_value = false)]
struct CalculationRow {
    id: String,
    account_id: String,
    filter_json: String,
    status: String,
    after_id: Option<String>,
    lease_owner: Option<String>,
    lease_until: Option<time::PrimitiveDateTime>,
    created_at: time::PrimitiveDateTime,
}

pub(super) async fn insert_calculation(conn: &mut Conn, c: &NewCalculation) -> QueryResult<()> {
    let row = CalculationRow {
        id: c.id.to_string(),
        account_id: c.account_id.to_string(),
        filter_json: encode_filter(&c.filter).map_err(encode_error)?,
        status: QUEUED.to_owned(),
        after_id: None,
        lease_owner: None,
        lease_until: None,
        created_at: to_sql_time(c.created_at),
    };
    on!(&mut *conn, |c| diesel::insert_into(
        shipment_calculations::table
    )
    .values(&row)
    .execute(c)
    .await)?;
    jobs::enqueue(
        conn,
        CALCULATION_JOB,
        c.account_id,
        &c.id.to_string(),
        c.created_at,
    )
    .await
}

/// The calculation a job works on, marked processing; `None` once done.
pub(super) async fn open_calculation(
    conn: &mut Conn,
    lease: &JobLease,
    id: CalculationId,
) -> Result<Option<CalculationClaim>, DieselError> {
    let mut sql = Sql::new(&format!(
        "UPDATE shipment_calculations SET status = '{PROCESSING}' WHERE id = "
    ));
    sql.text(id.to_string()).push(&format!(
        " AND status IN ('{QUEUED}', '{PROCESSING}') \
         RETURNING id, account_id, filter_json, after_id"
    ));
    let Some(row) = sql
        .load::<ClaimedCalculation>(conn)
        .await?
        .into_iter()
        .next()
    else {
        return Ok(None);
    };
    Ok(Some(CalculationClaim {
        id: parse_id::<CalculationId>("calculation id", &row.id)?,
        account_id: parse_id::<AccountId>("account id", &row.account_id)?,
        filter: decode_filter(&row.filter_json)
            .ok_or_else(|| corrupt("calculation filter", &row.id))?,
        after: row
            .after_id
            .as_deref()
            .map(|a| parse_id::<ShipmentId>("shipment id", a))
            .transpose()?,
        lease: lease.clone(),
    }))
}

/// `NotFound` unless exactly one row changed.
fn exactly_one(changed: usize) -> QueryResult<()> {
    if changed == 1 {
        Ok(())
    } else {
        Err(DieselError::NotFound)
    }
}

pub(super) async fn save_calculated(
    conn: &mut Conn,
    claim: &CalculationClaim,
    results: &[(ShipmentId, Option<ShipmentEmissions>)],
    last: ShipmentId,
    until: OffsetDateTime,
) -> QueryResult<()> {
    jobs::hold(conn, &claim.lease, Some(until)).await?;
    let n = on!(&mut *conn, |c| diesel::update(
        shipment_calculations::table
            .filter(shipment_calculations::id.eq(claim.id.to_string()))
            .filter(shipment_calculations::status.eq(PROCESSING)),
    )
    .set(shipment_calculations::after_id.eq(last.to_string()))
    .execute(c)
    .await)?;
    exactly_one(n)?;
    for chunk in results.chunks(ROWS_PER_UPDATE) {
        let mut sql = Sql::new(
            "UPDATE shipments SET emissions = v.column2, has_emissions = v.column3, \
             total_grams = v.column4, flagged = v.column5 FROM (VALUES ",
        );
        for (i, (id, emissions)) in chunk.iter().enumerate() {
            let (json, has, grams, flagged) = emissions_columns(emissions.as_ref())?;
            sql.push(if i == 0 { "(" } else { ", (" })
                .text(id.to_string())
                .push(", ")
                .bind(Bind::OptText(json))
                .push(", ")
                .bind(Bind::Bool(has))
                .push(", ")
                .bind(Bind::OptInt(grams))
                .push(", ")
                .bind(Bind::Bool(flagged))
                .push(")");
        }
        sql.push(") AS v WHERE shipments.id = v.column1 AND shipments.account_id = ")
            .text(claim.account_id.to_string());
        sql.execute(conn).await?;
    }
    Ok(())
}

pub(super) async fn finish_calculation(
    conn: &mut Conn,
    claim: &CalculationClaim,
) -> QueryResult<()> {
    jobs::hold(conn, &claim.lease, None).await?;
    let n = on!(&mut *conn, |c| diesel::update(
        shipment_calculations::table
            .filter(shipment_calculations::id.eq(claim.id.to_string()))
            .filter(shipment_calculations::status.eq(PROCESSING)),
    )
    .set((
        shipment_calculations::status.eq(DONE),
        shipment_calculations::lease_owner.eq(None::<String>),
        shipment_calculations::lease_until.eq(None::<time::PrimitiveDateTime>),
    ))
    .execute(c)
    .await)?;
    exactly_one(n)
}
