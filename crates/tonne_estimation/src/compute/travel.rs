//! Journeys: how a flight's or a surface route's distance was obtained, and
//! passenger transportation leg by leg.

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::aircraft::{FUEL_SOURCE, RatioSource};
use crate::estimate::{Computed, EstimateDetail};
use crate::explain::{Explanation, FactorUse, Part, Quantity};
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

/// A flight computed by aircraft type (the Travel Impact Model's way): the
/// jet fuel factor (with its well-to-tank row), the load factor and cargo
/// share, then the distance, the ratio to the flown distance, the fuel, the
/// share of one passenger (or of the freight), and `count` (passengers, or
/// nothing for freight).
pub(super) fn aircraft_part(
    name: &str,
    mass: Mass,
    used: &crate::flight::AircraftUse,
    how: &str,
    count: Quantity,
) -> Part {
    let f = &used.fuel;
    let a = f.aircraft;
    let ratio_how = match f.ratio_source {
        RatioSource::AirportPair => "GAIA 2019 flown ÷ great-circle distance, this airport pair",
        RatioSource::CountryPair => "GAIA 2019 flown ÷ great-circle distance, this country pair",
        RatioSource::Default => "Teoh et al. 2023 mean of 2019 (no GAIA pair)",
        RatioSource::AsGiven => "the given distance is taken as flown",
    };
    let seats = f.passenger_seats();
    let factors = vec![
        FactorUse::of(&authored::TIM_JET_FUEL_TTW),
        FactorUse::of(&authored::TIM_LOAD_FACTOR),
        FactorUse::of(if seats.wide {
            &authored::CARGO_MASS_FRACTION_WIDE
        } else {
            &authored::CARGO_MASS_FRACTION_NARROW
        }),
    ];
    let mut factors = factors;
    // well-to-wake (flights and passenger legs): the well-to-tank row beside
    // the tank-to-wake one, its mass inside the part's
    if used.wtt.is_some() {
        factors.insert(1, FactorUse::of(&authored::TIM_JET_FUEL_WTT));
    }
    let mut quantities = vec![
        quantity("distance", f.km, "km", how.to_owned()),
        quantity("distance_ratio", f.ratio, "×", ratio_how),
        quantity(
            "fuel",
            f.fuel_kg.round_dp(2),
            "kg",
            format!(
                "{}: LTO {} kg + CCD {} kg at {} NM (flown distance less the LTO cycle's 17 NM), {}",
                a.icao,
                a.lto_kg.normalize(),
                f.ccd_kg.round_dp(2).normalize(),
                f.ccd_nm.round_dp(1).normalize(),
                FUEL_SOURCE
            ),
        ),
        quantity(
            "emission_share",
            used.share.round_dp(9),
            "of the flight",
            format!(
                "{} seats ({}F {}J {}W {}Y, {}-body{}), by seat area and payload mass",
                seats.total(),
                seats.first,
                seats.business,
                seats.premium_economy,
                seats.economy,
                if seats.wide { "wide" } else { "narrow" },
                if a.seats.is_none() {
                    "; the type has no typical configuration: the default one"
                } else {
                    ""
                }
            ),
        ),
    ];
    quantities.push(count);
    let mut p = part(name, mass, factors, quantities);
    p.wtt = used.wtt;
    p
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
                let passengers = quantity(
                    "passengers",
                    r.passengers,
                    "passengers",
                    "as given (default 1)",
                );
                match &how.aircraft {
                    Some(used) => aircraft_part(&name, *mass, used, &how_far, passengers),
                    None => part(
                        name,
                        *mass,
                        vec![FactorUse::of(&how.factor)],
                        vec![
                            quantity("distance", how.distance.km(), "km", how_far),
                            passengers,
                        ],
                    ),
                }
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
