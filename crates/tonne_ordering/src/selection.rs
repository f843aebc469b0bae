//! A request's `bundle_selection`: percentages as the contract sends them,
//! checked and turned into shares in hundredths summing to 10,000.

use crate::catalogue::BundleId;
use crate::errors::QuoteError;

/// A selection percentage in hundredths of a percent (0–10000), from the
/// contract's integer (`43`) or two-decimal string (`"43.21"`).
///
/// ```
/// use tonne_ordering::Percentage;
/// assert_eq!(Percentage::from_integer(43).unwrap().hundredths(), 4300);
/// assert_eq!(Percentage::parse("43.21").unwrap().hundredths(), 4321);
/// assert_eq!(Percentage::parse("7.5").unwrap().hundredths(), 750);
/// assert!(Percentage::parse("43.211").is_err());
/// assert!(Percentage::parse("-1").is_err());
/// assert!(Percentage::from_integer(101).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Percentage(u32);

impl Percentage {
    /// From a whole percentage.
    pub fn from_integer(value: i64) -> Result<Self, QuoteError> {
        u32::try_from(value)
            .ok()
            .filter(|v| *v <= 100)
            .map(|v| Self(v * 100))
            .ok_or_else(|| {
                QuoteError::RatiosFormat(format!(
                    "bundle_selection: percentage {value} is not between 0 and 100"
                ))
            })
    }

    /// From the contract's string form `^[0-9]+(\.\d{1,2})?$`.
    pub fn parse(value: &str) -> Result<Self, QuoteError> {
        let bad = || {
            QuoteError::RatiosFormat(format!(
                "bundle_selection: percentage `{value}` must be a number from 0 to 100 with at most two decimals"
            ))
        };
        let (whole, fraction) = tonne_kernel::split_plain_decimal(value).ok_or_else(bad)?;
        if whole.len() > 3 || fraction.len() > 2 {
            return Err(bad());
        }
        let whole: u32 = whole.parse().map_err(|_| bad())?;
        let mut cents: u32 = if fraction.is_empty() {
            0
        } else {
            fraction.parse().map_err(|_| bad())?
        };
        if fraction.len() == 1 {
            cents *= 10;
        }
        let total = whole * 100 + cents;
        if total > 10_000 {
            return Err(bad());
        }
        Ok(Self(total))
    }

    /// A percentage of `hundredths` hundredths (at most 10,000 = 100 %).
    pub fn from_hundredths(hundredths: u32) -> Result<Self, QuoteError> {
        if hundredths > 10_000 {
            return Err(QuoteError::RatiosFormat(format!(
                "bundle_selection: percentage {} is above 100",
                rust_decimal::Decimal::new(i64::from(hundredths), 2)
            )));
        }
        Ok(Self(hundredths))
    }

    /// Hundredths of a percent.
    pub fn hundredths(self) -> u32 {
        self.0
    }
}

/// One entry of a request's `bundle_selection`, as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectionEntry {
    /// The bundle id as sent (validated against the catalogue).
    pub bundle_id: String,
    /// Its percentage, if given.
    pub percentage: Option<Percentage>,
}

/// Most entries a selection may have.
pub const MAX_SELECTION: usize = 50;

/// Checks a selection's shape and turns it into shares in hundredths summing to 10,000:
/// percentages for all bundles or none (then split equally, best effort), summing to
/// exactly 100, each bundle once.
pub(crate) fn shares(entries: &[SelectionEntry]) -> Result<Vec<(BundleId, u32)>, QuoteError> {
    if entries.is_empty() {
        return Err(QuoteError::RatiosInvalid(
            "bundle_selection: must name at least one bundle".into(),
        ));
    }
    if entries.len() > MAX_SELECTION {
        return Err(QuoteError::Invalid {
            field: "bundle_selection",
            reason: format!("at most {MAX_SELECTION} bundles"),
        });
    }
    let mut ids: Vec<BundleId> = Vec::with_capacity(entries.len());
    for entry in entries {
        let id: BundleId = entry.bundle_id.parse().map_err(|_| {
            QuoteError::BundleInvalid(format!(
                "bundle_selection: `{}` is not a bundle id",
                entry.bundle_id
            ))
        })?;
        if ids.contains(&id) {
            return Err(QuoteError::BundleInvalid(format!(
                "bundle_selection: bundle {id} appears twice"
            )));
        }
        ids.push(id);
    }
    let given = entries.iter().filter(|e| e.percentage.is_some()).count();
    let hundredths: Vec<u32> = if given == 0 {
        let parts = crate::allocation::split(10_000, &vec![1; entries.len()]);
        parts
            .into_iter()
            .map(|p| u32::try_from(p).unwrap_or(0))
            .collect()
    } else if given == entries.len() {
        let values: Vec<u32> = entries
            .iter()
            .filter_map(|e| e.percentage.map(Percentage::hundredths))
            .collect();
        let sum: u32 = values.iter().sum();
        if sum != 10_000 {
            let shown = rust_decimal::Decimal::new(i64::from(sum), 2);
            return Err(QuoteError::RatiosInvalid(format!(
                "bundle_selection: percentages sum to {shown}, not 100"
            )));
        }
        values
    } else {
        return Err(QuoteError::RatiosFormat(
            "bundle_selection: give a percentage for every bundle or for none".into(),
        ));
    };
    Ok(ids.into_iter().zip(hundredths).collect())
}
