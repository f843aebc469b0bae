//! The wire types of `sustainability_pages`: what its requests and answers hold.

use serde::{Deserialize, Serialize};
use utoipa::{IntoResponses, ToSchema};

use crate::wire::ErrorsResponse;

/// The contract's `SustainabilityPageRequest`.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = SustainabilityPageRequest)]
pub struct PageRequest {
    /// `enabled` or `disabled`.
    #[schema(example = "enabled")]
    pub(crate) status: String,
    /// `^[a-z0-9.-]+$`, at most 64 characters, unique per mode.
    #[schema(example = "acme")]
    pub(crate) slug: String,
    /// `by_volume` or `by_price`.
    #[schema(example = "by_volume")]
    pub(crate) title: String,
    /// `by_equivalent`, `by_supported_goals`, `by_custom_description` or null.
    #[schema(value_type = Option<String>, nullable = true)]
    pub(crate) description: Option<Option<String>>,
    /// Shown when `description` is `by_custom_description` (then required); at
    /// most 2,000 characters; shown as text, never as HTML.
    #[schema(value_type = Option<String>, nullable = true)]
    pub(crate) custom_description: Option<Option<String>>,
    /// Any of `bundles_breakdown`, `certificates`, `unsdg`, each once.
    pub(crate) sections: Vec<String>,
}

/// The contract's `SustainabilityPage`, with Tonne's `url`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = SustainabilityPage)]
pub struct PageResponse {
    pub(crate) status: &'static str,
    pub(crate) slug: String,
    pub(crate) title: &'static str,
    pub(crate) description: Option<&'static str>,
    pub(crate) custom_description: Option<String>,
    pub(crate) sections: Vec<&'static str>,
    /// Tonne's addition: the absolute address of the public HTML page (served
    /// while `status` is `enabled` and the account's `external_pages_visibility`
    /// is `public`).
    pub(crate) url: String,
}

/// The public page's headline.
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "format", rename_all = "snake_case")]
pub enum PublicTitle {
    /// What the retired offsets cost.
    ByPrice {
        /// The account's currency.
        currency: &'static str,
        /// A decimal string.
        value: String,
    },
    /// Tonnes retired.
    ByVolume {
        /// Tonnes CO2e, a decimal string.
        quantity: String,
    },
}

/// The public page's description.
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "format", rename_all = "snake_case")]
pub enum PublicDescription {
    /// One-way economy flights New York (JFK) → London (LHR), per passenger.
    ByEquivalent {
        /// Whole flights that emit what was retired.
        flights_nyc_to_london: u64,
    },
    /// Goals and projects.
    BySupportedGoals {
        number_of_un_sdgs: u32,
        number_of_projects: u32,
    },
    /// The owner's text.
    ByCustomDescription { custom_description: Option<String> },
}

/// A bundle as a public page shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct PublicBundle {
    pub(crate) name: String,
    pub(crate) background_colour: Option<String>,
    pub(crate) primary_image: Option<String>,
    pub(crate) primary_image_hires: Option<String>,
    pub(crate) small_thumbnail: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) offset_type: Option<&'static str>,
    pub(crate) carbon_permanence: &'static str,
}

/// A bundle's share of a public page.
#[derive(Debug, Serialize, ToSchema)]
pub struct PublicBundleShare {
    /// Percent of all tonnes retired, two decimals.
    pub(crate) percent_of_total: f64,
    /// Tonnes CO2e.
    pub(crate) quantity: String,
    pub(crate) bundle: PublicBundle,
}

/// One goal.
#[derive(Debug, Serialize, ToSchema)]
pub struct PublicSdg {
    pub(crate) un_sdg_number: u8,
    pub(crate) occurrences: u32,
}

/// Tonne's addition: a completed order's certificate.
#[derive(Debug, Serialize, ToSchema)]
pub struct PublicCertificate {
    pub(crate) order_id: String,
    /// Tonnes CO2e retired.
    pub(crate) quantity: String,
    /// RFC 3339.
    pub(crate) created_at: String,
    /// The certificate page's absolute address.
    pub(crate) url: String,
}

/// The contract's `PublicSustainabilityPage`, with Tonne's `url` and
/// (when the owner shows certificates) `certificates`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = PublicSustainabilityPage)]
pub struct PublicPageResponse {
    pub(crate) title: PublicTitle,
    pub(crate) description: Option<PublicDescription>,
    pub(crate) include_certificates: bool,
    pub(crate) bundles: Option<Vec<PublicBundleShare>>,
    pub(crate) un_sdg: Option<Vec<PublicSdg>>,
    pub(crate) logo: Option<String>,
    /// The organisation's logo (today's client, 3.x, reads it): Tonne's
    /// organisations have none, so `null`.
    pub(crate) organisation_logo: Option<String>,
    pub(crate) account_name: String,
    /// The HTML page's absolute address.
    pub(crate) url: String,
    /// The newest completed orders (at most 50), when `include_certificates`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) certificates: Option<Vec<PublicCertificate>>,
}

/// 400 of the routes that take page settings.
#[derive(IntoResponses)]
pub enum InvalidField {
    /// Invalid field (validation_error)
    #[response(status = 400)]
    Invalid(ErrorsResponse),
}

/// 404 of the routes on the acting account's page.
#[derive(IntoResponses)]
pub enum NoPage {
    /// The account has no page
    #[response(status = 404)]
    NotFound(ErrorsResponse),
}

/// 404 of the public page routes.
#[derive(IntoResponses)]
pub enum NoPublicPage {
    /// No such page, or it is disabled or hidden
    #[response(status = 404)]
    NotFound(ErrorsResponse),
}
