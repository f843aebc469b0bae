//! Stored emission estimates: one row each, the typed result encoded by
//! [`encoding`] in `result`, the caller's submitted document in `request`.

mod encoding;

use async_trait::async_trait;
use diesel::prelude::*;
use time::{OffsetDateTime, PrimitiveDateTime};
use tonne_estimation::estimate::{Estimate, EstimateKind, Submitted};
use tonne_estimation::ports::{EstimateRepository, UpdateOutcome};
use tonne_kernel::{AccountId, EstimateId, Mass, StoreError};

use crate::db::{AnyConnection, Db, DbError};
use crate::error::{corrupt, encode_error, store_error};
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

fn row(e: &Estimate) -> Result<EstimateRow, diesel::result::Error> {
    let result = encoding::Stored::encode(&e.detail, &e.explanation, &e.quote);
    Ok(EstimateRow {
        id: e.id.to_string(),
        account_id: e.account_id.to_string(),
        kind: e.kind.as_str().to_owned(),
        mass_grams: e.mass.map(|m| m.grams()),
        request: e.submitted.as_str().to_owned(),
        result: serde_json::to_string(&result).map_err(encode_error)?,
        order_id: e.order_id.clone(),
        created_at: to_sql_time(e.created_at),
        updated_at: to_sql_time(e.updated_at),
    })
}

fn estimate(r: EstimateRow) -> Result<Estimate, diesel::result::Error> {
    let kind = EstimateKind::parse(&r.kind).ok_or_else(|| corrupt("estimate kind", &r.kind))?;
    let mass = r.mass_grams.map(Mass::from_grams);
    let (detail, explanation, quote) = encoding::decode(kind, mass, &r.result, &r.request)
        .ok_or_else(|| corrupt("estimate result", &r.id))?;
    Ok(Estimate {
        id: parse_id::<EstimateId>("estimate id", &r.id)?,
        account_id: parse_id::<AccountId>("account id", &r.account_id)?,
        kind,
        mass,
        detail,
        explanation,
        quote,
        submitted: Submitted::new(r.request),
        order_id: r.order_id,
        created_at: from_sql_time(r.created_at),
        updated_at: from_sql_time(r.updated_at),
    })
}

#[async_trait]
impl EstimateRepository for EstimateStore {
    async fn insert(&self, estimates: &[Estimate]) -> Result<(), StoreError> {
        let rows = estimates
            .iter()
            .map(row)
            .collect::<Result<Vec<EstimateRow>, _>>()
            .map_err(|e| store_error(DbError::Query(e), "encoding estimates"))?;
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
    ) -> Result<Option<Estimate>, StoreError> {
        let (account, id) = (account.to_string(), id.to_string());
        self.db
            .read(move |conn| {
                estimates::table
                    .filter(estimates::id.eq(id))
                    .filter(estimates::account_id.eq(account))
                    .select(EstimateRow::as_select())
                    .first(conn)
                    .optional()?
                    .map(estimate)
                    .transpose()
            })
            .await
            .map_err(|e| store_error(e, "reading an estimate"))
    }

    async fn update(&self, e: &Estimate, at: OffsetDateTime) -> Result<UpdateOutcome, StoreError> {
        let new = row(e).map_err(|e| store_error(DbError::Query(e), "encoding an estimate"))?;
        self.db
            .write(move |conn| {
                let mine = estimates::table
                    .filter(estimates::id.eq(&new.id))
                    .filter(estimates::account_id.eq(&new.account_id))
                    .filter(estimates::kind.eq(&new.kind));
                // conditional: an order claims the row with the same kind of
                // statement, so the two serialise on the row
                let updated = diesel::update(mine.filter(estimates::order_id.is_null()))
                    .set((
                        estimates::mass_grams.eq(new.mass_grams),
                        estimates::request.eq(&new.request),
                        estimates::result.eq(&new.result),
                        estimates::updated_at.eq(to_sql_time(at)),
                    ))
                    .execute(conn)?;
                let created: Option<(PrimitiveDateTime, Option<String>)> = mine
                    .select((estimates::created_at, estimates::order_id))
                    .first(conn)
                    .optional()?;
                Ok(match (updated, created) {
                    (1, Some((created_at, _))) => UpdateOutcome::Updated {
                        created_at: from_sql_time(created_at),
                    },
                    (_, None) => UpdateOutcome::NotFound,
                    (_, Some(_)) => UpdateOutcome::Ordered,
                })
            })
            .await
            .map_err(|e| store_error(e, "updating an estimate"))
    }
}
