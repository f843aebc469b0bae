//! Emission factors: each one carries its value, its source (publication,
//! table/row, year) and its unit, so an estimate can always say what it used.

use rust_decimal::Decimal;

pub mod authored;
#[rustfmt::skip]
pub mod desnz_2025;

/// One emission factor (or conversion constant) with its provenance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Factor {
    /// Tonne's stable name of the factor, e.g. `FLIGHT_LONG_HAUL_ECONOMY`
    /// (empty for ad-hoc constants such as the identity rate).
    pub id: &'static str,
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
        Self::named("", mantissa, scale, source, unit)
    }

    /// [`Factor::new`] with Tonne's stable name for it.
    pub const fn named(
        id: &'static str,
        mantissa: i64,
        scale: u32,
        source: &'static str,
        unit: &'static str,
    ) -> Self {
        Self {
            id,
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

    /// The year of the data: the first four-digit year (19xx or 20xx) its source names.
    ///
    /// ```
    /// use tonne_estimation::factors::desnz_2025::RAIL_NATIONAL;
    /// assert_eq!(RAIL_NATIONAL.year(), Some(2025));
    /// assert_eq!(RAIL_NATIONAL.row(), Some("25_315_3147_11_1: Business travel- land / Rail / National rail"));
    /// ```
    pub fn year(&self) -> Option<u16> {
        let bytes = self.source.as_bytes();
        let alnum = |i: Option<usize>| {
            i.and_then(|i| bytes.get(i))
                .is_some_and(u8::is_ascii_alphanumeric)
        };
        bytes
            .windows(4)
            .enumerate()
            .find(|(i, w)| {
                w.iter().all(u8::is_ascii_digit)
                    && (w.starts_with(b"19") || w.starts_with(b"20"))
                    && !alnum(i.checked_sub(1))
                    && !alnum(Some(i + 4))
            })
            .and_then(|(_, w)| std::str::from_utf8(w).ok()?.parse().ok())
    }

    /// The table row of a factor from a published table (DESNZ: its id and
    /// category path); `None` for figures Tonne states itself.
    pub fn row(&self) -> Option<&'static str> {
        self.source.strip_prefix("DESNZ 2025 ")
    }

    /// The publication: the source without its row.
    pub fn publication(&self) -> &'static str {
        match self.row() {
            Some(_) => {
                "UK Government GHG Conversion Factors for Company Reporting 2025 (DESNZ), OGL v3.0"
            }
            None => self.source,
        }
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
