//! Stored emission estimates.

use async_trait::async_trait;
use diesel::prelude::*;
use time::{OffsetDateTime, PrimitiveDateTime};
use tonne_estimation::records::{
    Computed, EstimateKind, EstimateRecord, EstimateRepository, UpdateOutcome,
};
use tonne_kernel::{AccountId, EstimateId, Mass, StoreError};

use crate::db::{AnyConnection, Db};
use crate::error::{corrupt, store_error};
use crate::mapping::{from_sql_time, parse_id, to_sql_time};
use crate::schema::estimates;

/// Estimates on either backend.
#[derive(Debug, Clone)]
pub struct EstimateStore {
    db: Db,
}

impl EstimateStore {
    /// A repository over a pool.
    pub fn new(db: Db) -> Self {
        Self { db }
    }
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = estimates)]
struct EstimateRow {
    id: String,
    account_id: String,
    kind: String,
    mass_grams: Option<i64>,
    request: String,
    result: String,
    order_id: Option<String>,
    created_at: PrimitiveDateTime,
    updated_at: PrimitiveDateTime,
}

fn row(r: &EstimateRecord) -> EstimateRow {
    EstimateRow {
        id: r.id.to_string(),
        account_id: r.account_id.to_string(),
        kind: r.kind.as_str().to_owned(),
        mass_grams: r.computed.mass.map(|m| m.grams()),
        request: r.computed.request.clone(),
        result: r.computed.result.clone(),
        order_id: r.order_id.clone(),
        created_at: to_sql_time(r.created_at),
        updated_at: to_sql_time(r.updated_at),
    }
}

fn record(r: EstimateRow) -> Result<EstimateRecord, diesel::result::Error> {
    Ok(EstimateRecord {
        id: parse_id::<EstimateId>("estimate id", &r.id)?,
        account_id: parse_id::<AccountId>("account id", &r.account_id)?,
        kind: EstimateKind::parse(&r.kind).ok_or_else(|| corrupt("estimate kind", &r.kind))?,
        computed: Computed {
            mass: r.mass_grams.map(Mass::from_grams),
            request: r.request,
            result: r.result,
        },
        order_id: r.order_id,
        created_at: from_sql_time(r.created_at),
        updated_at: from_sql_time(r.updated_at),
    })
}

#[async_trait]
impl EstimateRepository for EstimateStore {
    async fn insert(&self, records: &[EstimateRecord]) -> Result<(), StoreError> {
        let rows: Vec<EstimateRow> = records.iter().map(row).collect();
        self.db
            .write(move |conn| {
                // one multi-row INSERT per 500 rows, in one transaction (batch
                // inserts are not in Diesel's multi-backend dialect: run each on
                // the concrete connection; the same statement on both)
                for chunk in rows.chunks(500) {
                    let insert = diesel::insert_into(estimates::table).values(chunk);
                    match conn {
                        AnyConnection::Postgresql(c) => insert.execute(c)?,
                        AnyConnection::Sqlite(c) => insert.execute(c)?,
                    };
                }
                Ok(())
            })
            .await
            .map_err(|e| store_error(e, "storing estimates"))
    }

    async fn get(
        &self,
        account: AccountId,
        id: EstimateId,
    ) -> Result<Option<EstimateRecord>, StoreError> {
        let (account, id) = (account.to_string(), id.to_string());
        self.db
            .read(move |conn| {
                estimates::table
                    .filter(estimates::id.eq(id))
                    .filter(estimates::account_id.eq(account))
                    .select(EstimateRow::as_select())
                    .first(conn)
                    .optional()?
                    .map(record)
                    .transpose()
            })
            .await
            .map_err(|e| store_error(e, "reading an estimate"))
    }

    async fn update(
        &self,
        account: AccountId,
        id: EstimateId,
        kind: EstimateKind,
        computed: &Computed,
        at: OffsetDateTime,
    ) -> Result<UpdateOutcome, StoreError> {
        let (account, id) = (account.to_string(), id.to_string());
        let computed = computed.clone();
        self.db
            .write(move |conn| {
                let mine = estimates::table
                    .filter(estimates::id.eq(&id))
                    .filter(estimates::account_id.eq(&account))
                    .filter(estimates::kind.eq(kind.as_str()));
                // conditional: an order claims the row with the same kind of
                // statement, so the two serialise on the row
                let updated = diesel::update(mine.filter(estimates::order_id.is_null()))
                    .set((
                        estimates::mass_grams.eq(computed.mass.map(|m| m.grams())),
                        estimates::request.eq(&computed.request),
                        estimates::result.eq(&computed.result),
                        estimates::updated_at.eq(to_sql_time(at)),
                    ))
                    .execute(conn)?;
                if updated == 1 {
                    return Ok(UpdateOutcome::Updated);
                }
                let exists: i64 = mine.count().get_result(conn)?;
                Ok(if exists == 0 {
                    UpdateOutcome::NotFound
                } else {
                    UpdateOutcome::Ordered
                })
            })
            .await
            .map_err(|e| store_error(e, "updating an estimate"))
    }
}
