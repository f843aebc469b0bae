//! `PATCH …/annotations`: what a client attaches to an estimate, changed
//! without recomputing it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Declares annotations bodies: each its own fields (whether the estimate is
/// of an actual shipment or transaction, and when it happened), then the two
/// they end with, `metadata` and `idempotency_key`.
macro_rules! annotations_requests {
    ($($(#[doc = $doc:tt])* $name:ident { $($fields:tt)* })*) => {$(
        $(#[doc = $doc])*
        #[tonne_http_macros::request]
        #[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
        pub struct $name {
            $($fields)*
            /// Replaces the metadata as a whole.
            #[serde(skip_serializing_if = "Option::is_none")]
            pub metadata: Option<BTreeMap<String, String>>,
            /// A new account-unique key.
            #[serde(skip_serializing_if = "Option::is_none")]
            pub idempotency_key: Option<String>,
        }
    )*};
}

annotations_requests! {
    /// The contract's `UpdateShippingEstimateAnnotationsRequest` (single and
    /// multi-leg): at least one field; each field absent is unchanged.
    UpdateShippingEstimateAnnotationsRequest {
        /// Whether this is an actual shipment.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub is_shipment: Option<bool>,
        /// When the goods were shipped, RFC 3339.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub shipped_at: Option<String>,
    }

    /// The contract's `UpdateTransactionEstimateAnnotationsRequest`: each field
    /// absent is unchanged.
    UpdateTransactionEstimateAnnotationsRequest {
        /// Whether this is an actual transaction.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub is_transaction: Option<bool>,
        /// When the transaction was processed, RFC 3339.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub transaction_processed_at: Option<String>,
    }
}

/// Client 3.9.2's `UpdatePassengerTransportationEstimateAnnotationsRequest`:
/// each field absent is unchanged.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
pub struct UpdatePassengerTransportationEstimateAnnotationsRequest {
    /// Whether this is an actual journey.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_passenger_transportation: Option<bool>,
    /// When the journey was made, RFC 3339.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passenger_transportation_travelled_at: Option<String>,
}
