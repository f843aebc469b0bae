//! A checked leg in the freight engine's terms: its route (a distance, or
//! two places), its payload (tonnes or containers), and its method, with
//! the notes of what stands in.

use rust_decimal::Decimal;
use tonne_estimation::Distance;
use tonne_estimation::route::{Place, Route};
use tonne_estimation::shipping::road::{RoadFuel, RoadMethod};
use tonne_estimation::shipping::{CargoType, Method, Shipment};
use tonne_kernel::Mass;

use crate::errors::RowError;
use crate::model::{LegDraft, LegMethod, Load, Location, SeaVessel};

/// The note of a sea leg whose vessel Tonne was asked to infer.
pub const VESSEL_INFERENCE_FALLBACK: &str = "vessel_inference_unavailable_container_ship_fallback";
/// The note of a road leg whose fuel has no factor for its vehicle.
pub const ROAD_FUEL_FALLBACK: &str = "road_fuel_unavailable_diesel_fallback";

fn kg(field: &str, kg: Decimal) -> Result<Mass, RowError> {
    (kg * Decimal::from(1000))
        .round()
        .try_into()
        .map(Mass::from_grams)
        .map_err(|_| RowError::new(field, "is too large"))
}

fn place(field: &str, l: &Location) -> Result<Place, RowError> {
    Ok(match l {
        Location::Address { city, country_code } => Place::Address {
            city: city.clone(),
            country_code: country_code.clone(),
        },
        Location::Coordinates(p) => Place::Coordinates(*p),
        Location::Locode(code) => Place::Seaport(code.clone()),
        Location::Airport(code) => Place::Airport(code.clone()),
        Location::Unknown(code) => {
            return Err(RowError::new(
                field,
                format!(
                    "'{code}' is neither a known airport code nor a known UN/LOCODE; send the leg's distance"
                ),
            ));
        }
    })
}

pub(super) fn route(i: usize, leg: &LegDraft) -> Result<Route, RowError> {
    if let Some(km) = leg.distance_km {
        return Ok(Route::Distance(Distance::from_km(km)));
    }
    match (&leg.origin, &leg.destination) {
        (Some(o), Some(d)) => Ok(Route::Between {
            source: place(&format!("legs[{i}].origin"), o)?,
            destination: place(&format!("legs[{i}].destination"), d)?,
        }),
        _ => Err(RowError::new(
            format!("legs[{i}].distance"),
            "is required unless both origin and destination are given",
        )),
    }
}

pub(super) fn payload(i: usize, load: Option<Load>) -> Result<Shipment, RowError> {
    let field = format!("legs[{i}].load");
    match load {
        Some(Load {
            tonnes: Some(t), ..
        }) => Ok(Shipment::Mass(kg(&field, t * Decimal::from(1000))?)),
        Some(Load { teu: Some(teu), .. }) => Ok(Shipment::Containers {
            teu,
            cargo: CargoType::Average,
            mass: None,
        }),
        _ => Err(RowError::new(
            field,
            "a mass or containers is required to calculate emissions (on this leg or an earlier one)",
        )),
    }
}

/// The road engine's method: the vehicle, its fuel (a fuel the engine does
/// not know stands in as diesel, with a note), refrigeration, and the leg's
/// load and empty-running factors.
fn road(
    leg: &LegDraft,
    vehicle_type: &str,
    fuel: &str,
    refrigerated: bool,
) -> (Method, Vec<&'static str>) {
    let (fuel, notes) = match RoadFuel::parse(fuel) {
        Some(f) => (f, vec![]),
        None => (
            RoadFuel::parse("diesel").unwrap_or(RoadFuel::AutoDetect),
            vec![ROAD_FUEL_FALLBACK],
        ),
    };
    (
        Method::Road(RoadMethod {
            vehicle_type: vehicle_type.to_owned(),
            fuel,
            load_factor: leg.load_factor,
            empty_runs_factor: leg.empty_run_factor,
            refrigerated,
            gradient: None,
            situation: None,
            emission_standard: None,
        }),
        notes,
    )
}

pub(super) fn method(leg: &LegDraft) -> (Method, Vec<&'static str>) {
    match &leg.method {
        LegMethod::Simple(name) | LegMethod::Rail(name) => (Method::Simple(name.clone()), vec![]),
        LegMethod::Road {
            vehicle_type,
            fuel,
            refrigerated,
        } => road(leg, vehicle_type, fuel, *refrigerated),
        LegMethod::AircraftType(t) => (
            Method::Aircraft {
                aircraft_type: t.clone(),
            },
            vec![],
        ),
        LegMethod::FlightNumber(n) => (
            Method::FlightNumber {
                flight_number: n.clone(),
                configuration: "plane".to_owned(),
            },
            vec![],
        ),
        LegMethod::Sea(SeaVessel::Imo {
            imo,
            refrigerated,
            trade_lane,
        }) => (
            Method::Vessel {
                imo: imo.clone(),
                refrigerated: *refrigerated,
                trade_lane: trade_lane.clone(),
            },
            vec![],
        ),
        // inferred (no schedules or AIS): the trade's average container
        // vessel (as the engine's inferred-vessel method), refrigerated when
        // the leg is
        LegMethod::Sea(
            vessel @ (SeaVessel::Inferred {
                refrigerated,
                trade_lane,
            }
            | SeaVessel::Container {
                refrigerated,
                trade_lane,
            }),
        ) => (
            Method::Container {
                refrigerated: *refrigerated,
                trade_lane: trade_lane.clone(),
            },
            match vessel {
                SeaVessel::Inferred { .. } => vec![VESSEL_INFERENCE_FALLBACK],
                _ => vec![],
            },
        ),
        LegMethod::Sea(SeaVessel::Typed(name)) => (Method::Simple(name.clone()), vec![]),
        // never reached: sites are answered before (`site_leg`)
        LegMethod::LogisticsSite(name) => (Method::Simple(name.clone()), vec![]),
    }
}
