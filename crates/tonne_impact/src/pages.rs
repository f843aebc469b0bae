//! Sustainability pages: an account's settings, and the public page they make.

use rust_decimal::Decimal;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, AccountMode, Currency, Mass, OrganisationId};
use tonne_ordering::{Bundle, OrderId, Project};

use crate::analytics::{Figures, Point, SdgCount};
use crate::errors::PageError;

/// The longest slug, in characters.
pub const MAX_SLUG: usize = 64;
/// The longest custom description, in characters.
pub const MAX_CUSTOM_DESCRIPTION: usize = 2_000;
/// How many certificates a public page lists (the newest).
pub const MAX_CERTIFICATES: u32 = 50;

/// A page's public name: `^[a-z0-9.-]+$`, 1–64 characters, unique per mode.
///
/// ```
/// use tonne_impact::Slug;
/// assert_eq!(Slug::parse("acme.eu-2").unwrap().as_str(), "acme.eu-2");
/// assert!(Slug::parse("Acme").is_err());
/// assert!(Slug::parse("").is_err());
/// assert!(Slug::parse("a/b").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Slug(String);

impl Slug {
    /// Checks a slug.
    pub fn parse(value: &str) -> Result<Self, PageError> {
        let ok = !value.is_empty()
            && value.chars().count() <= MAX_SLUG
            && value
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-');
        if ok {
            Ok(Self(value.to_owned()))
        } else {
            Err(PageError::Invalid {
                field: "slug",
                reason: "must be 1–64 of a-z, 0-9, '.' and '-'",
            })
        }
    }

    /// The slug.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Whether the public can see the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageStatus {
    /// Served (when the account's external pages are public too).
    Enabled,
    /// Not served.
    Disabled,
}

/// The headline figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TitleFormat {
    /// Tonnes retired.
    ByVolume,
    /// Money spent on the retired offsets.
    ByPrice,
}

/// The sentence under the headline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DescriptionFormat {
    /// As one-way flights from New York to London.
    ByEquivalent,
    /// As the number of UN goals and projects supported.
    BySupportedGoals,
    /// The owner's own text.
    ByCustomDescription,
}

/// A part of the page the owner may show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Section {
    /// Tonnes by bundle (and, on the HTML page, by project).
    BundlesBreakdown,
    /// The certificates of completed orders.
    Certificates,
    /// The UN Sustainable Development Goals served.
    UnSdg,
}

macro_rules! spelled {
    ($ty:ty { $($variant:ident = $text:literal),+ $(,)? }) => {
        impl $ty {
            /// The contract's spelling.
            pub fn as_str(self) -> &'static str {
                match self { $(Self::$variant => $text),+ }
            }
            /// Parses the contract's spelling.
            pub fn parse(value: &str) -> Option<Self> {
                match value { $($text => Some(Self::$variant),)+ _ => None }
            }
        }
    };
}
spelled!(PageStatus { Enabled = "enabled", Disabled = "disabled" });
spelled!(TitleFormat { ByVolume = "by_volume", ByPrice = "by_price" });
spelled!(DescriptionFormat {
    ByEquivalent = "by_equivalent",
    BySupportedGoals = "by_supported_goals",
    ByCustomDescription = "by_custom_description",
});
spelled!(Section {
    BundlesBreakdown = "bundles_breakdown",
    Certificates = "certificates",
    UnSdg = "unsdg",
});

/// What the owner chose (`SustainabilityPageRequest`), checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageSettings {
    /// Shown or not.
    pub status: PageStatus,
    /// Its public name.
    pub slug: Slug,
    /// The headline.
    pub title: TitleFormat,
    /// The sentence under it, if any.
    pub description: Option<DescriptionFormat>,
    /// The owner's text (kept even when another description is chosen).
    pub custom_description: Option<String>,
    /// The sections shown, each once, in the owner's order.
    pub sections: Vec<Section>,
}

impl PageSettings {
    /// Checks settings: sections at most once each; a custom description at
    /// most [`MAX_CUSTOM_DESCRIPTION`] characters, and present when chosen.
    /// Text is kept as written: pages escape it.
    pub fn new(
        status: PageStatus,
        slug: Slug,
        title: TitleFormat,
        description: Option<DescriptionFormat>,
        custom_description: Option<String>,
        sections: Vec<Section>,
    ) -> Result<Self, PageError> {
        for (i, s) in sections.iter().enumerate() {
            if sections.iter().take(i).any(|earlier| earlier == s) {
                return Err(PageError::Invalid {
                    field: "sections",
                    reason: "each section may appear once",
                });
            }
        }
        if custom_description
            .as_deref()
            .is_some_and(|text| text.chars().count() > MAX_CUSTOM_DESCRIPTION)
        {
            return Err(PageError::Invalid {
                field: "custom_description",
                reason: "at most 2000 characters",
            });
        }
        let has_text = custom_description
            .as_deref()
            .is_some_and(|t| !t.trim().is_empty());
        if description == Some(DescriptionFormat::ByCustomDescription) && !has_text {
            return Err(PageError::Invalid {
                field: "custom_description",
                reason: "required when description is by_custom_description",
            });
        }
        Ok(Self {
            status,
            slug,
            title,
            description,
            custom_description,
            sections,
        })
    }

    /// Whether `section` is shown.
    pub fn shows(&self, section: Section) -> bool {
        self.sections.contains(&section)
    }
}

/// An account's page as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SustainabilityPage {
    /// The account it speaks for.
    pub account_id: AccountId,
    /// The account's organisation.
    pub organisation_id: OrganisationId,
    /// The account's mode: a test account's page shows test orders, a live
    /// account's live ones; never both.
    pub mode: AccountMode,
    /// What the owner chose.
    pub settings: PageSettings,
    /// Created.
    pub created_at: OffsetDateTime,
    /// Last changed.
    pub updated_at: OffsetDateTime,
}

/// What a public page needs to know of its account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageHolder {
    /// The account.
    pub account_id: AccountId,
    /// Its organisation.
    pub organisation_id: OrganisationId,
    /// Its mode.
    pub mode: AccountMode,
    /// Its name.
    pub name: String,
    /// Its logo's absolute URL.
    pub logo: Option<String>,
    /// Its currency.
    pub currency: Currency,
    /// Whether its `external_pages_visibility` is `public`.
    pub public: bool,
}

/// The headline of a public page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Title {
    /// Tonnes retired by completed orders.
    ByVolume(Mass),
    /// What those offsets cost.
    ByPrice(tonne_kernel::Money),
}

/// The sentence under a public page's headline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Description {
    /// As whole one-way economy flights New York (JFK) → London (LHR), per passenger.
    ByEquivalent {
        /// How many such flights emit what was retired (rounded down).
        flights_nyc_to_london: u64,
    },
    /// As goals and projects.
    BySupportedGoals {
        /// Goals served.
        number_of_un_sdgs: u32,
        /// Projects funded.
        number_of_projects: u32,
    },
    /// The owner's text.
    ByCustomDescription(Option<String>),
}

/// One bundle's share of a public page.
#[derive(Debug, Clone, PartialEq)]
pub struct BundleShare {
    /// The bundle, as the catalogue has it now.
    pub bundle: Bundle,
    /// Tonnes retired through it.
    pub quantity: Mass,
    /// Its share of all tonnes retired, in percent, two decimals.
    pub percent_of_total: Decimal,
}

/// One project's share of a public page.
#[derive(Debug, Clone, PartialEq)]
pub struct ProjectShare {
    /// The project, as the catalogue has it now.
    pub project: Project,
    /// Tonnes retired from it.
    pub quantity: Mass,
}

/// A completed order, as its certificate is linked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompletedOrder {
    /// The order (its certificate is `/certificates/{id}`).
    pub id: OrderId,
    /// When it was placed.
    pub created_at: OffsetDateTime,
    /// Tonnes retired.
    pub quantity: Mass,
}

/// A public page: only completed orders of the page's account, only what the
/// owner chose to show.
#[derive(Debug, Clone, PartialEq)]
pub struct PublicPage {
    /// Whose page.
    pub holder: PageHolder,
    /// The settings it was made from.
    pub settings: PageSettings,
    /// Everything retired.
    pub total: Figures,
    /// The headline.
    pub title: Title,
    /// The sentence under it.
    pub description: Option<Description>,
    /// By bundle, largest first (`bundles_breakdown`), else `None`.
    pub bundles: Option<Vec<BundleShare>>,
    /// By project, largest first (`bundles_breakdown`), else `None`.
    pub projects: Option<Vec<ProjectShare>>,
    /// Goals served (`unsdg`), else `None`.
    pub un_sdg: Option<Vec<SdgCount>>,
    /// The newest completed orders (`certificates`), else `None`.
    pub certificates: Option<Vec<CompletedOrder>>,
    /// Cumulative tonnes and value up to the end of each month (to today for
    /// the current one), dated the month's first day, from the month of the
    /// first completed order (for the chart).
    pub series: Vec<Point>,
}
