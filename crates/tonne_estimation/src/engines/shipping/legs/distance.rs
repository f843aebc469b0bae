//! A leg's distance: as given, or measured between its ends (great circle,
//! × the surface detour factor on land, or over the maritime network at
//! sea), and the grade its measure earns.

use crate::errors::EstimateError;
use crate::geo::{LatLon, km_decimal};
use crate::places;
use crate::route::{Route, surface_distance};
use crate::shipping::methods::Grade;
use crate::shipping::{DistanceMethod, Mode};
use crate::units::Distance;

/// A leg's distance and how it was obtained.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Measured {
    /// The distance used.
    pub distance: Distance,
    pub method: DistanceMethod,
    /// Before the surface detour factor (the distance used otherwise).
    pub raw: Distance,
    /// The located ends, for a route between places.
    pub ends: Option<(LatLon, LatLon)>,
}

pub(super) fn distance(field: &str, route: &Route, mode: Mode) -> Result<Measured, EstimateError> {
    let (source, destination) = match route {
        Route::Distance(d) => {
            return Ok(Measured {
                distance: *d,
                method: DistanceMethod::UserInput,
                raw: *d,
                ends: None,
            });
        }
        Route::Between {
            source,
            destination,
        } => (source, destination),
    };
    let a = source.locate(&format!("{field}.source"))?;
    let b = destination.locate(&format!("{field}.destination"))?;
    let great_circle = Distance::from_km(km_decimal(a.km_to(&b)));
    let (distance, method) = match mode {
        Mode::Road | Mode::Rail | Mode::InlandWaterway => {
            (surface_distance(field, route)?, DistanceMethod::GreatCircle)
        }
        Mode::Air => (great_circle, DistanceMethod::GreatCircle),
        Mode::Sea => {
            let km = places::sea_km(&a, &b).ok_or_else(|| {
                EstimateError::invalid(field, "no sea route joins these points; send a distance")
            })?;
            (
                Distance::from_km(km_decimal(km)),
                DistanceMethod::SeaNetwork,
            )
        }
    };
    Ok(Measured {
        distance,
        method,
        raw: if method == DistanceMethod::SeaNetwork {
            distance
        } else {
            great_circle
        },
        ends: Some((a, b)),
    })
}

/// How well a leg's distance is known: sent (A), over the maritime network
/// or a great circle in the air (B), a great circle × a detour factor on
/// land (C).
pub(super) fn route_grade(method: DistanceMethod, mode: Mode) -> Grade {
    match (method, mode) {
        (DistanceMethod::UserInput, _) => Grade::A,
        (DistanceMethod::SeaNetwork, _) | (DistanceMethod::GreatCircle, Mode::Air) => Grade::B,
        (DistanceMethod::GreatCircle, _) => Grade::C,
    }
}
