//! Flights and passenger transportation.

use super::*;

// ---- flight and passenger transportation ---------------------------------------

estimate_request! {
/// The contract's `FlightEstimateRequest`.
pub struct FlightRequest {
    /// Distance or airports.
    pub route: FlightRouteBody,
    /// Economy when absent (see docs/API.md).
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub cabin_class: Option<CabinBody>,
    /// Passengers (default 1).
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<f64>)]
    pub passengers: Option<serde_json::Number>,
}
}

impl FlightRequest {
    /// Engine input.
    pub fn parse(&self) -> R<tonne_estimation::flight::FlightRequest> {
        Ok(tonne_estimation::flight::FlightRequest {
            route: self.route.parse("route")?,
            cabin: self.cabin_class.map(CabinClass::from).unwrap_or_default(),
            passengers: passengers("passengers", self.passengers.as_ref())?,
        })
    }
}

/// Road vehicle types.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum VehicleBody {
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
#[serde(rename_all = "snake_case")]
pub enum RailBody {
    NationalRail,
    InternationalRail,
    LightRailOrTram,
}

/// A road leg.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RoadLegBody {
    pub route: SurfaceRouteBody,
    pub vehicle_type: VehicleBody,
}

/// A rail leg.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RailLegBody {
    pub route: SurfaceRouteBody,
    /// Rail type.
    pub rail_type: RailBody,
}

/// A flight leg.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FlightLegBody {
    pub route: FlightRouteBody,
    pub cabin_class: CabinBody,
}

/// One passenger leg.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(untagged)]
pub enum PassengerLegBody {
    Road(RoadLegBody),
    Rail(RailLegBody),
    Flight(FlightLegBody),
}

estimate_request! {
/// The contract's `PassengerTransportationEstimateRequest`.
pub struct PassengerTransportationRequest {
    /// Passengers (default 1).
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<f64>)]
    pub passengers: Option<serde_json::Number>,
    /// 1 to 10 legs.
    pub legs: Vec<PassengerLegBody>,
}
}

impl PassengerTransportationRequest {
    /// Engine input.
    pub fn parse(&self) -> R<tonne_estimation::passenger::PassengerRequest> {
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
                    PassengerLegBody::Road(r) => PassengerLeg::Road {
                        route: r.route.parse(&f)?,
                        vehicle: match r.vehicle_type {
                            VehicleBody::CarMini => Vehicle::CarMini,
                            VehicleBody::CarSupermini => Vehicle::CarSupermini,
                            VehicleBody::CarLowerMedium => Vehicle::CarLowerMedium,
                            VehicleBody::CarUpperMedium => Vehicle::CarUpperMedium,
                            VehicleBody::CarExecutive => Vehicle::CarExecutive,
                            VehicleBody::CarLuxury => Vehicle::CarLuxury,
                            VehicleBody::CarSports => Vehicle::CarSports,
                            VehicleBody::CarDualPurpose4x4 => Vehicle::CarDualPurpose4x4,
                            VehicleBody::CarMpv => Vehicle::CarMpv,
                            VehicleBody::MotorcycleSmall => Vehicle::MotorcycleSmall,
                            VehicleBody::MotorcycleMedium => Vehicle::MotorcycleMedium,
                            VehicleBody::MotorcycleLarge => Vehicle::MotorcycleLarge,
                            VehicleBody::MotorcycleAverage => Vehicle::MotorcycleAverage,
                        },
                    },
                    PassengerLegBody::Rail(r) => PassengerLeg::Rail {
                        route: r.route.parse(&f)?,
                        rail: match r.rail_type {
                            RailBody::NationalRail => Rail::National,
                            RailBody::InternationalRail => Rail::International,
                            RailBody::LightRailOrTram => Rail::LightRailOrTram,
                        },
                    },
                    PassengerLegBody::Flight(fl) => PassengerLeg::Flight {
                        route: fl.route.parse(&f)?,
                        cabin: fl.cabin_class.into(),
                    },
                })
            })
            .collect::<R<Vec<_>>>()?;
        Ok(tonne_estimation::passenger::PassengerRequest {
            passengers: passengers("passengers", self.passengers.as_ref())?,
            legs,
        })
    }
}
