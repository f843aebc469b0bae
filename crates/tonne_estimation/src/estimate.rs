//! The estimate as a domain object: what a caller asks for ([`EstimateRequest`],
//! one variant per engine input), what Tonne computed and keeps
//! ([`Estimate`]: mass, a typed [`EstimateDetail`] and its [`Explanation`]),
//! and the ids, owner and timestamps of a stored estimate.
//!
//! ```
//! use tonne_estimation::electricity::{Energy, EnergyUnit};
//! use tonne_estimation::estimate::{EstimateDetail, EstimateKind, EstimateRequest};
//!
//! let request = EstimateRequest::Electricity {
//!     consumption: Energy::parse("1000", EnergyUnit::KWh).unwrap(),
//!     country_code: Some("GBR".into()),
//! };
//! assert_eq!(request.kind(), EstimateKind::Electricity);
//! let computed = request.compute().unwrap();
//! assert_eq!(computed.mass.unwrap().grams(), 215_790);
//! assert_eq!(computed.detail, EstimateDetail::Plain);
//! // the parts of the explanation add up to the mass, to the gram
//! let parts: i64 = computed.explanation.parts.iter().map(|p| p.mass.grams()).sum();
//! assert_eq!(parts, 215_790);
//! ```

use rust_decimal::Decimal;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, EstimateId, Mass, MassUnit};

use crate::catalogue::CatalogueFactor;
use crate::explain::{Explanation, Wtw};
use crate::factor_estimate::FactorRequest;
use crate::flight::FlightRequest;
use crate::footprint::{CompanyEstimate, CompanyRequest, IndividualRequest};
use crate::passenger::PassengerRequest;
use crate::shipping::{self, DistanceMethod, Shipment};
use crate::transaction::TransactionRequest;
use crate::transaction_document::{DocumentRequest, DocumentResult};
use crate::{Distance, electricity::Energy};

/// The estimate kinds of the contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EstimateKind {
    /// `/estimates/electricity`.
    Electricity,
    /// `/estimates/flight`.
    Flight,
    /// `/estimates/passenger-transportation`.
    PassengerTransportation,
    /// `/estimates/shipping`.
    Shipping,
    /// `/estimates/shipping/multi-leg`.
    MultiLegShipping,
    /// `/estimates/transactions` (and batch entries).
    Transaction,
    /// `/estimates/company`.
    Company,
    /// `/estimates/individual`.
    Individual,
    /// `/estimates/emission-factor` (2024): activity × a chosen factor.
    EmissionFactor,
    /// `/estimates/shipping/multi-leg/by-fuel` (client 3.9.2): fuel burnt per leg.
    MultiLegShippingByFuel,
    /// `/estimates/transaction-documents` (client 3.9.2): a receipt or invoice.
    TransactionDocument,
}

impl EstimateKind {
    /// Every kind, in the contract's order.
    pub const ALL: [EstimateKind; 11] = [
        EstimateKind::Electricity,
        EstimateKind::Flight,
        EstimateKind::PassengerTransportation,
        EstimateKind::Shipping,
        EstimateKind::MultiLegShipping,
        EstimateKind::Transaction,
        EstimateKind::Company,
        EstimateKind::Individual,
        EstimateKind::EmissionFactor,
        EstimateKind::MultiLegShippingByFuel,
        EstimateKind::TransactionDocument,
    ];

    /// Stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            EstimateKind::Electricity => "electricity",
            EstimateKind::Flight => "flight",
            EstimateKind::PassengerTransportation => "passenger_transportation",
            EstimateKind::Shipping => "shipping",
            EstimateKind::MultiLegShipping => "multi_leg_shipping",
            EstimateKind::Transaction => "transaction",
            EstimateKind::Company => "company",
            EstimateKind::Individual => "individual",
            EstimateKind::EmissionFactor => "emission_factor",
            EstimateKind::MultiLegShippingByFuel => "multi_leg_shipping_by_fuel",
            EstimateKind::TransactionDocument => "transaction_document",
        }
    }

    /// Parses a stored name.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// Whether estimates of this kind say if they are of something that
    /// happened and when (`is_shipment`/`shipped_at`,
    /// `is_transaction`/`transaction_processed_at`).
    pub fn is_annotated(self) -> bool {
        matches!(
            self,
            EstimateKind::Shipping
                | EstimateKind::MultiLegShipping
                | EstimateKind::MultiLegShippingByFuel
                | EstimateKind::Transaction
                | EstimateKind::TransactionDocument
        )
    }

    /// Whether the contract lets clients read and update this kind.
    pub fn is_updatable(self) -> bool {
        matches!(
            self,
            EstimateKind::Electricity
                | EstimateKind::Shipping
                | EstimateKind::MultiLegShipping
                | EstimateKind::Transaction
                | EstimateKind::Company
        )
    }
}

/// What a caller asks to estimate: one variant per engine, holding that
/// engine's input.
#[derive(Debug, Clone, PartialEq)]
pub enum EstimateRequest {
    /// Electricity on a country's grid (the world average without a country).
    Electricity {
        consumption: Energy,
        /// ISO 3166-1 alpha-3.
        country_code: Option<String>,
    },
    Flight(FlightRequest),
    PassengerTransportation(PassengerRequest),
    /// One shipping leg.
    Shipping {
        shipment: Shipment,
        leg: shipping::Leg,
    },
    /// 1 to 10 shipping legs of one shipment.
    MultiLegShipping {
        shipment: Shipment,
        legs: Vec<shipping::Leg>,
    },
    Transaction(TransactionRequest),
    Company(CompanyRequest),
    Individual(IndividualRequest),
    /// An activity × a factor of the catalogue.
    EmissionFactor(FactorRequest),
    /// 1 to 10 legs by the fuel burnt.
    MultiLegShippingByFuel {
        legs: Vec<shipping::fuel::FuelLeg>,
    },
    /// A receipt or invoice, line by line.
    TransactionDocument(Box<DocumentRequest>),
}

impl EstimateRequest {
    /// The kind of estimate this request makes.
    pub fn kind(&self) -> EstimateKind {
        match self {
            EstimateRequest::Electricity { .. } => EstimateKind::Electricity,
            EstimateRequest::Flight(_) => EstimateKind::Flight,
            EstimateRequest::PassengerTransportation(_) => EstimateKind::PassengerTransportation,
            EstimateRequest::Shipping { .. } => EstimateKind::Shipping,
            EstimateRequest::MultiLegShipping { .. } => EstimateKind::MultiLegShipping,
            EstimateRequest::Transaction(_) => EstimateKind::Transaction,
            EstimateRequest::Company(_) => EstimateKind::Company,
            EstimateRequest::Individual(_) => EstimateKind::Individual,
            EstimateRequest::EmissionFactor(_) => EstimateKind::EmissionFactor,
            EstimateRequest::MultiLegShippingByFuel { .. } => EstimateKind::MultiLegShippingByFuel,
            EstimateRequest::TransactionDocument(_) => EstimateKind::TransactionDocument,
        }
    }
}

/// What an engine computed for one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Computed {
    /// CO2e; `None` for money movement (nothing to estimate).
    pub mass: Option<Mass>,
    pub detail: EstimateDetail,
    /// How `mass` was obtained; its parts add up to `mass`.
    pub explanation: Explanation,
}

/// The kind-specific results beside the mass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EstimateDetail {
    /// Nothing beyond the mass (electricity, flight, individual).
    Plain,
    /// Passenger transportation: each leg's mass, in request order.
    PassengerLegs(Vec<Mass>),
    /// One shipping leg.
    Shipping(ShippingLeg),
    /// Several shipping legs and their summed distance.
    MultiLegShipping {
        /// Σ legs.
        distance: Distance,
        legs: Vec<ShippingLeg>,
    },
    /// A card transaction.
    Transaction {
        /// The category text a `fuzzy_search_term` matched.
        search_term_match: Option<String>,
    },
    /// A company's year: scopes and components.
    Company(CompanyEstimate),
    /// Money movement: nothing to estimate.
    MoneyMovement,
    /// A factor estimate: the factor as it was when used.
    EmissionFactor(Box<CatalogueFactor>),
    /// Legs by the fuel burnt, in request order (their emission factors are
    /// the explanation's parts).
    FuelLegs(Vec<FuelLegResult>),
    /// A transaction document's line items or fallback (their explanation
    /// parts are `line_items[i]` or `fallback`).
    TransactionDocument(Box<DocumentResult>),
}

/// One by-fuel leg's result, well-to-wheel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FuelLegResult {
    /// CO2e, well-to-wheel (`wtw.wtt + wtw.ttw`).
    pub mass: Mass,
    /// The leg's stages.
    pub wtw: Wtw,
    /// MJ per litre (net calorific value) of the fuel.
    pub energy_density: Decimal,
    /// How well the DESNZ rows match the fuel.
    pub grade: crate::shipping::Grade,
}

/// One shipping leg's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShippingLeg {
    pub mass: Mass,
    /// The distance used.
    pub distance: Distance,
    /// Fallbacks the contract names.
    pub methodology: Vec<Methodology>,
    /// How the leg was computed, as the 2024 documents show it; `None` for
    /// legs stored before Tonne kept it.
    pub facts: Option<LegFacts>,
}

/// What a shipping leg's 2024 answer shows beside its mass: how its distance
/// was obtained, where it runs, its payload, intensity and life-cycle stages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegFacts {
    /// `None` for a logistics site (hub): no distance; its intensities
    /// ([`LegFacts::ttw_kg_per_tkm`], [`LegFacts::wtt_kg_per_tkm`]) are then
    /// per tonne handled.
    pub distance_method: Option<DistanceMethod>,
    /// Before the surface detour factor (equal to the distance otherwise).
    pub raw_distance: Distance,
    /// Source and destination, for a route between places.
    pub ends: Option<[RouteEnd; 2]>,
    /// Payload in tonnes (TEU converted by the cargo type).
    pub payload_tonnes: Decimal,
    /// kg CO2e per tonne·km, tank-to-wheel: the leg's mass over payload ×
    /// distance before rounding (for air, the haul band's factor or floor).
    pub ttw_kg_per_tkm: Decimal,
    /// kg CO2e per tonne·km, well-to-tank; `None` where the factor has no
    /// DESNZ well-to-tank row.
    pub wtt_kg_per_tkm: Option<Decimal>,
    /// The leg's mass by life-cycle stage.
    pub wtw: Wtw,
    /// The leg's data quality (`None` for legs stored before Tonne graded them).
    pub quality: Option<crate::shipping::DataQuality>,
    /// The road method's load model and what was sent with it (HGV legs of
    /// the road method; `None` otherwise).
    pub road: Option<Box<RoadFacts>>,
}

/// What a road-method leg used: the contract's `RoadMethodologyDetails`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoadFacts {
    /// MJ per tonne·km.
    pub energy_mj_per_tkm: Decimal,
    /// Tonnes.
    pub capacity_t: Decimal,
    pub load_factor: Decimal,
    pub empty_runs_factor: Decimal,
    pub capacity_utilisation: Decimal,
    /// As sent (no effect on the rows).
    pub gradient: Option<String>,
    pub situation: Option<String>,
    pub emission_standard: Option<String>,
}

/// One end of a leg's route.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteEnd {
    /// What was sent: `seaport NLRTM`, `airport LHR`, the city, or the coordinates.
    pub label: String,
    /// WGS84 degrees, to six decimals.
    pub lat: Decimal,
    pub lon: Decimal,
}

/// The contract's shipping methodology notes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Methodology {
    /// No vessel database: the IMO number fell back to the average container ship.
    ImoUnavailableContainerShipFallback,
    /// The same, with the trade lane given.
    ImoUnavailableContainerShipTradeLaneFallback,
    /// No flight schedules (or an aircraft type without an open payload
    /// figure): the generic plane method of the configuration was used.
    FlightNumberUnavailableFallback,
}

impl Methodology {
    /// The contract's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Methodology::ImoUnavailableContainerShipFallback => shipping::IMO_FALLBACK,
            Methodology::ImoUnavailableContainerShipTradeLaneFallback => {
                shipping::IMO_TRADE_LANE_FALLBACK
            }
            Methodology::FlightNumberUnavailableFallback => shipping::FLIGHT_NUMBER_FALLBACK,
        }
    }

    /// Parses the contract's name.
    pub fn parse(s: &str) -> Option<Self> {
        [
            Methodology::ImoUnavailableContainerShipFallback,
            Methodology::ImoUnavailableContainerShipTradeLaneFallback,
            Methodology::FlightNumberUnavailableFallback,
        ]
        .into_iter()
        .find(|m| m.as_str() == s)
    }
}

/// How the caller wants the estimate's mass quoted for offsetting. Estimation
/// keeps it with the estimate and never interprets it (ordering does).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QuoteTerms {
    /// Bundles and their shares; `None` for the account's or catalogue's default.
    pub bundle_selection: Option<Vec<BundleShare>>,
    /// Truncation unit of the quote's quantities.
    pub quantity_trunc: Option<MassUnit>,
}

/// One bundle of a [`QuoteTerms`] selection, as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleShare {
    /// The bundle id as sent (ordering checks it against the catalogue).
    pub bundle_id: String,
    /// Its share in hundredths of a percent, if given.
    pub hundredths: Option<u32>,
}

/// The caller's request document exactly as its protocol wrote it, kept so
/// that a read can show what was asked. Estimation never reads it: what it
/// computes from comes from the typed [`EstimateRequest`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submitted(String);

impl Submitted {
    /// Wraps a document.
    pub fn new(document: impl Into<String>) -> Self {
        Self(document.into())
    }

    /// The document.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A request to estimate, with what goes with it.
#[derive(Debug, Clone, PartialEq)]
pub struct NewEstimate {
    pub request: EstimateRequest,
    pub quote: QuoteTerms,
    pub submitted: Submitted,
    /// What the client attaches (idempotency key, metadata).
    pub annotations: Annotations,
}

/// The most characters of an estimate's idempotency key (the contract's `maxLength`).
pub const IDEMPOTENCY_KEY_MAX_CHARS: usize = 100;

/// What a client attaches to an estimate without changing what is computed:
/// the contract's `idempotency_key` (unique per account: a repeat is refused,
/// never a second estimate), `metadata` (string pairs, answered as sent), and
/// whether the estimate is of something that happened and when
/// (`is_shipment`/`shipped_at` for shipping, `is_transaction`/
/// `transaction_processed_at` for transactions).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Annotations {
    /// 1 to [`IDEMPOTENCY_KEY_MAX_CHARS`] characters, unique per account.
    pub idempotency_key: Option<String>,
    /// Key → value, in key order.
    pub metadata: std::collections::BTreeMap<String, String>,
    /// `is_shipment` / `is_transaction`, as sent (`None`: not said).
    pub actual: Option<bool>,
    /// `shipped_at` / `transaction_processed_at`, as sent.
    pub occurred_at: Option<OffsetDateTime>,
}

/// Which of an account's estimates a list shows (each filter absent: all).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EstimateFilter {
    /// Only those whose `is_shipment` / `is_transaction` is this (an estimate
    /// that never said counts as `false`).
    pub actual: Option<bool>,
    /// Only those created at or after this time.
    pub created_from: Option<OffsetDateTime>,
    /// Only those created at or before this time.
    pub created_through: Option<OffsetDateTime>,
}

/// A change of an estimate's annotations: each field absent is unchanged.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AnnotationsPatch {
    /// A new idempotency key (unique per account).
    pub idempotency_key: Option<String>,
    /// New metadata (replaces the old as a whole).
    pub metadata: Option<std::collections::BTreeMap<String, String>>,
    /// `is_shipment` / `is_transaction`.
    pub actual: Option<bool>,
    /// `shipped_at` / `transaction_processed_at`.
    pub occurred_at: Option<OffsetDateTime>,
}

impl Annotations {
    /// These annotations with a patch applied.
    pub fn patched(&self, patch: &AnnotationsPatch) -> Self {
        Self {
            idempotency_key: patch
                .idempotency_key
                .clone()
                .or_else(|| self.idempotency_key.clone()),
            metadata: patch
                .metadata
                .clone()
                .unwrap_or_else(|| self.metadata.clone()),
            actual: patch.actual.or(self.actual),
            occurred_at: patch.occurred_at.or(self.occurred_at),
        }
    }
}

/// An estimate: computed, owned by one account, and (except money movement)
/// stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Estimate {
    pub id: EstimateId,
    pub account_id: AccountId,
    pub kind: EstimateKind,
    /// CO2e; `None` for money movement.
    pub mass: Option<Mass>,
    pub detail: EstimateDetail,
    /// As computed at the time; a later factor table does not change it.
    pub explanation: Explanation,
    pub quote: QuoteTerms,
    pub submitted: Submitted,
    /// What the client attached.
    pub annotations: Annotations,
    /// The order that bought this estimate's mass, if any (32-hex order id).
    pub order_id: Option<String>,
    pub created_at: OffsetDateTime,
    /// Last recomputed.
    pub updated_at: OffsetDateTime,
}
