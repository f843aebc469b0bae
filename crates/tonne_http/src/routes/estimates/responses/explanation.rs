//! Tonne's `explanation` of an estimate's mass: its parts, the factors they
//! used and the quantities those multiplied.

use serde::Serialize;
use tonne_estimation::explain::Explanation;
use utoipa::ToSchema;

use super::amounts::{MassResponse, mass_response};

/// How an estimate's mass was obtained: its parts (adding up to `mass`) and notes.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ExplanationDoc)]
pub struct ExplanationResponse {
    parts: Vec<ExplanationPartResponse>,
    /// Fallbacks, precision, floors.
    notes: Vec<String>,
    /// The factor set it was computed with (absent for estimates stored
    /// before Tonne recorded it); a `PUT` answers the set that recomputed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    factor_set: Option<String>,
}

/// One part of the mass.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = PartDoc)]
pub struct ExplanationPartResponse {
    /// `consumption`, `flight`, `legs[0]`, `energy`, …
    name: String,
    mass: MassResponse,
    /// The well-to-tank mass inside `mass`, for a part computed
    /// well-to-wheel or well-to-wake (freight legs, flights and passenger
    /// legs by aircraft type); absent when `mass` is its factors' product.
    #[serde(skip_serializing_if = "Option::is_none")]
    wtt: Option<MassResponse>,
    factors: Vec<FactorResponse>,
    quantities: Vec<QuantityResponse>,
}

/// A factor used, with its provenance.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = FactorDoc)]
pub struct FactorResponse {
    /// Tonne's stable name, e.g. `RAIL_NATIONAL`, `grid:DEU`, `mcc:5812`.
    id: String,
    /// Decimal string.
    value: String,
    unit: String,
    /// Publication (or Tonne's stated assumption, marked `[A]`).
    source: String,
    /// Table and row.
    #[serde(skip_serializing_if = "Option::is_none")]
    row: Option<String>,
    /// Year of the data.
    #[serde(skip_serializing_if = "Option::is_none")]
    year: Option<u16>,
    /// Its id in `GET /v1/emission-factors` (emission factors only; absent
    /// for conversion constants and estimates stored before Tonne recorded it).
    #[serde(skip_serializing_if = "Option::is_none")]
    catalogue_id: Option<String>,
}

/// An activity quantity a factor multiplied.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = QuantityDoc)]
pub struct QuantityResponse {
    name: String,
    /// Decimal string.
    amount: String,
    unit: String,
    /// How it was obtained.
    method: String,
}

pub(super) fn explanation_response(e: &Explanation) -> ExplanationResponse {
    ExplanationResponse {
        parts: e
            .parts
            .iter()
            .map(|p| ExplanationPartResponse {
                name: p.name.clone(),
                mass: mass_response(p.mass),
                wtt: p.wtt.map(mass_response),
                factors: p
                    .factors
                    .iter()
                    .map(|f| FactorResponse {
                        id: f.id.clone(),
                        value: f.value.normalize().to_string(),
                        unit: f.unit.clone(),
                        source: f.source.clone(),
                        row: f.row.clone(),
                        year: f.year,
                        catalogue_id: f.catalogue_id.clone(),
                    })
                    .collect(),
                quantities: p
                    .quantities
                    .iter()
                    .map(|q| QuantityResponse {
                        name: q.name.clone(),
                        amount: q.amount.normalize().to_string(),
                        unit: q.unit.clone(),
                        method: q.method.clone(),
                    })
                    .collect(),
            })
            .collect(),
        notes: e.notes.clone(),
        factor_set: e.factor_set.clone(),
    }
}
