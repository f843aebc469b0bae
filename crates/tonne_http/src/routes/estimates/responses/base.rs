//! The base of every estimate answer (the contract's
//! `EmissionEstimateResponse`) and the quote it carries.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;
use utoipa::ToSchema;

use super::amounts::AnyMassResponse;
use super::explanation::ExplanationResponse;
use crate::wire::QuoteResponse;

/// The quote of an estimate: `OrderQuoteByQuantity`, or the `Errors` of a
/// selection that cannot be quoted (the estimate itself still succeeds).
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum EstimateQuoteResponse {
    /// The quote.
    Quote(Box<QuoteResponse>),
    /// Why there is none.
    Errors(Value),
}

/// The contract's `EmissionEstimateResponse` (the base of every kind's answer).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = EstimateDoc)]
pub struct EstimateResponse {
    /// 32-character id.
    pub(super) id: String,
    /// CO2e, in tonnes unless `estimate_mass_unit` says otherwise.
    pub(super) mass: AnyMassResponse,
    /// `OrderQuoteByQuantity`, or `Errors` when quoting failed.
    #[schema(value_type = Object)]
    pub(super) quote: EstimateQuoteResponse,
    /// The request as accepted.
    #[schema(value_type = Object)]
    pub(super) request: Box<RawValue>,
    /// Tonne's extension: how the mass was obtained (see docs/API.md).
    pub(super) explanation: ExplanationResponse,
    /// The `metadata` sent with the request (absent when none).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub(super) metadata: BTreeMap<String, String>,
    /// The `idempotency_key` sent with the request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) idempotency_key: Option<String>,
}
