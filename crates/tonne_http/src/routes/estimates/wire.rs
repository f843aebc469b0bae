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
use tonne_kernel::{Currency, Mass, MassUnit};
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::routes::quotes::{MassBody, MassUnitBody, SelectionBody};

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

macro_rules! quote_fields {
    ($($t:ty),*) => {$(
        impl QuoteFields for $t {
            fn bundle_selection(&self) -> Option<Vec<SelectionBody>> {
                self.bundle_selection.clone()
            }
            fn quantity_trunc(&self) -> Option<MassUnitBody> {
                self.quantity_trunc
            }
        }
    )*};
}

quote_fields!(
    ElectricityRequest,
    FlightRequest,
    PassengerTransportationRequest,
    ShippingRequest,
    MultiLegShippingRequest,
    TransactionRequestBody,
    CompanyRequestBody,
    IndividualRequestBody
);

// ---- shared shapes ----------------------------------------------------------

/// `km`, `mi` or `nm`.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
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
    /// Unit.
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
#[allow(missing_docs)]
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
    /// Origin.
    pub source: AirportCodeBody,
    /// Destination.
    pub destination: AirportCodeBody,
}

/// A flight route: a distance or two airports.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(untagged)]
pub enum FlightRouteBody {
    /// Flown distance.
    Distance(DistanceBody),
    /// Airports.
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
    /// Coordinates.
    Coordinates(CoordinatesBody),
    /// Address.
    Address(AddressBody),
}

/// Both ends of a passenger road/rail route.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SurfacePairBody {
    /// Start.
    pub source: SurfacePlaceBody,
    /// End.
    pub destination: SurfacePlaceBody,
}

/// A passenger road/rail route.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(untagged)]
pub enum SurfaceRouteBody {
    /// Distance.
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
            SurfacePlaceBody::Address(_) => Ok(Place::Address),
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
    /// Coordinates.
    Coordinates(CoordinatesBody),
    /// Seaport.
    Seaport(SeaportCodeBody),
    /// Airport.
    Airport(AirportCodeBody),
    /// Address.
    Address(AddressBody),
}

/// Both ends of a shipping route.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ShippingPairBody {
    /// Start.
    pub source: ShippingPlaceBody,
    /// End.
    pub destination: ShippingPlaceBody,
}

/// The contract's `ShippingRoute`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(untagged)]
pub enum ShippingRouteBody {
    /// Distance.
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
                ShippingPlaceBody::Address(_) => Place::Address,
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

/// The contract's currencies.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[allow(missing_docs, clippy::upper_case_acronyms)]
pub enum CurrencyBody {
    GBP,
    EUR,
    USD,
    SEK,
    CHF,
    PLN,
    DKK,
    NOK,
}

impl From<CurrencyBody> for Currency {
    fn from(c: CurrencyBody) -> Self {
        match c {
            CurrencyBody::GBP => Currency::Gbp,
            CurrencyBody::EUR => Currency::Eur,
            CurrencyBody::USD => Currency::Usd,
            CurrencyBody::SEK => Currency::Sek,
            CurrencyBody::CHF => Currency::Chf,
            CurrencyBody::PLN => Currency::Pln,
            CurrencyBody::DKK => Currency::Dkk,
            CurrencyBody::NOK => Currency::Nok,
        }
    }
}

/// The contract's `MonetaryAmount`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoneyBody {
    /// Decimal string.
    pub value: String,
    /// Currency.
    pub currency: CurrencyBody,
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
#[allow(missing_docs)]
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
#[allow(missing_docs)]
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
    let value = n
        .as_f64()
        .filter(|v| v.is_finite() && *v >= 0.0 && *v <= 10_000.0)
        .and_then(Decimal::from_f64_retain)
        .ok_or_else(|| ApiError::validation(field, "must be a number between 0 and 10000"))?;
    Ok(value.round_dp(6))
}

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
#[allow(missing_docs)]
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
    /// Unit.
    pub unit: EnergyUnitBody,
}

/// The contract's `ElectricityEstimateRequest`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ElectricityRequest {
    /// A name for the calculation.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub name: Option<String>,
    /// Consumption.
    pub consumption: ConsumptionBody,
    /// ISO alpha-3; the world average when absent.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub country_code: Option<String>,
    /// Selection for the quote.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub bundle_selection: Option<Vec<SelectionBody>>,
    /// Truncation of the quote.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub quantity_trunc: Option<MassUnitBody>,
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
        let country = self
            .country_code
            .as_deref()
            .map(|c| country("country_code", c))
            .transpose()?;
        Ok((energy, country))
    }
}

// ---- flight and passenger transportation ---------------------------------------

/// The contract's `FlightEstimateRequest`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FlightRequest {
    /// Distance or airports.
    pub route: FlightRouteBody,
    /// Economy when absent (see docs/API.md).
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub cabin_class: Option<CabinBody>,
    /// Passengers (default 1).
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<f64>)]
    pub passengers: Option<serde_json::Number>,
    /// Selection for the quote.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub bundle_selection: Option<Vec<SelectionBody>>,
    /// Truncation of the quote.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub quantity_trunc: Option<MassUnitBody>,
    /// A name for the calculation.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub name: Option<String>,
}

impl FlightRequest {
    /// Engine input.
    pub fn parse(&self) -> R<tonne_estimation::flight::FlightRequest> {
        Ok(tonne_estimation::flight::FlightRequest {
            route: self.route.parse("route")?,
            cabin: self.cabin_class.map(CabinClass::from).unwrap_or_default(),
            passengers: passengers("passengers", self.passengers.as_ref())?,
        })
    }
}

/// Road vehicle types.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum VehicleBody {
    CarMini,
    CarSupermini,
    CarLowerMedium,
    CarUpperMedium,
    CarExecutive,
    CarLuxury,
    CarSports,
    #[serde(rename = "car_dual_purpose_4x4")]
    CarDualPurpose4x4,
    CarMpv,
    MotorcycleSmall,
    MotorcycleMedium,
    MotorcycleLarge,
    MotorcycleAverage,
}

/// Rail types.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum RailBody {
    NationalRail,
    InternationalRail,
    LightRailOrTram,
}

/// A road leg.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RoadLegBody {
    /// Route.
    pub route: SurfaceRouteBody,
    /// Vehicle.
    pub vehicle_type: VehicleBody,
}

/// A rail leg.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RailLegBody {
    /// Route.
    pub route: SurfaceRouteBody,
    /// Rail type.
    pub rail_type: RailBody,
}

/// A flight leg.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FlightLegBody {
    /// Route.
    pub route: FlightRouteBody,
    /// Cabin.
    pub cabin_class: CabinBody,
}

/// One passenger leg.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(untagged)]
pub enum PassengerLegBody {
    /// Road.
    Road(RoadLegBody),
    /// Rail.
    Rail(RailLegBody),
    /// Air.
    Flight(FlightLegBody),
}

/// The contract's `PassengerTransportationEstimateRequest`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PassengerTransportationRequest {
    /// Passengers (default 1).
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<f64>)]
    pub passengers: Option<serde_json::Number>,
    /// 1 to 10 legs.
    pub legs: Vec<PassengerLegBody>,
    /// Selection for the quote.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub bundle_selection: Option<Vec<SelectionBody>>,
    /// Truncation of the quote.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub quantity_trunc: Option<MassUnitBody>,
    /// A name for the calculation.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub name: Option<String>,
}

impl PassengerTransportationRequest {
    /// Engine input.
    pub fn parse(&self) -> R<tonne_estimation::passenger::PassengerRequest> {
        if self.legs.is_empty() || self.legs.len() > 10 {
            return Err(ApiError::validation("legs", "must have 1 to 10 legs"));
        }
        let legs = self
            .legs
            .iter()
            .enumerate()
            .map(|(i, leg)| {
                let f = format!("legs[{i}].route");
                Ok(match leg {
                    PassengerLegBody::Road(r) => PassengerLeg::Road {
                        route: r.route.parse(&f)?,
                        vehicle: match r.vehicle_type {
                            VehicleBody::CarMini => Vehicle::CarMini,
                            VehicleBody::CarSupermini => Vehicle::CarSupermini,
                            VehicleBody::CarLowerMedium => Vehicle::CarLowerMedium,
                            VehicleBody::CarUpperMedium => Vehicle::CarUpperMedium,
                            VehicleBody::CarExecutive => Vehicle::CarExecutive,
                            VehicleBody::CarLuxury => Vehicle::CarLuxury,
                            VehicleBody::CarSports => Vehicle::CarSports,
                            VehicleBody::CarDualPurpose4x4 => Vehicle::CarDualPurpose4x4,
                            VehicleBody::CarMpv => Vehicle::CarMpv,
                            VehicleBody::MotorcycleSmall => Vehicle::MotorcycleSmall,
                            VehicleBody::MotorcycleMedium => Vehicle::MotorcycleMedium,
                            VehicleBody::MotorcycleLarge => Vehicle::MotorcycleLarge,
                            VehicleBody::MotorcycleAverage => Vehicle::MotorcycleAverage,
                        },
                    },
                    PassengerLegBody::Rail(r) => PassengerLeg::Rail {
                        route: r.route.parse(&f)?,
                        rail: match r.rail_type {
                            RailBody::NationalRail => Rail::National,
                            RailBody::InternationalRail => Rail::International,
                            RailBody::LightRailOrTram => Rail::LightRailOrTram,
                        },
                    },
                    PassengerLegBody::Flight(fl) => PassengerLeg::Flight {
                        route: fl.route.parse(&f)?,
                        cabin: fl.cabin_class.into(),
                    },
                })
            })
            .collect::<R<Vec<_>>>()?;
        Ok(tonne_estimation::passenger::PassengerRequest {
            passengers: passengers("passengers", self.passengers.as_ref())?,
            legs,
        })
    }
}

// ---- shipping ---------------------------------------------------------------------

/// Cargo types of containers.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum CargoBody {
    Lightweight,
    Average,
    Heavyweight,
    ContainerOnly,
}

/// A shipment by mass.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MassShipmentBody {
    /// Mass.
    pub mass: MassBody,
}

/// A shipment in TEU.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ContainerShipmentBody {
    /// TEU, decimal string.
    pub containers: String,
    /// Cargo type (average when absent).
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub cargo_type: Option<CargoBody>,
    /// Actual mass, if known.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub mass: Option<MassBody>,
}

/// The contract's `Shipment`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(untagged)]
pub enum ShipmentBody {
    /// By mass.
    Mass(MassShipmentBody),
    /// In containers.
    Containers(ContainerShipmentBody),
}

fn shipment_mass(m: &MassBody) -> R<Mass> {
    let unit = match m.unit {
        MassUnitBody::G => MassUnit::G,
        MassUnitBody::Kg => MassUnit::Kg,
        MassUnitBody::T => MassUnit::T,
    };
    Mass::parse(&m.amount, unit).map_err(|e| ApiError::validation("shipment.mass.amount", e))
}

impl ShipmentBody {
    fn parse(&self) -> R<Shipment> {
        Ok(match self {
            ShipmentBody::Mass(m) => Shipment::Mass(shipment_mass(&m.mass)?),
            ShipmentBody::Containers(c) => {
                let teu = tonne_estimation::parse_amount("shipment.containers", &c.containers)?;
                Shipment::Containers {
                    teu,
                    cargo: match c.cargo_type {
                        None | Some(CargoBody::Average) => CargoType::Average,
                        Some(CargoBody::Lightweight) => CargoType::Lightweight,
                        Some(CargoBody::Heavyweight) => CargoType::Heavyweight,
                        Some(CargoBody::ContainerOnly) => CargoType::ContainerOnly,
                    },
                    mass: c.mass.as_ref().map(shipment_mass).transpose()?,
                }
            }
        })
    }
}

/// A sea vessel method (`SeaShippingMethod`).
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeaMethodBody {
    /// `sea_*` vessel type.
    pub vessel_type: String,
    /// HFO, MGO (LNG for `sea_oil_tanker_huge`).
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub fuel: Option<String>,
    /// Load (bulk carriers: average/heavy; RoRo: freight_only/truck_and_trailer/trailer_only).
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub load: Option<String>,
}

/// A container ship or an identified vessel.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ContainerMethodBody {
    /// The vessel's IMO number (7 digits).
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub vessel_imo_number: Option<String>,
    /// `container_ship`.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub vessel_type: Option<String>,
    /// Refrigerated (default false).
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub refrigerated: Option<bool>,
    /// Trade lane.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub trade_lane: Option<String>,
}

/// The contract's `ShippingMethod`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(untagged)]
pub enum MethodBody {
    /// A `SimpleShippingMethod` name.
    Simple(String),
    /// A sea vessel (or a bare `{"vessel_type": "container_ship"}`).
    Sea(SeaMethodBody),
    /// A container ship or a vessel by IMO number.
    Container(ContainerMethodBody),
}

/// The contract's trade lanes.
pub const TRADE_LANES: &[&str] = &[
    "aggregated_panama_trade",
    "aggregated_transatlantic",
    "aggregated_transsuez",
    "aggregated_transpacific",
    "aggregated_other",
    "disaggregated_asia_to_africa",
    "disaggregated_asia_to_mediterranean",
    "disaggregated_asia_to_middle_east",
    "disaggregated_asia_to_north_america_east",
    "disaggregated_asia_to_north_america_west",
    "disaggregated_asia_to_north_europe",
    "disaggregated_asia_to_oceania",
    "disaggregated_asia_to_south_america",
    "disaggregated_europe_to_africa",
    "disaggregated_europe_to_south_america",
    "disaggregated_europe_to_middle_east",
    "disaggregated_europe_to_oceania",
    "disaggregated_mediterranean_to_north_america_east",
    "disaggregated_mediterranean_to_north_america_west",
    "disaggregated_north_america_to_africa",
    "disaggregated_north_america_to_oceania",
    "disaggregated_north_america_to_south_america",
    "disaggregated_north_america_to_middle_east",
    "disaggregated_north_europe_to_north_america_east",
    "disaggregated_north_europe_to_north_america_west",
    "disaggregated_south_america_to_africa",
    "disaggregated_intra_africa",
    "disaggregated_intra_north_america",
    "disaggregated_intra_south_america",
    "disaggregated_se_asia_to_ne_asia",
    "disaggregated_intra_ne_asia",
    "disaggregated_intra_se_asia",
    "disaggregated_north_europe_to_mediterranean",
    "disaggregated_intra_mediterranean",
    "disaggregated_intra_north_europe",
    "disaggregated_intra_middle_east",
    "disaggregated_other",
];

impl MethodBody {
    fn parse(&self, field: &str) -> R<Method> {
        let bad = |f: &str, why: &str| ApiError::validation(&at(field, f), why);
        match self {
            MethodBody::Simple(name) => {
                if shipping::is_simple_method(name) {
                    Ok(Method::Simple(name.clone()))
                } else {
                    Err(ApiError::validation(
                        field,
                        "is not one of the contract's shipping methods",
                    ))
                }
            }
            MethodBody::Container(c) => {
                if c.vessel_type
                    .as_deref()
                    .is_some_and(|t| t != "container_ship")
                {
                    return Err(bad("vessel_type", "must be container_ship here"));
                }
                if let Some(lane) = &c.trade_lane
                    && !TRADE_LANES.contains(&lane.as_str())
                {
                    return Err(bad(
                        "trade_lane",
                        "is not one of the contract's trade lanes",
                    ));
                }
                let refrigerated = c.refrigerated.unwrap_or(false);
                match &c.vessel_imo_number {
                    Some(imo) => {
                        if imo.len() != 7 || !imo.bytes().all(|b| b.is_ascii_digit()) {
                            return Err(bad("vessel_imo_number", "must be 7 digits"));
                        }
                        Ok(Method::Vessel {
                            imo: imo.clone(),
                            refrigerated,
                            trade_lane: c.trade_lane.clone(),
                        })
                    }
                    None if c.vessel_type.is_some() => Ok(Method::Container {
                        refrigerated,
                        trade_lane: c.trade_lane.clone(),
                    }),
                    None => Err(bad("vessel_type", "is required")),
                }
            }
            MethodBody::Sea(s) if s.vessel_type == "container_ship" => {
                if s.fuel.is_some() || s.load.is_some() {
                    return Err(bad(
                        "fuel",
                        "container ships take refrigerated and trade_lane, not fuel or load",
                    ));
                }
                Ok(Method::Container {
                    refrigerated: false,
                    trade_lane: None,
                })
            }
            MethodBody::Sea(s) => {
                let vessel = match s.vessel_type.as_str() {
                    "sea_oil_tanker_small" => Vessel::OilTankerSmall,
                    "sea_oil_tanker_medium" => Vessel::OilTankerMedium,
                    "sea_oil_tanker_large" => Vessel::OilTankerLarge,
                    "sea_oil_tanker_huge" => Vessel::OilTankerHuge,
                    "sea_general_cargo_small" => Vessel::GeneralCargoSmall,
                    "sea_general_cargo_large" => Vessel::GeneralCargoLarge,
                    "sea_bulk_carrier_small" => Vessel::BulkCarrierSmall,
                    "sea_bulk_carrier_medium" => Vessel::BulkCarrierMedium,
                    "sea_bulk_carrier_large" => Vessel::BulkCarrierLarge,
                    "sea_roro" => Vessel::RoRo,
                    "sea_ropax" => Vessel::RoPax,
                    _ => {
                        return Err(bad(
                            "vessel_type",
                            "is not one of the contract's vessel types",
                        ));
                    }
                };
                let fuel = match (s.fuel.as_deref(), vessel) {
                    (None, _) => None,
                    (Some("HFO"), _) => Some(Fuel::Hfo),
                    (Some("MGO"), _) => Some(Fuel::Mgo),
                    (Some("LNG"), Vessel::OilTankerHuge) => Some(Fuel::Lng),
                    _ => return Err(bad("fuel", "is not a fuel of this vessel type")),
                };
                let heavy_load = match (s.load.as_deref(), vessel) {
                    (None, _) => false,
                    (Some("average"), Vessel::BulkCarrierMedium | Vessel::BulkCarrierLarge) => {
                        false
                    }
                    (Some("heavy"), Vessel::BulkCarrierMedium | Vessel::BulkCarrierLarge) => true,
                    (Some("freight_only" | "truck_and_trailer" | "trailer_only"), Vessel::RoRo) => {
                        false
                    }
                    _ => return Err(bad("load", "is not a load of this vessel type")),
                };
                Ok(Method::Sea {
                    vessel,
                    fuel,
                    heavy_load,
                })
            }
        }
    }
}

/// The contract's `ShippingEstimateRequest`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ShippingRequest {
    /// What is shipped.
    pub shipment: ShipmentBody,
    /// Where.
    pub route: ShippingRouteBody,
    /// How.
    pub method: MethodBody,
    /// ISO alpha-3 (accepted and checked; the factors are not country-specific yet).
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub country_code: Option<String>,
    /// A name for the calculation.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub name: Option<String>,
    /// Selection for the quote.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub bundle_selection: Option<Vec<SelectionBody>>,
    /// Truncation of the quote.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub quantity_trunc: Option<MassUnitBody>,
}

impl ShippingRequest {
    /// Engine input.
    pub fn parse(&self) -> R<(Shipment, shipping::Leg)> {
        if let Some(c) = &self.country_code {
            country("country_code", c)?;
        }
        Ok((
            self.shipment.parse()?,
            shipping::Leg {
                route: self.route.parse("route")?,
                method: self.method.parse("method")?,
            },
        ))
    }
}

/// One leg of a multi-leg shipment.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ShippingLegBody {
    /// Where.
    pub route: ShippingRouteBody,
    /// How.
    pub method: MethodBody,
    /// ISO alpha-3.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub country_code: Option<String>,
}

/// The contract's `MultiLegShippingEstimateRequest`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MultiLegShippingRequest {
    /// What is shipped (all legs).
    pub shipment: ShipmentBody,
    /// 1 to 10 legs.
    pub legs: Vec<ShippingLegBody>,
    /// A name for the calculation.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub name: Option<String>,
    /// Selection for the quote.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub bundle_selection: Option<Vec<SelectionBody>>,
    /// Truncation of the quote.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub quantity_trunc: Option<MassUnitBody>,
}

impl MultiLegShippingRequest {
    /// Engine input.
    pub fn parse(&self) -> R<(Shipment, Vec<shipping::Leg>)> {
        if self.legs.is_empty() || self.legs.len() > 10 {
            return Err(ApiError::validation("legs", "must have 1 to 10 legs"));
        }
        let legs = self
            .legs
            .iter()
            .enumerate()
            .map(|(i, l)| {
                if let Some(c) = &l.country_code {
                    country(&format!("legs[{i}].country_code"), c)?;
                }
                Ok(shipping::Leg {
                    route: l.route.parse(&format!("legs[{i}].route"))?,
                    method: l.method.parse(&format!("legs[{i}].method"))?,
                })
            })
            .collect::<R<Vec<_>>>()?;
        Ok((self.shipment.parse()?, legs))
    }
}

// ---- transactions --------------------------------------------------------------------

/// The contract's `Merchant`: a country and exactly one of a category code or a search term.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MerchantBody {
    /// Merchant name.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub name: Option<String>,
    /// ISO alpha-3.
    pub country_code: String,
    /// ISO 18245 MCC (4 digits).
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub category_code: Option<String>,
    /// Free text matched to a category.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub fuzzy_search_term: Option<String>,
}

/// The contract's `TransactionEstimateRequest`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TransactionRequestBody {
    /// A name for the calculation.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub name: Option<String>,
    /// Value excluding shipping and taxes.
    pub value: MoneyBody,
    /// Merchant.
    pub merchant: MerchantBody,
    /// The buyer's diet.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub diet: Option<DietBody>,
    /// Selection for the quote.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub bundle_selection: Option<Vec<SelectionBody>>,
    /// Truncation of the quote.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub quantity_trunc: Option<MassUnitBody>,
}

impl TransactionRequestBody {
    /// Engine input.
    pub fn parse(&self) -> R<TransactionRequest> {
        let m = &self.merchant;
        let merchant = match (&m.category_code, &m.fuzzy_search_term) {
            (Some(code), None) => {
                if code.len() != 4 || !code.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(ApiError::validation(
                        "merchant.category_code",
                        "must be a 4-digit ISO 18245 code (leading zeros kept)",
                    ));
                }
                Merchant::CategoryCode(code.clone())
            }
            (None, Some(term)) => {
                if term.trim().is_empty() || term.chars().count() > 200 {
                    return Err(ApiError::validation(
                        "merchant.fuzzy_search_term",
                        "must be 1 to 200 characters",
                    ));
                }
                Merchant::SearchTerm(term.clone())
            }
            _ => {
                return Err(ApiError::validation(
                    "merchant",
                    "send exactly one of category_code and fuzzy_search_term",
                ));
            }
        };
        Ok(TransactionRequest {
            value: self.value.parse("value")?,
            country_code: country("merchant.country_code", &m.country_code)?,
            merchant,
            diet: self.diet.map(Diet::from),
        })
    }
}

// ---- company and individual ------------------------------------------------------------

/// `square_meters` or `square_feet`.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum AreaUnitBody {
    SquareMeters,
    SquareFeet,
}

/// The contract's `Area`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AreaBody {
    /// Decimal string.
    pub amount: String,
    /// Unit.
    pub unit: AreaUnitBody,
}

/// Cloud providers.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum CloudProviderBody {
    Aws,
    Gcp,
    Azure,
    Ovh,
    Other,
}

/// On-premise infrastructure.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OnPremiseBody {
    /// Yearly electricity bill.
    pub electricity_cost: MoneyBody,
}

/// Cloud use.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CloudBody {
    /// Yearly cost.
    pub cost: MoneyBody,
    /// Provider.
    pub provider: CloudProviderBody,
}

/// Tech use.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TechBody {
    /// On premise.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub on_premise: Option<OnPremiseBody>,
    /// Cloud.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub cloud: Option<CloudBody>,
}

fn count(field: &str, v: i64) -> R<u64> {
    u64::try_from(v)
        .ok()
        .filter(|v| *v <= 1_000_000_000_000)
        .ok_or_else(|| ApiError::validation(field, "must be an integer between 0 and 10^12"))
}

fn percent(field: &str, v: i64) -> R<u8> {
    u8::try_from(v)
        .ok()
        .filter(|v| *v <= 100)
        .ok_or_else(|| ApiError::validation(field, "must be an integer between 0 and 100"))
}

/// The contract's `CompanyEstimateRequest` (yearly values).
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct CompanyRequestBody {
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub months: Option<i64>,
    pub employees: i64,
    pub remote_employees_percentage: i64,
    pub office_area: AreaBody,
    pub country_code: String,
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub postcode: Option<String>,
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub city: Option<String>,
    pub electricity_consumption: i64,
    pub green_electricity_used: bool,
    pub gas_consumption: i64,
    pub company_cars: i64,
    pub average_car_distance_travelled: DistanceBody,
    pub employees_using_public_transport: i64,
    pub short_flights: i64,
    pub medium_flights: i64,
    pub long_flights: i64,
    pub first_or_business_class_percentage: i64,
    pub food_and_drinks_expenses: MoneyBody,
    pub vegetarian_and_vegan_percentage: i64,
    pub electronic_device_expenses: MoneyBody,
    pub garbage: i64,
    pub recycled_garbage_percentage: i64,
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub tech: Option<TechBody>,
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub bundle_selection: Option<Vec<SelectionBody>>,
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub quantity_trunc: Option<MassUnitBody>,
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub name: Option<String>,
}

impl CompanyRequestBody {
    /// Engine input.
    pub fn parse(&self) -> R<CompanyRequest> {
        let months = match self.months {
            None => 12,
            Some(m) => u32::try_from(m)
                .ok()
                .filter(|m| (1..=1200).contains(m))
                .ok_or_else(|| {
                    ApiError::validation("months", "must be an integer between 1 and 1200")
                })?,
        };
        let unit = match self.office_area.unit {
            AreaUnitBody::SquareMeters => AreaUnit::SquareMeters,
            AreaUnitBody::SquareFeet => AreaUnit::SquareFeet,
        };
        let tech = self.tech.as_ref();
        Ok(CompanyRequest {
            months,
            employees: count("employees", self.employees)?,
            remote_employees_percentage: percent(
                "remote_employees_percentage",
                self.remote_employees_percentage,
            )?,
            office_area: Area::parse("office_area.amount", &self.office_area.amount, unit)?,
            country_code: country("country_code", &self.country_code)?,
            electricity_kwh: count("electricity_consumption", self.electricity_consumption)?,
            green_electricity_used: self.green_electricity_used,
            gas_m3: count("gas_consumption", self.gas_consumption)?,
            company_cars: count("company_cars", self.company_cars)?,
            average_car_distance: self
                .average_car_distance_travelled
                .parse("average_car_distance_travelled")?,
            employees_using_public_transport: count(
                "employees_using_public_transport",
                self.employees_using_public_transport,
            )?,
            short_flights: count("short_flights", self.short_flights)?,
            medium_flights: count("medium_flights", self.medium_flights)?,
            long_flights: count("long_flights", self.long_flights)?,
            first_or_business_class_percentage: percent(
                "first_or_business_class_percentage",
                self.first_or_business_class_percentage,
            )?,
            food_and_drinks_expenses: self
                .food_and_drinks_expenses
                .parse("food_and_drinks_expenses")?,
            vegetarian_and_vegan_percentage: percent(
                "vegetarian_and_vegan_percentage",
                self.vegetarian_and_vegan_percentage,
            )?,
            electronic_device_expenses: self
                .electronic_device_expenses
                .parse("electronic_device_expenses")?,
            garbage_kg: count("garbage", self.garbage)?,
            recycled_garbage_percentage: percent(
                "recycled_garbage_percentage",
                self.recycled_garbage_percentage,
            )?,
            on_premise_electricity_cost: tech
                .and_then(|t| t.on_premise.as_ref())
                .map(|o| o.electricity_cost.parse("tech.on_premise.electricity_cost"))
                .transpose()?,
            cloud_cost: tech
                .and_then(|t| t.cloud.as_ref())
                .map(|c| c.cost.parse("tech.cloud.cost"))
                .transpose()?,
        })
    }
}

/// Car fuels.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum CarFuelBody {
    Gasoline,
    Electric,
    Hybrid,
}

/// The contract's `IndividualEstimateRequest` (yearly values).
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct IndividualRequestBody {
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub name: Option<String>,
    pub country_code: String,
    pub car_use: bool,
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub car_fuel_type: Option<CarFuelBody>,
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub average_car_distance_travelled: Option<DistanceBody>,
    pub short_flights: i64,
    pub medium_flights: i64,
    pub long_flights: i64,
    pub days_per_week_using_public_transport: i64,
    pub diet: DietBody,
    pub monthly_grocery_expenses: MoneyBody,
    pub monthly_restaurant_expenses: MoneyBody,
    pub monthly_clothing_expenses: MoneyBody,
    pub monthly_furniture_appliances_expenses: MoneyBody,
    pub monthly_other_expenses: MoneyBody,
    pub electricity_consumption: i64,
    pub green_electricity_used: bool,
    pub gas_consumption: i64,
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub bundle_selection: Option<Vec<SelectionBody>>,
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub quantity_trunc: Option<MassUnitBody>,
}

impl IndividualRequestBody {
    /// Engine input.
    pub fn parse(&self) -> R<IndividualRequest> {
        let days = u8::try_from(self.days_per_week_using_public_transport)
            .ok()
            .filter(|d| *d <= 7)
            .ok_or_else(|| {
                ApiError::validation(
                    "days_per_week_using_public_transport",
                    "must be an integer between 0 and 7",
                )
            })?;
        Ok(IndividualRequest {
            country_code: country("country_code", &self.country_code)?,
            car_use: self.car_use,
            car_fuel: match self.car_fuel_type {
                None | Some(CarFuelBody::Gasoline) => CarFuel::Gasoline,
                Some(CarFuelBody::Electric) => CarFuel::Electric,
                Some(CarFuelBody::Hybrid) => CarFuel::Hybrid,
            },
            car_distance: self
                .average_car_distance_travelled
                .as_ref()
                .map(|d| d.parse("average_car_distance_travelled"))
                .transpose()?,
            short_flights: count("short_flights", self.short_flights)?,
            medium_flights: count("medium_flights", self.medium_flights)?,
            long_flights: count("long_flights", self.long_flights)?,
            days_per_week_using_public_transport: days,
            diet: self.diet.into(),
            monthly_grocery: self
                .monthly_grocery_expenses
                .parse("monthly_grocery_expenses")?,
            monthly_restaurant: self
                .monthly_restaurant_expenses
                .parse("monthly_restaurant_expenses")?,
            monthly_clothing: self
                .monthly_clothing_expenses
                .parse("monthly_clothing_expenses")?,
            monthly_furniture_appliances: self
                .monthly_furniture_appliances_expenses
                .parse("monthly_furniture_appliances_expenses")?,
            monthly_other: self
                .monthly_other_expenses
                .parse("monthly_other_expenses")?,
            electricity_kwh: count("electricity_consumption", self.electricity_consumption)?,
            green_electricity_used: self.green_electricity_used,
            gas_m3: count("gas_consumption", self.gas_consumption)?,
        })
    }
}
