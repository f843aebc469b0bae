//! Flights and passenger transportation.

use serde::{Deserialize, Serialize};
use tonne_estimation::flight::CabinClass;
use tonne_estimation::passenger::{Leg as PassengerLeg, Rail, Vehicle};
use utoipa::ToSchema;

use super::fields::passengers;
use super::{CabinRequest, FlightRouteRequest, SurfaceRouteRequest};
use crate::error::ApiError;

estimate_request! {
/// The contract's `FlightEstimateRequest`.
pub struct FlightEstimateRequest as FlightRequest {
    /// Distance or airports.
    pub route: FlightRouteRequest,
    /// Economy when absent (see docs/API.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cabin_class: Option<CabinRequest>,
    /// Passengers (default 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<f64>)]
    pub passengers: Option<serde_json::Number>,
    /// ICAO aircraft type (Tonne's extension): computed the Travel Impact
    /// Model's way (docs/methodology.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aircraft_type: Option<String>,
}
}

impl FlightEstimateRequest {
    /// Engine input.
    pub fn parse(&self) -> Result<tonne_estimation::flight::FlightRequest, ApiError> {
        Ok(tonne_estimation::flight::FlightRequest {
            route: self.route.parse("route")?,
            cabin: self.cabin_class.map(CabinClass::from).unwrap_or_default(),
            passengers: passengers("passengers", self.passengers.as_ref())?,
            aircraft_type: aircraft_type("aircraft_type", self.aircraft_type.as_deref())?,
        })
    }
}

/// An ICAO aircraft type designator's form: 2 to 4 letters and digits.
pub(crate) fn aircraft_type(field: &str, code: Option<&str>) -> Result<Option<String>, ApiError> {
    match code {
        None => Ok(None),
        Some(c) if (2..=4).contains(&c.len()) && c.bytes().all(|b| b.is_ascii_alphanumeric()) => {
            Ok(Some(c.to_ascii_uppercase()))
        }
        Some(_) => Err(ApiError::validation(
            field,
            "must be an ICAO aircraft type designator such as B789",
        )),
    }
}
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[schema(as = VehicleBody)]
#[serde(rename_all = "snake_case")]
pub enum VehicleRequest {
    CarMini,
    CarSupermini,
    CarLowerMedium,
    CarUpperMedium,
    CarExecutive,
    CarLuxury,
    CarSports,
    #[serde(rename = "car_dual_purpose_4x4")]
    CarDualPurpose4x4,
    CarMpv,
    MotorcycleSmall,
    MotorcycleMedium,
    MotorcycleLarge,
    MotorcycleAverage,
}

/// Rail types.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[schema(as = RailBody)]
#[serde(rename_all = "snake_case")]
pub enum RailRequest {
    NationalRail,
    InternationalRail,
    LightRailOrTram,
}

/// A road leg.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = RoadLegBody)]
pub struct RoadLegRequest {
    pub route: SurfaceRouteRequest,
    pub vehicle_type: VehicleRequest,
}

/// A rail leg.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = RailLegBody)]
pub struct RailLegRequest {
    pub route: SurfaceRouteRequest,
    /// Rail type.
    pub rail_type: RailRequest,
}

/// A flight leg.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = FlightLegBody)]
pub struct FlightLegRequest {
    pub route: FlightRouteRequest,
    pub cabin_class: CabinRequest,
    /// ICAO aircraft type (Tonne's extension).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aircraft_type: Option<String>,
}

/// One passenger leg.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = PassengerLegBody)]
#[serde(untagged)]
pub enum PassengerLegRequest {
    Road(RoadLegRequest),
    Rail(RailLegRequest),
    Flight(FlightLegRequest),
}

estimate_request! {
/// The contract's `PassengerTransportationEstimateRequest`.
pub struct PassengerTransportationEstimateRequest as PassengerTransportationRequest {
    /// Passengers (default 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<f64>)]
    pub passengers: Option<serde_json::Number>,
    /// 1 to 10 legs.
    pub legs: Vec<PassengerLegRequest>,
    /// Whether this is an actual journey (3.9.2; an annotation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_passenger_transportation: Option<bool>,
    /// When the journey was made, RFC 3339 (3.9.2; an annotation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passenger_transportation_travelled_at: Option<String>,
}
}

impl PassengerTransportationEstimateRequest {
    /// Engine input.
    pub fn parse(&self) -> Result<tonne_estimation::passenger::PassengerRequest, ApiError> {
        if self.legs.is_empty() || self.legs.len() > 10 {
            return Err(ApiError::validation("legs", "must have 1 to 10 legs"));
        }
        let legs = self
            .legs
            .iter()
            .enumerate()
            .map(|(i, leg)| {
                let f = format!("legs[{i}].route");
                Ok(match leg {
                    PassengerLegRequest::Road(r) => PassengerLeg::Road {
                        route: r.route.parse(&f)?,
                        vehicle: match r.vehicle_type {
                            VehicleRequest::CarMini => Vehicle::CarMini,
                            VehicleRequest::CarSupermini => Vehicle::CarSupermini,
                            VehicleRequest::CarLowerMedium => Vehicle::CarLowerMedium,
                            VehicleRequest::CarUpperMedium => Vehicle::CarUpperMedium,
                            VehicleRequest::CarExecutive => Vehicle::CarExecutive,
                            VehicleRequest::CarLuxury => Vehicle::CarLuxury,
                            VehicleRequest::CarSports => Vehicle::CarSports,
                            VehicleRequest::CarDualPurpose4x4 => Vehicle::CarDualPurpose4x4,
                            VehicleRequest::CarMpv => Vehicle::CarMpv,
                            VehicleRequest::MotorcycleSmall => Vehicle::MotorcycleSmall,
                            VehicleRequest::MotorcycleMedium => Vehicle::MotorcycleMedium,
                            VehicleRequest::MotorcycleLarge => Vehicle::MotorcycleLarge,
                            VehicleRequest::MotorcycleAverage => Vehicle::MotorcycleAverage,
                        },
                    },
                    PassengerLegRequest::Rail(r) => PassengerLeg::Rail {
                        route: r.route.parse(&f)?,
                        rail: match r.rail_type {
                            RailRequest::NationalRail => Rail::National,
                            RailRequest::InternationalRail => Rail::International,
                            RailRequest::LightRailOrTram => Rail::LightRailOrTram,
                        },
                    },
                    PassengerLegRequest::Flight(fl) => PassengerLeg::Flight {
                        route: fl.route.parse(&f)?,
                        cabin: fl.cabin_class.into(),
                        aircraft_type: aircraft_type(
                            &format!("legs[{i}].aircraft_type"),
                            fl.aircraft_type.as_deref(),
                        )?,
                    },
                })
            })
            .collect::<Result<Vec<_>, ApiError>>()?;
        Ok(tonne_estimation::passenger::PassengerRequest {
            passengers: passengers("passengers", self.passengers.as_ref())?,
            legs,
        })
    }
}
