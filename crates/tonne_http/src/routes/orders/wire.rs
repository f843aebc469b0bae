//! The wire types of `orders`: what its requests and answers hold.

use std::collections::BTreeMap;

use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use crate::wire::{BundleMassRequest, MassRequest, MassUnitRequest, SelectionRequest};

/// The contract's `CreateOrderByQuantityRequest`.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
pub struct MassOrderRequest {
    pub(crate) mass: Option<MassRequest>,
    pub(crate) bundle_selection: Option<Vec<SelectionRequest>>,
    pub(crate) bundle_masses: Option<Vec<BundleMassRequest>>,
    pub(crate) quantity_trunc: Option<MassUnitRequest>,
    /// Account-unique key (1–100 characters).
    #[schema(nullable = false)]
    pub(crate) idempotency_key: Option<String>,
    /// String key-value pairs kept with the order.
    #[schema(nullable = false)]
    pub(crate) metadata: Option<BTreeMap<String, String>>,
}

/// The contract's `CreateOrderByValueRequest`.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
pub struct ValueOrderRequest {
    /// The most to spend, in the account's currency.
    pub(crate) value: String,
    pub(crate) bundle_selection: Option<Vec<SelectionRequest>>,
    pub(crate) quantity_trunc: Option<MassUnitRequest>,
    /// Account-unique key (1–100 characters).
    #[schema(nullable = false)]
    pub(crate) idempotency_key: Option<String>,
    /// String key-value pairs kept with the order.
    #[schema(nullable = false)]
    pub(crate) metadata: Option<BTreeMap<String, String>>,
}

/// The contract's `CreateOrderByEstimateRequest`.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
pub struct EstimateOrderRequest {
    /// The estimate whose mass to buy (an estimate of the caller's account).
    pub(crate) estimate_id: String,
    /// Account-unique key (1–100 characters).
    #[schema(nullable = false)]
    pub(crate) idempotency_key: Option<String>,
    pub(crate) bundle_selection: Option<Vec<SelectionRequest>>,
    /// String key-value pairs kept with the order.
    #[schema(nullable = false)]
    pub(crate) metadata: Option<BTreeMap<String, String>>,
    pub(crate) quantity_trunc: Option<MassUnitRequest>,
}

/// The filter of the order list.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OrderListQuery {
    /// only orders placed through this offset link
    pub(crate) offset_link_id: Option<String>,
}
