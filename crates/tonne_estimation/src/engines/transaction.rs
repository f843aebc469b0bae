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

use std::collections::HashMap;
use std::sync::OnceLock;

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::diet::Diet;
use crate::errors::EstimateError;
use crate::exiobase::{self, Conversion, Intensity};
use crate::grid;
use crate::units::{Spend, kg_to_mass};

const TABLE: &str = include_str!("../../data/mcc_factors.csv");

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

fn categories() -> &'static HashMap<String, Category> {
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

/// Search words for common purchases (Tonne's own list) → MCC.
const KEYWORDS: &[(&str, &str)] = &[
    ("groceries", "5411"),
    ("supermarket", "5411"),
    ("bananas", "5411"),
    ("fruit", "5411"),
    ("vegetables", "5411"),
    ("food", "5411"),
    ("meat", "5422"),
    ("butcher", "5422"),
    ("candy", "5441"),
    ("sweets", "5441"),
    ("milk", "5451"),
    ("dairy", "5451"),
    ("cheese", "5451"),
    ("bread", "5462"),
    ("bakery", "5462"),
    ("restaurant", "5812"),
    ("dinner", "5812"),
    ("lunch", "5812"),
    ("coffee", "5814"),
    ("fast food", "5814"),
    ("burger", "5814"),
    ("bar", "5813"),
    ("pub", "5813"),
    ("beer", "5813"),
    ("flight", "4511"),
    ("airline", "4511"),
    ("plane ticket", "4511"),
    ("hotel", "7011"),
    ("motel", "7011"),
    ("taxi", "4121"),
    ("ride share", "4121"),
    ("train", "4112"),
    ("rail", "4112"),
    ("bus", "4131"),
    ("metro", "4111"),
    ("petrol", "5541"),
    ("gasoline", "5541"),
    ("fuel", "5541"),
    ("diesel", "5541"),
    ("car rental", "7512"),
    ("parking", "7523"),
    ("car repair", "7538"),
    ("clothes", "5651"),
    ("clothing", "5651"),
    ("shoes", "5661"),
    ("fashion", "5651"),
    ("electronics", "5732"),
    ("laptop", "5732"),
    ("phone", "5732"),
    ("television", "5732"),
    ("computer", "5045"),
    ("software", "5734"),
    ("furniture", "5712"),
    ("sofa", "5712"),
    ("appliance", "5722"),
    ("books", "5942"),
    ("stationery", "5943"),
    ("jewellery", "5944"),
    ("jewelry", "5944"),
    ("toys", "5945"),
    ("flowers", "5992"),
    ("tobacco", "5993"),
    ("pet food", "5995"),
    ("cosmetics", "5977"),
    ("pharmacy", "5912"),
    ("medicine", "5912"),
    ("doctor", "8011"),
    ("dentist", "8021"),
    ("hospital", "8062"),
    ("cinema", "7832"),
    ("movie", "7832"),
    ("theatre", "7922"),
    ("gym", "7997"),
    ("fitness", "7997"),
    ("streaming", "5815"),
    ("music", "5735"),
    ("internet", "4816"),
    ("mobile plan", "4814"),
    ("telephone", "4814"),
    ("insurance", "6300"),
    ("hardware store", "5200"),
    ("diy", "5200"),
    ("laundry", "7210"),
    ("hairdresser", "7230"),
    ("school", "8211"),
    ("university", "8220"),
    ("lawyer", "8111"),
    ("accountant", "8931"),
    ("utilities", "4900"),
    ("postage", "9402"),
    ("cruise", "4411"),
    ("travel agency", "4722"),
    ("charity", "8398"),
];

pub(crate) fn trigrams(s: &str) -> Vec<[char; 3]> {
    let padded: Vec<char> = format!("  {} ", s.to_lowercase()).chars().collect();
    let mut out: Vec<[char; 3]> = padded
        .windows(3)
        .filter_map(|w| Some([*w.first()?, *w.get(1)?, *w.get(2)?]))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

pub(crate) fn similarity(a: &[[char; 3]], b: &[[char; 3]]) -> Decimal {
    let common = a.iter().filter(|t| b.binary_search(t).is_ok()).count();
    let union = a.len() + b.len() - common;
    if union == 0 {
        return Decimal::ZERO;
    }
    Decimal::from(common) / Decimal::from(union)
}

/// A searchable text, its MCC and its trigrams.
pub(crate) type Searchable = (String, String, Vec<[char; 3]>);

/// Every searchable text (keywords, then MCC descriptions), computed once.
pub(crate) fn search_index() -> &'static [Searchable] {
    static INDEX: OnceLock<Vec<Searchable>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut index: Vec<Searchable> = KEYWORDS
            .iter()
            .map(|(word, code)| ((*word).to_owned(), (*code).to_owned(), trigrams(word)))
            .collect();
        let mut listed: Vec<&Category> = categories()
            .values()
            .filter(|c| c.group != Group::MoneyMovement)
            .collect();
        listed.sort_by(|a, b| a.code.cmp(&b.code));
        index.extend(listed.into_iter().map(|c| {
            (
                c.description.clone(),
                c.code.clone(),
                trigrams(&c.description),
            )
        }));
        index
    })
}

/// Matches a free-text term to a category: the keyword or MCC description with
/// the highest trigram similarity (at least 0.3; the first best wins, keywords
/// before descriptions). Returns the matched text.
pub fn search(term: &str) -> Option<(&'static Category, String)> {
    if term.trim().is_empty() {
        return None;
    }
    let t = trigrams(term.trim());
    let mut best: Option<(Decimal, &'static str, &'static str)> = None;
    for (text, code, grams) in search_index() {
        let score = similarity(&t, grams);
        if best.as_ref().is_none_or(|(s, _, _)| score > *s) {
            best = Some((score, text.as_str(), code.as_str()));
        }
    }
    let (score, text, code) = best?;
    if score < Decimal::new(3, 1) {
        return None;
    }
    category(code).map(|c| (c, text.to_owned()))
}

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
mod tests {
    use super::*;
    use tonne_kernel::Currency;

    fn request(value: &str, currency: Currency, merchant: Merchant) -> TransactionRequest {
        TransactionRequest {
            value: Spend::parse("value.value", value, currency).unwrap(),
            country_code: "GBR".into(),
            merchant,
            diet: None,
            processed_year: Some(2019),
        }
    }

    fn grams(o: TransactionOutcome) -> i64 {
        match o {
            TransactionOutcome::Estimate { mass, .. } => mass.grams(),
            TransactionOutcome::MoneyMovement => -1,
        }
    }

    #[test]
    fn table_is_complete() {
        assert_eq!(categories().len(), 981);
        assert_eq!(category("5411").map(|c| c.group), Some(Group::Food));
        assert_eq!(
            category("6011").map(|c| c.group),
            Some(Group::MoneyMovement)
        );
        assert_eq!(category("0742").map(|c| c.naics.as_str()), Some("541940"));
    }

    #[test]
    fn reproduces_exiobase_by_hand_with_currency_deflation_and_diet() {
        // 100 EUR at a British hotel in 2019: 100 / 1 EUR per EUR × 93.6 / 107.8
        // (OECD CPI GB 2011 / 2019) × 0.10080635 kg/EUR (EXIOBASE 3.4, COICOP
        // 11.2 accommodation services, GB) = 8.7528 kg
        let e = estimate(&request(
            "100",
            Currency::Eur,
            Merchant::CategoryCode("7011".into()),
        ))
        .unwrap();
        assert_eq!(grams(e), 8_753);
        // groceries for a vegan in Britain: 50 / 1.392 USD per EUR × 93.6 /
        // 107.8 × 0.59837098 kg/EUR (COICOP 01, GB) × (2.89 / 5.63) = 9.5796 kg
        let mut r = request("50", Currency::Usd, Merchant::CategoryCode("5411".into()));
        r.diet = Some(Diet::Vegan);
        let vegan = grams(estimate(&r).unwrap());
        r.diet = Some(Diet::HighMeatEater);
        let high = grams(estimate(&r).unwrap());
        assert_eq!(vegan, 9_580);
        assert!(high > vegan);
    }

    #[test]
    fn money_movement_unknown_codes_and_search() {
        assert_eq!(
            estimate(&request(
                "10",
                Currency::Gbp,
                Merchant::CategoryCode("4829".into())
            )),
            Ok(TransactionOutcome::MoneyMovement)
        );
        assert!(
            estimate(&request(
                "10",
                Currency::Gbp,
                Merchant::CategoryCode("0001".into())
            ))
            .is_err()
        );
        let e = estimate(&request(
            "10",
            Currency::Gbp,
            Merchant::SearchTerm("Bananas".into()),
        ))
        .unwrap();
        assert!(
            matches!(e, TransactionOutcome::Estimate { search_term_match: Some(ref m), .. } if m == "bananas"),
            "{e:?}"
        );
        assert!(
            estimate(&request(
                "10",
                Currency::Gbp,
                Merchant::SearchTerm("xq".into())
            ))
            .is_err()
        );
        let mut bad = request("10", Currency::Gbp, Merchant::CategoryCode("5411".into()));
        bad.country_code = "XXX".into();
        assert!(matches!(
            estimate(&bad),
            Err(EstimateError::UnknownCountry { .. })
        ));
    }

    #[test]
    fn monotonic_in_spend_and_zero_is_zero() {
        let at = |v: &str| {
            grams(
                estimate(&request(
                    v,
                    Currency::Sek,
                    Merchant::CategoryCode("5732".into()),
                ))
                .unwrap(),
            )
        };
        assert_eq!(at("0"), 0);
        let mut last = 0;
        for v in 0..100 {
            let g = at(&format!("{}.5", v * 37));
            assert!(g >= last);
            last = g;
        }
    }
}
