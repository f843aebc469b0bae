//! What a shipment is made of: the decoded row ([`ShipmentDraft`] with its
//! [`LegDraft`]s), the stored [`Shipment`], and the vocabulary they share.

use rust_decimal::Decimal;
use time::{Date, OffsetDateTime};
use tonne_estimation::LatLon;
use tonne_kernel::AccountId;

use crate::emissions::ShipmentEmissions;
use crate::ids::{CounterpartyId, ShipmentBatchId, ShipmentId};
use crate::vocabulary::{Carriage, ModeSet, TransportMode};

/// Where a leg starts or ends, as the client sent it.
#[derive(Debug, Clone, PartialEq)]
pub enum Location {
    /// A postal address: located by its city and country (street lines and
    /// postcode are kept in the row as sent).
    Address {
        city: String,
        /// ISO 3166-1 alpha-3.
        country_code: String,
    },
    /// WGS84 coordinates.
    Coordinates(LatLon),
    /// A UN/LOCODE.
    Locode(String),
    /// An IATA or ICAO airport code.
    Airport(String),
    /// A code that is neither a known airport nor a known UN/LOCODE.
    Unknown(String),
}

/// How the goods travel on a leg, as sent: only what the calculation reads
/// (every other field is kept in the row as sent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LegMethod {
    /// A simple rail or air method name (`diesel_freight_train`, `plane`, …).
    Simple(String),
    /// Road: the vehicle type (`truck` for the generic HGV) and fuel.
    Road {
        vehicle_type: String,
        fuel: String,
        refrigerated: bool,
    },
    /// Air freight on an ICAO aircraft type.
    AircraftType(String),
    /// Air freight on a flight number.
    FlightNumber(String),
    /// Sea: the most specific identification sent.
    Sea(SeaVessel),
    /// Rail by train type (`diesel_freight_train`, `electric_freight_train`).
    Rail(String),
    /// A logistics site (warehouse, terminal), by its method name.
    LogisticsSite(String),
}

/// A sea leg's vessel, by the contract's priority: IMO number, then carrier
/// inference, then tracking, then the vessel type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeaVessel {
    /// A vessel by IMO number.
    Imo {
        imo: String,
        refrigerated: bool,
        trade_lane: Option<String>,
    },
    /// Carrier schedule inference, or AIS tracking: Tonne has neither, so the
    /// trade's average container vessel stands in.
    Inferred {
        refrigerated: bool,
        trade_lane: Option<String>,
    },
    /// A container ship (`container_ship`, or no type).
    Container {
        refrigerated: bool,
        trade_lane: Option<String>,
    },
    /// One of the simple sea method names (`sea_bulk_carrier_10dwkt_hfo`, …).
    Typed(String),
}

impl LegMethod {
    /// The mode of transport, `None` for a logistics site.
    pub fn mode(&self) -> Option<TransportMode> {
        match self {
            LegMethod::Road { .. } => Some(TransportMode::Road),
            LegMethod::AircraftType(_) | LegMethod::FlightNumber(_) => Some(TransportMode::Air),
            LegMethod::Sea(_) => Some(TransportMode::Sea),
            LegMethod::Rail(_) => Some(TransportMode::Rail),
            LegMethod::LogisticsSite(_) => None,
            LegMethod::Simple(name) if name.contains("train") || name == "rail" => {
                Some(TransportMode::Rail)
            }
            LegMethod::Simple(name) if name.starts_with("inland_waterway") => {
                Some(TransportMode::InlandWaterway)
            }
            LegMethod::Simple(_) => Some(TransportMode::Air),
        }
    }
}

/// A leg's cargo: what the calculation needs of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Load {
    /// Actual mass in tonnes.
    pub tonnes: Option<Decimal>,
    /// Containers in TEU (summed over the containers sent).
    pub teu: Option<Decimal>,
}

impl Load {
    /// Whether the load says how much is carried.
    pub fn is_known(&self) -> bool {
        self.tonnes.is_some() || self.teu.is_some()
    }
}

/// Emissions the client computed itself, in kg.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientEmissions {
    /// Total, kg CO2e.
    pub total_kg: Decimal,
    /// Well-to-tank, kg CO2e, if sent.
    pub wtt_kg: Option<Decimal>,
    /// Tank-to-wheel, kg CO2e, if sent.
    pub ttw_kg: Option<Decimal>,
    /// Distance, km.
    pub distance_km: Decimal,
}

/// One leg of a decoded row.
#[derive(Debug, Clone, PartialEq)]
pub struct LegDraft {
    /// The 1-based order sent, if any.
    pub order: Option<u32>,
    pub carriage: Carriage,
    pub method: LegMethod,
    pub origin: Option<Location>,
    pub destination: Option<Location>,
    /// The distance sent, in km.
    pub distance_km: Option<Decimal>,
    pub load: Load,
    /// How fully the vehicle uses its capacity when laden (0 to 1), if sent.
    pub load_factor: Option<Decimal>,
    /// The share of the vehicle's travel done empty (0 to 1), if sent.
    pub empty_run_factor: Option<Decimal>,
    /// The leg's first date sent (actual departure, else estimated departure,
    /// else actual or estimated arrival).
    pub date: Option<Date>,
    /// Emissions the client computed for the leg.
    pub client_emissions: Option<ClientEmissions>,
}

/// A row as the decoder understood it: structure and vocabulary are checked,
/// the rules between fields are [`ShipmentDraft::check`]'s.
#[derive(Debug, Clone, PartialEq)]
pub struct ShipmentDraft {
    /// The client's `shipment_id`.
    pub reference: Option<String>,
    /// The row's counterparty, when the batch names no contact.
    pub target_internal_id: Option<String>,
    /// Its display name.
    pub target_internal_name: Option<String>,
    pub legs: Vec<LegDraft>,
    /// Emissions the client computed for the whole shipment.
    pub client_emissions: Option<ClientEmissions>,
}

/// A counterparty: the other side of an account's shipments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counterparty {
    pub id: CounterpartyId,
    pub name: String,
}

/// A party named on a shipment: an account or a counterparty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Party {
    /// Its identifier as the wire shows it.
    pub id: String,
    pub name: String,
}

/// What the list can filter on, derived from a row once when it is stored.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Facets {
    /// The client's `shipment_id` (empty when none was sent).
    pub reference: String,
    /// The first leg's date.
    pub shipment_date: Option<Date>,
    /// The modes of each carriage phase (pre, main, on).
    pub modes: [ModeSet; 3],
}

/// A shipment to store.
#[derive(Debug, Clone, PartialEq)]
pub struct NewShipment {
    pub id: ShipmentId,
    pub account_id: AccountId,
    pub batch_id: ShipmentBatchId,
    pub counterparty: Counterparty,
    pub facets: Facets,
    /// The row exactly as sent (the decoder's canonical text).
    pub row: String,
    pub emissions: Option<ShipmentEmissions>,
    pub created_at: OffsetDateTime,
}

/// A stored shipment.
#[derive(Debug, Clone, PartialEq)]
pub struct Shipment {
    pub id: ShipmentId,
    pub account_id: AccountId,
    pub batch_id: ShipmentBatchId,
    /// The account (the shipper).
    pub shipper: Party,
    /// The counterparty (the supplier).
    pub supplier: Party,
    pub facets: Facets,
    /// The row as sent.
    pub row: String,
    pub emissions: Option<ShipmentEmissions>,
    pub created_at: OffsetDateTime,
}
