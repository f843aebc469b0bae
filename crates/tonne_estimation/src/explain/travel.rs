//! Journeys: how a flight's or a surface route's distance was obtained, and
//! passenger transportation leg by leg.

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::estimate::{Computed, EstimateDetail};
use crate::explanation::{Explanation, FactorUse, Part, Quantity};
use crate::factors::{Factor, authored};
use crate::flight::FlightRoute;
use crate::passenger::{self, Leg as PassengerLeg};
use crate::route::Route;
use crate::{Distance, EstimateError};

use super::parts::*;

pub(super) fn flight_route(route: &FlightRoute) -> (String, Vec<String>) {
    match route {
        FlightRoute::Distance(_) => ("as given".into(), vec![]),
        FlightRoute::Airports {
            source,
            destination,
        } => (
            format!("great-circle between airports {source} and {destination}"),
            vec![],
        ),
    }
}

/// How a surface (road, rail, inland waterway) distance was obtained, and the
/// detour factor it used, if any.
pub(super) fn surface_how(route: &Route) -> (String, Option<FactorUse>) {
    match route {
        Route::Distance(_) => ("as given".into(), None),
        Route::Between {
            source,
            destination,
        } => (
            format!(
                "great-circle between {} and {}, × the surface detour factor",
                place_name(source),
                place_name(destination)
            ),
            Some(FactorUse::of(&authored::CIRCUITY_SURFACE)),
        ),
    }
}

/// A road or rail leg: its factor (and the detour factor, for a distance
/// between places), the distance, and what the factor is per.
pub(super) fn surface_part(
    name: String,
    mass: Mass,
    factor: &Factor,
    route: &Route,
    distance: Distance,
    per: Quantity,
) -> Part {
    let (how, detour) = surface_how(route);
    let mut factors = vec![FactorUse::of(factor)];
    factors.extend(detour);
    part(
        name,
        mass,
        factors,
        vec![quantity("distance", distance.km(), "km", how), per],
    )
}

pub(super) fn passengers(r: &passenger::PassengerRequest) -> Result<Computed, EstimateError> {
    // each leg is explained from what the engine computed (no second pass)
    let e = passenger::estimate(r)?;
    let mut parts = Vec::with_capacity(r.legs.len());
    let mut notes = Vec::new();
    for (i, ((leg, mass), how)) in r.legs.iter().zip(&e.legs).zip(&e.computed).enumerate() {
        let name = format!("legs[{i}]");
        let p = match leg {
            PassengerLeg::Road { route, .. } => {
                let vehicles = quantity(
                    "vehicles",
                    Decimal::ONE,
                    "vehicle",
                    "one vehicle, whatever the passengers",
                );
                surface_part(name, *mass, &how.factor, route, how.distance, vehicles)
            }
            PassengerLeg::Rail { route, .. } => {
                let passengers = quantity(
                    "passengers",
                    r.passengers,
                    "passengers",
                    "as given (default 1)",
                );
                surface_part(name, *mass, &how.factor, route, how.distance, passengers)
            }
            PassengerLeg::Flight { route, .. } => {
                let (how_far, _) = flight_route(route);
                if how.floored {
                    notes.push(format!("{name}: {BAND_FLOOR}"));
                }
                part(
                    name,
                    *mass,
                    vec![FactorUse::of(&how.factor)],
                    vec![
                        quantity("distance", how.distance.km(), "km", how_far),
                        quantity(
                            "passengers",
                            r.passengers,
                            "passengers",
                            "as given (default 1)",
                        ),
                    ],
                )
            }
        };
        parts.push(p);
    }
    Ok(Computed {
        mass: Some(e.mass),
        detail: EstimateDetail::PassengerLegs(e.legs),
        explanation: Explanation {
            parts,
            notes,
            factor_set: None,
        },
    })
}
