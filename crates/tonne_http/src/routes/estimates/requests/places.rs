//! Where things are: distances, addresses, coordinates, airport and seaport
//! codes, and the routes of flights, surface trips and shipping legs, each
//! checked and turned into the engine's places.

use serde::{Deserialize, Serialize};
use tonne_estimation::flight::FlightRoute;
use tonne_estimation::route::{Place, Route};
use tonne_estimation::{Distance, DistanceUnit, LatLon};
use utoipa::ToSchema;

use super::fields::at;
use crate::error::ApiError;

/// `km`, `mi` or `nm`.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[schema(as = DistanceUnitBody)]
#[serde(rename_all = "lowercase")]
pub enum DistanceUnitRequest {
    Km,
    Mi,
    Nm,
}

/// The contract's `Distance`.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = DistanceBody)]
pub struct DistanceRequest {
    /// Decimal string.
    pub amount: String,
    pub unit: DistanceUnitRequest,
}

impl DistanceRequest {
    pub(super) fn parse(&self, field: &str) -> Result<Distance, ApiError> {
        let unit = match self.unit {
            DistanceUnitRequest::Km => DistanceUnit::Km,
            DistanceUnitRequest::Mi => DistanceUnit::Mi,
            DistanceUnitRequest::Nm => DistanceUnit::Nm,
        };
        Ok(Distance::parse(&at(field, "amount"), &self.amount, unit)?)
    }
}

/// The contract's `Address` (accepted, but Tonne cannot geocode it offline).
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = AddressBody)]
pub struct AddressRequest {
    pub street_line1: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub street_line2: Option<String>,
    pub postcode: String,
    pub city: String,
    pub country_code: String,
}

impl AddressRequest {
    /// The address as a place: its city and country (street lines and postcode
    /// are accepted and do not refine the city centroid).
    pub(super) fn place(&self, field: &str) -> Result<Place, ApiError> {
        if self.country_code.len() != 3
            || !self.country_code.bytes().all(|b| b.is_ascii_uppercase())
        {
            return Err(ApiError::validation(
                &at(field, "country_code"),
                "must be an ISO 3166-1 alpha-3 code such as GBR",
            ));
        }
        Ok(Place::Address {
            city: self.city.clone(),
            country_code: self.country_code.clone(),
        })
    }
}

/// The contract's `GeographicCoordinates`.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = CoordinatesBody)]
pub struct CoordinatesRequest {
    /// −90 to 90.
    pub lat: f64,
    /// −180 to 180.
    pub lon: f64,
}

/// IATA or ICAO airport code.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = AirportCodeBody)]
pub struct AirportCodeRequest {
    /// `^[A-Z]{3}$` (IATA) or `^[A-Z]{4}[A-Z]?$` (ICAO).
    pub code: String,
}

impl AirportCodeRequest {
    pub(super) fn check(&self, field: &str) -> Result<String, ApiError> {
        let ok =
            (3..=5).contains(&self.code.len()) && self.code.bytes().all(|b| b.is_ascii_uppercase());
        if !ok {
            return Err(ApiError::validation(
                &at(field, "code"),
                "must be an IATA (3 letters) or ICAO (4 letters) code",
            ));
        }
        Ok(self.code.clone())
    }
}

/// UN/LOCODE of a seaport.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = SeaportCodeBody)]
pub struct SeaportCodeRequest {
    /// `^[A-Z]{5}$`.
    pub locode: String,
}

/// Airports at both ends.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = AirportPairBody)]
pub struct AirportPairRequest {
    pub source: AirportCodeRequest,
    pub destination: AirportCodeRequest,
}

/// A flight route: a distance or two airports.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = FlightRouteBody)]
#[serde(untagged)]
pub enum FlightRouteRequest {
    /// Flown distance.
    Distance(DistanceRequest),
    Airports(AirportPairRequest),
}

impl FlightRouteRequest {
    pub(super) fn parse(&self, field: &str) -> Result<FlightRoute, ApiError> {
        Ok(match self {
            FlightRouteRequest::Distance(d) => FlightRoute::Distance(d.parse(field)?),
            FlightRouteRequest::Airports(p) => FlightRoute::Airports {
                source: p.source.check(&at(field, "source"))?,
                destination: p.destination.check(&at(field, "destination"))?,
            },
        })
    }
}

/// A place of a passenger road/rail route.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = SurfacePlaceBody)]
#[serde(untagged)]
pub enum SurfacePlaceRequest {
    Coordinates(CoordinatesRequest),
    Address(AddressRequest),
}

/// Both ends of a passenger road/rail route.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = SurfacePairBody)]
pub struct SurfacePairRequest {
    pub source: SurfacePlaceRequest,
    pub destination: SurfacePlaceRequest,
}

/// A passenger road/rail route.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = SurfaceRouteBody)]
#[serde(untagged)]
pub enum SurfaceRouteRequest {
    Distance(DistanceRequest),
    /// Two places.
    Between(Box<SurfacePairRequest>),
}

pub(super) fn coordinates(field: &str, c: &CoordinatesRequest) -> Result<Place, ApiError> {
    Ok(Place::Coordinates(LatLon::new(field, c.lat, c.lon)?))
}

impl SurfaceRouteRequest {
    pub(super) fn parse(&self, field: &str) -> Result<Route, ApiError> {
        let place = |f: &str, p: &SurfacePlaceRequest| match p {
            SurfacePlaceRequest::Coordinates(c) => coordinates(f, c),
            SurfacePlaceRequest::Address(a) => a.place(f),
        };
        Ok(match self {
            SurfaceRouteRequest::Distance(d) => Route::Distance(d.parse(field)?),
            SurfaceRouteRequest::Between(p) => Route::Between {
                source: place(&at(field, "source"), &p.source)?,
                destination: place(&at(field, "destination"), &p.destination)?,
            },
        })
    }
}

/// A place of a shipping route.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = ShippingPlaceBody)]
#[serde(untagged)]
pub enum ShippingPlaceRequest {
    Coordinates(CoordinatesRequest),
    Seaport(SeaportCodeRequest),
    Airport(AirportCodeRequest),
    Address(AddressRequest),
}

/// Both ends of a shipping route.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = ShippingPairBody)]
pub struct ShippingPairRequest {
    pub source: ShippingPlaceRequest,
    pub destination: ShippingPlaceRequest,
}

/// The contract's `ShippingRoute`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = ShippingRouteBody)]
#[serde(untagged)]
pub enum ShippingRouteRequest {
    Distance(DistanceRequest),
    /// Two places.
    Between(Box<ShippingPairRequest>),
}

impl ShippingRouteRequest {
    pub(super) fn parse(&self, field: &str) -> Result<Route, ApiError> {
        let place = |f: &str, p: &ShippingPlaceRequest| -> Result<Place, ApiError> {
            Ok(match p {
                ShippingPlaceRequest::Coordinates(c) => coordinates(f, c)?,
                ShippingPlaceRequest::Seaport(s) => {
                    if s.locode.len() != 5 || !s.locode.bytes().all(|b| b.is_ascii_uppercase()) {
                        return Err(ApiError::validation(
                            &at(f, "locode"),
                            "must be a UN/LOCODE of 5 capital letters",
                        ));
                    }
                    Place::Seaport(s.locode.clone())
                }
                ShippingPlaceRequest::Airport(a) => Place::Airport(a.check(f)?),
                ShippingPlaceRequest::Address(a) => a.place(f)?,
            })
        };
        Ok(match self {
            ShippingRouteRequest::Distance(d) => Route::Distance(d.parse(field)?),
            ShippingRouteRequest::Between(p) => Route::Between {
                source: place(&at(field, "source"), &p.source)?,
                destination: place(&at(field, "destination"), &p.destination)?,
            },
        })
    }
}
