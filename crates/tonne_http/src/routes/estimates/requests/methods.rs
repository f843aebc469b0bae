//! A shipping leg's method: the contract's simple names, sea vessels,
//! containers, aircraft types and flight numbers, road vehicles, and a vessel
//! inferred from its IMO number; each checked and turned into the engine's
//! [`Method`].

use serde::{Deserialize, Serialize};
use tonne_estimation::shipping::{self, Fuel, Method, Vessel};
// the contract's vocabularies, stated once for the estimates and the shipments
use tonne_wire::shipments::vocab::{
    CARRIERS, ESTIMATE_ROAD_EMISSION_STANDARDS as EMISSION_STANDARDS, ROAD_GRADIENTS as GRADIENTS,
    ROAD_SITUATIONS as SITUATIONS, TRADE_LANES,
};
use utoipa::ToSchema;

use super::fields::at;
use crate::error::ApiError;

/// A sea vessel method (`SeaShippingMethod`).
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = SeaMethodBody)]
pub struct SeaMethodRequest {
    /// `sea_*` vessel type.
    pub vessel_type: String,
    /// HFO, MGO (LNG for `sea_oil_tanker_huge`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fuel: Option<String>,
    /// Load (bulk carriers: average/heavy; RoRo: freight_only/truck_and_trailer/trailer_only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load: Option<String>,
}

/// A container ship or an identified vessel.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = ContainerMethodBody)]
pub struct ContainerMethodRequest {
    /// The vessel's IMO number (7 digits).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vessel_imo_number: Option<String>,
    /// `container_ship`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vessel_type: Option<String>,
    /// Refrigerated (default false).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refrigerated: Option<bool>,
    /// Trade lane.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trade_lane: Option<String>,
}

/// Air freight on an ICAO aircraft type (`AircraftTypeMethod`, client 3.x).
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = AircraftTypeMethodBody)]
pub struct AircraftTypeMethodRequest {
    /// ICAO type designator, e.g. `B789`.
    pub aircraft_type: String,
}

/// Air freight on a flight (`FlightNumberMethod`).
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = FlightNumberMethodBody)]
pub struct FlightNumberMethodRequest {
    /// ICAO or IATA flight number.
    pub flight_number: String,
    /// Departure date (UTC), `YYYY-MM-DD`.
    pub departure_on: String,
    /// `plane` (default), `cargo_plane` or `passenger_plane`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aircraft_configuration: Option<String>,
}

/// The contract's `RoadShippingMethod` (3.9.2 adds `refrigerated`, and the
/// fuels `lng` and `auto_detect`).
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = RoadShippingMethodBody)]
pub struct RoadMethodRequest {
    /// `truck_generic_van`, `truck_rigid_7_5t`, `truck_rigid_12t`,
    /// `truck_rigid_20t`, `truck_rigid_26t`, `truck_rigid_32t`,
    /// `truck_articulated_34t`, `_40t`, `_44t`, `_60t`, `_72t`, or `truck`.
    pub vehicle_type: String,
    /// The contract's `RoadFuel`.
    pub fuel: String,
    /// `flat`, `hilly` or `mountainous` (echoed; no effect on DESNZ's rows).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gradient: Option<String>,
    /// Share of the capacity used when laden, 0 < x ≤ 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<f64>)]
    pub load_factor: Option<serde_json::Number>,
    /// Share of the kilometres run empty, 0 ≤ x < 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<f64>)]
    pub empty_runs_factor: Option<serde_json::Number>,
    /// The contract's `RoadSituation` (echoed; no effect).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub situation: Option<String>,
    /// `euro1` … `euro6` (echoed; no effect).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emission_standard: Option<String>,
    /// Refrigerated (DESNZ's refrigerated HGV rows).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refrigerated: Option<bool>,
}

/// The carrier, sailing dates of the contract's `InferredVesselShippingMethod`.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = VesselInferenceBody)]
pub struct VesselInferenceRequest {
    /// `YYYY-MM-DD`.
    pub departure_on: String,
    /// `YYYY-MM-DD`.
    pub arrival_on: String,
    /// One of the contract's carriers.
    pub carrier_name: String,
}

/// The contract's `InferredVesselShippingMethod`.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = InferredVesselShippingMethodBody)]
pub struct InferredVesselMethodRequest {
    pub vessel_inference: VesselInferenceRequest,
}

/// A JSON number as the decimal it writes.
pub(super) fn number(
    field: &str,
    n: &serde_json::Number,
) -> Result<rust_decimal::Decimal, ApiError> {
    let text = n.to_string();
    text.parse::<rust_decimal::Decimal>()
        .or_else(|_| rust_decimal::Decimal::from_scientific(&text))
        .map_err(|_| ApiError::validation(field, "must be a number"))
}

pub(super) fn date(field: &str, value: &str) -> Result<time::Date, ApiError> {
    time::Date::parse(
        value,
        time::macros::format_description!("[year]-[month]-[day]"),
    )
    .map_err(|_| ApiError::validation(field, "must be a date such as 2024-01-01"))
}

impl RoadMethodRequest {
    pub(super) fn parse(&self, field: &str) -> Result<Method, ApiError> {
        use shipping::road::{RoadFuel, RoadMethod, RoadVehicle};
        let bad = |f: &str, why: &str| ApiError::validation(&at(field, f), why);
        if RoadVehicle::parse(&self.vehicle_type).is_none() {
            return Err(bad(
                "vehicle_type",
                "is not one of the contract's road vehicle types",
            ));
        }
        let fuel = RoadFuel::parse(&self.fuel)
            .ok_or_else(|| bad("fuel", "is not one of the contract's road fuels"))?;
        let check = |f: &str, v: &Option<String>, allowed: &[&str]| match v {
            Some(v) if !allowed.contains(&v.as_str()) => {
                Err(bad(f, "is not one of the contract's values"))
            }
            _ => Ok(v.clone()),
        };
        Ok(Method::Road(RoadMethod {
            vehicle_type: self.vehicle_type.clone(),
            fuel,
            load_factor: self
                .load_factor
                .as_ref()
                .map(|n| number(&at(field, "load_factor"), n))
                .transpose()?,
            empty_runs_factor: self
                .empty_runs_factor
                .as_ref()
                .map(|n| number(&at(field, "empty_runs_factor"), n))
                .transpose()?,
            refrigerated: self.refrigerated.unwrap_or(false),
            gradient: check("gradient", &self.gradient, GRADIENTS)?,
            situation: check("situation", &self.situation, SITUATIONS)?,
            emission_standard: check(
                "emission_standard",
                &self.emission_standard,
                EMISSION_STANDARDS,
            )?,
        }))
    }
}

impl InferredVesselMethodRequest {
    pub(super) fn parse(&self, field: &str) -> Result<Method, ApiError> {
        let v = &self.vessel_inference;
        let at = |f: &str| at(field, &format!("vessel_inference.{f}"));
        let departure = date(&at("departure_on"), &v.departure_on)?;
        let arrival = date(&at("arrival_on"), &v.arrival_on)?;
        if arrival < departure {
            return Err(ApiError::validation(
                &at("arrival_on"),
                "must not be before departure_on",
            ));
        }
        if !CARRIERS.contains(&v.carrier_name.as_str()) {
            return Err(ApiError::validation(
                &at("carrier_name"),
                "is not one of the contract's carriers",
            ));
        }
        Ok(Method::InferredVessel {
            departure_on: v.departure_on.clone(),
            arrival_on: v.arrival_on.clone(),
            carrier_name: v.carrier_name.clone(),
        })
    }
}

/// The contract's `ShippingMethod`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = MethodBody)]
#[serde(untagged)]
pub enum MethodRequest {
    /// A `SimpleShippingMethod` name.
    Simple(String),
    /// A sea vessel (or a bare `{"vessel_type": "container_ship"}`).
    Sea(SeaMethodRequest),
    /// Air freight on an aircraft type.
    AircraftType(AircraftTypeMethodRequest),
    /// Air freight on a flight number.
    FlightNumber(FlightNumberMethodRequest),
    /// A road vehicle by class, fuel and load.
    Road(RoadMethodRequest),
    /// A vessel to infer from a carrier's schedule.
    InferredVessel(InferredVesselMethodRequest),
    /// A container ship or a vessel by IMO number.
    Container(ContainerMethodRequest),
}

impl MethodRequest {
    /// The leg's mode, as the engine resolves it (`None` for a simple name
    /// Tonne does not know: never so for a stored request).
    pub fn mode(&self) -> Option<shipping::Mode> {
        match self {
            MethodRequest::Simple(name) => shipping::resolve_simple(name).map(|r| r.mode),
            MethodRequest::Sea(_)
            | MethodRequest::Container(_)
            | MethodRequest::InferredVessel(_) => Some(shipping::Mode::Sea),
            MethodRequest::AircraftType(_) | MethodRequest::FlightNumber(_) => {
                Some(shipping::Mode::Air)
            }
            MethodRequest::Road(_) => Some(shipping::Mode::Road),
        }
    }

    pub(super) fn parse(&self, field: &str) -> Result<Method, ApiError> {
        let bad = |f: &str, why: &str| ApiError::validation(&at(field, f), why);
        match self {
            MethodRequest::Road(r) => r.parse(field),
            MethodRequest::InferredVessel(v) => v.parse(field),
            MethodRequest::AircraftType(a) => Ok(Method::Aircraft {
                aircraft_type: super::transport::aircraft_type(
                    &at(field, "aircraft_type"),
                    Some(&a.aircraft_type),
                )?
                .unwrap_or_default(),
            }),
            MethodRequest::FlightNumber(f) => {
                let number = f.flight_number.trim();
                if !(3..=8).contains(&number.len())
                    || !number.bytes().all(|b| b.is_ascii_alphanumeric())
                {
                    return Err(bad(
                        "flight_number",
                        "must be an ICAO or IATA flight number such as BA15",
                    ));
                }
                if time::Date::parse(
                    &f.departure_on,
                    time::macros::format_description!("[year]-[month]-[day]"),
                )
                .is_err()
                {
                    return Err(bad("departure_on", "must be a date such as 2024-01-01"));
                }
                let configuration = f.aircraft_configuration.as_deref().unwrap_or("plane");
                if !matches!(configuration, "plane" | "cargo_plane" | "passenger_plane") {
                    return Err(bad(
                        "aircraft_configuration",
                        "must be plane, cargo_plane or passenger_plane",
                    ));
                }
                Ok(Method::FlightNumber {
                    flight_number: number.to_owned(),
                    configuration: configuration.to_owned(),
                })
            }
            MethodRequest::Simple(name) => {
                if shipping::is_simple_method(name) {
                    Ok(Method::Simple(name.clone()))
                } else if shipping::hubs::is_logistics_site(name) {
                    Ok(Method::Site(name.clone()))
                } else {
                    Err(ApiError::validation(
                        field,
                        "is not one of the contract's shipping methods",
                    ))
                }
            }
            MethodRequest::Container(c) => {
                if c.vessel_type
                    .as_deref()
                    .is_some_and(|t| t != "container_ship")
                {
                    return Err(bad("vessel_type", "must be container_ship here"));
                }
                if let Some(lane) = &c.trade_lane
                    && !TRADE_LANES.contains(&lane.as_str())
                {
                    return Err(bad(
                        "trade_lane",
                        "is not one of the contract's trade lanes",
                    ));
                }
                let refrigerated = c.refrigerated.unwrap_or(false);
                match &c.vessel_imo_number {
                    Some(imo) => {
                        if imo.len() != 7 || !imo.bytes().all(|b| b.is_ascii_digit()) {
                            return Err(bad("vessel_imo_number", "must be 7 digits"));
                        }
                        Ok(Method::Vessel {
                            imo: imo.clone(),
                            refrigerated,
                            trade_lane: c.trade_lane.clone(),
                        })
                    }
                    None if c.vessel_type.is_some() => Ok(Method::Container {
                        refrigerated,
                        trade_lane: c.trade_lane.clone(),
                    }),
                    None => Err(bad("vessel_type", "is required")),
                }
            }
            MethodRequest::Sea(s) if s.vessel_type == "container_ship" => {
                if s.fuel.is_some() || s.load.is_some() {
                    return Err(bad(
                        "fuel",
                        "container ships take refrigerated and trade_lane, not fuel or load",
                    ));
                }
                Ok(Method::Container {
                    refrigerated: false,
                    trade_lane: None,
                })
            }
            MethodRequest::Sea(s) => {
                let vessel = match s.vessel_type.as_str() {
                    "sea_oil_tanker_small" => Vessel::OilTankerSmall,
                    "sea_oil_tanker_medium" => Vessel::OilTankerMedium,
                    "sea_oil_tanker_large" => Vessel::OilTankerLarge,
                    "sea_oil_tanker_huge" => Vessel::OilTankerHuge,
                    "sea_general_cargo_small" => Vessel::GeneralCargoSmall,
                    "sea_general_cargo_large" => Vessel::GeneralCargoLarge,
                    "sea_bulk_carrier_small" => Vessel::BulkCarrierSmall,
                    "sea_bulk_carrier_medium" => Vessel::BulkCarrierMedium,
                    "sea_bulk_carrier_large" => Vessel::BulkCarrierLarge,
                    "sea_roro" => Vessel::RoRo,
                    "sea_ropax" => Vessel::RoPax,
                    _ => {
                        return Err(bad(
                            "vessel_type",
                            "is not one of the contract's vessel types",
                        ));
                    }
                };
                let fuel = match (s.fuel.as_deref(), vessel) {
                    (None, _) => None,
                    (Some("HFO"), _) => Some(Fuel::Hfo),
                    (Some("MGO"), _) => Some(Fuel::Mgo),
                    (Some("LNG"), Vessel::OilTankerHuge) => Some(Fuel::Lng),
                    _ => return Err(bad("fuel", "is not a fuel of this vessel type")),
                };
                let heavy_load = match (s.load.as_deref(), vessel) {
                    (None, _) => false,
                    (Some("average"), Vessel::BulkCarrierMedium | Vessel::BulkCarrierLarge) => {
                        false
                    }
                    (Some("heavy"), Vessel::BulkCarrierMedium | Vessel::BulkCarrierLarge) => true,
                    (Some("freight_only" | "truck_and_trailer" | "trailer_only"), Vessel::RoRo) => {
                        false
                    }
                    _ => return Err(bad("load", "is not a load of this vessel type")),
                };
                Ok(Method::Sea {
                    vessel,
                    fuel,
                    heavy_load,
                })
            }
        }
    }
}
