//! Card transactions (spend-based), the EXIOBASE way:
//! `mass = value in euros of 2011 × intensity(COICOP category, region) × diet`.
//!
//! The merchant category code (ISO 18245) maps to a COICOP 2018 category
//! through Tonne's table (`data/mcc_coicop.csv`, a reason on every row); a
//! search term matches a category code first. The intensity is EXIOBASE 3.4's
//! for the merchant's country, or its rest-of-world region (see
//! [`crate::exiobase`]); the value converts to euros at the 2011 rate and
//! deflates to 2011 prices with the country's consumer price index, as the
//! upstream method does. Money movement (wire transfers, cash, tax
//! payments…) has no footprint: the answer is "none".
//!
//! The USEEIO (US EPA, NAICS) factors each MCC maps to stay in the factor
//! catalogue and the company footprint; a transaction does not use them.

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::diet::Diet;
use crate::errors::EstimateError;
use crate::exiobase::{self, Conversion, Intensity};
use crate::grid;
use crate::units::{Spend, kg_to_mass};

mod search;
mod table;

pub use search::search;
pub(crate) use search::{search_index, similarity, trigrams};
pub use table::{Category, Group, category};
pub(crate) use table::{category_by_naics, naics_factors, unmapped_factor};

/// How the merchant is identified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Merchant {
    /// An ISO 18245 code (leading zeros kept).
    CategoryCode(String),
    /// Free text matched to a category.
    SearchTerm(String),
}

/// A transaction request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransactionRequest {
    /// Value excluding shipping and taxes.
    pub value: Spend,
    /// Merchant country (ISO alpha-3).
    pub country_code: String,
    /// Merchant category.
    pub merchant: Merchant,
    /// The buyer's diet (adjusts food purchases).
    pub diet: Option<Diet>,
    /// The year the transaction was processed (deflates the value to 2011
    /// prices); `None` for now.
    pub processed_year: Option<u16>,
}

/// The result of a transaction estimate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TransactionOutcome {
    /// An estimate.
    Estimate {
        /// CO2e.
        mass: Mass,
        /// The text the search term matched, for search-term requests.
        search_term_match: Option<String>,
    },
    /// Money movement: nothing to estimate (the contract's 204 / `{}`).
    MoneyMovement,
}

/// Estimates a transaction.
///
/// ```
/// use rust_decimal::Decimal;
/// use tonne_kernel::Currency;
/// use tonne_estimation::transaction::{self, Merchant, TransactionOutcome, TransactionRequest};
/// use tonne_estimation::Spend;
///
/// let e = transaction::estimate(&TransactionRequest {
///     value: Spend::parse("value.value", "100", Currency::Usd).unwrap(),
///     country_code: "USA".into(),
///     merchant: Merchant::CategoryCode("5812".into()),
///     diet: None,
///     processed_year: Some(2019),
/// }).unwrap();
/// // 100 USD at a US restaurant: 100 / 1.392 USD per EUR (2011) × 94.9 / 107.9
/// // (US CPI 2011 / 2019) = 63.18 EUR of 2011 × 0.06123 kg/EUR (EXIOBASE 3.4,
/// // COICOP 11.1 food and beverage serving services, US) = 3.869 kg
/// assert_eq!(e, TransactionOutcome::Estimate { mass: tonne_kernel::Mass::from_grams(3_869), search_term_match: None });
/// ```
pub fn estimate(request: &TransactionRequest) -> Result<TransactionOutcome, EstimateError> {
    estimate_traced(request).map(|(outcome, _)| outcome)
}

/// What a transaction estimate multiplied: the merchant category, its COICOP
/// category and Tonne's reason for it, the EXIOBASE region of the merchant,
/// the intensity used (the region's, or the category's mean where the
/// region has none), the conversion to euros of 2011 and the diet ratio (1
/// unless a food purchase with a diet).
#[derive(Debug, Clone, Copy)]
pub(crate) struct TransactionTrace {
    pub category: &'static Category,
    pub coicop_reason: &'static str,
    pub region: &'static str,
    pub intensity: &'static Intensity,
    pub conversion: Conversion,
    pub diet_ratio: Decimal,
}

/// [`estimate`] with what it multiplied (`None` for money movement).
pub(crate) fn estimate_traced(
    request: &TransactionRequest,
) -> Result<(TransactionOutcome, Option<TransactionTrace>), EstimateError> {
    grid::check_country("merchant.country_code", &request.country_code)?;
    let (category, matched) = match &request.merchant {
        Merchant::CategoryCode(code) => (
            category(code).ok_or_else(|| {
                EstimateError::invalid(
                    "merchant.category_code",
                    "is not an ISO 18245 merchant category code",
                )
            })?,
            None,
        ),
        Merchant::SearchTerm(term) => {
            let (c, text) = search(term).ok_or_else(|| {
                EstimateError::invalid(
                    "merchant.search_term (or fuzzy_search_term)",
                    "matches no merchant category; send a category_code",
                )
            })?;
            (c, Some(text))
        }
    };
    if category.group == Group::MoneyMovement {
        return Ok((TransactionOutcome::MoneyMovement, None));
    }
    let Some((coicop, coicop_reason)) = exiobase::coicop_of_mcc(&category.code) else {
        return Err(EstimateError::invalid(
            "merchant.category_code",
            "has no spend category in Tonne's table",
        ));
    };
    let region = exiobase::region_of(&request.country_code).unwrap_or(exiobase::MEAN);
    let intensity = exiobase::intensity(coicop, region)
        .or_else(|| exiobase::intensity(coicop, exiobase::MEAN))
        .ok_or_else(|| {
            EstimateError::invalid("merchant.category_code", "has no EXIOBASE intensity")
        })?;
    let alpha2 = exiobase::alpha2_of(&request.country_code).unwrap_or("");
    let conversion = exiobase::to_eur_2011(
        request.value.amount,
        request.value.currency.code(),
        alpha2,
        request.processed_year,
    )?;
    let diet = match (category.group, request.diet) {
        (Group::Food, Some(d)) => d.relative_to_medium(),
        _ => Decimal::ONE,
    };
    let kg = conversion.eur_2011 * intensity.kg_per_eur_2011 * diet;
    Ok((
        TransactionOutcome::Estimate {
            mass: kg_to_mass("value.value", kg)?,
            search_term_match: matched,
        },
        Some(TransactionTrace {
            category,
            coicop_reason,
            region,
            intensity,
            conversion,
            diet_ratio: diet,
        }),
    ))
}

#[cfg(test)]
mod tests;
