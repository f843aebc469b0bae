//! The operator's side of bundles. The stock ledger: every change an operator
//! makes to a bundle's available quantity is a row — who, when, how much, why,
//! and what was left after. Available quantity never goes below zero; an
//! unlimited bundle has no stock to change. And [`BundleEdit`]: a bundle's
//! description and its price in each currency it is sold in.
//!
//! ```
//! use tonne_kernel::{Mass, MassUnit};
//! use tonne_ordering::{StockChange, StockReason};
//!
//! let add = StockChange::parse("add", "12.5").unwrap();
//! assert_eq!(add.delta_grams(), 12_500_000);
//! assert_eq!(StockChange::parse("remove", "1").unwrap().delta_grams(), -1_000_000);
//! assert!(StockChange::parse("remove", "0").is_err());
//! assert!(StockReason::parse("   ").is_err());
//! ```

use time::OffsetDateTime;
use tonne_kernel::{Actor, AmountError, Currency, Mass, MassUnit, Money};

use crate::catalogue::BundleId;

tonne_kernel::define_id!(
    /// Identifies one stock ledger row (time-ordered).
    StockEntryId
);

/// Longest reason kept.
pub const REASON_MAX: usize = 500;

/// Which way a change goes, and by how much (never zero).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StockChange {
    /// Credits bought in (or found): more to sell.
    Add(Mass),
    /// Credits taken out of sale (sold elsewhere, withdrawn).
    Remove(Mass),
}

/// Why an operator's form was refused, by field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct FieldError {
    pub field: &'static str,
    pub reason: String,
}

impl StockChange {
    /// A change from a direction (`add` or `remove`) and a quantity in tonnes
    /// (at most six decimals: grams).
    pub fn parse(direction: &str, tonnes: &str) -> Result<Self, FieldError> {
        let refuse = |field, reason: &str| FieldError {
            field,
            reason: reason.to_owned(),
        };
        let mass = Mass::parse(tonnes.trim(), MassUnit::T).map_err(|_| {
            refuse(
                "quantity",
                "a positive number of tonnes, with at most six decimals",
            )
        })?;
        if mass.grams() <= 0 {
            return Err(refuse("quantity", "more than zero tonnes"));
        }
        match direction {
            "add" => Ok(Self::Add(mass)),
            "remove" => Ok(Self::Remove(mass)),
            _ => Err(refuse("direction", "add or remove")),
        }
    }

    /// The signed change in grams.
    pub fn delta_grams(self) -> i64 {
        match self {
            Self::Add(m) => m.grams(),
            Self::Remove(m) => -m.grams(),
        }
    }
}

/// Why stock changed: required, at most [`REASON_MAX`] characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StockReason(String);

impl StockReason {
    /// A reason, trimmed; blank or too long is refused.
    pub fn parse(text: &str) -> Result<Self, FieldError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(FieldError {
                field: "reason",
                reason: "say why the stock changes".into(),
            });
        }
        if text.chars().count() > REASON_MAX {
            return Err(FieldError {
                field: "reason",
                reason: format!("at most {REASON_MAX} characters"),
            });
        }
        Ok(Self(text.to_owned()))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Longest description kept.
pub const DESCRIPTION_MAX: usize = 2000;

/// A bundle's editable text and prices, validated.
///
/// ```
/// use tonne_kernel::Currency;
/// use tonne_ordering::BundleEdit;
///
/// let edit = BundleEdit::parse("  Trees. ", &[(Currency::Gbp, "12.50")]).unwrap();
/// assert_eq!(edit.description.as_deref(), Some("Trees."));
/// assert_eq!(edit.prices[0].minor(), 1250);
/// assert_eq!(BundleEdit::parse("", &[(Currency::Gbp, "0")]).unwrap_err().field, "price GBP");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleEdit {
    /// `None` clears it.
    pub description: Option<String>,
    /// A positive price per tonne in each currency given.
    pub prices: Vec<Money>,
}

impl BundleEdit {
    /// Trims the description (blank clears it) and parses each price.
    pub fn parse(description: &str, prices: &[(Currency, &str)]) -> Result<Self, FieldError> {
        let description = description.trim();
        if description.chars().count() > DESCRIPTION_MAX {
            return Err(FieldError {
                field: "description",
                reason: format!("at most {DESCRIPTION_MAX} characters"),
            });
        }
        let prices = prices
            .iter()
            .map(|(currency, raw)| {
                Money::parse_positive(raw.trim(), *currency).map_err(|e| FieldError {
                    field: price_field(*currency),
                    reason: match e {
                        AmountError::TooPrecise => format!(
                            "at most {} decimals in {}",
                            currency.minor_digits(),
                            currency.code()
                        ),
                        AmountError::NotPositive => "more than zero".to_owned(),
                        _ => "a price per tonne, such as 12.50".to_owned(),
                    },
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            description: (!description.is_empty()).then(|| description.to_owned()),
            prices,
        })
    }
}

/// The form field of a currency's price (`price GBP`).
pub fn price_field(currency: Currency) -> &'static str {
    match currency {
        Currency::Gbp => "price GBP",
        Currency::Eur => "price EUR",
        Currency::Usd => "price USD",
        Currency::Sek => "price SEK",
        Currency::Chf => "price CHF",
        Currency::Pln => "price PLN",
        Currency::Dkk => "price DKK",
        Currency::Nok => "price NOK",
    }
}

/// Why a bundle edit was refused.
#[derive(Debug, thiserror::Error)]
pub enum BundleEditError {
    /// No such bundle.
    #[error("no such bundle")]
    NotFound,
    /// A field is invalid (a price in a currency the bundle is not sold in, too).
    #[error(transparent)]
    Invalid(#[from] FieldError),
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// One row of the ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StockEntry {
    pub id: StockEntryId,
    pub bundle_id: BundleId,
    pub at: OffsetDateTime,
    pub actor: Actor,
    /// Signed change in grams.
    pub delta_grams: i64,
    pub reason: String,
    /// Available quantity right after the change.
    pub available_after: Mass,
}

/// Why a stock change was refused.
#[derive(Debug, thiserror::Error)]
pub enum StockError {
    /// No such bundle.
    #[error("no such bundle")]
    NotFound,
    /// The bundle is unlimited: it has no stock to change.
    #[error("this bundle is unlimited: it has no stock to change")]
    Unlimited,
    /// Removing this much would take the available quantity below zero.
    #[error("only {available} t are available: no more can be removed")]
    Insufficient { available: String },
    /// A field of the request is invalid.
    #[error(transparent)]
    Invalid(#[from] FieldError),
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantities_are_positive_tonnes_to_the_gram() {
        assert_eq!(
            StockChange::parse("add", "0.000001").unwrap().delta_grams(),
            1
        );
        for bad in ["", "-1", "abc", "0.0000001", "0"] {
            assert_eq!(
                StockChange::parse("add", bad).unwrap_err().field,
                "quantity",
                "{bad:?}"
            );
        }
        assert_eq!(
            StockChange::parse("steal", "1").unwrap_err().field,
            "direction"
        );
    }

    #[test]
    fn a_reason_is_required_and_bounded() {
        assert_eq!(
            StockReason::parse("  bought 100 t  ").unwrap().as_str(),
            "bought 100 t"
        );
        assert!(StockReason::parse(&"x".repeat(REASON_MAX)).is_ok());
        assert!(StockReason::parse(&"x".repeat(REASON_MAX + 1)).is_err());
    }
}
