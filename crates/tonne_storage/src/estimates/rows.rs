//! An estimate's row: the domain's estimate encoded for the table and read
//! back, and what the impact figures count of it.

use diesel::prelude::*;
use time::PrimitiveDateTime;
use tonne_estimation::estimate::{Annotations, Estimate, EstimateKind, Submitted};
use tonne_kernel::{AccountId, EstimateId, Mass};

use super::encoding;
use crate::db::error::{corrupt, encode_error};
use crate::impact::rollups;
use crate::mapping::{from_sql_time, parse_id, to_sql_time};
use crate::schema::estimates;

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = estimates, treat_none_as_default_value = false)]
pub(super) struct EstimateRow {
    pub(super) id: String,
    pub(super) account_id: String,
    pub(super) kind: String,
    pub(super) mass_grams: Option<i64>,
    pub(super) request: String,
    pub(super) result: String,
    pub(super) order_id: Option<String>,
    pub(super) created_at: PrimitiveDateTime,
    pub(super) updated_at: PrimitiveDateTime,
    pub(super) idempotency_key: Option<String>,
    /// JSON object of strings.
    pub(super) metadata: String,
    pub(super) actual: Option<bool>,
    pub(super) occurred_at: Option<PrimitiveDateTime>,
}

pub(super) fn row(e: &Estimate) -> Result<EstimateRow, diesel::result::Error> {
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
        idempotency_key: e.annotations.idempotency_key.clone(),
        metadata: serde_json::to_string(&e.annotations.metadata).map_err(encode_error)?,
        actual: e.annotations.actual,
        occurred_at: e.annotations.occurred_at.map(to_sql_time),
    })
}

pub(super) fn estimate(r: EstimateRow) -> Result<Estimate, diesel::result::Error> {
    let kind = EstimateKind::parse(&r.kind).ok_or_else(|| corrupt("estimate kind", &r.kind))?;
    let mass = r.mass_grams.map(Mass::from_grams);
    let (detail, explanation, quote) = encoding::decode(kind, mass, &r.result, &r.request)
        .ok_or_else(|| corrupt("estimate result", &r.id))?;
    let annotations = annotations(
        &r.id,
        r.idempotency_key,
        &r.metadata,
        r.actual,
        r.occurred_at,
    )?;
    Ok(Estimate {
        id: parse_id::<EstimateId>("estimate id", &r.id)?,
        account_id: parse_id::<AccountId>("account id", &r.account_id)?,
        kind,
        mass,
        detail,
        explanation,
        quote,
        submitted: Submitted::new(r.request),
        annotations,
        order_id: r.order_id,
        created_at: from_sql_time(r.created_at),
        updated_at: from_sql_time(r.updated_at),
    })
}

/// The stored annotations.
pub(super) fn annotations(
    id: &str,
    idempotency_key: Option<String>,
    metadata: &str,
    actual: Option<bool>,
    occurred_at: Option<PrimitiveDateTime>,
) -> Result<Annotations, diesel::result::Error> {
    Ok(Annotations {
        idempotency_key,
        metadata: serde_json::from_str(metadata).map_err(|_| corrupt("estimate metadata", id))?,
        actual,
        occurred_at: occurred_at.map(from_sql_time),
    })
}

/// What a new estimate adds to the impact domain's daily counts.
pub(super) fn counted(r: &EstimateRow) -> rollups::CountedEstimate<'_> {
    rollups::CountedEstimate {
        account: &r.account_id,
        created_at: r.created_at,
        kind: &r.kind,
        count: 1,
        grams: r.mass_grams.unwrap_or(0),
    }
}
