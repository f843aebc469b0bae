//! Lune Pay's wire types: the contract's `Payment` and the origins extension.

use serde::{Deserialize, Serialize};
use tonne_wire::OrderResponse;
use utoipa::ToSchema;

/// The contract's `Payment` (an `OrderPayment`): the order Lune Pay placed.
#[derive(Debug, Serialize, ToSchema)]
pub struct PaymentResponse {
    /// Always `order`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The order, by quantity.
    pub order: OrderResponse,
}

/// The origins an account's `/pay` page may send buyers back to.
#[derive(Debug, Serialize, ToSchema)]
pub struct PayOriginsResponse {
    /// `https://host[:port]` each, sorted.
    pub origins: Vec<String>,
}

/// The account's new list of allowed origins (replaces the old one).
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
pub struct PayOriginsRequest {
    /// At most 20, each `https://host[:port]` (`http://` only to localhost).
    #[schema(max_items = 20, inline, value_type = Vec<String>, pattern = r"^(https://([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\.)*[A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?|http://(localhost|127\.0\.0\.1))(:(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?/?$")]
    pub origins: Vec<String>,
}
