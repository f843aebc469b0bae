//! Where a journey goes: a given distance, or two places to measure between.

use crate::EstimateError;
use crate::geo::LatLon;
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
