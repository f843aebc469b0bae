//! Card transactions.

use serde::{Deserialize, Serialize};
use tonne_estimation::diet::Diet;
use tonne_estimation::transaction::{Merchant, TransactionRequest};
use utoipa::ToSchema;

use super::{DietRequest, MoneyRequest};
use crate::error::ApiError;

/// The contract's `Merchant`: a country and exactly one of a category code or a search term.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = MerchantBody)]
#[serde(deny_unknown_fields)]
pub struct MerchantRequest {
    /// Merchant name.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub name: Option<String>,
    /// ISO alpha-3.
    pub country_code: String,
    /// ISO 18245 MCC (4 digits).
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub category_code: Option<String>,
    /// Free text matched to a category.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub fuzzy_search_term: Option<String>,
}

estimate_request! {
/// The contract's `TransactionEstimateRequest`.
pub struct TransactionEstimateRequest as TransactionRequestBody {
    /// Value excluding shipping and taxes.
    pub value: MoneyRequest,
    pub merchant: MerchantRequest,
    /// The buyer's diet.
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub diet: Option<DietRequest>,
}
}

impl TransactionEstimateRequest {
    /// Engine input.
    pub fn parse(&self) -> Result<TransactionRequest, ApiError> {
        let m = &self.merchant;
        let merchant = match (&m.category_code, &m.fuzzy_search_term) {
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
                        "merchant.fuzzy_search_term",
                        "must be 1 to 200 characters",
                    ));
                }
                Merchant::SearchTerm(term.clone())
            }
            _ => {
                return Err(ApiError::validation(
                    "merchant",
                    "send exactly one of category_code and fuzzy_search_term",
                ));
            }
        };
        Ok(TransactionRequest {
            value: self.value.parse("value")?,
            country_code: m.country_code.clone(),
            merchant,
            diet: self.diet.map(Diet::from),
        })
    }
}
