//! The merchant category table (`data/mcc_factors.csv`): each ISO 18245
//! code's group, its USEEIO factor and NAICS code, and its description.

use std::collections::HashMap;
use std::sync::OnceLock;

use rust_decimal::Decimal;

const TABLE: &str = include_str!("../../../data/mcc_factors.csv");

/// How a category is treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// Goods or services with a USEEIO factor.
    Goods,
    /// Food: the factor is adjusted by the buyer's diet.
    Food,
    /// Money movement: no estimate.
    MoneyMovement,
    /// A listed MCC Tonne has not mapped: the median USEEIO factor.
    Unmapped,
}

/// One merchant category.
#[derive(Debug, Clone, PartialEq)]
pub struct Category {
    /// The 4-digit MCC.
    pub code: String,
    pub group: Group,
    /// NAICS-2017 code of the factor ("" without one).
    pub naics: String,
    /// kg CO2e per 2022 USD.
    pub kg_per_usd: Decimal,
    /// The NAICS title of the factor ("" without one).
    pub naics_title: String,
    /// The MCC's description.
    pub description: String,
}

pub(super) fn categories() -> &'static HashMap<String, Category> {
    static MAP: OnceLock<HashMap<String, Category>> = OnceLock::new();
    MAP.get_or_init(|| {
        TABLE
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| {
                let cols: Vec<&str> = l.splitn(6, ',').collect();
                let group = match *cols.get(1)? {
                    "goods" => Group::Goods,
                    "food" => Group::Food,
                    "none" => Group::MoneyMovement,
                    _ => Group::Unmapped,
                };
                let c = Category {
                    code: (*cols.first()?).to_owned(),
                    group,
                    naics: (*cols.get(2)?).to_owned(),
                    kg_per_usd: cols.get(3)?.parse().ok()?,
                    naics_title: (*cols.get(4)?).to_owned(),
                    description: (*cols.get(5)?).to_owned(),
                };
                Some((c.code.clone(), c))
            })
            .collect()
    })
}

/// The category of an MCC, if it is a listed ISO 18245 code.
pub fn category(code: &str) -> Option<&'static Category> {
    categories().get(code)
}

/// The USEEIO factor (kg CO2e per 2022 USD) of a NAICS code the MCC table uses
/// (an index built once, not a scan per call).
pub(crate) fn category_by_naics(naics: &str) -> Option<Decimal> {
    static BY_NAICS: OnceLock<HashMap<String, Decimal>> = OnceLock::new();
    BY_NAICS
        .get_or_init(|| {
            categories()
                .values()
                .filter(|c| !c.naics.is_empty())
                .map(|c| (c.naics.clone(), c.kg_per_usd))
                .collect()
        })
        .get(naics)
        .copied()
}

/// Every NAICS code the MCC table uses, once, with its title and factor
/// (kg CO2e per 2022 USD), sorted by code.
pub(crate) fn naics_factors() -> Vec<(String, String, Decimal)> {
    let mut seen: Vec<(String, String, Decimal)> = categories()
        .values()
        .filter(|c| !c.naics.is_empty())
        .map(|c| (c.naics.clone(), c.naics_title.clone(), c.kg_per_usd))
        .collect();
    seen.sort_by(|a, b| a.0.cmp(&b.0));
    seen.dedup_by(|a, b| a.0 == b.0);
    seen
}

/// The factor of listed-but-unmapped categories: the median USEEIO v1.3.0 factor.
pub(crate) fn unmapped_factor() -> Decimal {
    categories()
        .values()
        .find(|c| c.group == Group::Unmapped)
        .map_or(Decimal::ZERO, |c| c.kg_per_usd)
}
