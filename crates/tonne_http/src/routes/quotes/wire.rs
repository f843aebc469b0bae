//! The wire types of `quotes`: what its requests and answers hold.

use serde::Deserialize;
use utoipa::ToSchema;

use crate::wire::{MassUnitRequest, SelectionRequest};

/// The contract's `OrderQuoteByValueRequest`.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
pub struct ValueQuoteRequest {
    /// The most to spend, in the account's currency.
    pub(crate) value: String,
    pub(crate) bundle_selection: Option<Vec<SelectionRequest>>,
    pub(crate) quantity_trunc: Option<MassUnitRequest>,
}
