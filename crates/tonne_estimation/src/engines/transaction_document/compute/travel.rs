//! A journey line: a flight between two airports (named, or found in the
//! text) or a train between two cities, or by a distance; its cabin and
//! passengers.

use rust_decimal::Decimal;

use crate::errors::EstimateError;
use crate::estimate::EstimateRequest;
use crate::flight::FlightRoute;
use crate::passenger::{Leg, PassengerRequest, Rail};
use crate::route::{CabinClass, Place, Route};
use crate::transaction_document::matching;
use crate::transaction_document::reading::RawLine;
use crate::transaction_document::{TravelLine, TravelMode, TravelRoute};
use crate::{Distance, DistanceUnit};

use super::context::Context;

fn airport_code(s: &str) -> Option<String> {
    let code = s.trim().to_ascii_uppercase();
    ((code.len() == 3 || code.len() == 4) && crate::places::airport(&code).is_some())
        .then_some(code)
}

/// Two airport codes in a text: `LHR-JFK`, `LHR → JFK`, `LHR to JFK`.
fn airports_in(text: &str) -> Option<(String, String)> {
    let codes: Vec<String> = text
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() == 3 && w.chars().all(|c| c.is_ascii_uppercase()))
        .filter_map(airport_code)
        .collect();
    match codes.as_slice() {
        [a, b] if a != b => Some((a.clone(), b.clone())),
        _ => None,
    }
}

fn cabin(text: &str) -> CabinClass {
    let words = crate::cities::fold(text);
    if words.split(' ').any(|w| w == "first") {
        CabinClass::First
    } else if words.split(' ').any(|w| w == "business") {
        CabinClass::Business
    } else {
        CabinClass::Economy
    }
}

fn km(field: &str, amount: Decimal) -> Result<Distance, EstimateError> {
    Distance::parse(field, &amount.normalize().to_string(), DistanceUnit::Km)
}

/// A journey's request, or `None` when the line names no route.
pub(super) fn travel(
    cx: &Context<'_>,
    line: &RawLine,
    mode: TravelMode,
) -> Result<Option<(EstimateRequest, TravelLine)>, EstimateError> {
    let text = line.text.clone().unwrap_or_default();
    let passengers = line
        .passengers
        .filter(|p| *p > Decimal::ZERO)
        .unwrap_or(Decimal::ONE);
    let distance = line.distance_km.or_else(|| {
        line.quantity.filter(|_| {
            line.unit
                .as_deref()
                .is_some_and(|u| u.eq_ignore_ascii_case("km"))
        })
    });
    let (leg, route) = match mode {
        TravelMode::Flight => {
            let named = match (line.origin.as_deref(), line.destination.as_deref()) {
                (Some(o), Some(d)) => airport_code(o).zip(airport_code(d)),
                _ => airports_in(&text),
            };
            let class = cabin(&text);
            match (named, distance) {
                (Some((source, destination)), _) => (
                    Leg::Flight {
                        route: FlightRoute::Airports {
                            source: source.clone(),
                            destination: destination.clone(),
                        },
                        cabin: class,
                        aircraft_type: None,
                    },
                    TravelRoute::Airports {
                        source,
                        destination,
                    },
                ),
                (None, Some(d)) => (
                    Leg::Flight {
                        route: FlightRoute::Distance(km("distance_km", d)?),
                        cabin: class,
                        aircraft_type: None,
                    },
                    TravelRoute::Distance,
                ),
                (None, None) => return Ok(None),
            }
        }
        TravelMode::Rail => {
            let rail = if matching::keyword(&text).is_some_and(|(k, _)| k == "eurostar")
                || crate::cities::fold(&text).contains("international")
            {
                Rail::International
            } else {
                Rail::National
            };
            match (
                distance,
                line.origin.as_deref(),
                line.destination.as_deref(),
            ) {
                (Some(d), _, _) => (
                    Leg::Rail {
                        route: Route::Distance(km("distance_km", d)?),
                        rail,
                    },
                    TravelRoute::Distance,
                ),
                (None, Some(o), Some(d)) => (
                    Leg::Rail {
                        route: Route::Between {
                            source: Place::Address {
                                city: o.to_owned(),
                                country_code: cx.country.clone(),
                            },
                            destination: Place::Address {
                                city: d.to_owned(),
                                country_code: cx.country.clone(),
                            },
                        },
                        rail,
                    },
                    TravelRoute::Cities {
                        source: o.to_owned(),
                        destination: d.to_owned(),
                    },
                ),
                _ => return Ok(None),
            }
        }
    };
    let class = match &leg {
        Leg::Flight { cabin, .. } => *cabin,
        _ => CabinClass::Economy,
    };
    Ok(Some((
        EstimateRequest::PassengerTransportation(PassengerRequest {
            passengers,
            legs: vec![leg],
        }),
        TravelLine {
            mode,
            route,
            distance_km: Decimal::ZERO,
            passengers,
            cabin: class,
        },
    )))
}
