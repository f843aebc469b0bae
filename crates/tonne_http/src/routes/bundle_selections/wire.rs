//! The wire types of `bundle_selections`: what its requests and answers hold.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::wire::PercentageRequest;

/// The contract's `BundlePercentage`: a bundle and its share of the selection.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = BundlePercentage)]
pub struct BundlePercentageResponse {
    pub(crate) bundle_id: String,
    /// A whole percentage as an integer (`40`), else a two-decimal string (`"33.33"`).
    pub(crate) percentage: PercentageRequest,
}

/// The contract's `BundlePortfolio`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = BundlePortfolio)]
pub struct BundlePortfolioResponse {
    pub(crate) id: String,
    /// Stable identifier, e.g. `durable-removals`.
    pub(crate) identifier: String,
    /// Human-readable name.
    pub(crate) label: String,
    pub(crate) bundle_selection: Vec<BundlePercentageResponse>,
}

/// The contract's `SetBundlePortfolioRequest`.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = SetBundlePortfolioRequest)]
pub struct SetBundlePortfolioRequest {
    /// The portfolio to follow.
    pub(crate) bundle_portfolio_id: String,
}
