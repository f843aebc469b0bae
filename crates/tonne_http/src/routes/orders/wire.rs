//! The wire types of `orders`: what its requests and answers hold.

use std::collections::BTreeMap;

use serde::Deserialize;
use utoipa::{IntoParams, IntoResponses, ToSchema};

use crate::wire::{
    BundleMassRequest, ErrorsResponse, MassRequest, MassUnitRequest, SelectionRequest,
};

/// Declares the body of an order by mass or by value: its own fields, then
/// the two both end with, `idempotency_key` and `metadata`.
macro_rules! order_request {
    ($(#[doc = $doc:tt])* $name:ident { $($fields:tt)* }) => {
        $(#[doc = $doc])*
        #[tonne_http_macros::request]
        #[derive(Debug, Deserialize, ToSchema)]
        pub struct $name {
            $($fields)*
            /// Account-unique key (1–100 characters).
            #[schema(nullable = false)]
            pub(crate) idempotency_key: Option<String>,
            /// String key-value pairs kept with the order.
            #[schema(nullable = false)]
            pub(crate) metadata: Option<BTreeMap<String, String>>,
        }
    };
}

order_request! {
    /// The contract's `CreateOrderByQuantityRequest`.
    MassOrderRequest {
        pub(crate) mass: Option<MassRequest>,
        pub(crate) bundle_selection: Option<Vec<SelectionRequest>>,
        pub(crate) bundle_masses: Option<Vec<BundleMassRequest>>,
        pub(crate) quantity_trunc: Option<MassUnitRequest>,
    }
}

order_request! {
    /// The contract's `CreateOrderByValueRequest`.
    ValueOrderRequest {
        /// The most to spend, in the account's currency.
        pub(crate) value: String,
        pub(crate) bundle_selection: Option<Vec<SelectionRequest>>,
        pub(crate) quantity_trunc: Option<MassUnitRequest>,
    }
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

/// 400 and 409 of placing an order by mass or by value.
#[derive(IntoResponses)]
pub enum PlaceErrors {
    /// Invalid request
    #[response(status = 400)]
    Invalid(ErrorsResponse),
    /// The idempotency key was used already (order_idempotency_already_exists)
    #[response(status = 409)]
    KeyUsed(ErrorsResponse),
}
