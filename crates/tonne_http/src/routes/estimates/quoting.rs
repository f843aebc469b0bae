//! The quote half of an estimate's answer: the use case's quote (or why there
//! is none) as the contract's `quote` field.

use tonne_ordering::{Quote, QuoteError};
use tonne_quoted::QuotedEstimate;

use crate::error::ApiError;
use crate::routes::estimates::responses::{
    AnyEstimateResponse, EstimateQuoteResponse, RenderOptions, render,
};
use crate::wire::quote_body;

/// The contract's `quote`: `OrderQuoteByQuantity`, or the `Errors` object of
/// terms that cannot be priced (the estimate itself still succeeds).
pub fn quote_response(quote: Result<Quote, QuoteError>) -> EstimateQuoteResponse {
    match quote {
        Ok(q) => EstimateQuoteResponse::Quote(Box::new(quote_body(&q))),
        Err(e) => EstimateQuoteResponse::Errors(ApiError::from(e).body_json()),
    }
}

/// An estimate answered with its quote; `None` for money movement.
pub fn answer(quoted: QuotedEstimate) -> Result<Option<AnyEstimateResponse>, ApiError> {
    answer_with(quoted, RenderOptions::default())
}

/// [`answer`], rendered as `options` say (e.g. in `estimate_mass_unit`).
pub fn answer_with(
    quoted: QuotedEstimate,
    options: RenderOptions,
) -> Result<Option<AnyEstimateResponse>, ApiError> {
    match quoted.quote {
        None => Ok(None),
        Some(quote) => render(&quoted.estimate, quote_response(quote), options),
    }
}
