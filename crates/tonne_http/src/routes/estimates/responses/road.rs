//! The load model of a road leg (the contract's `RoadMethodologyDetails`).

use rust_decimal::Decimal;
use serde::Serialize;
use utoipa::ToSchema;

/// The contract's `RoadMethodologyDetails`: the load model of a road leg.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = RoadMethodologyDetails)]
pub struct RoadMethodologyResponse {
    energy_consumption: EnergyConsumptionResponse,
    /// Tonnes (DESNZ's full payload of the class).
    vehicle_capacity: String,
    load_factor: f64,
    empty_runs_factor: f64,
    emission_standard: String,
    /// `load_factor × (1 − empty_runs_factor)`.
    capacity_utilisation: f64,
    situation: String,
    gradient: String,
}

/// MJ per tonne·km.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = EnergyConsumption)]
pub struct EnergyConsumptionResponse {
    amount: String,
    /// Always `MJ/tkm`.
    unit: &'static str,
}

/// What the contract requires and DESNZ's rows do not vary with, when not
/// sent: placeholders (docs/API.md).
const ROAD_PLACEHOLDERS: (&str, &str, &str) = ("flat", "motorway_rural_freeflow", "euro6");

pub(super) fn road_details(r: &tonne_estimation::estimate::RoadFacts) -> RoadMethodologyResponse {
    use rust_decimal::prelude::ToPrimitive;
    let number = |d: Decimal| d.to_f64().unwrap_or_default();
    RoadMethodologyResponse {
        energy_consumption: EnergyConsumptionResponse {
            amount: r.energy_mj_per_tkm.normalize().to_string(),
            unit: "MJ/tkm",
        },
        vehicle_capacity: r.capacity_t.normalize().to_string(),
        load_factor: number(r.load_factor),
        empty_runs_factor: number(r.empty_runs_factor),
        emission_standard: r
            .emission_standard
            .clone()
            .unwrap_or_else(|| ROAD_PLACEHOLDERS.2.into()),
        capacity_utilisation: number(r.capacity_utilisation),
        situation: r
            .situation
            .clone()
            .unwrap_or_else(|| ROAD_PLACEHOLDERS.1.into()),
        gradient: r
            .gradient
            .clone()
            .unwrap_or_else(|| ROAD_PLACEHOLDERS.0.into()),
    }
}
