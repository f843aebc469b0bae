//! The transaction answer (the contract's `TransactionEmissionEstimate`).

use serde::Serialize;
use serde_json::Value;
use time::format_description::well_known::Rfc3339;
use tonne_estimation::estimate::Estimate;
use utoipa::ToSchema;

use super::base::EstimateResponse;
use super::factor::{EmissionFactorResponse, diet_factor, emission_factor};

/// The contract's `TransactionEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TransactionEstimateDoc)]
pub struct TransactionEstimateResponse {
    #[serde(flatten)]
    base: EstimateResponse,
    /// The text whose factor was used: what a search term matched, else the
    /// merchant category's description (omitted only for estimates stored
    /// before Tonne kept their explanation).
    #[serde(skip_serializing_if = "Option::is_none")]
    search_term_match: Option<String>,
    /// Tonne's matching is by trigrams, not semantic: `null`.
    #[schema(value_type = Option<f64>)]
    search_term_match_score: Option<()>,
    /// `null` (no embedding model).
    #[schema(value_type = Option<String>)]
    semantic_matching_model: Option<()>,
    /// The spend factor; `null` for estimates stored before Tonne kept it.
    emission_factor: Option<EmissionFactorResponse>,
    /// The buyer's diet over a medium meat-eater's, on food purchases.
    diet_factor: Option<String>,
    /// Units of the factor's currency per unit of the spend's: euros per
    /// unit at the 2011 rate (EXIOBASE factors), or 2022 USD per unit
    /// (estimates stored when Tonne used USEEIO).
    exchange_rate: Option<String>,
    /// The start of the year the rate averages (2011-01-01, or 2022-01-01
    /// for USEEIO estimates).
    exchange_rate_date: Option<&'static str>,
    /// As sent, else `null`.
    #[schema(value_type = Option<bool>)]
    is_transaction: Value,
    /// As sent, else `null`.
    #[schema(value_type = Option<String>)]
    transaction_processed_at: Value,
    /// Tonne has no estimate pages: `null`.
    #[schema(value_type = Option<String>)]
    external_estimate_url: Option<()>,
}

pub(super) fn transaction_response(
    base: EstimateResponse,
    e: &Estimate,
    search_term_match: Option<&String>,
) -> TransactionEstimateResponse {
    let facts = e.explanation.transaction_facts();
    // the merchant category of the factor's row ("MCC 5411 Grocery…")
    let category = facts
        .as_ref()
        .and_then(|f| f.merchant_category())
        .map(|c| c.description.clone());
    TransactionEstimateResponse {
        base,
        search_term_match: search_term_match.cloned().or(category),
        search_term_match_score: None,
        semantic_matching_model: None,
        emission_factor: facts.as_ref().map(|f| emission_factor(f.emission_factor)),
        diet_factor: diet_factor(facts.as_ref()),
        exchange_rate: facts.as_ref().map(|f| f.exchange_rate.to_string()),
        exchange_rate_date: facts.as_ref().map(|f| f.exchange_rate_date),
        is_transaction: e.annotations.actual.map_or(Value::Null, Value::Bool),
        transaction_processed_at: e
            .annotations
            .occurred_at
            .and_then(|t| t.format(&Rfc3339).ok())
            .map_or(Value::Null, Value::String),
        external_estimate_url: None,
    }
}
