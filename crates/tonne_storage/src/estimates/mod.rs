//! Stored emission estimates: one row each, the typed result encoded by
//! [`encoding`] in `result`, the caller's submitted document in `request`;
//! the impact domain's daily counts are kept in the same transactions.

mod counted;
mod document;
mod document_jobs;
mod document_quotas;

pub use document_jobs::DocumentJobStore;
use rows::{EstimateRow, annotations, counted, estimate, row};
mod encoding;
mod rows;

use std::sync::Arc;

use async_trait::async_trait;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use time::{OffsetDateTime, PrimitiveDateTime};
use tonne_estimation::estimate::{Annotations, Estimate, EstimateFilter, EstimateKind};
use tonne_estimation::ports::{EstimateRepository, UpdateOutcome};
use tonne_kernel::{AccountId, Cursor, EstimateId, Page, PageRequest, StoreError};

use crate::db::error::{encode_error, store_error};
use crate::db::{Backend, Conn, Db, DbError, KeepPrepared, first_row};
use crate::impact::rollups;
use crate::mapping::{from_sql_time, to_sql_time};
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

/// The creation and mass of an estimate an update may change, its row locked
/// on PostgreSQL until the transaction ends (SQLite has one writer), so that
/// the daily counts take away the mass the update replaces.
async fn mass_before(
    conn: &mut Conn,
    new: &EstimateRow,
) -> QueryResult<Option<(PrimitiveDateTime, Option<i64>)>> {
    let q = estimates::table
        .filter(estimates::id.eq(&new.id))
        .filter(estimates::account_id.eq(&new.account_id))
        .filter(estimates::kind.eq(&new.kind))
        .filter(estimates::order_id.is_null())
        .select((estimates::created_at, estimates::mass_grams));
    match conn {
        Conn::Pg(c) => q.for_update().first(&mut **c).await.optional(),
        Conn::Sqlite(c) => q.first(&mut **c).await.optional(),
    }
}

/// Every row in one statement of fixed text on PostgreSQL: each column's
/// values bound as one array and unnested, so the statement is prepared once
/// per connection whatever the number of rows (a multi-row `VALUES` would be
/// a new statement, parsed and planned afresh, for each count).
const INSERT_UNNESTED: &str = "INSERT INTO estimates (id, account_id, kind, mass_grams, request, \
     result, order_id, created_at, updated_at, idempotency_key, metadata, actual, occurred_at) \
     SELECT * FROM UNNEST($1::text[], $2::text[], $3::text[], $4::int8[], $5::text[], $6::text[], \
     $7::text[], $8::timestamp[], $9::timestamp[], $10::text[], $11::text[], $12::bool[], \
     $13::timestamp[])";

/// Inserts `rows`: on PostgreSQL in one statement (`INSERT_UNNESTED`), on
/// SQLite one multi-row INSERT per 500 rows (batch inserts of rows with
/// optional columns do not build for SQLite's asynchronous wrapper: there
/// Diesel writes each batch on the blocking connection itself).
async fn insert_rows(conn: &mut Conn, rows: &Arc<[EstimateRow]>) -> QueryResult<()> {
    use diesel::sql_types::{Array, BigInt, Bool, Nullable, Text, Timestamp};
    match conn {
        Conn::Pg(c) => {
            macro_rules! column {
                ($field:ident) => {
                    rows.iter().map(|r| &r.$field).collect::<Vec<_>>()
                };
            }
            diesel::sql_query(INSERT_UNNESTED)
                .bind::<Array<Text>, _>(column!(id))
                .bind::<Array<Text>, _>(column!(account_id))
                .bind::<Array<Text>, _>(column!(kind))
                .bind::<Array<Nullable<BigInt>>, _>(column!(mass_grams))
                .bind::<Array<Text>, _>(column!(request))
                .bind::<Array<Text>, _>(column!(result))
                .bind::<Array<Nullable<Text>>, _>(column!(order_id))
                .bind::<Array<Timestamp>, _>(column!(created_at))
                .bind::<Array<Timestamp>, _>(column!(updated_at))
                .bind::<Array<Nullable<Text>>, _>(column!(idempotency_key))
                .bind::<Array<Text>, _>(column!(metadata))
                .bind::<Array<Nullable<Bool>>, _>(column!(actual))
                .bind::<Array<Nullable<Timestamp>>, _>(column!(occurred_at))
                .kept()
                .execute(&mut **c)
                .await?;
        }
        Conn::Sqlite(c) => {
            let rows = Arc::clone(rows);
            c.spawn_blocking(move |c| {
                for chunk in rows.chunks(500) {
                    diesel::RunQueryDsl::execute(
                        diesel::insert_into(estimates::table).values(chunk),
                        c,
                    )?;
                }
                Ok(())
            })
            .await?;
        }
    }
    Ok(())
}

type AnnotationColumns = (
    Option<String>,
    String,
    Option<bool>,
    Option<PrimitiveDateTime>,
);

#[async_trait]
impl EstimateRepository for EstimateStore {
    async fn daily_counts(
        &self,
        since: OffsetDateTime,
    ) -> Result<Vec<(time::Date, u64)>, StoreError> {
        crate::stats::estimates(&self.db, since).await
    }

    async fn insert(&self, estimates: &[Estimate]) -> Result<(), StoreError> {
        let rows = estimates
            .iter()
            .map(row)
            .collect::<Result<Vec<EstimateRow>, _>>()
            .map_err(|e| store_error(DbError::Query(e), "encoding estimates"))?;
        // One estimate (every estimate route but the batch) is one statement
        // on PostgreSQL (`counted`), sent with `Db::write_one`; SQLite, and
        // batches, write in a transaction. The rows are shared, not copied.
        let rows: Arc<[EstimateRow]> = rows.into();
        let one = match self.db.backend() {
            Backend::Postgres => counted::CountedInsert::of_one(&rows),
            Backend::Sqlite => None,
        };
        if let Some(statement) = one {
            return self
                .db
                .write_one(statement)
                .await
                .map_err(|e| store_error(e, "storing estimates"));
        }
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    insert_rows(&mut *conn, &rows).await?;
                    rollups::estimates_counted(conn, rows.iter().map(counted)).await
                })
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
        // `&self.db`: `Db::load`, not diesel-async's `load` that every value has
        let rows = load!(&self.db, (account, id) => estimates::table
            .filter(estimates::id.eq(id))
            .filter(estimates::account_id.eq(account))
            .select(EstimateRow::as_select())
            .limit(1))
        .await;
        first_row(rows, estimate).map_err(|e| store_error(e, "reading an estimate"))
    }

    async fn list(
        &self,
        account: AccountId,
        kinds: &[EstimateKind],
        filter: &EstimateFilter,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Estimate>, StoreError> {
        let account = account.to_string();
        let kinds: Vec<&'static str> = kinds.iter().map(|k| k.as_str()).collect();
        let (after, limit) = crate::mapping::keyset(page);
        let filter = filter.clone();
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let position: Option<(PrimitiveDateTime, String)> = match after {
                        None => None,
                        Some(after) => Some(on!(&mut *conn, |c| estimates::table
                            .filter(estimates::id.eq(&after))
                            .filter(estimates::account_id.eq(&account))
                            .select((estimates::created_at, estimates::id))
                            .first(c)
                            .await)?),
                    };
                    let rows: Vec<EstimateRow> = on!(conn, |c| {
                        let mut q = estimates::table
                            .filter(estimates::account_id.eq(&account))
                            .filter(estimates::kind.eq_any(kinds))
                            .select(EstimateRow::as_select())
                            .into_boxed();
                        match filter.actual {
                            Some(true) => q = q.filter(estimates::actual.eq(true)),
                            Some(false) => {
                                q = q.filter(
                                    estimates::actual.is_null().or(estimates::actual.eq(false)),
                                );
                            }
                            None => {}
                        }
                        if let Some(from) = filter.created_from {
                            q = q.filter(estimates::created_at.ge(to_sql_time(from)));
                        }
                        if let Some(through) = filter.created_through {
                            q = q.filter(estimates::created_at.le(to_sql_time(through)));
                        }
                        if let Some((at, id)) = &position {
                            let (at, id) = (*at, id.clone());
                            // `created_at <= at` bounds the index range scan; the OR
                            // only breaks ties at the boundary (as orders do).
                            q = q
                                .filter(estimates::created_at.le(at))
                                .filter(estimates::created_at.lt(at).or(estimates::id.lt(id)));
                        }
                        q.order((estimates::created_at.desc(), estimates::id.desc()))
                            .limit(i64::from(limit.get()) + 1)
                            .load(c)
                            .await
                    })?;
                    let items = rows
                        .into_iter()
                        .map(estimate)
                        .collect::<Result<Vec<_>, _>>()?;
                    Ok(Page::from_overfetch(items, limit))
                })
            })
            .await
            .map_err(|e| store_error(e, "listing estimates"))
    }

    async fn get_by_idempotency_key(
        &self,
        account: AccountId,
        key: &str,
    ) -> Result<Option<Estimate>, StoreError> {
        let (account, key) = (account.to_string(), key.to_owned());
        // `&self.db`: `Db::load`, not diesel-async's `load` that every value has
        let rows = load!(&self.db, (account, key) => estimates::table
            .filter(estimates::account_id.eq(account))
            .filter(estimates::idempotency_key.eq(key))
            .select(EstimateRow::as_select())
            .limit(1))
        .await;
        first_row(rows, estimate)
            .map_err(|e| store_error(e, "reading an estimate by idempotency key"))
    }

    async fn annotate(
        &self,
        account: AccountId,
        id: EstimateId,
        annotations: &Annotations,
        at: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        let (account, id) = (account.to_string(), id.to_string());
        let key = annotations.idempotency_key.clone();
        let metadata = serde_json::to_string(&annotations.metadata)
            .map_err(|e| store_error(DbError::Query(encode_error(e)), "encoding annotations"))?;
        let (actual, occurred_at) = (annotations.actual, annotations.occurred_at.map(to_sql_time));
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    let updated = on!(conn, |c| diesel::update(
                        estimates::table
                            .filter(estimates::id.eq(&id))
                            .filter(estimates::account_id.eq(&account)),
                    )
                    .set((
                        estimates::idempotency_key.eq(&key),
                        estimates::metadata.eq(&metadata),
                        estimates::actual.eq(actual),
                        estimates::occurred_at.eq(occurred_at),
                        estimates::updated_at.eq(to_sql_time(at)),
                    ))
                    .execute(c)
                    .await)?;
                    Ok(updated == 1)
                })
            })
            .await
            .map_err(|e| store_error(e, "annotating an estimate"))
    }

    async fn update(&self, e: &Estimate, at: OffsetDateTime) -> Result<UpdateOutcome, StoreError> {
        let new = row(e).map_err(|e| store_error(DbError::Query(e), "encoding an estimate"))?;
        let sent_metadata = !e.annotations.metadata.is_empty();
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    let mine = estimates::table
                        .filter(estimates::id.eq(&new.id))
                        .filter(estimates::account_id.eq(&new.account_id))
                        .filter(estimates::kind.eq(&new.kind));
                    let before = mass_before(&mut *conn, &new).await?;
                    // conditional: an order claims the row with the same kind of
                    // statement, so the two serialise on the row
                    let updated = on!(&mut *conn, |c| diesel::update(
                        mine.filter(estimates::order_id.is_null())
                    )
                    .set((
                        estimates::mass_grams.eq(new.mass_grams),
                        estimates::request.eq(&new.request),
                        estimates::result.eq(&new.result),
                        estimates::updated_at.eq(to_sql_time(at)),
                        // annotations a PUT does not send stay as they are
                        new.idempotency_key
                            .as_ref()
                            .map(|k| estimates::idempotency_key.eq(k)),
                        sent_metadata.then(|| estimates::metadata.eq(&new.metadata)),
                        new.actual.map(|a| estimates::actual.eq(a)),
                        new.occurred_at.map(|t| estimates::occurred_at.eq(t)),
                    ))
                    .execute(c)
                    .await)?;
                    let created: Option<(PrimitiveDateTime, Option<String>, AnnotationColumns)> =
                        on!(&mut *conn, |c| mine
                            .select((
                                estimates::created_at,
                                estimates::order_id,
                                (
                                    estimates::idempotency_key,
                                    estimates::metadata,
                                    estimates::actual,
                                    estimates::occurred_at,
                                ),
                            ))
                            .first(c)
                            .await)
                        .optional()?;
                    if updated == 1
                        && let Some((created_at, grams)) = before
                    {
                        let change = new.mass_grams.unwrap_or(0) - grams.unwrap_or(0);
                        rollups::estimates_counted(
                            conn,
                            [rollups::CountedEstimate {
                                account: &new.account_id,
                                created_at,
                                kind: &new.kind,
                                count: 0,
                                grams: change,
                            }],
                        )
                        .await?;
                    }
                    Ok(match (updated, created) {
                        (1, Some((created_at, _, (key, metadata, actual, occurred_at)))) => {
                            UpdateOutcome::Updated {
                                created_at: from_sql_time(created_at),
                                annotations: annotations(
                                    &new.id,
                                    key,
                                    &metadata,
                                    actual,
                                    occurred_at,
                                )?,
                            }
                        }
                        (_, None) => UpdateOutcome::NotFound,
                        (_, Some(_)) => UpdateOutcome::Ordered,
                    })
                })
            })
            .await
            .map_err(|e| store_error(e, "updating an estimate"))
    }
}
