//! The 2024 document's `AnalyticsShippingEstimates` and its query.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::routes::estimates::requests::MethodRequest;
use crate::wire::AccountType;

/// `interval`: `day` (default) or `month`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct IntervalQuery {
    /// `day` (default) or `month`.
    #[param(value_type = Option<String>, example = "month")]
    pub interval: Option<String>,
}

/// One point of `ShippingEmissionTimeseries`: tonnes CO2e per mode.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShippingEmissionPoint {
    /// The bucket's first day.
    #[schema(format = Date, example = "2026-01-31")]
    pub date: String,
    pub air: f64,
    pub sea: f64,
    pub road: f64,
    pub rail: f64,
    pub inland_waterway: f64,
    /// Tonne estimates no logistics sites: always 0.
    pub logistic_site: f64,
}

/// One point of `AverageTimeseries`: the mean g CO2e per tonne·km.
#[derive(Debug, Serialize, ToSchema)]
pub struct AveragePoint {
    #[schema(format = Date, example = "2026-01-31")]
    pub date: String,
    pub average: f64,
}

/// What the analytics say of their account (nothing private: its name, type
/// and published logo).
#[derive(Debug, Serialize, ToSchema)]
pub struct PublicAccount {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: AccountType,
    /// The logo's URL, or `null`.
    pub logo: Option<String>,
}

/// The contract's `AnalyticsShippingEstimates`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = AnalyticsShippingEstimates)]
pub struct ShippingAnalyticsResponse {
    /// Tonnes CO2e per mode, per day or month of the range.
    pub emission_timeseries: Vec<ShippingEmissionPoint>,
    /// Mean g CO2e per tonne·km of the bucket's shipments (0 without any).
    pub carbon_intensity_timeseries: Vec<AveragePoint>,
    /// Mean g CO2e per tonne·km over the range.
    pub carbon_intensity_total: f64,
    pub account: PublicAccount,
}

/// Path account id.
#[derive(Debug, Deserialize)]
pub struct AccountPath {
    pub(super) account_id: String,
}

/// The stored request's methods: `method` (single leg) or `legs[].method`.
#[derive(Debug, Default, Deserialize)]
pub(super) struct SentMethods {
    pub(super) method: Option<MethodRequest>,
    pub(super) legs: Option<Vec<SentLeg>>,
}

#[derive(Debug, Deserialize)]
pub(super) struct SentLeg {
    pub(super) method: Option<MethodRequest>,
}
