//! An estimate's answer whichever its kind ([`AnyEstimateResponse`]), the
//! shipping list's entry and the batch entry, and [`render`], which builds
//! them from the domain's `Estimate`.

use rust_decimal::Decimal;
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;
use time::format_description::well_known::Rfc3339;
use tonne_estimation::Distance;
use tonne_estimation::estimate::{Estimate, EstimateDetail};
use tonne_estimation::explain::Part;
use utoipa::ToSchema;

use super::amounts::{AnyMassResponse, distance_response, mass_response, shipping_mass};
use super::base::{EstimateQuoteResponse, EstimateResponse};
use super::company::{
    CompanyComponentsResponse, CompanyEstimateResponse, EmissionFactorEstimateResponse,
};
use super::explanation::explanation_response;
use super::factor::emission_factor;
use super::fuel::{
    ByFuelEstimateResponse, EnergyDensityResponse, FuelLegResponse, FuelMethodologyResponse,
    ScoreOnlyResponse,
};
use super::passenger::{PassengerEstimateResponse, passenger_leg};
use super::queries::RenderOptions;
use super::shipping::{
    MultiLegEstimateResponse, SentRequest, ShippingEstimateResponse, leg_fields, leg_response,
    leg_wtw, shipment_fields,
};
use super::transaction::{TransactionEstimateResponse, transaction_response};
use crate::error::ApiError;

/// An estimate's answer, whichever its kind.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum AnyEstimateResponse {
    /// Electricity, flight, individual.
    Plain(EstimateResponse),
    Passenger(PassengerEstimateResponse),
    Shipping(Box<ShippingEstimateResponse>),
    MultiLeg(Box<MultiLegEstimateResponse>),
    Transaction(Box<TransactionEstimateResponse>),
    Company(Box<CompanyEstimateResponse>),
    EmissionFactor(Box<EmissionFactorEstimateResponse>),
    ByFuel(Box<ByFuelEstimateResponse>),
    TransactionDocument(
        Box<crate::routes::estimates::transaction_documents::wire::TransactionDocumentResponse>,
    ),
}

/// One entry of `GET /v1/estimates/shipping/all`: a single-leg or a multi-leg
/// shipping estimate (the contract's `AnyShippingEmissionEstimate`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
#[schema(as = AnyShippingEmissionEstimate)]
pub enum AnyShippingEstimateResponse {
    /// `SingleShippingEmissionEstimate`.
    Shipping(Box<ShippingEstimateResponse>),
    /// `MultiLegShippingEmissionEstimate`.
    MultiLeg(Box<MultiLegEstimateResponse>),
}

/// Renders an estimate with its quote; `None` for money movement.
pub fn render(
    e: &Estimate,
    quote: EstimateQuoteResponse,
    options: RenderOptions,
) -> Result<Option<AnyEstimateResponse>, ApiError> {
    let Some(mass) = e.mass else { return Ok(None) };
    let request = RawValue::from_string(e.submitted.as_str().to_owned())
        .map_err(|err| ApiError::internal(&anyhow::anyhow!(err)))?;
    let unit = options.mass_unit;
    let shipping = matches!(
        e.detail,
        EstimateDetail::Shipping(_) | EstimateDetail::MultiLegShipping { .. }
    );
    let stages = shipping || matches!(e.detail, EstimateDetail::FuelLegs(_));
    // Only the shipping answers read the request back (the shipment as sent);
    // the other kinds do not parse it again.
    let sent: SentRequest = if shipping {
        serde_json::from_str(e.submitted.as_str()).unwrap_or_default()
    } else {
        SentRequest::default()
    };
    let base = EstimateResponse {
        id: e.id.to_string(),
        mass: if stages {
            let wtw = match &e.detail {
                EstimateDetail::Shipping(l) => leg_wtw(l, e.explanation.parts.first()),
                _ => Some(e.explanation.wtw()).filter(|_| !e.explanation.parts.is_empty()),
            };
            AnyMassResponse::Shipping(shipping_mass(mass, wtw, unit))
        } else {
            AnyMassResponse::Plain(mass_response(mass))
        },
        quote,
        request,
        explanation: explanation_response(&e.explanation),
        metadata: e.annotations.metadata.clone(),
        idempotency_key: e.annotations.idempotency_key.clone(),
    };
    let part = |name: &str| e.explanation.parts.iter().find(|p| p.name == name);
    Ok(Some(match &e.detail {
        EstimateDetail::Plain | EstimateDetail::MoneyMovement => AnyEstimateResponse::Plain(base),
        EstimateDetail::PassengerLegs(legs) => {
            AnyEstimateResponse::Passenger(PassengerEstimateResponse {
                base,
                legs: legs
                    .iter()
                    .enumerate()
                    .map(|(i, m)| passenger_leg(*m, part(&format!("legs[{i}]"))))
                    .collect(),
                is_passenger_transportation: e.annotations.actual.unwrap_or(false),
                passenger_transportation_travelled_at: e
                    .annotations
                    .occurred_at
                    .and_then(|t| t.format(&Rfc3339).ok()),
            })
        }
        EstimateDetail::Shipping(l) => {
            AnyEstimateResponse::Shipping(Box::new(ShippingEstimateResponse {
                base,
                leg: leg_fields(l, part("leg"), &sent, unit),
                shipment: shipment_fields(e, options.logistics_page.as_deref()),
            }))
        }
        EstimateDetail::MultiLegShipping { distance, legs } => {
            let raw = legs
                .iter()
                .map(|l| l.facts.as_ref().map_or(l.distance, |f| f.raw_distance).km())
                .sum::<Decimal>();
            AnyEstimateResponse::MultiLeg(Box::new(MultiLegEstimateResponse {
                base,
                legs: legs
                    .iter()
                    .enumerate()
                    .map(|(i, l)| leg_response(l, part(&format!("legs[{i}]")), &sent, unit))
                    .collect(),
                distance: distance_response(distance),
                raw_distance: distance_response(&Distance::from_km(raw)),
                adjusted_distance: distance_response(distance),
                data_quality_score: None,
                shipment: shipment_fields(e, options.logistics_page.as_deref()),
            }))
        }
        EstimateDetail::Transaction { search_term_match } => AnyEstimateResponse::Transaction(
            Box::new(transaction_response(base, e, search_term_match.as_ref())),
        ),
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
        EstimateDetail::EmissionFactor(f) => {
            AnyEstimateResponse::EmissionFactor(Box::new(EmissionFactorEstimateResponse {
                base,
                emission_factor: crate::routes::emission_factors::factor_body(f),
            }))
        }
        EstimateDetail::TransactionDocument(d) => {
            AnyEstimateResponse::TransactionDocument(Box::new(
                crate::routes::estimates::transaction_documents::wire::document_response(
                    base, e, d,
                ),
            ))
        }
        EstimateDetail::FuelLegs(legs) => {
            AnyEstimateResponse::ByFuel(Box::new(ByFuelEstimateResponse {
                base,
                legs: legs
                    .iter()
                    .enumerate()
                    .map(|(i, l)| FuelLegResponse {
                        mass: shipping_mass(l.mass, Some(l.wtw), unit),
                        emission_factor: part(&format!("legs[{i}]"))
                            .and_then(Part::emission_factor)
                            .map(emission_factor),
                        methodology_details: FuelMethodologyResponse {
                            energy_density: EnergyDensityResponse {
                                amount: l.energy_density.normalize().to_string(),
                                unit: "MJ/l",
                            },
                        },
                    })
                    .collect(),
                data_quality_score: legs
                    .iter()
                    .map(|l| l.grade)
                    .max()
                    .map(|g| ScoreOnlyResponse { score: g.as_str() }),
                shipment: shipment_fields(e, options.logistics_page.as_deref()),
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
