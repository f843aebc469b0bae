//! Where a journey goes: a given distance, or two places to measure between.

use crate::EstimateError;
use crate::factors::authored;
use crate::geo::LatLon;
use crate::geo::km_decimal;
use crate::places;
use crate::units::Distance;

/// A place a route starts or ends at.
#[derive(Debug, Clone, PartialEq)]
pub enum Place {
    /// WGS84 coordinates.
    Coordinates(LatLon),
    /// An airport by IATA or ICAO code.
    Airport(String),
    /// A seaport by UN/LOCODE.
    Seaport(String),
    /// A postal address. Tonne has no geocoder (it runs offline), so an address
    /// always answers `address_not_found`; send coordinates or a distance.
    Address,
}

impl Place {
    /// Where the place is; `field` names it in errors.
    pub fn locate(&self, field: &str) -> Result<LatLon, EstimateError> {
        match self {
            Place::Coordinates(p) => Ok(*p),
            Place::Airport(code) => places::airport(code).map(|a| a.position).ok_or_else(|| {
                EstimateError::AirportInvalid {
                    field: field.to_owned(),
                    code: code.clone(),
                }
            }),
            Place::Seaport(code) => {
                places::seaport(code).ok_or_else(|| EstimateError::PortNotFound {
                    field: field.to_owned(),
                    code: code.clone(),
                })
            }
            Place::Address => Err(EstimateError::AddressNotFound {
                field: field.to_owned(),
            }),
        }
    }
}

/// A route: a distance as given, or a source and a destination.
#[derive(Debug, Clone, PartialEq)]
pub enum Route {
    /// The distance travelled, used as given.
    Distance(Distance),
    /// Two places; the engine measures between them.
    Between {
        /// Start.
        source: Place,
        /// End.
        destination: Place,
    },
}

/// Surface (road, rail, inland waterway) distance of a route: as given, or
/// great-circle × 1.2 `[A]` between the points; `field` names the route in errors.
pub(crate) fn surface_distance(field: &str, route: &Route) -> Result<Distance, EstimateError> {
    match route {
        Route::Distance(d) => Ok(*d),
        Route::Between {
            source,
            destination,
        } => {
            let a = source.locate(&format!("{field}.source"))?;
            let b = destination.locate(&format!("{field}.destination"))?;
            Ok(Distance::from_km(
                km_decimal(a.km_to(&b)) * authored::CIRCUITY_SURFACE.value(),
            ))
        }
    }
}
