//! What a catalogue factor is: its source, its dimension and its fields.

use rust_decimal::Decimal;

use crate::factors::GasSplit;

/// The database a factor was taken from, as the contract names sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FactorSource {
    /// UK government conversion factors: BEIS until 2023, DESNZ since (the
    /// contract keeps the old name).
    Beis,
    /// US EPA (USEEIO supply-chain factors).
    Epa,
    /// EXIOBASE.
    Exiobase,
    /// GLEC framework.
    Glec,
    /// Compiled by the service from another open publication (named in the
    /// factor's `publication`): grid intensities, diet, Tonne's assumptions.
    Lune,
}

impl FactorSource {
    /// Every source the catalogue may hold, in wire order.
    pub const ALL: [FactorSource; 5] = [
        FactorSource::Epa,
        FactorSource::Exiobase,
        FactorSource::Beis,
        FactorSource::Lune,
        FactorSource::Glec,
    ];

    /// The contract's name.
    pub fn as_str(self) -> &'static str {
        match self {
            FactorSource::Beis => "beis",
            FactorSource::Epa => "epa",
            FactorSource::Exiobase => "exiobase",
            FactorSource::Glec => "glec",
            FactorSource::Lune => "lune",
        }
    }

    /// From the contract's name (`None` for a source no factor here has,
    /// such as `ecoinvent`, and for anything else).
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

/// The dimension of a factor's denominator (the contract's `EmissionFactorLogicalUnit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LogicalUnit {
    Currency,
    Distance,
    Item,
    Time,
    Area,
    Volume,
    Energy,
    Mass,
    PersonTime,
    PersonDistance,
    MassTime,
    MassDistance,
    DistanceTime,
    AreaTime,
    RoomTime,
}

impl LogicalUnit {
    const ALL: [LogicalUnit; 15] = [
        LogicalUnit::Currency,
        LogicalUnit::Distance,
        LogicalUnit::Item,
        LogicalUnit::Time,
        LogicalUnit::Area,
        LogicalUnit::Volume,
        LogicalUnit::Energy,
        LogicalUnit::Mass,
        LogicalUnit::PersonTime,
        LogicalUnit::PersonDistance,
        LogicalUnit::MassTime,
        LogicalUnit::MassDistance,
        LogicalUnit::DistanceTime,
        LogicalUnit::AreaTime,
        LogicalUnit::RoomTime,
    ];

    /// The contract's name.
    pub fn as_str(self) -> &'static str {
        match self {
            LogicalUnit::Currency => "currency",
            LogicalUnit::Distance => "distance",
            LogicalUnit::Item => "item",
            LogicalUnit::Time => "time",
            LogicalUnit::Area => "area",
            LogicalUnit::Volume => "volume",
            LogicalUnit::Energy => "energy",
            LogicalUnit::Mass => "mass",
            LogicalUnit::PersonTime => "person-time",
            LogicalUnit::PersonDistance => "person-distance",
            LogicalUnit::MassTime => "mass-time",
            LogicalUnit::MassDistance => "mass-distance",
            LogicalUnit::DistanceTime => "distance-time",
            LogicalUnit::AreaTime => "area-time",
            LogicalUnit::RoomTime => "room-time",
        }
    }

    /// From the contract's name.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

/// One factor of the catalogue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogueFactor {
    /// Stable id (see the module's documentation).
    pub id: String,
    /// What it measures, as the publication words it.
    pub name: String,
    pub source: FactorSource,
    /// The publication's version or edition (`2025`, `1.3.0`).
    pub source_version: String,
    /// The whole citation, with its licence.
    pub publication: String,
    /// Year of publication (or of the data, for grid intensities).
    pub publication_year: u16,
    /// When the factor was published (the first of January of its year
    /// where the publication gives no day).
    pub published: time::Date,
    /// The country or region it covers, by name (`United Kingdom`, `World`).
    pub region: String,
    /// A category that groups it (`Business travel- air / Flights`,
    /// `Electricity grid`, a NAICS industry).
    pub category: Option<String>,
    /// The contract's denominator unit (`person*km`, `kWh`, `USD`, `t*km`).
    pub denominator: &'static str,
    pub logical_unit: LogicalUnit,
    /// kg CO2e per denominator unit (the numerator is always kg).
    pub kg_co2e: Decimal,
    /// The published per-gas parts, where the publication has them (DESNZ).
    pub gases: Option<GasSplit>,
    /// The id the engines' explanations use for it (`RAIL_NATIONAL`, `grid:DEU`).
    pub engine_id: String,
}
