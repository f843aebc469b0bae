//! The estimate answers: one Rust type per contract schema (`…Response`, the
//! contract's schema name kept in the OpenAPI document), and [`render`], which
//! builds them from the domain's `Estimate`.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;
use tonne_estimation::Distance;
use tonne_estimation::estimate::{Estimate, EstimateDetail, ShippingLeg};
use tonne_estimation::explain::Explanation;
use tonne_kernel::Mass;
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::wire::QuoteBody;

/// The quote of an estimate: `OrderQuoteByQuantity`, or the `Errors` of a
/// selection that cannot be quoted (the estimate itself still succeeds).
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum EstimateQuoteResponse {
    /// The quote.
    Quote(Box<QuoteBody>),
    /// Why there is none.
    Errors(Value),
}

/// The contract's `EmissionEstimateResponse` (the base of every kind's answer).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = EstimateDoc)]
pub struct EstimateResponse {
    /// 32-character id.
    id: String,
    /// CO2e in tonnes.
    mass: MassResponse,
    /// `OrderQuoteByQuantity`, or `Errors` when quoting failed.
    #[schema(value_type = Object)]
    quote: EstimateQuoteResponse,
    /// The request as accepted.
    #[schema(value_type = Object)]
    request: Box<RawValue>,
    /// Tonne's extension: how the mass was obtained (see docs/API.md).
    explanation: ExplanationResponse,
    /// The `metadata` sent with the request (absent when none).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    metadata: BTreeMap<String, String>,
    /// The `idempotency_key` sent with the request.
    #[serde(skip_serializing_if = "Option::is_none")]
    idempotency_key: Option<String>,
}

/// A mass in the answers (tonnes).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = MassDoc)]
pub struct MassResponse {
    /// Decimal string, up to six decimals.
    amount: String,
    /// Always `t`.
    unit: &'static str,
}

pub fn mass_response(m: Mass) -> MassResponse {
    MassResponse {
        amount: m.to_tonnes_string(),
        unit: "t",
    }
}

/// A distance in the answers (km).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = DistanceDoc)]
pub struct DistanceResponse {
    /// Decimal string, up to three decimals.
    amount: String,
    /// Always `km`.
    unit: &'static str,
}

fn distance_response(d: &Distance) -> DistanceResponse {
    DistanceResponse {
        amount: d.to_km_string(),
        unit: "km",
    }
}

/// How an estimate's mass was obtained: its parts (adding up to `mass`) and notes.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ExplanationDoc)]
pub struct ExplanationResponse {
    parts: Vec<ExplanationPartResponse>,
    /// Fallbacks, precision, floors.
    notes: Vec<String>,
}

/// One part of the mass.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = PartDoc)]
pub struct ExplanationPartResponse {
    /// `consumption`, `flight`, `legs[0]`, `energy`, …
    name: String,
    mass: MassResponse,
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

fn explanation_response(e: &Explanation) -> ExplanationResponse {
    ExplanationResponse {
        parts: e
            .parts
            .iter()
            .map(|p| ExplanationPartResponse {
                name: p.name.clone(),
                mass: mass_response(p.mass),
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
    }
}

/// One passenger leg's estimate.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = PassengerLegDoc)]
pub struct PassengerLegResponse {
    mass: MassResponse,
}

/// The contract's `PassengerTransportationEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = PassengerEstimateDoc)]
pub struct PassengerEstimateResponse {
    #[serde(flatten)]
    base: EstimateResponse,
    /// Per leg, in request order.
    legs: Vec<PassengerLegResponse>,
}

/// The contract's `ShippingLegEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ShippingLegDoc)]
pub struct ShippingLegResponse {
    mass: MassResponse,
    distance: DistanceResponse,
    /// Fallbacks used (`imo_unavailable_container_ship_fallback`, `…_trade_lane_fallback`).
    methodology: Vec<&'static str>,
}

fn leg_response(l: &ShippingLeg) -> ShippingLegResponse {
    ShippingLegResponse {
        mass: mass_response(l.mass),
        distance: distance_response(&l.distance),
        methodology: l.methodology.iter().map(|m| m.as_str()).collect(),
    }
}

/// The contract's `SingleShippingEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ShippingEstimateDoc)]
pub struct ShippingEstimateResponse {
    #[serde(flatten)]
    base: EstimateResponse,
    /// Distance used.
    distance: DistanceResponse,
    /// Fallbacks used.
    methodology: Vec<&'static str>,
}

/// The contract's `MultiLegShippingEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = MultiLegEstimateDoc)]
pub struct MultiLegEstimateResponse {
    #[serde(flatten)]
    base: EstimateResponse,
    /// Per leg, in request order.
    legs: Vec<ShippingLegResponse>,
    /// Σ legs.
    distance: DistanceResponse,
}

/// The contract's `TransactionEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TransactionEstimateDoc)]
pub struct TransactionEstimateResponse {
    #[serde(flatten)]
    base: EstimateResponse,
    /// The text a `fuzzy_search_term` matched.
    #[serde(skip_serializing_if = "Option::is_none")]
    search_term_match: Option<String>,
}

/// Company components (each a part of the total).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CompanyComponentsDoc)]
pub struct CompanyComponentsResponse {
    material_and_waste: MassResponse,
    energy: MassResponse,
    travel_and_commute: MassResponse,
    food_and_drink: MassResponse,
    tech: MassResponse,
    remote_employee: MassResponse,
}

/// The contract's `CompanyEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CompanyEstimateDoc)]
pub struct CompanyEstimateResponse {
    #[serde(flatten)]
    base: EstimateResponse,
    scope1: MassResponse,
    scope2: MassResponse,
    scope3: MassResponse,
    components: CompanyComponentsResponse,
}

/// An estimate's answer, whichever its kind.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum AnyEstimateResponse {
    /// Electricity, flight, individual.
    Plain(EstimateResponse),
    Passenger(PassengerEstimateResponse),
    Shipping(ShippingEstimateResponse),
    MultiLeg(MultiLegEstimateResponse),
    Transaction(TransactionEstimateResponse),
    Company(Box<CompanyEstimateResponse>),
}

/// Renders an estimate with its quote; `None` for money movement.
pub fn render(
    e: &Estimate,
    quote: EstimateQuoteResponse,
) -> Result<Option<AnyEstimateResponse>, ApiError> {
    let Some(mass) = e.mass else { return Ok(None) };
    let request = RawValue::from_string(e.submitted.as_str().to_owned())
        .map_err(|err| ApiError::internal(&anyhow::anyhow!(err)))?;
    let base = EstimateResponse {
        id: e.id.to_string(),
        mass: mass_response(mass),
        quote,
        request,
        explanation: explanation_response(&e.explanation),
        metadata: e.annotations.metadata.clone(),
        idempotency_key: e.annotations.idempotency_key.clone(),
    };
    Ok(Some(match &e.detail {
        EstimateDetail::Plain | EstimateDetail::MoneyMovement => AnyEstimateResponse::Plain(base),
        EstimateDetail::PassengerLegs(legs) => {
            AnyEstimateResponse::Passenger(PassengerEstimateResponse {
                base,
                legs: legs
                    .iter()
                    .map(|m| PassengerLegResponse {
                        mass: mass_response(*m),
                    })
                    .collect(),
            })
        }
        EstimateDetail::Shipping(l) => AnyEstimateResponse::Shipping(ShippingEstimateResponse {
            base,
            distance: distance_response(&l.distance),
            methodology: l.methodology.iter().map(|m| m.as_str()).collect(),
        }),
        EstimateDetail::MultiLegShipping { distance, legs } => {
            AnyEstimateResponse::MultiLeg(MultiLegEstimateResponse {
                base,
                legs: legs.iter().map(leg_response).collect(),
                distance: distance_response(distance),
            })
        }
        EstimateDetail::Transaction { search_term_match } => {
            AnyEstimateResponse::Transaction(TransactionEstimateResponse {
                base,
                search_term_match: search_term_match.clone(),
            })
        }
        EstimateDetail::Company(c) => {
            AnyEstimateResponse::Company(Box::new(CompanyEstimateResponse {
                base,
                scope1: mass_response(c.scope1),
                scope2: mass_response(c.scope2),
                scope3: mass_response(c.scope3),
                components: CompanyComponentsResponse {
                    material_and_waste: mass_response(c.material_and_waste),
                    energy: mass_response(c.energy),
                    travel_and_commute: mass_response(c.travel_and_commute),
                    food_and_drink: mass_response(c.food_and_drink),
                    tech: mass_response(c.tech),
                    remote_employee: mass_response(c.remote_employee),
                },
            }))
        }
    }))
}

/// One answer of a batch: an estimate, the `Errors` of a refused entry, or
/// `{}` for money movement.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum BatchEntryResponse {
    /// An estimate.
    Estimate(Box<AnyEstimateResponse>),
    /// Why the entry was refused.
    Errors(Value),
    /// Money movement.
    Empty {},
}
