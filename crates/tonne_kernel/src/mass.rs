//! [`Mass`]: an exact mass in grams, parsed from and rendered in the API's units.

use std::fmt;

use rust_decimal::Decimal;

/// The contract's `MassUnit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MassUnit {
    G,
    Kg,
    /// Tonne (1,000 kg).
    T,
}

impl MassUnit {
    /// Grams in one unit.
    pub fn grams(self) -> i64 {
        match self {
            MassUnit::G => 1,
            MassUnit::Kg => 1_000,
            MassUnit::T => 1_000_000,
        }
    }

    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            MassUnit::G => "g",
            MassUnit::Kg => "kg",
            MassUnit::T => "t",
        }
    }

    /// Parses the wire spelling.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "g" => Some(MassUnit::G),
            "kg" => Some(MassUnit::Kg),
            "t" => Some(MassUnit::T),
            _ => None,
        }
    }
}

/// Why an amount is not a mass.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MassError {
    /// Not a plain non-negative decimal (`^[0-9]+(\.[0-9]+)?$`).
    #[error("must be a non-negative decimal string such as \"12.5\"")]
    NotADecimal,
    /// Finer than a gram.
    #[error("must not be more precise than a gram")]
    TooPrecise,
    /// Larger than Tonne can store.
    #[error("is too large")]
    TooLarge,
}

/// A mass of CO2e, held in whole grams (the finest unit Tonne stores or sells).
///
/// ```
/// use tonne_kernel::{Mass, MassUnit};
/// let m = Mass::parse("1.5", MassUnit::T).unwrap();
/// assert_eq!(m.grams(), 1_500_000);
/// assert_eq!(m.to_tonnes_string(), "1.5");
/// assert_eq!(Mass::parse("2500", MassUnit::G).unwrap().to_tonnes_string(), "0.0025");
/// assert!(Mass::parse("0.0001", MassUnit::Kg).is_err()); // 0.1 g
/// assert!(Mass::parse("-1", MassUnit::T).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Mass {
    grams: i64,
}

impl Mass {
    pub const ZERO: Mass = Mass { grams: 0 };

    /// A mass of whole grams (negative values are clamped to zero).
    pub fn from_grams(grams: i64) -> Self {
        Self {
            grams: grams.max(0),
        }
    }

    /// Parses a wire amount in a unit.
    pub fn parse(amount: &str, unit: MassUnit) -> Result<Self, MassError> {
        let (whole, fraction) = crate::split_plain_decimal(amount).ok_or(MassError::NotADecimal)?;
        if whole.len() > 20 || fraction.len() > 20 {
            return Err(if whole.len() > 20 {
                MassError::TooLarge
            } else {
                MassError::TooPrecise
            });
        }
        let value: Decimal = amount.parse().map_err(|_| MassError::TooLarge)?;
        let grams = value
            .checked_mul(Decimal::from(unit.grams()))
            .ok_or(MassError::TooLarge)?;
        if grams.fract() != Decimal::ZERO {
            return Err(MassError::TooPrecise);
        }
        let grams = i64::try_from(grams).map_err(|_| MassError::TooLarge)?;
        // Keep every stored mass within 10^15 g so that sums and prices cannot overflow.
        if grams > 1_000_000_000_000_000 {
            return Err(MassError::TooLarge);
        }
        Ok(Self { grams })
    }

    /// Whole grams.
    pub fn grams(&self) -> i64 {
        self.grams
    }

    /// The mass in tonnes, exactly.
    pub fn tonnes(&self) -> Decimal {
        Decimal::new(self.grams, 6)
    }

    /// The wire form in tonnes, without trailing zeros: `"1.5"`, `"0.0025"`, `"12"`.
    pub fn to_tonnes_string(&self) -> String {
        self.tonnes().normalize().to_string()
    }

    /// Truncated down to a whole number of `unit`.
    pub fn truncate_to(&self, unit: MassUnit) -> Mass {
        Mass {
            grams: self.grams - self.grams % unit.grams(),
        }
    }
}

impl fmt::Display for Mass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} t", self.to_tonnes_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_agree() {
        let t = Mass::parse("1", MassUnit::T).unwrap();
        assert_eq!(Mass::parse("1000", MassUnit::Kg).unwrap(), t);
        assert_eq!(Mass::parse("1000000", MassUnit::G).unwrap(), t);
        assert_eq!(Mass::parse("1.000", MassUnit::T).unwrap(), t);
    }

    #[test]
    fn refuses_what_is_not_a_plain_decimal_or_finer_than_a_gram() {
        for bad in ["", ".5", "5.", "1e3", "+1", " 1", "1,5", "NaN", "0x10"] {
            assert_eq!(
                Mass::parse(bad, MassUnit::T),
                Err(MassError::NotADecimal),
                "{bad}"
            );
        }
        assert_eq!(
            Mass::parse("0.00000000000000000001", MassUnit::T),
            Err(MassError::TooPrecise)
        );
        assert_eq!(
            Mass::parse("0.0000001", MassUnit::T),
            Err(MassError::TooPrecise)
        );
        assert_eq!(
            Mass::parse("99999999999999999999", MassUnit::T),
            Err(MassError::TooLarge)
        );
        assert_eq!(
            Mass::parse("0.000001", MassUnit::T).map(|m| m.grams()),
            Ok(1)
        );
    }

    #[test]
    fn truncation_and_rendering() {
        let m = Mass::parse("1.234567", MassUnit::T).unwrap();
        assert_eq!(m.truncate_to(MassUnit::Kg).to_tonnes_string(), "1.234");
        assert_eq!(m.truncate_to(MassUnit::T).to_tonnes_string(), "1");
        assert_eq!(Mass::ZERO.to_tonnes_string(), "0");
    }
}
