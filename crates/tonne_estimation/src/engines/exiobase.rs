//! Spend-based intensities from EXIOBASE 3.4 by COICOP category and region,
//! and the upstream method's conversion of a purchase to euros at 2011 prices.
//!
//! The intensities (kg CO2e per euro at 2011 basic prices) are Tomorrow's
//! reduction of EXIOBASE 3.4 to ~60 household consumption categories × 49
//! regions (`data/exiobase34_coicop.csv`, CC BY-SA 4.0, a separate data
//! file). A purchase is converted to euros at the 2011 annual rate (Eurostat),
//! then deflated to 2011 prices with the consumer price index of the
//! merchant's country (OECD; the average index where the country has none;
//! the closest year the index covers, 2011–2019), exactly as upstream does.
//! A country outside the 44 EXIOBASE countries takes its rest-of-world
//! region's intensity (`data/exiobase_regions.csv`).
//!
//! Every table is parsed once, on first use; each lookup is then one hash.
//!
//! ```
//! use rust_decimal::Decimal;
//! use tonne_estimation::exiobase;
//!
//! // a US grocery purchase: food and non-alcoholic beverages, United States
//! let food = exiobase::intensity("01", "US").unwrap();
//! assert_eq!(food.kg_per_eur_2011.round_dp(3), Decimal::new(1536, 3));
//! // Kenya is not an EXIOBASE country: rest of Africa
//! assert_eq!(exiobase::region_of("KEN"), Some("WF"));
//! // 100 USD spent in 2019 in the US, in euros of 2011:
//! // 100 / 1.392 USD per EUR × CPI 2011 / CPI 2019 (94.9 / 107.9)
//! let c = exiobase::to_eur_2011(Decimal::from(100), "USD", "US", Some(2019)).unwrap();
//! assert_eq!(c.eur_2011.round_dp(4), Decimal::new(631838, 4));
//! ```

use std::collections::HashMap;
use std::sync::OnceLock;

use rust_decimal::Decimal;

use crate::errors::EstimateError;

const INTENSITIES: &str = include_str!("../../data/exiobase34_coicop.csv");
const REGIONS: &str = include_str!("../../data/exiobase_regions.csv");
const CPI: &str = include_str!("../../data/cpi_oecd_2011_2019.csv");
const RATES: &str = include_str!("../../data/eur_rates_2011.csv");
const MCC_COICOP: &str = include_str!("../../data/mcc_coicop.csv");

/// The citation of the intensities.
pub const SOURCE: &str = "EXIOBASE 3.4 (Stadler et al. 2018), 2011 product-by-product tables, by COICOP category via Tomorrow's bloom-contrib; CC BY-SA 4.0";

/// The year of the intensities' prices (and of the exchange rates).
pub const PRICE_YEAR: u16 = 2011;

/// The region code of an unweighted mean over a category's regions (used
/// where the category has no figure for the merchant's region).
pub const MEAN: &str = "mean";

/// One intensity: a COICOP category in one EXIOBASE region.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Intensity {
    /// COICOP 2018 code, e.g. `01.1.2`.
    pub coicop: &'static str,
    /// The category's name.
    pub name: &'static str,
    /// EXIOBASE region: ISO alpha-2, a rest-of-world region (`WA`, `WE`,
    /// `WF`, `WL`, `WM`) or [`MEAN`].
    pub region: &'static str,
    /// kg CO2e per euro at 2011 basic prices.
    pub kg_per_eur_2011: Decimal,
}

impl Intensity {
    /// The id engines give this intensity in explanations.
    pub fn engine_id(&self) -> String {
        format!("exiobase:{}:{}", self.coicop, self.region)
    }
}

struct Tables {
    all: Vec<Intensity>,
    by_key: HashMap<(&'static str, &'static str), usize>,
    /// ISO alpha-3 → (alpha-2, EXIOBASE region).
    regions: HashMap<&'static str, (&'static str, &'static str)>,
    /// An EXIOBASE country's ISO alpha-2 → its alpha-3.
    alpha3: HashMap<&'static str, &'static str>,
    cpi: HashMap<(&'static str, u16), Decimal>,
    rates: HashMap<&'static str, Decimal>,
    mcc: HashMap<u16, (&'static str, &'static str)>,
}

fn data_lines(text: &'static str) -> impl Iterator<Item = &'static str> {
    // comments, then the header row
    text.lines().filter(|l| !l.starts_with('#')).skip(1)
}

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let mut all: Vec<Intensity> = data_lines(INTENSITIES)
            .filter_map(|l| {
                let (coicop, rest) = l.split_once(',')?;
                let mut tail = rest.rsplitn(3, ',');
                let kg = tail.next()?;
                let kg = kg
                    .parse::<Decimal>()
                    .or_else(|_| Decimal::from_scientific(kg))
                    .ok()?;
                let region = tail.next()?;
                let name = tail.next()?.trim_matches('"');
                Some(Intensity {
                    coicop,
                    name,
                    region,
                    kg_per_eur_2011: kg.normalize(),
                })
            })
            .collect();
        // each category's unweighted mean over its regions (upstream's figure
        // for a purchase without a country)
        let mut sums: Vec<(&'static str, &'static str, Decimal, u32)> = Vec::new();
        for i in &all {
            match sums.iter_mut().find(|s| s.0 == i.coicop) {
                Some(s) => {
                    s.2 += i.kg_per_eur_2011;
                    s.3 += 1;
                }
                None => sums.push((i.coicop, i.name, i.kg_per_eur_2011, 1)),
            }
        }
        all.extend(sums.into_iter().map(|(coicop, name, sum, n)| Intensity {
            coicop,
            name,
            region: MEAN,
            kg_per_eur_2011: (sum / Decimal::from(n)).round_dp(12).normalize(),
        }));
        let by_key = all
            .iter()
            .enumerate()
            .map(|(n, i)| ((i.coicop, i.region), n))
            .collect();
        let regions: HashMap<&'static str, (&'static str, &'static str)> = data_lines(REGIONS)
            .filter_map(|l| {
                let mut c = l.split(',');
                Some((c.next()?, (c.next()?, c.next()?)))
            })
            .collect();
        let alpha3 = regions
            .iter()
            .filter(|(_, (a2, region))| a2 == region)
            .map(|(a3, (a2, _))| (*a2, *a3))
            .collect();
        let cpi = data_lines(CPI)
            .filter_map(|l| {
                let mut c = l.split(',');
                let country = c.next()?;
                let year = c.next()?.parse().ok()?;
                Some(((country, year), c.next()?.parse().ok()?))
            })
            .collect();
        let rates = data_lines(RATES)
            .filter_map(|l| {
                let (cur, rate) = l.split_once(',')?;
                Some((cur, rate.parse().ok()?))
            })
            .collect();
        let mut mcc = HashMap::new();
        for l in data_lines(MCC_COICOP) {
            let mut c = l.splitn(4, ',');
            let (Some(first), Some(last), Some(coicop), Some(reason)) =
                (c.next(), c.next(), c.next(), c.next())
            else {
                continue;
            };
            let (Ok(first), Ok(last)) = (first.parse::<u16>(), last.parse::<u16>()) else {
                continue;
            };
            for code in first..=last {
                mcc.insert(code, (coicop, reason));
            }
        }
        Tables {
            all,
            by_key,
            regions,
            alpha3,
            cpi,
            rates,
            mcc,
        }
    })
}

/// Every intensity, each category's [`MEAN`] included, in file order.
pub fn all() -> &'static [Intensity] {
    &tables().all
}

/// The intensity of a category in a region (an EXIOBASE region code or
/// [`MEAN`]).
pub fn intensity(coicop: &str, region: &str) -> Option<&'static Intensity> {
    let t = tables();
    t.by_key.get(&(coicop, region)).and_then(|&n| t.all.get(n))
}

/// The EXIOBASE region of a country (ISO alpha-3).
pub fn region_of(alpha3: &str) -> Option<&'static str> {
    tables().regions.get(alpha3).map(|(_, region)| *region)
}

/// The English name of an EXIOBASE region.
pub fn region_name(region: &str) -> &'static str {
    match region {
        "WA" => "Rest of Asia and Pacific (EXIOBASE)",
        "WE" => "Rest of Europe (EXIOBASE)",
        "WF" => "Rest of Africa (EXIOBASE)",
        "WL" => "Rest of America (EXIOBASE)",
        "WM" => "Rest of Middle East (EXIOBASE)",
        MEAN => "World",
        alpha2 => tables()
            .alpha3
            .get(alpha2)
            .and_then(|a3| crate::countries::country_name(a3))
            .unwrap_or("World"),
    }
}

/// The COICOP category of a merchant category code, with Tonne's reason for
/// it (`data/mcc_coicop.csv`).
pub fn coicop_of_mcc(code: &str) -> Option<(&'static str, &'static str)> {
    tables().mcc.get(&code.parse::<u16>().ok()?).copied()
}

/// A purchase in euros of 2011, with what converted it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conversion {
    /// The amount in euros at 2011 prices.
    pub eur_2011: Decimal,
    /// Units of the purchase's currency per euro, 2011 annual average.
    pub per_eur_2011: Decimal,
    /// The consumer price index of 2011.
    pub cpi_2011: Decimal,
    /// The consumer price index of the purchase's year (the closest the index covers).
    pub cpi_then: Decimal,
    /// The year whose index deflated the purchase.
    pub cpi_year: u16,
    /// Whether the index is the countries' average (the country has none).
    pub cpi_average: bool,
}

impl Conversion {
    /// CPI 2011 ÷ CPI of the purchase's year.
    pub fn deflator(&self) -> Decimal {
        if self.cpi_then.is_zero() {
            Decimal::ONE
        } else {
            self.cpi_2011 / self.cpi_then
        }
    }
}

/// The years the price index covers.
const CPI_YEARS: std::ops::RangeInclusive<u16> = 2011..=2019;

/// The index of a country (ISO alpha-2) in a year, the closest year the
/// index covers (upstream's rule), and whether the average stood in.
fn cpi(alpha2: &str, year: u16) -> (Decimal, u16, bool) {
    let t = tables();
    let year = year.clamp(*CPI_YEARS.start(), *CPI_YEARS.end());
    match t.cpi.get(&(alpha2, year)) {
        Some(v) => (*v, year, false),
        None => (
            t.cpi
                .get(&("AVERAGE", year))
                .copied()
                .unwrap_or(Decimal::ONE),
            year,
            true,
        ),
    }
}

/// Converts `amount` of `currency` (ISO 4217), spent in a country (ISO
/// alpha-2) in `year` (the latest year the index covers when `None`, which
/// upstream's closest-year rule gives for any purchase since 2019), to euros
/// at 2011 prices: `amount ÷ rate(2011) × CPI(2011) ÷ CPI(year)`.
pub fn to_eur_2011(
    amount: Decimal,
    currency: &str,
    alpha2: &str,
    year: Option<u16>,
) -> Result<Conversion, EstimateError> {
    let per_eur = tables()
        .rates
        .get(currency)
        .copied()
        .filter(|r| !r.is_zero())
        .ok_or_else(|| EstimateError::ExchangeRateNotFound(currency.to_owned()))?;
    let (cpi_2011, _, _) = cpi(alpha2, PRICE_YEAR);
    let (cpi_then, cpi_year, cpi_average) = cpi(alpha2, year.unwrap_or(*CPI_YEARS.end()));
    let mut c = Conversion {
        eur_2011: Decimal::ZERO,
        per_eur_2011: per_eur,
        cpi_2011,
        cpi_then,
        cpi_year,
        cpi_average,
    };
    c.eur_2011 = amount / per_eur * c.deflator();
    Ok(c)
}

/// The ISO alpha-2 code of a country (alpha-3), if listed.
pub(crate) fn alpha2_of(alpha3: &str) -> Option<&'static str> {
    tables().regions.get(alpha3).map(|(a2, _)| *a2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[test]
    fn tables_hold_what_the_sources_hold() {
        // 63 categories × 49 regions, less tobacco's 5 missing regions, and
        // one mean per category
        let means = all().iter().filter(|i| i.region == MEAN).count();
        assert_eq!(means, 63);
        assert_eq!(all().len() - means, 3082);
        // figures copied by hand from footprints.yml
        assert_eq!(
            intensity("01", "US").unwrap().kg_per_eur_2011,
            d("1.5364118088902992")
        );
        assert_eq!(
            intensity("01.1.2", "US").unwrap().name,
            "Live animals, meat and other parts of slaughtered land animals"
        );
        // the key NO is Norway, not YAML's false
        assert!(intensity("01", "NO").is_some());
        assert!(intensity("02.3", "SE").is_none(), "tobacco has no Sweden");
        assert!(intensity("04.5.5", "US").is_none(), "left out");
        assert_eq!(region_of("DEU"), Some("DE"));
        assert_eq!(region_of("SAU"), Some("WM"));
        assert_eq!(region_of("ARG"), Some("WL"));
        assert_eq!(region_of("NZL"), Some("WA"));
        assert_eq!(region_of("SRB"), Some("WE"));
        assert_eq!(region_of("EGY"), Some("WF"));
        assert_eq!(region_name("DE"), "Germany");
        assert_eq!(coicop_of_mcc("5411").map(|c| c.0), Some("01"));
        assert_eq!(coicop_of_mcc("3007").map(|c| c.0), Some("07.3.3"));
        assert_eq!(coicop_of_mcc("6011"), None, "money movement");
    }

    #[test]
    fn conversion_follows_upstream_by_hand() {
        // 200 GBP in Britain in 2015: / 0.86788 GBP per EUR × 93.6 / 100.0
        // (OECD CPI GB 2011 and 2015)
        let c = to_eur_2011(d("200"), "GBP", "GB", Some(2015)).unwrap();
        assert_eq!(c.cpi_2011, d("93.6"));
        assert_eq!(c.cpi_then, d("100"));
        assert_eq!(c.eur_2011.round_dp(6), d("215.698023"));
        // a year after the index ends takes 2019; before it, 2011
        assert_eq!(
            to_eur_2011(d("1"), "EUR", "DE", Some(2025))
                .unwrap()
                .cpi_year,
            2019
        );
        assert_eq!(
            to_eur_2011(d("1"), "EUR", "DE", Some(1999))
                .unwrap()
                .deflator(),
            Decimal::ONE
        );
        // Bulgaria has no index: the average (92.0533… / 109.2088…)
        let bg = to_eur_2011(d("100"), "EUR", "BG", None).unwrap();
        assert!(bg.cpi_average);
        assert_eq!(bg.eur_2011.round_dp(4), d("84.2911"));
        assert!(matches!(
            to_eur_2011(d("1"), "XYZ", "US", None),
            Err(EstimateError::ExchangeRateNotFound(c)) if c == "XYZ"
        ));
    }
}
