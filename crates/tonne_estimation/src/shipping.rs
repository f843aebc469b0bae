//! Freight (ISO 14083 / GLEC activity-based approach with DESNZ 2025 freight
//! factors): `mass = payload (t) × distance (km) × intensity (kg CO2e/t·km)`.
//!
//! Distances: as given; otherwise great-circle for air, great-circle × 1.2 for
//! road, rail and inland waterways, and the shortest path over the maritime
//! network for sea legs.

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::errors::EstimateError;
use crate::factors::desnz_2025 as desnz;
use crate::factors::{Factor, authored};
use crate::flight::Band;
use crate::geo::{LatLon, km_decimal};
use crate::places;
use crate::route::{Route, surface_distance};
use crate::units::{Distance, kg_to_mass};

/// How goods travel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Road,
    Rail,
    Air,
    /// Inland waterway.
    InlandWaterway,
    Sea,
}

/// The contract's `SimpleShippingMethod` names with their mode and factor.
/// North-American truck types use the closest DESNZ (UK fleet) class.
const SIMPLE: &[(&str, Mode, Factor)] = &[
    (
        "inland_waterway_motor_vessel_small",
        Mode::InlandWaterway,
        authored::IWW_MOTOR_SMALL,
    ),
    (
        "inland_waterway_motor_vessel_medium",
        Mode::InlandWaterway,
        authored::IWW_MOTOR_MEDIUM,
    ),
    (
        "inland_waterway_motor_vessel_large",
        Mode::InlandWaterway,
        authored::IWW_MOTOR_LARGE,
    ),
    (
        "inland_waterway_coupled_convoy",
        Mode::InlandWaterway,
        authored::IWW_COUPLED,
    ),
    (
        "inland_waterway_pushed_convoy_small",
        Mode::InlandWaterway,
        authored::IWW_PUSHED_SMALL,
    ),
    (
        "inland_waterway_pushed_convoy_medium",
        Mode::InlandWaterway,
        authored::IWW_PUSHED_MEDIUM,
    ),
    (
        "inland_waterway_pushed_convoy_large",
        Mode::InlandWaterway,
        authored::IWW_PUSHED_LARGE,
    ),
    (
        "inland_waterway_tanker",
        Mode::InlandWaterway,
        authored::IWW_TANKER,
    ),
    (
        "inland_waterway_container_vessel_medium",
        Mode::InlandWaterway,
        authored::IWW_CONTAINER_MEDIUM,
    ),
    (
        "inland_waterway_container_vessel_large",
        Mode::InlandWaterway,
        authored::IWW_CONTAINER_LARGE,
    ),
    (
        "inland_waterway_container_vessel_convoy",
        Mode::InlandWaterway,
        authored::IWW_CONTAINER_CONVOY,
    ),
    ("diesel_freight_train", Mode::Rail, desnz::FREIGHT_TRAIN),
    ("electric_freight_train", Mode::Rail, desnz::FREIGHT_TRAIN),
    ("diesel_truck", Mode::Road, desnz::HGV_ALL),
    ("truck_generic_van", Mode::Road, desnz::VAN_AVERAGE_DIESEL),
    (
        "truck_generic_urban",
        Mode::Road,
        desnz::HGV_RIGID_3_5_TO_7_5,
    ),
    ("truck_generic_mgv", Mode::Road, desnz::HGV_RIGID_7_5_TO_17),
    ("truck_generic_hgv", Mode::Road, desnz::HGV_ALL),
    ("truck_rigid_7_5t", Mode::Road, desnz::HGV_RIGID_3_5_TO_7_5),
    ("truck_rigid_12t", Mode::Road, desnz::HGV_RIGID_7_5_TO_17),
    ("truck_rigid_20t", Mode::Road, desnz::HGV_RIGID_OVER_17),
    ("truck_rigid_26t", Mode::Road, desnz::HGV_RIGID_OVER_17),
    ("truck_rigid_32t", Mode::Road, desnz::HGV_RIGID_OVER_17),
    (
        "truck_articulated_34t",
        Mode::Road,
        desnz::HGV_ARTIC_3_5_TO_33,
    ),
    (
        "truck_articulated_40t",
        Mode::Road,
        desnz::HGV_ARTIC_OVER_33,
    ),
    (
        "truck_articulated_44t",
        Mode::Road,
        desnz::HGV_ARTIC_OVER_33,
    ),
    (
        "truck_articulated_60t",
        Mode::Road,
        desnz::HGV_ARTIC_OVER_33,
    ),
    (
        "truck_articulated_72t",
        Mode::Road,
        desnz::HGV_ARTIC_OVER_33,
    ),
    ("truck_na_van", Mode::Road, desnz::VAN_AVERAGE_DIESEL),
    ("truck_na_general", Mode::Road, desnz::HGV_ALL),
    (
        "truck_na_auto_carrier",
        Mode::Road,
        desnz::HGV_ARTIC_3_5_TO_33,
    ),
    ("truck_na_dray", Mode::Road, desnz::HGV_ALL),
    ("truck_na_expedited", Mode::Road, desnz::HGV_RIGID_OVER_17),
    ("truck_na_flatbed", Mode::Road, desnz::HGV_ARTIC_3_5_TO_33),
    ("truck_na_heavy_bulk", Mode::Road, desnz::HGV_ARTIC_OVER_33),
    ("truck_na_dry_van_ltl", Mode::Road, desnz::HGV_RIGID_OVER_17),
    ("truck_na_dry_van_tl", Mode::Road, desnz::HGV_ARTIC_OVER_33),
    ("truck_na_mixed", Mode::Road, desnz::HGV_ALL),
    ("truck_na_moving", Mode::Road, desnz::HGV_RIGID_7_5_TO_17),
    ("truck_na_package", Mode::Road, desnz::HGV_RIGID_7_5_TO_17),
    (
        "truck_na_refrigerated",
        Mode::Road,
        desnz::HGV_REFRIGERATED_ALL,
    ),
    (
        "truck_na_specialized",
        Mode::Road,
        desnz::HGV_ARTIC_3_5_TO_33,
    ),
    ("truck_na_tanker", Mode::Road, desnz::HGV_ARTIC_OVER_33),
    // air freight: the factor depends on the haul band (see `air_factor`)
    ("plane", Mode::Air, desnz::AIR_FREIGHT_LONG_HAUL),
    ("passenger_plane", Mode::Air, desnz::AIR_FREIGHT_LONG_HAUL),
    ("cargo_plane", Mode::Air, desnz::AIR_FREIGHT_LONG_HAUL),
];

/// Whether `name` is one of the contract's simple shipping methods.
pub fn is_simple_method(name: &str) -> bool {
    SIMPLE.iter().any(|(n, _, _)| *n == name)
}

/// The contract's sea vessel types (non-container).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vessel {
    OilTankerSmall,
    OilTankerMedium,
    OilTankerLarge,
    OilTankerHuge,
    GeneralCargoSmall,
    GeneralCargoLarge,
    BulkCarrierSmall,
    BulkCarrierMedium,
    BulkCarrierLarge,
    RoRo,
    RoPax,
}

impl Vessel {
    fn factor(self) -> Factor {
        match self {
            Vessel::OilTankerSmall => desnz::SEA_PRODUCTS_TANKER_5K_10K,
            Vessel::OilTankerMedium => desnz::SEA_PRODUCTS_TANKER_20K_60K,
            Vessel::OilTankerLarge => desnz::SEA_CRUDE_TANKER_80K_120K,
            Vessel::OilTankerHuge => desnz::SEA_CRUDE_TANKER_200K,
            Vessel::GeneralCargoSmall => desnz::SEA_GENERAL_CARGO_0_5K,
            Vessel::GeneralCargoLarge => desnz::SEA_GENERAL_CARGO_10K,
            Vessel::BulkCarrierSmall => desnz::SEA_BULK_10K_35K,
            Vessel::BulkCarrierMedium => desnz::SEA_BULK_35K_60K,
            Vessel::BulkCarrierLarge => desnz::SEA_BULK_60K_100K,
            Vessel::RoRo => desnz::SEA_RORO_AVERAGE,
            Vessel::RoPax => desnz::SEA_ROPAX_LARGE,
        }
    }
}

/// Marine fuel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fuel {
    /// Heavy fuel oil (the DESNZ factors' basis).
    Hfo,
    /// Marine gas oil.
    Mgo,
    /// Liquefied natural gas.
    Lng,
}

/// A shipping method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Method {
    /// One of [`is_simple_method`]'s names.
    Simple(String),
    /// A sea vessel with optional fuel and (bulk) load.
    Sea {
        vessel: Vessel,
        fuel: Option<Fuel>,
        /// Heavy load (bulk carriers).
        heavy_load: bool,
    },
    /// A container ship.
    Container {
        refrigerated: bool,
        /// Trade lane, if given (no lane table yet: the industry average is used).
        trade_lane: Option<String>,
    },
    /// A vessel by IMO number (Tonne has no vessel database: container fallback).
    Vessel {
        /// IMO number.
        imo: String,
        refrigerated: bool,
        /// Trade lane, if given.
        trade_lane: Option<String>,
    },
    /// Air freight on a named ICAO aircraft type: the Travel Impact Model's
    /// fuel, allocated by payload mass (belly freight on an airliner).
    Aircraft {
        /// ICAO type designator.
        aircraft_type: String,
    },
    /// Air freight on a flight number (Tonne has no schedules: the generic
    /// plane method of the configuration, `plane` when not given).
    FlightNumber {
        flight_number: String,
        /// `plane`, `cargo_plane` or `passenger_plane`.
        configuration: String,
    },
}

/// Cargo type for shipments given in TEU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CargoType {
    /// 6 t/TEU.
    Lightweight,
    /// 10 t/TEU (default).
    #[default]
    Average,
    /// 14.5 t/TEU.
    Heavyweight,
    /// Empty containers: 2.3 t/TEU.
    ContainerOnly,
}

impl CargoType {
    /// Tonnes per TEU of the cargo type.
    pub fn tonnes_per_teu(self) -> Factor {
        match self {
            CargoType::Lightweight => authored::TEU_LIGHT_T,
            CargoType::Average => authored::TEU_AVERAGE_T,
            CargoType::Heavyweight => authored::TEU_HEAVY_T,
            CargoType::ContainerOnly => authored::TEU_EMPTY_T,
        }
    }
}

/// What is shipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shipment {
    /// A mass.
    Mass(Mass),
    /// TEUs, with a cargo type and optionally the actual mass.
    Containers {
        /// Number of TEU.
        teu: Decimal,
        /// Cargo type.
        cargo: CargoType,
        /// Actual mass, if known (preferred).
        mass: Option<Mass>,
    },
}

impl Shipment {
    /// Payload in tonnes.
    pub fn tonnes(&self) -> Decimal {
        match self {
            Shipment::Mass(m) | Shipment::Containers { mass: Some(m), .. } => m.tonnes(),
            Shipment::Containers { teu, cargo, .. } => *teu * cargo.tonnes_per_teu().value(),
        }
    }
}

/// One leg.
#[derive(Debug, Clone, PartialEq)]
pub struct Leg {
    pub route: Route,
    pub method: Method,
}

/// Methodology notes of the contract.
pub const IMO_FALLBACK: &str = "imo_unavailable_container_ship_fallback";
/// Methodology note when a trade lane was given with an unknown vessel.
pub const IMO_TRADE_LANE_FALLBACK: &str = "imo_unavailable_container_ship_trade_lane_fallback";
/// Methodology note when a flight (or an aircraft type without seats) could
/// not be used: the generic plane method was.
pub const FLIGHT_NUMBER_FALLBACK: &str = "flight_number_unavailable_fallback";

/// A leg's estimate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegEstimate {
    /// CO2e.
    pub mass: Mass,
    /// Distance used.
    pub distance: Distance,
    /// Fallback notes.
    pub methodology: Vec<&'static str>,
}

/// DESNZ 2025 freight-flight factor (with RF) of a haul band.
fn air_freight_factor(band: Band) -> Factor {
    match band {
        Band::Domestic => desnz::AIR_FREIGHT_DOMESTIC,
        Band::ShortHaul => desnz::AIR_FREIGHT_SHORT_HAUL,
        Band::LongHaul => desnz::AIR_FREIGHT_LONG_HAUL,
    }
}

fn container_factors(refrigerated: bool) -> Vec<Factor> {
    if refrigerated {
        vec![desnz::SEA_CONTAINER_AVERAGE, authored::REEFER_UPLIFT]
    } else {
        vec![desnz::SEA_CONTAINER_AVERAGE]
    }
}

/// How a leg's distance was obtained: the 2024 contract's `DistanceCalculationMethod`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DistanceMethod {
    /// The distance was sent (`user_input`).
    UserInput,
    /// Great-circle between the two places (`great_circle_distance`); for
    /// road, rail and inland waterways then × the surface detour factor.
    GreatCircle,
    /// The shortest path over the maritime network (`sea_distance_algorithm`).
    SeaNetwork,
}

impl DistanceMethod {
    /// The contract's name.
    pub fn as_str(self) -> &'static str {
        match self {
            DistanceMethod::UserInput => "user_input",
            DistanceMethod::GreatCircle => "great_circle_distance",
            DistanceMethod::SeaNetwork => "sea_distance_algorithm",
        }
    }

    /// Parses the contract's name.
    pub fn parse(s: &str) -> Option<Self> {
        [
            DistanceMethod::UserInput,
            DistanceMethod::GreatCircle,
            DistanceMethod::SeaNetwork,
        ]
        .into_iter()
        .find(|m| m.as_str() == s)
    }
}

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

fn distance(field: &str, route: &Route, mode: Mode) -> Result<Measured, EstimateError> {
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

/// Estimates one leg of a shipment; `prefix` prefixes error fields (e.g. `legs[1]`).
///
/// ```
/// use tonne_estimation::route::{Place, Route};
/// use tonne_estimation::shipping::{self, CargoType, Leg, Method, Shipment};
/// use rust_decimal::Decimal;
///
/// // 2 TEU of average cargo (20 t) from Shanghai to Rotterdam by container ship:
/// // the sea path over the maritime network (~19,600 km) × 0.01612 kg/t·km (DESNZ 2025)
/// let e = shipping::leg("", &Shipment::Containers { teu: Decimal::from(2), cargo: CargoType::Average, mass: None }, &Leg {
///     route: Route::Between { source: Place::Seaport("CNSHA".into()), destination: Place::Seaport("NLRTM".into()) },
///     method: Method::Container { refrigerated: false, trade_lane: None },
/// }).unwrap();
/// assert!((19_000..20_500).contains(&e.distance.km().round().try_into().unwrap_or(0_i64)));
/// assert!((6_100_000..6_600_000).contains(&e.mass.grams()));
/// ```
pub fn leg(prefix: &str, shipment: &Shipment, leg: &Leg) -> Result<LegEstimate, EstimateError> {
    leg_traced(prefix, shipment, leg).map(|(e, _)| e)
}

/// What a shipping leg multiplied: its mode and the factors whose product is
/// its intensity (air: the haul band's factor).
#[derive(Debug, Clone)]
pub(crate) struct LegTrace {
    pub mode: Mode,
    pub factors: Vec<Factor>,
    /// The distance and how it was obtained.
    pub measured: Measured,
    /// Payload in tonnes.
    pub tonnes: Decimal,
    /// kg CO2e per tonne over the leg (the intensity × km; for air, banded).
    pub kg_per_tonne: Decimal,
    /// Air freight by aircraft type: the flight's fuel and the shipment's share.
    pub aircraft: Option<crate::flight::AircraftUse>,
}

/// [`leg`] with what it multiplied.
pub(crate) fn leg_traced(
    prefix: &str,
    shipment: &Shipment,
    leg: &Leg,
) -> Result<(LegEstimate, LegTrace), EstimateError> {
    let field = |name: &str| {
        if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}.{name}")
        }
    };
    let route_field = field("route");
    let mut methodology = Vec::new();
    // the mode and the factors whose product is its intensity in kg CO2e per
    // tonne·km (air: by haul band, below)
    let (mode, mut factors) = match &leg.method {
        Method::Simple(name) => {
            let (_, mode, factor) = SIMPLE.iter().find(|(n, _, _)| n == name).ok_or_else(|| {
                EstimateError::invalid(&field("method"), "is not a known shipping method")
            })?;
            (*mode, vec![*factor])
        }
        Method::Sea {
            vessel,
            fuel,
            heavy_load,
        } => {
            let mut f = vec![vessel.factor()];
            if *fuel == Some(Fuel::Lng) {
                f.push(authored::LNG_RATIO);
            }
            if *heavy_load {
                f.push(authored::HEAVY_LOAD_RATIO);
            }
            (Mode::Sea, f)
        }
        Method::Container { refrigerated, .. } => (Mode::Sea, container_factors(*refrigerated)),
        Method::Aircraft { .. } => (Mode::Air, vec![authored::TIM_JET_FUEL_TTW]),
        Method::FlightNumber { configuration, .. } => {
            methodology.push(FLIGHT_NUMBER_FALLBACK);
            let (_, mode, factor) = SIMPLE
                .iter()
                .find(|(n, m, _)| n == configuration && *m == Mode::Air)
                .ok_or_else(|| {
                    EstimateError::invalid(
                        &field("method.aircraft_configuration"),
                        "must be plane, cargo_plane or passenger_plane",
                    )
                })?;
            (*mode, vec![*factor])
        }
        Method::Vessel {
            refrigerated,
            trade_lane,
            ..
        } => {
            methodology.push(if trade_lane.is_some() {
                IMO_TRADE_LANE_FALLBACK
            } else {
                IMO_FALLBACK
            });
            (Mode::Sea, container_factors(*refrigerated))
        }
    };
    let measured = distance(&route_field, &leg.route, mode)?;
    let distance = measured.distance;
    let tonnes = shipment.tonnes();
    let mut aircraft = None;
    if let Method::Aircraft { aircraft_type } = &leg.method {
        let used = aircraft_freight(
            &field("method.aircraft_type"),
            aircraft_type,
            &leg.route,
            &measured,
            tonnes,
        )?;
        match used {
            Some(used) => aircraft = Some(used),
            // a type without seats: a freighter whose payload Tonne does not know
            None => {
                methodology.push(FLIGHT_NUMBER_FALLBACK);
                factors = vec![desnz::AIR_FREIGHT_LONG_HAUL];
            }
        }
    }
    let kg_per_tonne = match (&aircraft, mode) {
        (Some(used), _) if !tonnes.is_zero() => used.fuel.ttw_kg() * used.share / tonnes,
        (Some(used), _) => {
            used.fuel.ttw_kg() * Decimal::from(1000)
                / used.fuel.payload_kg().unwrap_or(Decimal::ONE)
        }
        (None, Mode::Air) => {
            factors = vec![air_freight_factor(Band::of(distance.km()))];
            crate::flight::banded_kg(distance.km(), |b| air_freight_factor(b).value())
        }
        (None, _) => distance.km() * factors.iter().map(Factor::value).product::<Decimal>(),
    };
    let kg = tonnes * kg_per_tonne;
    Ok((
        LegEstimate {
            mass: kg_to_mass(&route_field, kg)?,
            distance,
            methodology,
        },
        LegTrace {
            mode,
            factors,
            measured,
            tonnes,
            kg_per_tonne,
            aircraft,
        },
    ))
}

/// Belly freight on a named aircraft type: the flight's fuel between the two
/// airports (GAIA's ratio), over a given distance (as flown) or between other
/// places (great circle × the default ratio), and the shipment's share of
/// the payload. `None` for a type without a seat configuration.
fn aircraft_freight(
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
    Ok(fuel
        .freight_share(kg)
        .map(|share| AircraftUse { fuel, share }))
}

/// A multi-leg estimate: legs in order, mass and distance summed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MultiLegEstimate {
    /// Σ legs.
    pub mass: Mass,
    /// Σ distances.
    pub distance: Distance,
    /// Per leg.
    pub legs: Vec<LegEstimate>,
}

/// Estimates 1 to 10 legs; any failing leg fails the whole.
pub fn multi_leg(shipment: &Shipment, legs: &[Leg]) -> Result<MultiLegEstimate, EstimateError> {
    multi_leg_traced(shipment, legs).map(|(e, _)| e)
}

/// [`multi_leg`] with each leg's trace, each leg computed once (the
/// explanation is made from these).
pub(crate) fn multi_leg_traced(
    shipment: &Shipment,
    legs: &[Leg],
) -> Result<(MultiLegEstimate, Vec<LegTrace>), EstimateError> {
    if legs.is_empty() || legs.len() > 10 {
        return Err(EstimateError::invalid("legs", "must have 1 to 10 legs"));
    }
    let mut out = Vec::with_capacity(legs.len());
    let mut traces = Vec::with_capacity(legs.len());
    let (mut grams, mut km) = (0_i64, Decimal::ZERO);
    for (i, l) in legs.iter().enumerate() {
        let (e, trace) = leg_traced(&format!("legs[{i}]"), shipment, l)?;
        grams = grams.saturating_add(e.mass.grams());
        km += e.distance.km();
        out.push(e);
        traces.push(trace);
    }
    Ok((
        MultiLegEstimate {
            mass: Mass::from_grams(grams),
            distance: Distance::from_km(km),
            legs: out,
        },
        traces,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::Place;

    fn tonnes(t: i64) -> Shipment {
        Shipment::Mass(Mass::from_grams(t * 1_000_000))
    }

    fn km(v: i64) -> Route {
        Route::Distance(Distance::from_km(Decimal::from(v)))
    }

    fn simple(name: &str) -> Method {
        Method::Simple(name.into())
    }

    /// 1 t of belly freight on an A320 over a given 1,000 km: the flight's
    /// 3,746.088 kg of fuel (see `flight::tests`) × 3.1894 = 11,947.7 kg CO2e,
    /// × the shipment's share of the payload, 1,000 kg ÷ (150 seats × 0.845 ×
    /// 100 kg) = 942.625 kg.
    #[test]
    fn air_freight_by_aircraft_type_by_hand_and_freighters_fall_back() {
        let on = |code: &str| {
            leg(
                "",
                &tonnes(1),
                &Leg {
                    route: km(1000),
                    method: Method::Aircraft {
                        aircraft_type: code.into(),
                    },
                },
            )
        };
        let e = on("A320").unwrap();
        assert_eq!(e.mass.grams(), 942_625);
        assert!(e.methodology.is_empty());
        // the An-12 has no seats: the generic plane (DESNZ, by haul band), said so
        let f = on("AN12").unwrap();
        assert_eq!(f.methodology, vec![FLIGHT_NUMBER_FALLBACK]);
        let generic = leg(
            "",
            &tonnes(1),
            &Leg {
                route: km(1000),
                method: simple("cargo_plane"),
            },
        )
        .unwrap();
        assert_eq!(f.mass, generic.mass);
        assert!(on("QQ99").is_err());
        // a flight number: no schedules, the configuration's generic method
        let n = leg(
            "",
            &tonnes(1),
            &Leg {
                route: km(1000),
                method: Method::FlightNumber {
                    flight_number: "BA15".into(),
                    configuration: "cargo_plane".into(),
                },
            },
        )
        .unwrap();
        assert_eq!(n.methodology, vec![FLIGHT_NUMBER_FALLBACK]);
        assert_eq!(n.mass, f.mass);
    }

    #[test]
    fn reproduces_desnz_freight_factors_by_hand() {
        // 10 t × 500 km by articulated HGV > 33 t: 10 × 500 × 0.07703 = 385.15 kg
        let e = leg(
            "",
            &tonnes(10),
            &Leg {
                route: km(500),
                method: simple("truck_articulated_40t"),
            },
        )
        .unwrap();
        assert_eq!(e.mass.grams(), 385_150);
        // 2 t × 8,000 km long-haul air freight: 2 × 8000 × 0.89939 = 14,390.24 kg
        let e = leg(
            "",
            &tonnes(2),
            &Leg {
                route: km(8000),
                method: simple("cargo_plane"),
            },
        )
        .unwrap();
        assert_eq!(e.mass.grams(), 14_390_240);
        // 3 TEU of average cargo (30 t) × 1,000 km container ship: 30 × 1000 × 0.01612 = 483.6 kg
        let teu = Shipment::Containers {
            teu: Decimal::from(3),
            cargo: CargoType::Average,
            mass: None,
        };
        let e = leg(
            "",
            &teu,
            &Leg {
                route: km(1000),
                method: Method::Container {
                    refrigerated: false,
                    trade_lane: None,
                },
            },
        )
        .unwrap();
        assert_eq!(e.mass.grams(), 483_600);
        assert!(e.methodology.is_empty());
    }

    #[test]
    fn sea_legs_follow_the_network_and_unknown_vessels_fall_back() {
        let route = Route::Between {
            source: Place::Seaport("CNSHA".into()),
            destination: Place::Seaport("NLRTM".into()),
        };
        let e = leg(
            "",
            &tonnes(1),
            &Leg {
                route,
                method: Method::Vessel {
                    imo: "9745225".into(),
                    refrigerated: false,
                    trade_lane: Some("aggregated_transsuez".into()),
                },
            },
        )
        .unwrap();
        let published = Decimal::from(19_446); // 10,500 nm
        assert!(
            (e.distance.km() - published).abs() / published < Decimal::new(1, 1),
            "{}",
            e.distance.km()
        );
        assert_eq!(e.methodology, vec![IMO_TRADE_LANE_FALLBACK]);
        let missing = leg(
            "",
            &tonnes(1),
            &Leg {
                route: Route::Between {
                    source: Place::Seaport("ZZZZZ".into()),
                    destination: Place::Seaport("NLRTM".into()),
                },
                method: Method::Container {
                    refrigerated: false,
                    trade_lane: None,
                },
            },
        );
        assert_eq!(
            missing,
            Err(EstimateError::PortNotFound {
                field: "route.source".into(),
                code: "ZZZZZ".into()
            })
        );
    }

    #[test]
    fn multi_leg_sums_and_is_monotonic() {
        let legs = vec![
            Leg {
                route: km(100),
                method: simple("diesel_truck"),
            },
            Leg {
                route: km(900),
                method: simple("diesel_freight_train"),
            },
        ];
        let e = multi_leg(&tonnes(5), &legs).unwrap();
        assert_eq!(
            e.mass.grams(),
            e.legs.iter().map(|l| l.mass.grams()).sum::<i64>()
        );
        assert_eq!(e.distance.km(), Decimal::from(1000));
        assert!(multi_leg(&tonnes(6), &legs).unwrap().mass > e.mass);
        assert_eq!(multi_leg(&tonnes(0), &legs).unwrap().mass.grams(), 0);
        let mut last = 0;
        for d in (0..5000).step_by(100) {
            let g = leg(
                "",
                &tonnes(1),
                &Leg {
                    route: km(d),
                    method: simple("plane"),
                },
            )
            .unwrap()
            .mass
            .grams();
            assert!(g >= last, "{d}");
            last = g;
        }
    }

    #[test]
    fn every_contract_method_has_a_factor() {
        assert_eq!(SIMPLE.len(), 46);
        for (name, _, f) in SIMPLE {
            assert!(f.value() > Decimal::ZERO, "{name}");
        }
    }
}
