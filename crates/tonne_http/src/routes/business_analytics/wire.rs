//! The wire types of `business_analytics`: what its requests and answers hold.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::{IntoParams, ToSchema};

use crate::routes::estimates::responses::MassResponse;

/// The range.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BusinessQuery {
    /// The first UTC day (`YYYY-MM-DD`); the first estimate's by default.
    #[param(value_type = Option<String>, format = Date, example = "2026-01-01")]
    pub(crate) from: Option<String>,
    /// The last UTC day, inclusive; today by default.
    #[param(value_type = Option<String>, format = Date, example = "2026-01-31")]
    pub(crate) through: Option<String>,
}

/// The contract's `BusinessEmissionsAnalytics`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = BusinessEmissionsAnalytics)]
pub struct BusinessAnalyticsResponse {
    pub(crate) mass: MassResponse,
    pub(crate) number_of_estimates: u64,
    /// The fourteen categories, each a mass; they add up to `mass`.
    #[schema(value_type = Object)]
    pub(crate) categories: BTreeMap<&'static str, MassResponse>,
}
