//! The catalogue's values: carbon projects with their registry facts and
//! media, bundles and their prices, portfolios, and the contract's enums.

use rust_decimal::Decimal;
use time::{Date, OffsetDateTime};
use tonne_kernel::{Currency, Mass, Money};

tonne_kernel::define_id!(
    /// Identifies a carbon project.
    ProjectId
);
tonne_kernel::define_id!(
    /// Identifies a bundle (a group of projects orders are placed against).
    BundleId
);
tonne_kernel::define_id!(
    /// Identifies a bundle portfolio (a curated default mix of bundles).
    BundlePortfolioId
);

/// The registries of the contract's `Registry` enum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Registry {
    /// American Carbon Registry.
    AmericanCarbonRegistry,
    /// Verra (Verified Carbon Standard).
    Verra,
    /// Puro.earth.
    PuroEarth,
    /// Gold Standard.
    GoldStandard,
    /// Climate Action Reserve.
    ClimateActionReserve,
    /// UK Woodland Carbon Code.
    WoodlandCarbonCode,
}

impl Registry {
    /// Every registry.
    pub const ALL: [Registry; 6] = [
        Registry::AmericanCarbonRegistry,
        Registry::Verra,
        Registry::PuroEarth,
        Registry::GoldStandard,
        Registry::ClimateActionReserve,
        Registry::WoodlandCarbonCode,
    ];

    /// The contract's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Registry::AmericanCarbonRegistry => "American Carbon Registry",
            Registry::Verra => "Verra",
            Registry::PuroEarth => "Puro.earth",
            Registry::GoldStandard => "Gold Standard",
            Registry::ClimateActionReserve => "Climate Action Reserve",
            Registry::WoodlandCarbonCode => "Woodland Carbon Code",
        }
    }

    /// Parses the contract's spelling.
    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.as_str() == value)
    }
}

/// Avoided emissions or removed carbon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OffsetType {
    /// Emissions avoided or reduced.
    EmissionsReduction,
    /// Carbon removed from the atmosphere.
    CarbonRemoval,
}

impl OffsetType {
    /// The contract's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            OffsetType::EmissionsReduction => "emissions_reduction",
            OffsetType::CarbonRemoval => "carbon_removal",
        }
    }
    /// Parses the contract's spelling.
    pub fn parse(value: &str) -> Option<Self> {
        [OffsetType::EmissionsReduction, OffsetType::CarbonRemoval]
            .into_iter()
            .find(|t| t.as_str() == value)
    }
}

/// How long the carbon stays out of the atmosphere.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CarbonPermanence {
    /// Centuries or more (geological, mineral, biochar).
    LongTerm,
    /// Decades (biological storage).
    ShortTerm,
    /// No carbon is stored: the credits are avoided emissions (renewable
    /// power, methane destruction). The 2024 contract's `no_storage`; the
    /// 2023 contract spelled this `null`.
    NoStorage,
}

impl CarbonPermanence {
    /// The contract's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            CarbonPermanence::LongTerm => "long_term",
            CarbonPermanence::ShortTerm => "short_term",
            CarbonPermanence::NoStorage => "no_storage",
        }
    }
    /// Parses the contract's spelling.
    pub fn parse(value: &str) -> Option<Self> {
        [
            CarbonPermanence::LongTerm,
            CarbonPermanence::ShortTerm,
            CarbonPermanence::NoStorage,
        ]
        .into_iter()
        .find(|t| t.as_str() == value)
    }
}

/// Whether a bundle's projects use established or novel methods (the 2024
/// contract's `approach`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Approach {
    /// Established project types: forest protection, cookstoves, afforestation.
    Traditional,
    /// Novel, mostly engineered methods: direct air capture, biochar, enhanced weathering.
    Innovative,
}

impl Approach {
    /// The contract's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Approach::Traditional => "traditional",
            Approach::Innovative => "innovative",
        }
    }
    /// Parses the contract's spelling.
    pub fn parse(value: &str) -> Option<Self> {
        [Approach::Traditional, Approach::Innovative]
            .into_iter()
            .find(|t| t.as_str() == value)
    }
}

/// The registry and methodology facts of a project (the 2024 contract's
/// `ProjectSummary` fields from `crediting_start_date` on). `None` or an empty
/// list is a fact the catalogue does not know; it is answered as `null`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProjectFacts {
    /// Start of the crediting period.
    pub crediting_start_date: Option<Date>,
    /// End of the crediting period.
    pub crediting_end_date: Option<Date>,
    /// When the registry registered the project.
    pub registration_date: Option<Date>,
    /// Standards followed, e.g. `["Verra VCS", "Verra CCB"]`.
    pub protocol: Vec<String>,
    /// The methodology, e.g. `VM0009`.
    pub methodology: Option<String>,
    /// Expected duration of storage, e.g. `1000+` (removals only).
    pub durability: Option<String>,
    /// Other standards met, e.g. `["CCB Gold"]`.
    pub additional_standards_met: Vec<String>,
    /// The validation/verification body.
    pub verifying_body: Option<String>,
    /// How the risk of reversal is mitigated.
    pub risk_of_reversal: Option<String>,
    /// How the risk of predicted reductions not occurring is mitigated.
    pub risk_of_predicted_emissions: Option<String>,
    /// Average annual emission reductions or removals, tonnes CO2e per year.
    pub avg_annual_emission_reductions: Option<Decimal>,
}

/// An image or video of a project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Media {
    /// `image` or `video`.
    pub kind: String,
    /// Where it is.
    pub url: String,
    /// Credit line.
    pub attribution_text: Option<String>,
    /// Credit link.
    pub attribution_url: Option<String>,
}

/// A carbon project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// Its id.
    pub id: ProjectId,
    /// Unique slug.
    pub slug: String,
    pub name: String,
    /// Short name.
    pub short_name: String,
    pub description: String,
    /// Type, e.g. "Forest conservation (REDD+)".
    pub project_type: String,
    pub registry: Registry,
    /// Link to the registry's page.
    pub registry_link: Option<String>,
    /// Latitude, decimal degrees.
    pub latitude: Decimal,
    /// Longitude, decimal degrees.
    pub longitude: Decimal,
    /// Country name.
    pub country_name: String,
    /// ISO 3166-1 alpha-3 country code.
    pub country_code: String,
    pub region: Option<String>,
    /// Logo URL.
    pub logo: Option<String>,
    /// Image URL.
    pub primary_image: Option<String>,
    /// Thumbnail URL.
    pub thumbnail_image: Option<String>,
    /// Results, one line each.
    pub results: Vec<String>,
    /// UN Sustainable Development Goals served (1–17).
    pub un_sdg: Vec<u8>,
    pub media: Vec<Media>,
    /// Disabled projects are not sold.
    pub disabled: bool,
    /// When it was disabled.
    pub disabled_at: Option<OffsetDateTime>,
    /// Registry and methodology facts.
    pub facts: ProjectFacts,
    /// Bundles it belongs to.
    pub bundle_ids: Vec<BundleId>,
}

/// A bundle's unit price in one currency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BundlePrice {
    /// Price per tonne, before commission.
    pub unit_price: Money,
}

/// A bundle: projects of similar price and characteristics; orders are placed against bundles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bundle {
    /// Its id.
    pub id: BundleId,
    pub name: String,
    pub description: Option<String>,
    /// Unit prices per tonne, one per currency it is sold in.
    pub prices: Vec<BundlePrice>,
    /// Tonnes left to sell; `None` is unlimited.
    pub available: Option<Mass>,
    /// Offset type.
    pub offset_type: Option<OffsetType>,
    /// Established or novel methods, if classified.
    pub approach: Option<Approach>,
    /// How long the carbon stays stored.
    pub permanence: CarbonPermanence,
    /// Disabled bundles take no orders.
    pub disabled: bool,
    /// When it was disabled.
    pub disabled_at: Option<OffsetDateTime>,
    /// Background colour, `#RRGGBB`.
    pub background_colour: Option<String>,
    /// Image URL.
    pub primary_image: Option<String>,
    /// Large image URL.
    pub large_image: Option<String>,
    /// High-resolution image URL.
    pub primary_image_hires: Option<String>,
    /// Thumbnail URL.
    pub small_thumbnail: Option<String>,
    /// Share of the catalogue's default selection, in hundredths of a percent.
    pub default_share: Option<u32>,
    /// Projects in the bundle.
    pub project_ids: Vec<ProjectId>,
}

impl Bundle {
    /// The unit price in a currency, if the bundle is sold in it.
    pub fn price_in(&self, currency: Currency) -> Option<Money> {
        self.prices
            .iter()
            .map(|p| p.unit_price)
            .find(|m| m.currency() == currency)
    }
}

#[cfg(any(test, feature = "mock"))]
impl Project {
    /// A test project `n` (test support, `mock` feature): biochar, at 0° 0°,
    /// of no bundle.
    pub fn sample(n: u128) -> Self {
        Self {
            id: ProjectId::from_uuid(uuid::Uuid::from_u128(n)),
            slug: format!("p{n}"),
            name: format!("P{n}"),
            short_name: format!("P{n}"),
            description: String::new(),
            project_type: "Biochar".into(),
            registry: Registry::PuroEarth,
            registry_link: None,
            latitude: Decimal::ZERO,
            longitude: Decimal::ZERO,
            country_name: "X".into(),
            country_code: "XXX".into(),
            region: None,
            logo: None,
            primary_image: None,
            thumbnail_image: None,
            results: vec![],
            un_sdg: vec![],
            media: vec![],
            disabled: false,
            disabled_at: None,
            facts: Default::default(),
            bundle_ids: vec![],
        }
    }
}

#[cfg(any(test, feature = "mock"))]
impl Bundle {
    /// A test bundle `n` (test support, `mock` feature): priced in GBP only,
    /// unlimited, enabled, with no projects.
    pub fn sample(n: u128, gbp_minor: i64) -> Self {
        Self {
            id: BundleId::from_uuid(uuid::Uuid::from_u128(n)),
            name: format!("Bundle {n}"),
            description: None,
            prices: vec![BundlePrice {
                unit_price: Money::from_minor(gbp_minor, Currency::Gbp),
            }],
            available: None,
            offset_type: None,
            approach: None,
            permanence: CarbonPermanence::NoStorage,
            disabled: false,
            disabled_at: None,
            background_colour: None,
            primary_image: None,
            large_image: None,
            primary_image_hires: None,
            small_thumbnail: None,
            default_share: None,
            project_ids: vec![],
        }
    }
}

/// A curated default mix of bundles (the contract's `BundlePortfolio`),
/// defined in the catalogue file. An account that follows a portfolio orders
/// with its current selection when a request names no bundles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundlePortfolio {
    /// Its id.
    pub id: BundlePortfolioId,
    /// Stable identifier, e.g. `oxford-offsetting-principles`.
    pub identifier: String,
    /// Human-readable name.
    pub label: String,
    /// Bundles and shares in hundredths of a percent, summing to 10,000, in order.
    pub selection: Vec<(BundleId, u32)>,
}
