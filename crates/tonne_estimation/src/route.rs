//! Where a journey goes: a given distance, or two places to measure between.

use crate::cities;
use crate::errors::EstimateError;
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
    /// A postal address, resolved offline to its city's centroid (see
    /// [`crate::cities`]): street lines and postcode do not refine it.
    Address {
        /// The city as sent.
        city: String,
        /// ISO 3166-1 alpha-3.
        country_code: String,
    },
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
            Place::Address { city, country_code } => cities::city(city, country_code)
                .map(|c| c.position)
                .ok_or_else(|| EstimateError::AddressNotFound {
                    field: field.to_owned(),
                    city: city.clone(),
                    country_code: country_code.clone(),
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
    Between { source: Place, destination: Place },
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

/// The contract's cabin classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CabinClass {
    /// Economy (Tonne's default; see docs/API.md).
    #[default]
    Economy,
    Business,
    First,
}

/// A flight route.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlightRoute {
    /// A flown distance, used as given.
    Distance(Distance),
    /// IATA or ICAO codes.
    Airports { source: String, destination: String },
}
