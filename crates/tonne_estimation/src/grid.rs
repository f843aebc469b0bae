//! Electricity grid carbon intensities by country (ISO 3166-1 alpha-3, and
//! the world average), grams CO2e per kWh, with their source.

use std::collections::HashMap;
use std::sync::OnceLock;

use rust_decimal::Decimal;

/// Where the grid factors come from (shown in `docs/methodology.md`).
pub const GRID_SOURCE: &str =
    "Ember yearly electricity data via @tgwf/co2 0.19.0 (CC BY-SA 4.0), lifecycle gCO2e/kWh";

const TABLE: &str = include_str!("../data/grid_intensity.csv");

/// A grid carbon intensity: grams CO2e per kWh, for the year it was measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GridFactor {
    /// gCO2e per kWh (lifecycle).
    pub g_co2e_per_kwh: Decimal,
    /// The data year.
    pub year: u16,
}

fn table() -> &'static HashMap<String, GridFactor> {
    static PARSED: OnceLock<HashMap<String, GridFactor>> = OnceLock::new();
    PARSED.get_or_init(|| {
        TABLE
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("code,"))
            .filter_map(|l| {
                let mut cols = l.split(',');
                let code = cols.next()?.to_owned();
                let year = cols.next()?.parse().ok()?;
                let g_co2e_per_kwh = cols.next()?.parse().ok()?;
                Some((
                    code,
                    GridFactor {
                        g_co2e_per_kwh,
                        year,
                    },
                ))
            })
            .collect()
    })
}

/// The factor for an ISO 3166-1 alpha-3 code, if the table has it.
pub(crate) fn country(code: &str) -> Option<GridFactor> {
    table().get(code).copied()
}

/// Every row: ISO alpha-3 code (or `WORLD`) and its factor.
pub(crate) fn all() -> impl Iterator<Item = (&'static str, GridFactor)> {
    table().iter().map(|(code, f)| (code.as_str(), *f))
}

/// The world average.
pub(crate) fn world() -> Option<GridFactor> {
    table().get("WORLD").copied()
}

/// Checks an ISO 3166-1 alpha-3 code: malformed → `Invalid`, unknown → `UnknownCountry`.
pub(crate) fn check_country(
    field: &str,
    code: &str,
) -> Result<GridFactor, crate::errors::EstimateError> {
    if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(crate::errors::EstimateError::invalid(
            field,
            "must be an ISO 3166-1 alpha-3 code such as \"GBR\"",
        ));
    }
    country(code).ok_or_else(|| crate::errors::EstimateError::UnknownCountry {
        field: field.to_owned(),
        code: code.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_complete_and_plausible() {
        assert!(table().len() >= 200, "{}", table().len());
        for (code, f) in table() {
            assert!(
                f.g_co2e_per_kwh >= Decimal::ZERO && f.g_co2e_per_kwh < Decimal::from(1500),
                "{code}"
            );
            assert!((2015..=2030).contains(&f.year), "{code}");
        }
        assert_eq!(
            country("FRA").map(|f| f.g_co2e_per_kwh),
            Some(Decimal::new(4418, 2))
        );
        assert_eq!(world().map(|f| f.year), Some(2024));
    }
}
