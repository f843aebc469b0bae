//! The factors a leg multiplies beside its method's own: well-to-tank over
//! tank-to-wheel, air freight by haul band, the container ship (reefer or
//! not), and belly freight on a named aircraft type.

use rust_decimal::Decimal;

use crate::errors::EstimateError;
use crate::factors::desnz_2025 as desnz;
use crate::factors::{Factor, authored};
use crate::flight::Band;
use crate::route::Route;

use super::distance::Measured;

/// Well-to-tank ÷ tank-to-wheel of a factor: its DESNZ (or TIM) well-to-tank
/// row over its value; `None` without one.
pub(crate) fn wtt_ratio(f: &Factor) -> Option<Decimal> {
    let g = crate::factors::GasSplit::of(f.id)?;
    (!f.value().is_zero()).then(|| g.wtt / f.value())
}

/// DESNZ 2025 freight-flight factor (with RF) of a haul band.
pub(super) fn air_freight_factor(band: Band) -> Factor {
    match band {
        Band::Domestic => desnz::AIR_FREIGHT_DOMESTIC,
        Band::ShortHaul => desnz::AIR_FREIGHT_SHORT_HAUL,
        Band::LongHaul => desnz::AIR_FREIGHT_LONG_HAUL,
    }
}

pub(super) fn container_factors(refrigerated: bool) -> Vec<Factor> {
    if refrigerated {
        vec![desnz::SEA_CONTAINER_AVERAGE, authored::REEFER_UPLIFT]
    } else {
        vec![desnz::SEA_CONTAINER_AVERAGE]
    }
}

/// Belly freight on a named aircraft type: the flight's fuel between the two
/// airports (GAIA's ratio), over a given distance (as flown) or between other
/// places (great circle × the default ratio), and the shipment's share of
/// the payload. `None` for a type without a seat configuration.
pub(super) fn aircraft_freight(
    field: &str,
    code: &str,
    route: &Route,
    measured: &Measured,
    tonnes: Decimal,
) -> Result<Option<crate::flight::AircraftUse>, EstimateError> {
    use crate::aircraft;
    use crate::flight::{AircraftUse, FlightRoute};
    use crate::route::Place;
    let a = aircraft::require(field, code)?;
    let fuel = match route {
        Route::Distance(d) => aircraft::flight_fuel(field, a, &FlightRoute::Distance(*d))?,
        Route::Between {
            source: Place::Airport(s),
            destination: Place::Airport(d),
        } => aircraft::flight_fuel(
            field,
            a,
            &FlightRoute::Airports {
                source: s.clone(),
                destination: d.clone(),
            },
        )?,
        Route::Between { .. } => aircraft::great_circle_fuel(a, measured.raw.km()),
    };
    let kg = tonnes * Decimal::from(1000);
    Ok(fuel.freight_share(kg).map(|share| AircraftUse {
        fuel,
        share,
        wtt: None,
    }))
}
