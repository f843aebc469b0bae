//! Card transactions.

use serde::{Deserialize, Serialize};
use tonne_estimation::diet::Diet;
use tonne_estimation::transaction::{Merchant, TransactionRequest};
use utoipa::ToSchema;

use super::fields::timestamp;
use super::{DietRequest, MoneyRequest};
use crate::error::ApiError;

/// The contract's `Merchant`: a country and exactly one of a category code or a search term.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = MerchantBody)]
pub struct MerchantRequest {
    /// Merchant name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// ISO alpha-3.
    pub country_code: String,
    /// ISO 18245 MCC (4 digits).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category_code: Option<String>,
    /// Free text matched to a category (the 2023 name of `search_term`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fuzzy_search_term: Option<String>,
    /// Free text matched to a category (2024).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search_term: Option<String>,
    /// A category the transaction belongs to, in the client's words (2024;
    /// kept with the request, the match uses the search term or code).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
}

/// The contract's `RegionFallback`.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum RegionFallbackRequest {
    /// Only factors of the merchant's country (Tonne's transaction factors are
    /// one national table, so both values select the same factor).
    Never,
    /// Factors of related areas may be used.
    Always,
}

estimate_request! {
/// The contract's `TransactionEstimateRequest`.
pub struct TransactionEstimateRequest as TransactionRequestBody {
    /// Value excluding shipping and taxes.
    pub value: MoneyRequest,
    pub merchant: MerchantRequest,
    /// The buyer's diet.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diet: Option<DietRequest>,
    /// Whether this is an actual transaction (2024; an annotation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_transaction: Option<bool>,
    /// When the transaction was processed, RFC 3339 (2024; an annotation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transaction_processed_at: Option<String>,
    /// How geographical constraints are interpreted (2024).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region_fallback: Option<RegionFallbackRequest>,
    /// The client account of the caller's organisation this estimate is made
    /// on behalf of (client 3.9.2's `EstimateClientAccountRequest`; found by
    /// handle or idempotency key, created if none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_account: Option<super::EstimateClientAccountRequest>,
}
}

impl TransactionEstimateRequest {
    /// Engine input.
    pub fn parse(&self) -> Result<TransactionRequest, ApiError> {
        let m = &self.merchant;
        let processed_year = match &self.transaction_processed_at {
            Some(at) => u16::try_from(timestamp("transaction_processed_at", at)?.year()).ok(),
            None => None,
        };
        // `search_term` (2024) and `fuzzy_search_term` (2023) are one field
        let (term, term_field) = match (&m.search_term, &m.fuzzy_search_term) {
            (Some(_), Some(_)) => {
                return Err(ApiError::validation(
                    "merchant",
                    "send search_term or its older name fuzzy_search_term, not both",
                ));
            }
            (Some(t), None) => (Some(t), "merchant.search_term"),
            (None, t) => (t.as_ref(), "merchant.fuzzy_search_term"),
        };
        let merchant = match (&m.category_code, term) {
            (Some(code), None) => {
                if code.len() != 4 || !code.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(ApiError::validation(
                        "merchant.category_code",
                        "must be a 4-digit ISO 18245 code (leading zeros kept)",
                    ));
                }
                Merchant::CategoryCode(code.clone())
            }
            (None, Some(term)) => {
                if term.trim().is_empty() || term.chars().count() > 200 {
                    return Err(ApiError::validation(
                        term_field,
                        "must be 1 to 200 characters",
                    ));
                }
                Merchant::SearchTerm(term.clone())
            }
            _ => {
                return Err(ApiError::validation(
                    "merchant",
                    "send exactly one of category_code and search_term (or fuzzy_search_term)",
                ));
            }
        };
        Ok(TransactionRequest {
            value: self.value.parse("value")?,
            country_code: m.country_code.clone(),
            merchant,
            diet: self.diet.map(Diet::from),
            processed_year,
        })
    }
}
