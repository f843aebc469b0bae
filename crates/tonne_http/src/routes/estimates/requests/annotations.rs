//! `PATCH …/annotations`: what a client attaches to an estimate, changed
//! without recomputing it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The contract's `UpdateShippingEstimateAnnotationsRequest` (single and
/// multi-leg): at least one field; each field absent is unchanged.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
pub struct UpdateShippingEstimateAnnotationsRequest {
    /// Whether this is an actual shipment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_shipment: Option<bool>,
    /// When the goods were shipped, RFC 3339.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shipped_at: Option<String>,
    /// Replaces the metadata as a whole.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<BTreeMap<String, String>>,
    /// A new account-unique key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}

/// The contract's `UpdateTransactionEstimateAnnotationsRequest`: each field
/// absent is unchanged.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
pub struct UpdateTransactionEstimateAnnotationsRequest {
    /// Whether this is an actual transaction.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_transaction: Option<bool>,
    /// When the transaction was processed, RFC 3339.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transaction_processed_at: Option<String>,
    /// Replaces the metadata as a whole.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<BTreeMap<String, String>>,
    /// A new account-unique key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
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
