//! The contract's estimate request shapes and their conversion to the engines'
//! inputs. Every conversion error names its field; unknown fields are refused;
//! `null` is refused for optional fields, as everywhere in the API.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use tonne_estimation::diet::Diet;
use tonne_estimation::flight::{CabinClass, FlightRoute};
use tonne_estimation::footprint::{CarFuel, CompanyRequest, IndividualRequest};
use tonne_estimation::passenger::{Leg as PassengerLeg, Rail, Vehicle};
use tonne_estimation::route::{Place, Route};
use tonne_estimation::shipping::{self, CargoType, Fuel, Method, Shipment, Vessel};
use tonne_estimation::transaction::{Merchant, TransactionRequest};
use tonne_estimation::{Area, AreaUnit, Distance, DistanceUnit, LatLon, Spend};
use tonne_kernel::Mass;
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::wire::{CurrencyCode, MassBody, MassUnitBody, SelectionBody};

type R<T> = Result<T, ApiError>;

fn at(prefix: &str, field: &str) -> String {
    if prefix.is_empty() {
        field.to_owned()
    } else {
        format!("{prefix}.{field}")
    }
}

/// Fields every estimate request shares: a name and the quote's selection.
pub trait QuoteFields {
    /// `bundle_selection`.
    fn bundle_selection(&self) -> Option<Vec<SelectionBody>>;
    /// `quantity_trunc`.
    fn quantity_trunc(&self) -> Option<MassUnitBody>;
}

/// Declares an estimate request: the given fields, then the three every
/// estimate request shares (`name` and the quote's `bundle_selection` and
/// `quantity_trunc`), strict (`deny_unknown_fields`, `null` refused for
/// optional fields), with its [`QuoteFields`].
macro_rules! estimate_request {
    ($(#[$meta:meta])* pub struct $name:ident { $($body:tt)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            $($body)*
            /// A name to reference this calculation.
            #[serde(default, deserialize_with = "crate::extract::non_null", skip_serializing_if = "Option::is_none")]
            pub name: Option<String>,
            /// Bundles and percentages for the quote (else the account's or the catalogue's default).
            #[serde(default, deserialize_with = "crate::extract::non_null", skip_serializing_if = "Option::is_none")]
            pub bundle_selection: Option<Vec<SelectionBody>>,
            /// Truncation unit of the quote's quantities.
            #[serde(default, deserialize_with = "crate::extract::non_null", skip_serializing_if = "Option::is_none")]
            pub quantity_trunc: Option<MassUnitBody>,
        }

        impl QuoteFields for $name {
            fn bundle_selection(&self) -> Option<Vec<SelectionBody>> {
                self.bundle_selection.clone()
            }
            fn quantity_trunc(&self) -> Option<MassUnitBody> {
                self.quantity_trunc
            }
        }
    };
}

mod footprint;
mod shipments;
mod transactions;
mod transport;

pub use footprint::*;
pub use shipments::*;
pub use transactions::*;
pub use transport::*;

// ---- shared shapes ----------------------------------------------------------

/// `km`, `mi` or `nm`.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum DistanceUnitBody {
    Km,
    Mi,
    Nm,
}

/// The contract's `Distance`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DistanceBody {
    /// Decimal string.
    pub amount: String,
    pub unit: DistanceUnitBody,
}

impl DistanceBody {
    fn parse(&self, field: &str) -> R<Distance> {
        let unit = match self.unit {
            DistanceUnitBody::Km => DistanceUnit::Km,
            DistanceUnitBody::Mi => DistanceUnit::Mi,
            DistanceUnitBody::Nm => DistanceUnit::Nm,
        };
        Ok(Distance::parse(&at(field, "amount"), &self.amount, unit)?)
    }
}

/// The contract's `Address` (accepted, but Tonne cannot geocode it offline).
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AddressBody {
    pub street_line1: String,
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub street_line2: Option<String>,
    pub postcode: String,
    pub city: String,
    pub country_code: String,
}

impl AddressBody {
    /// The address as a place: its city and country (street lines and postcode
    /// are accepted and do not refine the city centroid).
    fn place(&self, field: &str) -> R<Place> {
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
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CoordinatesBody {
    /// −90 to 90.
    pub lat: f64,
    /// −180 to 180.
    pub lon: f64,
}

/// IATA or ICAO airport code.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AirportCodeBody {
    /// `^[A-Z]{3}$` (IATA) or `^[A-Z]{4}[A-Z]?$` (ICAO).
    pub code: String,
}

impl AirportCodeBody {
    fn check(&self, field: &str) -> R<String> {
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
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeaportCodeBody {
    /// `^[A-Z]{5}$`.
    pub locode: String,
}

/// Airports at both ends.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AirportPairBody {
    pub source: AirportCodeBody,
    pub destination: AirportCodeBody,
}

/// A flight route: a distance or two airports.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(untagged)]
pub enum FlightRouteBody {
    /// Flown distance.
    Distance(DistanceBody),
    Airports(AirportPairBody),
}

impl FlightRouteBody {
    fn parse(&self, field: &str) -> R<FlightRoute> {
        Ok(match self {
            FlightRouteBody::Distance(d) => FlightRoute::Distance(d.parse(field)?),
            FlightRouteBody::Airports(p) => FlightRoute::Airports {
                source: p.source.check(&at(field, "source"))?,
                destination: p.destination.check(&at(field, "destination"))?,
            },
        })
    }
}

/// A place of a passenger road/rail route.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(untagged)]
pub enum SurfacePlaceBody {
    Coordinates(CoordinatesBody),
    Address(AddressBody),
}

/// Both ends of a passenger road/rail route.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SurfacePairBody {
    pub source: SurfacePlaceBody,
    pub destination: SurfacePlaceBody,
}

/// A passenger road/rail route.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(untagged)]
pub enum SurfaceRouteBody {
    Distance(DistanceBody),
    /// Two places.
    Between(Box<SurfacePairBody>),
}

fn coordinates(field: &str, c: &CoordinatesBody) -> R<Place> {
    Ok(Place::Coordinates(LatLon::new(field, c.lat, c.lon)?))
}

impl SurfaceRouteBody {
    fn parse(&self, field: &str) -> R<Route> {
        let place = |f: &str, p: &SurfacePlaceBody| match p {
            SurfacePlaceBody::Coordinates(c) => coordinates(f, c),
            SurfacePlaceBody::Address(a) => a.place(f),
        };
        Ok(match self {
            SurfaceRouteBody::Distance(d) => Route::Distance(d.parse(field)?),
            SurfaceRouteBody::Between(p) => Route::Between {
                source: place(&at(field, "source"), &p.source)?,
                destination: place(&at(field, "destination"), &p.destination)?,
            },
        })
    }
}

/// A place of a shipping route.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(untagged)]
pub enum ShippingPlaceBody {
    Coordinates(CoordinatesBody),
    Seaport(SeaportCodeBody),
    Airport(AirportCodeBody),
    Address(AddressBody),
}

/// Both ends of a shipping route.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ShippingPairBody {
    pub source: ShippingPlaceBody,
    pub destination: ShippingPlaceBody,
}

/// The contract's `ShippingRoute`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(untagged)]
pub enum ShippingRouteBody {
    Distance(DistanceBody),
    /// Two places.
    Between(Box<ShippingPairBody>),
}

impl ShippingRouteBody {
    fn parse(&self, field: &str) -> R<Route> {
        let place = |f: &str, p: &ShippingPlaceBody| -> R<Place> {
            Ok(match p {
                ShippingPlaceBody::Coordinates(c) => coordinates(f, c)?,
                ShippingPlaceBody::Seaport(s) => {
                    if s.locode.len() != 5 || !s.locode.bytes().all(|b| b.is_ascii_uppercase()) {
                        return Err(ApiError::validation(
                            &at(f, "locode"),
                            "must be a UN/LOCODE of 5 capital letters",
                        ));
                    }
                    Place::Seaport(s.locode.clone())
                }
                ShippingPlaceBody::Airport(a) => Place::Airport(a.check(f)?),
                ShippingPlaceBody::Address(a) => a.place(f)?,
            })
        };
        Ok(match self {
            ShippingRouteBody::Distance(d) => Route::Distance(d.parse(field)?),
            ShippingRouteBody::Between(p) => Route::Between {
                source: place(&at(field, "source"), &p.source)?,
                destination: place(&at(field, "destination"), &p.destination)?,
            },
        })
    }
}

/// The contract's `MonetaryAmount`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoneyBody {
    /// Decimal string.
    pub value: String,
    pub currency: CurrencyCode,
}

impl MoneyBody {
    fn parse(&self, field: &str) -> R<Spend> {
        Ok(Spend::parse(
            &at(field, "value"),
            &self.value,
            self.currency.into(),
        )?)
    }
}

/// The contract's diets.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DietBody {
    HighMeatEater,
    MediumMeatEater,
    LowMeatEater,
    FishEater,
    Vegetarian,
    Vegan,
}

impl From<DietBody> for Diet {
    fn from(d: DietBody) -> Self {
        match d {
            DietBody::HighMeatEater => Diet::HighMeatEater,
            DietBody::MediumMeatEater => Diet::MediumMeatEater,
            DietBody::LowMeatEater => Diet::LowMeatEater,
            DietBody::FishEater => Diet::FishEater,
            DietBody::Vegetarian => Diet::Vegetarian,
            DietBody::Vegan => Diet::Vegan,
        }
    }
}

/// Cabin class.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum CabinBody {
    Economy,
    Business,
    First,
}

impl From<CabinBody> for CabinClass {
    fn from(c: CabinBody) -> Self {
        match c {
            CabinBody::Economy => CabinClass::Economy,
            CabinBody::Business => CabinClass::Business,
            CabinBody::First => CabinClass::First,
        }
    }
}

fn passengers(field: &str, n: Option<&serde_json::Number>) -> R<Decimal> {
    let Some(n) = n else { return Ok(Decimal::ONE) };
    // the range (0 to 10,000) is the engine's rule
    let value = n
        .as_f64()
        .and_then(Decimal::from_f64_retain)
        .ok_or_else(|| ApiError::validation(field, "must be a number between 0 and 10000"))?;
    Ok(value.round_dp(6))
}

/// The shape of an ISO 3166-1 alpha-3 code, for `country_code`s no engine
/// looks up (shipping); the others are checked by the engines themselves.
fn country(field: &str, code: &str) -> R<String> {
    if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(ApiError::validation(
            field,
            "must be an ISO 3166-1 alpha-3 code such as \"GBR\"",
        ));
    }
    Ok(code.to_owned())
}

// ---- electricity ---------------------------------------------------------------

/// kWh, MWh or GWh.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
pub enum EnergyUnitBody {
    #[serde(rename = "kWh")]
    KWh,
    #[serde(rename = "MWh")]
    MWh,
    #[serde(rename = "GWh")]
    GWh,
}

/// The contract's `ElectricityConsumption`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ConsumptionBody {
    /// Decimal string.
    pub amount: String,
    pub unit: EnergyUnitBody,
}

estimate_request! {
/// The contract's `ElectricityEstimateRequest`.
pub struct ElectricityRequest {
    pub consumption: ConsumptionBody,
    /// ISO alpha-3; the world average when absent.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub country_code: Option<String>,
}
}

impl ElectricityRequest {
    /// Consumption and country.
    pub fn parse(&self) -> R<(tonne_estimation::electricity::Energy, Option<String>)> {
        use tonne_estimation::electricity::{Energy, EnergyUnit};
        let unit = match self.consumption.unit {
            EnergyUnitBody::KWh => EnergyUnit::KWh,
            EnergyUnitBody::MWh => EnergyUnit::MWh,
            EnergyUnitBody::GWh => EnergyUnit::GWh,
        };
        let energy = Energy::parse(&self.consumption.amount, unit)?;
        // the engine checks the code (shape and table)
        Ok((energy, self.country_code.clone()))
    }
}
