//! The wire types of `analytics`: what its requests and answers hold.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, IntoResponses, ToSchema};

use crate::wire::ErrorsResponse;

/// The range of every analytics route.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RangeQuery {
    /// The first UTC day (`YYYY-MM-DD`); 30 days ago by default.
    #[param(value_type = Option<String>, format = Date, example = "2026-01-01")]
    pub(crate) from: Option<String>,
    /// The last UTC day, inclusive; today by default.
    #[param(value_type = Option<String>, format = Date, example = "2026-01-31")]
    pub(crate) through: Option<String>,
}

/// The emission calculations' extra parameters.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CalculationsQuery {
    /// `day` (default) or `month`.
    #[param(value_type = Option<String>, example = "month")]
    pub(crate) interval: Option<String>,
    /// `true`: every account of the key's organisation in the key's mode (a
    /// client account's key still reads its own account only); `false` (default).
    #[param(value_type = Option<bool>)]
    pub(crate) all_accounts: Option<String>,
}

/// One point of `QuantityAndValueTimeseries`.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuantityAndValuePoint {
    /// The UTC day.
    #[schema(format = Date, example = "2026-01-31")]
    pub(crate) date: String,
    /// Tonnes CO2e.
    #[schema(pattern = r"^[0-9]+(\.[0-9]+)?$", example = "500.5")]
    pub(crate) quantity: String,
    /// The offsets' cost in the account's currency.
    #[schema(pattern = r"^[0-9]+(\.[0-9]+)?$", example = "222.67")]
    pub(crate) value: String,
}

/// The contract's `AnalyticsByBundle`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = AnalyticsByBundle)]
pub struct AnalyticsByBundleResponse {
    pub(crate) bundle_id: String,
    pub(crate) bundle_name: String,
    /// Cumulative: each day holds everything ordered up to and including it.
    pub(crate) timeseries: Vec<QuantityAndValuePoint>,
}

/// One goal of `SupportedUNSdg`.
#[derive(Debug, Serialize, ToSchema)]
pub struct UnSdgResponse {
    /// The goal's number, 1–17.
    pub(crate) un_sdg_number: u8,
    /// Funded projects serving it.
    pub(crate) occurrences: u32,
}

/// The contract's `AnalyticsMetrics`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = AnalyticsMetrics)]
pub struct AnalyticsMetricsResponse {
    pub(crate) number_of_un_sdgs: u32,
    pub(crate) number_of_projects: u32,
    pub(crate) un_sdg: Vec<UnSdgResponse>,
}

/// A bundle's share of `AggregatedAnalyticsByProperty`.
#[derive(Debug, Serialize, ToSchema)]
pub struct BundleAggregate {
    pub(crate) bundle_id: String,
    pub(crate) bundle_name: String,
    pub(crate) quantity: String,
    pub(crate) value: String,
}

/// A continent's share.
#[derive(Debug, Serialize, ToSchema)]
pub struct LocationAggregate {
    /// The continent, or `Not yet allocated`.
    pub(crate) location: String,
    pub(crate) quantity: String,
    pub(crate) value: String,
}

/// A registry's share.
#[derive(Debug, Serialize, ToSchema)]
pub struct RegistryAggregate {
    /// The registry's name, or `Not yet allocated`.
    pub(crate) registry_name: String,
    pub(crate) quantity: String,
    pub(crate) value: String,
}

/// An Oxford Offsetting Principles type's share.
#[derive(Debug, Serialize, ToSchema)]
pub struct OxfordAggregate {
    /// 1–5.
    #[serde(rename = "type")]
    pub(crate) kind: u8,
    pub(crate) quantity: String,
    pub(crate) value: String,
}

/// An offset type's share.
#[derive(Debug, Serialize, ToSchema)]
pub struct OffsetTypeAggregate {
    /// `emissions_reduction`, `carbon_removal`, or `null` for unclassified bundles.
    pub(crate) offset_type: Option<&'static str>,
    pub(crate) quantity: String,
    pub(crate) value: String,
}

/// The contract's `AggregatedAnalyticsByProperty`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = AggregatedAnalyticsByProperty)]
pub struct AggregatedResponse {
    pub(crate) bundle: Vec<BundleAggregate>,
    pub(crate) location: Vec<LocationAggregate>,
    pub(crate) registry: Vec<RegistryAggregate>,
    pub(crate) oxford_offsetting_principles: Vec<OxfordAggregate>,
    pub(crate) offset_type: Vec<OffsetTypeAggregate>,
}

/// One point of `CountTimeseries`.
#[derive(Debug, Serialize, ToSchema)]
pub struct CountPointResponse {
    #[schema(format = Date)]
    pub(crate) date: String,
    pub(crate) count: u64,
}

/// Tonne's addition: the range's estimates of one kind.
#[derive(Debug, Serialize, ToSchema)]
pub struct KindTotalResponse {
    /// The estimate kind (`flight`, `shipping`, `electricity`, …).
    pub(crate) kind: String,
    pub(crate) count: u64,
    /// Their total, tonnes CO2e.
    #[schema(pattern = r"^[0-9]+(\.[0-9]+)?$")]
    pub(crate) total_tonnes: String,
}

/// The contract's `EmissionCalculationMetrics`, with Tonne's `by_kind`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = EmissionCalculationMetrics)]
pub struct EmissionCalculationsResponse {
    pub(crate) timeseries: Vec<CountPointResponse>,
    pub(crate) by_kind: Vec<KindTotalResponse>,
}

/// 400 of an analytics route whose only parameters are the range.
#[derive(IntoResponses)]
pub enum InvalidRange {
    /// Invalid date or range (time_range_invalid)
    #[response(status = 400)]
    Invalid(ErrorsResponse),
}
