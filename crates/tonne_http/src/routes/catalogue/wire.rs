//! The wire types of `catalogue`: what its requests and answers hold.

use serde::{Deserialize, Serialize};
use tonne_kernel::Currency;
use utoipa::{IntoParams, IntoResponses, ToSchema};

use crate::error::ApiError;
use crate::wire::ErrorsResponse;

/// The contract's `BundleSummary`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = BundleSummaryBody)]
pub struct BundleSummaryResponse {
    pub(crate) id: String,
    pub(crate) name: String,
    /// Price per tonne in `currency`, before commission.
    pub(crate) unit_price: String,
    /// Price per tonne including commission.
    pub(crate) gross_unit_price: String,
    pub(crate) currency: String,
    pub(crate) background_colour: Option<String>,
    pub(crate) primary_image: Option<String>,
    pub(crate) large_image: Option<String>,
    pub(crate) primary_image_hires: Option<String>,
    pub(crate) small_thumbnail: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) disabled: bool,
    /// Tonnes left; null is unlimited.
    pub(crate) available_quantity: Option<String>,
    pub(crate) offset_type: Option<&'static str>,
    /// `traditional` or `innovative` (2024), or null.
    pub(crate) approach: Option<&'static str>,
    /// `long_term`, `short_term` or `no_storage` (2024: never null).
    pub(crate) carbon_permanence: &'static str,
}

/// The contract's `Media`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = MediaBody)]
pub struct MediaResponse {
    #[serde(rename = "type")]
    pub(crate) kind: String,
    pub(crate) url: String,
    pub(crate) attribution_text: Option<String>,
    pub(crate) attribution_url: Option<String>,
}

/// The contract's `ProjectSummary`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ProjectSummaryBody)]
pub struct ProjectSummaryResponse {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) short_name: String,
    pub(crate) slug: String,
    pub(crate) description: String,
    pub(crate) project_type: String,
    pub(crate) registry_name: &'static str,
    pub(crate) registry_link: Option<String>,
    pub(crate) latitude: f64,
    pub(crate) longitude: f64,
    pub(crate) country_name: String,
    pub(crate) country_code: String,
    pub(crate) region: Option<String>,
    pub(crate) logo: Option<String>,
    pub(crate) primary_image: Option<String>,
    pub(crate) thumbnail_image: Option<String>,
    pub(crate) results: Vec<String>,
    pub(crate) un_sdg: Vec<u8>,
    pub(crate) media: Vec<MediaResponse>,
    pub(crate) disabled: bool,
    /// Crediting period start, `YYYY-MM-DD`, or null when unknown.
    pub(crate) crediting_start_date: Option<String>,
    /// Crediting period end, `YYYY-MM-DD`, or null when unknown.
    pub(crate) crediting_end_date: Option<String>,
    /// Registration date, `YYYY-MM-DD`, or null when unknown.
    pub(crate) registration_date: Option<String>,
    /// Standards followed, or null when unknown.
    pub(crate) protocol: Option<Vec<String>>,
    pub(crate) methodology: Option<String>,
    pub(crate) durability: Option<String>,
    /// Other standards met, or null when unknown.
    pub(crate) additional_standards_met: Option<Vec<String>>,
    pub(crate) verifying_body: Option<String>,
    pub(crate) risk_of_reversal: Option<String>,
    pub(crate) risk_of_predicted_emissions: Option<String>,
    /// Tonnes CO2e per year, a decimal string, or null when unknown.
    pub(crate) avg_annual_emission_reductions: Option<String>,
}

/// The contract's `Project`. The 2024 sections Tonne's catalogue does not
/// hold (impact summary, datasets, quality assessment, links and news,
/// carbon credits, timeline, carbon storage over time) are `null`, which the
/// contract defines as "no data or the section is disabled".
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ProjectBody)]
pub struct ProjectResponse {
    #[serde(flatten)]
    pub(crate) summary: ProjectSummaryResponse,
    pub(crate) bundles: Vec<BundleSummaryResponse>,
    #[schema(value_type = Option<Vec<Object>>)]
    pub(crate) impact_summary: Option<Unpublished>,
    #[schema(value_type = Option<Vec<Object>>)]
    pub(crate) datasets: Option<Unpublished>,
    #[schema(value_type = Option<Object>)]
    pub(crate) quality_assessment: Option<Unpublished>,
    #[schema(value_type = Option<Object>)]
    pub(crate) links_and_news: Option<Unpublished>,
    #[schema(value_type = Option<Object>)]
    pub(crate) carbon_credits: Option<Unpublished>,
    #[schema(value_type = Option<Vec<Object>>)]
    pub(crate) timeline: Option<Unpublished>,
    #[schema(value_type = Option<Vec<Object>>)]
    pub(crate) carbon_storage_over_time: Option<Unpublished>,
}

/// A section the catalogue has no data for: it has no value, so the field is always `null`.
#[derive(Debug, Serialize)]
pub enum Unpublished {}

/// The contract's `Bundle`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = BundleBody)]
pub struct BundleResponse {
    #[serde(flatten)]
    pub(crate) summary: BundleSummaryResponse,
    pub(crate) projects: Vec<ProjectSummaryResponse>,
}

/// `?currency=`: the prices' currency when no key says which.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CurrencyQuery {
    /// a `CurrencyCode`; without a key, prices are in this currency (default GBP)
    pub(crate) currency: Option<String>,
}

impl CurrencyQuery {
    /// The currency asked for, or 400.
    pub(crate) fn currency(&self) -> Result<Option<Currency>, ApiError> {
        self.currency
            .as_deref()
            .map(|c| c.parse().map_err(|e| ApiError::validation("currency", e)))
            .transpose()
    }
}

/// The filter of the project and bundle lists.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RecentlyDisabledQuery {
    /// `true`: also list items disabled in the last 30 days
    #[param(value_type = Option<bool>)]
    pub(crate) recently_disabled: Option<String>,
}

impl RecentlyDisabledQuery {
    /// `recently_disabled` (`true`/`false`, default false), or 400.
    pub(crate) fn recently_disabled(&self) -> Result<bool, ApiError> {
        match self.recently_disabled.as_deref() {
            None | Some("false") => Ok(false),
            Some("true") => Ok(true),
            Some(_) => Err(ApiError::validation(
                "recently_disabled",
                "must be `true` or `false`",
            )),
        }
    }
}

/// 404 of a route on one project.
#[derive(IntoResponses)]
pub enum NoSuchProject {
    /// No such project
    #[response(status = 404)]
    NotFound(ErrorsResponse),
}
