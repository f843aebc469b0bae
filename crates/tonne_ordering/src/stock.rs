//! The stock ledger: every change an operator makes to a bundle's available
//! quantity is a row — who, when, how much, why, and what was left after.
//! Available quantity never goes below zero; an unlimited bundle has no stock
//! to change.
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
use tonne_kernel::{Actor, Mass, MassUnit};

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

/// Why a stock form was refused, by field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct StockFieldError {
    pub field: &'static str,
    pub reason: String,
}

impl StockChange {
    /// A change from a direction (`add` or `remove`) and a quantity in tonnes
    /// (at most six decimals: grams).
    pub fn parse(direction: &str, tonnes: &str) -> Result<Self, StockFieldError> {
        let refuse = |field, reason: &str| StockFieldError {
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
    pub fn parse(text: &str) -> Result<Self, StockFieldError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(StockFieldError {
                field: "reason",
                reason: "say why the stock changes".into(),
            });
        }
        if text.chars().count() > REASON_MAX {
            return Err(StockFieldError {
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
    Invalid(#[from] StockFieldError),
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
