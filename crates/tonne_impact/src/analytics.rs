//! What analytics answer: series and aggregates over an account's orders and
//! estimates, in tonnes (exact grams) and the account's currency (exact minor
//! units).

use std::collections::{BTreeMap, BTreeSet};

use time::Date;
use tonne_kernel::{Currency, Mass, Money};
use tonne_ordering::{BundleId, OffsetType, Registry};

/// A quantity and its value: what orders add up to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Figures {
    /// Tonnes of CO2e (held in grams).
    pub quantity: Mass,
    /// What the offsets cost, without Tonne's commission.
    pub value: Money,
}

impl Figures {
    /// Nothing, in `currency`.
    pub fn zero(currency: Currency) -> Self {
        Self {
            quantity: Mass::from_grams(0),
            value: Money::zero(currency),
        }
    }

    /// Adds grams and minor units.
    pub fn add(&mut self, grams: i64, minor: i64) {
        self.quantity = Mass::from_grams(self.quantity.grams().saturating_add(grams));
        self.value = Money::from_minor(
            self.value.minor().saturating_add(minor),
            self.value.currency(),
        );
    }

    /// Whether both are zero.
    pub fn is_zero(&self) -> bool {
        self.quantity.grams() == 0 && self.value.minor() == 0
    }
}

/// One day (or month) of a series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    /// The day, or the first day of the month.
    pub date: Date,
    /// The figures at that date.
    pub figures: Figures,
}

/// The cumulative series of one bundle (`AnalyticsByBundle`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleSeries {
    /// The bundle.
    pub bundle_id: BundleId,
    /// Its name as the newest order in the range names it.
    pub bundle_name: String,
    /// One point per day of the range: everything ordered up to and including
    /// that day (orders before the range included).
    pub points: Vec<Point>,
}

/// How many of the funded projects serve one UN goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SdgCount {
    /// The goal's number, 1–17.
    pub goal: u8,
    /// Projects serving it.
    pub projects: u32,
}

/// `AnalyticsMetrics`: the projects funded and the goals they serve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Metrics {
    /// Distinct projects the orders were allocated to.
    pub number_of_projects: u32,
    /// Goals served, by goal number ascending.
    pub un_sdg: Vec<SdgCount>,
}

impl Metrics {
    /// Counts the projects and their goals.
    pub fn of<'a>(projects: impl IntoIterator<Item = &'a [u8]>) -> Self {
        let mut number_of_projects = 0;
        let mut goals: BTreeMap<u8, u32> = BTreeMap::new();
        for sdgs in projects {
            number_of_projects += 1;
            for goal in sdgs.iter().copied().collect::<BTreeSet<u8>>() {
                *goals.entry(goal).or_default() += 1;
            }
        }
        Self {
            number_of_projects,
            un_sdg: goals
                .into_iter()
                .map(|(goal, projects)| SdgCount { goal, projects })
                .collect(),
        }
    }
}

/// A project's continent, or none yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Location {
    /// The continent of the project's country.
    Continent(&'static str),
    /// The order is not yet allocated to projects (or the country is unknown).
    NotYetAllocated,
}

impl Location {
    /// The contract's spelling.
    pub fn as_str(&self) -> &'static str {
        match self {
            Location::Continent(name) => name,
            Location::NotYetAllocated => "Not yet allocated",
        }
    }
}

/// A project's registry, or none yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegistryName {
    /// The registry of the project.
    Registry(Registry),
    /// The order is not yet allocated to projects.
    NotYetAllocated,
}

impl RegistryName {
    /// The contract's spelling.
    pub fn as_str(&self) -> &'static str {
        match self {
            RegistryName::Registry(r) => r.as_str(),
            RegistryName::NotYetAllocated => "Not yet allocated",
        }
    }
}

/// `AggregatedAnalyticsByProperty`: the range's orders summed by property.
/// Every list adds up to the same total (except `oxford_offsetting_principles`,
/// which leaves out bundles without an offset type).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aggregates {
    /// By bundle, largest quantity first.
    pub bundle: Vec<(BundleId, String, Figures)>,
    /// By the projects' continent.
    pub location: Vec<(Location, Figures)>,
    /// By the projects' registry.
    pub registry: Vec<(RegistryName, Figures)>,
    /// By Oxford Offsetting Principles type (1–5, see [`oxford_type`]).
    pub oxford_offsetting_principles: Vec<(u8, Figures)>,
    /// By the bundles' offset type (`None`: not classified).
    pub offset_type: Vec<(Option<OffsetType>, Figures)>,
}

/// The Oxford Offsetting Principles' type of a bundle, from its offset type
/// and permanence (Allen et al., *The Oxford Principles for Net Zero Aligned
/// Carbon Offsetting*, 2020, fig. 1, numbered as the hosted reference does):
/// 1 emission reduction without storage, 2 emission reduction with
/// short-lived storage, 3 emission reduction with long-lived storage,
/// 4 removal with short-lived storage, 5 removal with long-lived storage.
/// `None` for a bundle without an offset type, or a "removal without storage".
///
/// ```
/// use tonne_impact::oxford_type;
/// use tonne_ordering::{CarbonPermanence, OffsetType};
///
/// assert_eq!(oxford_type(Some(OffsetType::CarbonRemoval), CarbonPermanence::LongTerm), Some(5));
/// assert_eq!(oxford_type(Some(OffsetType::EmissionsReduction), CarbonPermanence::NoStorage), Some(1));
/// assert_eq!(oxford_type(None, CarbonPermanence::ShortTerm), None);
/// ```
pub fn oxford_type(
    offset_type: Option<OffsetType>,
    permanence: tonne_ordering::CarbonPermanence,
) -> Option<u8> {
    use tonne_ordering::CarbonPermanence::{LongTerm, NoStorage, ShortTerm};
    match (offset_type?, permanence) {
        (OffsetType::EmissionsReduction, NoStorage) => Some(1),
        (OffsetType::EmissionsReduction, ShortTerm) => Some(2),
        (OffsetType::EmissionsReduction, LongTerm) => Some(3),
        (OffsetType::CarbonRemoval, ShortTerm) => Some(4),
        (OffsetType::CarbonRemoval, LongTerm) => Some(5),
        (OffsetType::CarbonRemoval, NoStorage) => None,
    }
}

/// One point of a count series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountPoint {
    /// The day, or the first day of the month.
    pub date: Date,
    /// Estimates created in it.
    pub count: u64,
}

/// The estimates of one kind in the range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindTotal {
    /// The estimate kind (`flight`, `shipping`, …).
    pub kind: String,
    /// How many.
    pub count: u64,
    /// Their total mass.
    pub mass: Mass,
}

/// `EmissionCalculationMetrics`, with Tonne's `by_kind`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EstimateMetrics {
    /// One point per day or month of the range, zeros included.
    pub timeseries: Vec<CountPoint>,
    /// Totals by kind, kinds in name order.
    pub by_kind: Vec<KindTotal>,
}
