//! Electricity: `mass = consumption (kWh) × grid intensity (gCO2e/kWh)` of the
//! country (ISO 3166-1 alpha-3), or of the world average without a country.

use rust_decimal::{Decimal, RoundingStrategy};
use tonne_kernel::Mass;

use crate::errors::EstimateError;
use crate::grid::{self, GridFactor};

/// The contract's energy units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnergyUnit {
    /// Kilowatt-hour.
    KWh,
    /// Megawatt-hour (1,000 kWh).
    MWh,
    /// Gigawatt-hour (1,000,000 kWh).
    GWh,
}

impl EnergyUnit {
    fn kwh(self) -> Decimal {
        match self {
            EnergyUnit::KWh => Decimal::ONE,
            EnergyUnit::MWh => Decimal::from(1_000),
            EnergyUnit::GWh => Decimal::from(1_000_000),
        }
    }
}

/// An amount of electricity, held in kWh.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Energy {
    kwh: Decimal,
}

impl Energy {
    /// Parses the contract's `^[0-9]+(\.[0-9]+)?$` amount in a unit (at most 1 TWh).
    pub fn parse(amount: &str, unit: EnergyUnit) -> Result<Self, EstimateError> {
        let bad = |reason: &str| EstimateError::invalid("consumption.amount", reason);
        let (whole, fraction) = tonne_kernel::split_plain_decimal(amount)
            .ok_or_else(|| bad("must be a non-negative decimal string such as \"12.5\""))?;
        if whole.len() > 12 || fraction.len() > 12 {
            return Err(bad("is out of range"));
        }
        let value: Decimal = amount.parse().map_err(|_| bad("is out of range"))?;
        let kwh = value
            .checked_mul(unit.kwh())
            .ok_or_else(|| bad("is out of range"))?;
        if kwh > Decimal::from(1_000_000_000_i64) {
            return Err(bad("must be at most 1 TWh"));
        }
        Ok(Self { kwh })
    }

    /// The amount in kWh.
    pub fn kwh(&self) -> Decimal {
        self.kwh
    }
}

/// An electricity estimate and the factor behind it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ElectricityEstimate {
    /// CO2e, rounded half away from zero to the gram.
    pub mass: Mass,
    /// The grid intensity used.
    pub factor: GridFactor,
}

/// Estimates the emissions of `consumption` on the grid of `country_code`
/// (world average when `None`). A malformed code is `Invalid`; a well-formed
/// one missing from the table is `UnknownCountry` — never a silent fallback.
pub fn estimate(
    consumption: Energy,
    country_code: Option<&str>,
) -> Result<ElectricityEstimate, EstimateError> {
    let factor = match country_code {
        None => grid::world().ok_or_else(|| EstimateError::UnknownCountry {
            field: "country_code".into(),
            code: "WORLD".into(),
        })?,
        Some(code) => grid::check_country("country_code", code)?,
    };
    let grams = consumption
        .kwh
        .checked_mul(factor.g_co2e_per_kwh)
        .map(|g| g.round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero))
        .and_then(|g| i64::try_from(g).ok())
        .ok_or_else(|| EstimateError::invalid("consumption.amount", "is out of range"))?;
    Ok(ElectricityEstimate {
        mass: Mass::from_grams(grams),
        factor,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kwh(amount: &str) -> Energy {
        Energy::parse(amount, EnergyUnit::KWh).unwrap()
    }

    #[test]
    fn reproduces_the_factor_times_activity_by_hand() {
        // 2,500 kWh in Germany × 342.06 g/kWh (Ember 2024) = 855,150 g = 0.85515 t
        let e = estimate(kwh("2500"), Some("DEU")).unwrap();
        assert_eq!(e.mass.grams(), 855_150);
        // the world average without a country: 1 kWh × 472.94 g = 473 g (rounded to the gram)
        assert_eq!(estimate(kwh("1"), None).unwrap().mass.grams(), 473);
    }

    #[test]
    fn units_agree_and_zero_gives_zero() {
        let a = estimate(Energy::parse("1.5", EnergyUnit::GWh).unwrap(), Some("FRA")).unwrap();
        let b = estimate(Energy::parse("1500", EnergyUnit::MWh).unwrap(), Some("FRA")).unwrap();
        let c = estimate(kwh("1500000"), Some("FRA")).unwrap();
        assert_eq!((a.mass, b.mass), (c.mass, c.mass));
        assert_eq!(estimate(kwh("0"), Some("FRA")).unwrap().mass.grams(), 0);
    }

    #[test]
    fn mass_is_monotonic_in_consumption() {
        let mut last = 0;
        for step in 0..200 {
            let g = estimate(kwh(&format!("{}.{}", step * 7, step % 10)), Some("POL"))
                .unwrap()
                .mass
                .grams();
            assert!(g >= last, "{step}");
            last = g;
        }
    }

    #[test]
    fn bad_codes_and_amounts_are_named() {
        assert_eq!(
            estimate(kwh("1"), Some("XXX")),
            Err(EstimateError::UnknownCountry {
                field: "country_code".into(),
                code: "XXX".into()
            })
        );
        for bad in ["gbr", "GB", "GBRR", ""] {
            assert!(
                matches!(
                    estimate(kwh("1"), Some(bad)),
                    Err(EstimateError::Invalid { ref field, .. }) if field == "country_code"
                ),
                "{bad}"
            );
        }
        for bad in ["-1", "1e3", ".5", "5.", "abc", "2000000000"] {
            assert!(Energy::parse(bad, EnergyUnit::KWh).is_err(), "{bad}");
        }
        assert!(
            Energy::parse("1001", EnergyUnit::GWh).is_err(),
            "above 1 TWh"
        );
    }
}
