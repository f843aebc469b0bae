//! Emission factors: each one carries its value, its source (publication,
//! table/row, year) and its unit, so an estimate can always say what it used.

use rust_decimal::Decimal;

pub mod authored;
#[rustfmt::skip]
pub mod desnz_2025;

/// One emission factor (or conversion constant) with its provenance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Factor {
    mantissa: i64,
    scale: u32,
    /// Publication, year and row, e.g. `DESNZ 2025 21_316_3170_11_1: Business travel- air / …`.
    pub source: &'static str,
    /// Unit of the value, e.g. `kg CO2e/passenger.km`.
    pub unit: &'static str,
}

impl Factor {
    /// A factor of `mantissa × 10^-scale` (scale at most 20).
    pub const fn new(mantissa: i64, scale: u32, source: &'static str, unit: &'static str) -> Self {
        Self {
            mantissa,
            scale,
            source,
            unit,
        }
    }

    /// The value.
    pub fn value(&self) -> Decimal {
        Decimal::new(self.mantissa, self.scale.min(20))
    }
}

#[cfg(test)]
mod tests {
    use super::desnz_2025::*;
    use super::*;

    #[test]
    fn desnz_values_are_the_published_ones() {
        // spot checks against the DESNZ 2025 flat file
        assert_eq!(FLIGHT_LONG_HAUL_ECONOMY.value(), Decimal::new(11704, 5));
        assert_eq!(RAIL_NATIONAL.value(), Decimal::new(3546, 5));
        assert_eq!(NATURAL_GAS_M3.value(), Decimal::new(206672, 5));
        assert_eq!(HGV_ALL.value(), Decimal::new(10163, 5));
        assert!(FLIGHT_LONG_HAUL_FIRST.source.contains("21_316_3176_11_1"));
        assert_eq!(FREIGHT_TRAIN.unit, "kg CO2e/tonne.km");
    }
}
