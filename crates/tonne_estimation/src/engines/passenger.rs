//! Passenger transportation: road, rail and flight legs (DESNZ 2025).
//!
//! Road legs are per vehicle·km (one vehicle carries the party, so they are not
//! multiplied by `passengers`); rail and flight legs are per passenger·km.
//! Distances between coordinates are great-circle × 1.2 ([A] detour factor).

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::errors::EstimateError;
use crate::factors::desnz_2025 as desnz;
use crate::factors::{Factor, authored};
use crate::flight::{self, CabinClass, FlightRoute};
use crate::route::{Route, surface_distance};
use crate::units::{Distance, kg_to_mass};

/// The contract's road vehicle types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vehicle {
    CarMini,
    CarSupermini,
    CarLowerMedium,
    CarUpperMedium,
    CarExecutive,
    CarLuxury,
    CarSports,
    CarDualPurpose4x4,
    CarMpv,
    MotorcycleSmall,
    MotorcycleMedium,
    MotorcycleLarge,
    MotorcycleAverage,
}

impl Vehicle {
    /// DESNZ 2025 per-vehicle·km factor (cars by market segment, unknown fuel; motorbikes by size).
    pub fn factor(self) -> Factor {
        match self {
            Vehicle::CarMini => desnz::CAR_MINI,
            Vehicle::CarSupermini => desnz::CAR_SUPERMINI,
            Vehicle::CarLowerMedium => desnz::CAR_LOWER_MEDIUM,
            Vehicle::CarUpperMedium => desnz::CAR_UPPER_MEDIUM,
            Vehicle::CarExecutive => desnz::CAR_EXECUTIVE,
            Vehicle::CarLuxury => desnz::CAR_LUXURY,
            Vehicle::CarSports => desnz::CAR_SPORTS,
            Vehicle::CarDualPurpose4x4 => desnz::CAR_DUAL_PURPOSE_4X4,
            Vehicle::CarMpv => desnz::CAR_MPV,
            Vehicle::MotorcycleSmall => desnz::MOTORBIKE_SMALL,
            Vehicle::MotorcycleMedium => desnz::MOTORBIKE_MEDIUM,
            Vehicle::MotorcycleLarge => desnz::MOTORBIKE_LARGE,
            Vehicle::MotorcycleAverage => desnz::MOTORBIKE_AVERAGE,
        }
    }
}

/// The contract's rail types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rail {
    /// National rail.
    National,
    /// International rail (Eurostar).
    International,
    /// Light rail and tram.
    LightRailOrTram,
}

impl Rail {
    /// DESNZ 2025 per-passenger·km factor.
    pub fn factor(self) -> Factor {
        match self {
            Rail::National => desnz::RAIL_NATIONAL,
            Rail::International => desnz::RAIL_INTERNATIONAL,
            Rail::LightRailOrTram => desnz::RAIL_LIGHT_OR_TRAM,
        }
    }
}

/// One leg.
#[derive(Debug, Clone, PartialEq)]
pub enum Leg {
    /// By road.
    Road {
        /// Route (distance or coordinates/address).
        route: Route,
        vehicle: Vehicle,
    },
    /// By rail.
    Rail {
        route: Route,
        /// Rail type.
        rail: Rail,
    },
    /// By air.
    Flight {
        route: FlightRoute,
        cabin: CabinClass,
        /// The ICAO aircraft type, when known (Tonne's extension): the TIM method.
        aircraft_type: Option<String>,
    },
}

/// A passenger-transportation request.
#[derive(Debug, Clone, PartialEq)]
pub struct PassengerRequest {
    /// Passengers (default 1).
    pub passengers: Decimal,
    /// 1 to 10 legs.
    pub legs: Vec<Leg>,
}

/// The estimate: the total and each leg, in request order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PassengerEstimate {
    /// Σ legs.
    pub mass: Mass,
    /// Per leg.
    pub legs: Vec<Mass>,
    /// How each leg was computed, in the legs' order.
    pub computed: Vec<LegComputed>,
}

/// What one leg multiplied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegComputed {
    /// The distance used (after the detour factor for a route between places).
    pub distance: Distance,
    /// The factor used.
    pub factor: Factor,
    /// A flight whose haul band's floor set its mass.
    pub floored: bool,
    /// A flight computed by aircraft type: its fuel and a passenger's share.
    pub aircraft: Option<flight::AircraftUse>,
}

/// Estimates a journey; any failing leg fails the whole (the contract's rule).
///
/// ```
/// use rust_decimal::Decimal;
/// use tonne_estimation::passenger::{self, Leg, PassengerRequest, Rail};
/// use tonne_estimation::route::Route;
/// use tonne_estimation::{Distance, DistanceUnit};
///
/// let km = |v| Route::Distance(Distance::parse("route.amount", v, DistanceUnit::Km).unwrap());
/// let e = passenger::estimate(&PassengerRequest {
///     passengers: Decimal::from(2),
///     legs: vec![Leg::Rail { route: km("300"), rail: Rail::National }],
/// }).unwrap();
/// // 300 km × 0.03546 kg/passenger·km (DESNZ 2025 national rail) × 2 = 21.276 kg
/// assert_eq!(e.mass.grams(), 21_276);
/// ```
pub fn estimate(request: &PassengerRequest) -> Result<PassengerEstimate, EstimateError> {
    let passengers = flight::check_passengers("passengers", request.passengers)?;
    if request.legs.is_empty() || request.legs.len() > 10 {
        return Err(EstimateError::invalid("legs", "must have 1 to 10 legs"));
    }
    let mut legs = Vec::with_capacity(request.legs.len());
    let mut computed = Vec::with_capacity(request.legs.len());
    let mut total = 0_i64;
    for (i, leg) in request.legs.iter().enumerate() {
        let field = format!("legs[{i}].route");
        let (kg, how) = match leg {
            Leg::Road { route, vehicle } => {
                let (distance, factor) = (surface_distance(&field, route)?, vehicle.factor());
                let how = LegComputed {
                    distance,
                    factor,
                    floored: false,
                    aircraft: None,
                };
                (distance.km() * factor.value(), how)
            }
            Leg::Rail { route, rail } => {
                let (distance, factor) = (surface_distance(&field, route)?, rail.factor());
                let how = LegComputed {
                    distance,
                    factor,
                    floored: false,
                    aircraft: None,
                };
                (distance.km() * factor.value() * passengers, how)
            }
            Leg::Flight {
                route,
                cabin,
                aircraft_type: Some(code),
            } => {
                let (distance, used, _) = flight::aircraft_leg(
                    &field,
                    &format!("legs[{i}].aircraft_type"),
                    code,
                    route,
                    *cabin,
                )?;
                // well-to-wake, each stage to the gram: the kg are whole grams
                let (mass, used) = used.well_to_wake(&field, passengers)?;
                let how = LegComputed {
                    distance,
                    factor: authored::TIM_JET_FUEL_TTW,
                    floored: false,
                    aircraft: Some(used),
                };
                (Decimal::new(mass.grams(), 3), how)
            }
            Leg::Flight {
                route,
                cabin,
                aircraft_type: None,
            } => {
                let (distance, _, factor, per_passenger) = flight::leg(&field, route, *cabin)?;
                let how = LegComputed {
                    distance,
                    factor,
                    floored: per_passenger > distance.km() * factor.value(),
                    aircraft: None,
                };
                (per_passenger * passengers, how)
            }
        };
        let mass = kg_to_mass(&field, kg)?;
        total = total.saturating_add(mass.grams());
        legs.push(mass);
        computed.push(how);
    }
    Ok(PassengerEstimate {
        mass: Mass::from_grams(total),
        legs,
        computed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geo::LatLon;
    use crate::route::Place;
    use crate::units::Distance;

    fn km(v: i64) -> Route {
        Route::Distance(Distance::from_km(Decimal::from(v)))
    }

    #[test]
    fn legs_reproduce_desnz_by_hand_and_sum() {
        let e = estimate(&PassengerRequest {
            passengers: Decimal::from(2),
            legs: vec![
                // 100 km in a supermini: 100 × 0.14194 = 14.194 kg (one vehicle)
                Leg::Road {
                    route: km(100),
                    vehicle: Vehicle::CarSupermini,
                },
                // 300 km national rail × 2: 300 × 0.03546 × 2 = 21.276 kg
                Leg::Rail {
                    route: km(300),
                    rail: Rail::National,
                },
            ],
        })
        .unwrap();
        assert_eq!(
            e.legs.iter().map(Mass::grams).collect::<Vec<_>>(),
            vec![14_194, 21_276]
        );
        assert_eq!(e.mass.grams(), 14_194 + 21_276);
    }

    #[test]
    fn coordinates_and_addresses_use_a_detour_factor_unknown_cities_are_refused() {
        let paris = Place::Coordinates(LatLon::new("s", 48.8566, 2.3522).unwrap());
        let lyon = Place::Coordinates(LatLon::new("d", 45.764, 4.8357).unwrap());
        let d = surface_distance(
            "route",
            &Route::Between {
                source: paris.clone(),
                destination: lyon,
            },
        )
        .unwrap();
        // great-circle Paris–Lyon ≈ 392 km; × 1.2 ≈ 470 km
        assert!(
            (Decimal::from(465)..Decimal::from(475)).contains(&d.km()),
            "{}",
            d.km()
        );
        let err = surface_distance(
            "legs[0].route",
            &Route::Between {
                source: paris,
                destination: Place::Address {
                    city: "Atlantis".into(),
                    country_code: "GRC".into(),
                },
            },
        );
        assert_eq!(
            err,
            Err(EstimateError::AddressNotFound {
                field: "legs[0].route.destination".into(),
                city: "Atlantis".into(),
                country_code: "GRC".into(),
            })
        );
        let lyon = surface_distance(
            "legs[0].route",
            &Route::Between {
                source: Place::Address {
                    city: "Paris".into(),
                    country_code: "FRA".into(),
                },
                destination: Place::Address {
                    city: "lyon".into(),
                    country_code: "FRA".into(),
                },
            },
        )
        .unwrap();
        // great-circle Paris–Lyon ≈ 392 km, × 1.2 detour
        assert!(
            (Decimal::from(465)..Decimal::from(475)).contains(&lyon.km()),
            "{}",
            lyon.km()
        );
    }

    #[test]
    fn monotonic_in_distance_and_passengers_zero_is_zero() {
        let rail = |d: i64, p: i64| {
            estimate(&PassengerRequest {
                passengers: Decimal::from(p),
                legs: vec![Leg::Rail {
                    route: km(d),
                    rail: Rail::LightRailOrTram,
                }],
            })
            .unwrap()
            .mass
            .grams()
        };
        assert_eq!(rail(0, 3), 0);
        assert_eq!(rail(50, 0), 0);
        assert!(rail(51, 1) > rail(50, 1));
        assert!(rail(50, 3) > rail(50, 2));
        assert!(
            estimate(&PassengerRequest {
                passengers: Decimal::ONE,
                legs: vec![]
            })
            .is_err()
        );
    }
}
