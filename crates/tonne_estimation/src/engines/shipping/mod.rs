//! Freight (ISO 14083 / GLEC activity-based approach with DESNZ 2025 freight
//! factors), well-to-wheel: `ttw = payload (t) × distance (km) × intensity
//! (kg CO2e/t·km)`, `wtt = ttw × the DESNZ well-to-tank row ÷ the factor`,
//! `mass = ttw + wtt` (each rounded to the gram).
//!
//! Distances: as given; otherwise great-circle for air, great-circle × 1.2 for
//! road, rail and inland waterways, and the shortest path over the maritime
//! network for sea legs.

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::factors::desnz_2025 as desnz;
use crate::factors::{Factor, authored};
use crate::route::Route;

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

mod freight;
pub mod fuel;
pub mod hubs;
mod legs;
mod methods;
pub mod road;

pub use freight::{FreightLeg, freight_leg};
pub use legs::{Intensity, LegEstimate, MultiLegEstimate, leg, multi_leg};
pub(crate) use legs::{LegTrace, Traced, any_leg_traced, multi_leg_traced};
pub use methods::{DataQuality, Grade, Resolved, SIMPLE_NAMES, is_simple_method, resolve_simple};

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
    /// A road vehicle by class, fuel, load and empty running (DESNZ HGV and
    /// van rows; see [`road`]).
    Road(road::RoadMethod),
    /// A vessel to infer from a carrier's schedule (Tonne has no schedules
    /// or AIS data: the average container ship, as for an unknown IMO number).
    InferredVessel {
        /// `YYYY-MM-DD`.
        departure_on: String,
        /// `YYYY-MM-DD`.
        arrival_on: String,
        /// One of the contract's carriers.
        carrier_name: String,
    },
    /// A logistics site (hub) of a `LogisticsSiteMethod` name ([`hubs`]):
    /// tonnes handled × the site type's figure; no route, no distance.
    Site(String),
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
    /// Unused for a [`Method::Site`] (a hub moves the goods nowhere; callers
    /// put a zero distance there).
    pub route: Route,
    pub method: Method,
}

/// Methodology notes of the contract.
pub const IMO_FALLBACK: &str = "imo_unavailable_container_ship_fallback";

/// Methodology note when a trade lane was given with an unknown vessel.
pub const IMO_TRADE_LANE_FALLBACK: &str = "imo_unavailable_container_ship_trade_lane_fallback";

/// Tonne's note (in the explanation; the contract's `methodology` enum has
/// no such value) when a vessel to infer from a carrier's schedule fell back
/// to the average container ship.
pub const INFERRED_VESSEL_FALLBACK: &str = "vessel inference unavailable (no carrier schedules or AIS data): the average container ship is used";

/// Methodology note when a flight (or an aircraft type without seats) could
/// not be used: the generic plane method was.
pub const FLIGHT_NUMBER_FALLBACK: &str = "flight_number_unavailable_fallback";

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

#[cfg(test)]
mod tests;
