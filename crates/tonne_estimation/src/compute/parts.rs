//! What every explanation is built from: a part, a quantity, the factor uses
//! that are not plain constants (grid, merchant category, NAICS industry,
//! exchange rates), and how places and spends are described.

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::estimate::{Computed, EstimateDetail};
use crate::explain::{Explanation, FactorUse, Part, Quantity};
use crate::route::Place;
use crate::transaction::{self};
use crate::{Spend, cities, exiobase};

impl FactorUse {
    pub(super) fn exiobase(t: &transaction::TransactionTrace) -> Self {
        let c = t.category;
        let i = t.intensity;
        let region = if i.region == exiobase::MEAN {
            format!(
                "mean of the category's regions ({} has no figure)",
                exiobase::region_name(t.region)
            )
        } else {
            exiobase::region_name(i.region).to_owned()
        };
        Self {
            id: i.engine_id(),
            value: i.kg_per_eur_2011,
            unit: "kg CO2e/EUR (2011)".into(),
            source: exiobase::SOURCE.into(),
            row: Some(format!(
                "MCC {} {} → COICOP {} {}, {region} (Tonne's mapping: {})",
                c.code, c.description, i.coicop, i.name, t.coicop_reason
            )),
            year: Some(exiobase::PRICE_YEAR),
            gases: None,
            catalogue_id: None,
        }
    }
}

pub(super) use crate::explain::{part, quantity};

pub(super) const BAND_FLOOR: &str = "the mass is the longest trip of the haul band below (DESNZ's per-km factors fall from band to band; see docs/methodology.md)";

pub(super) fn single(mass: Mass, detail: EstimateDetail, p: Part, notes: Vec<String>) -> Computed {
    Computed {
        mass: Some(mass),
        detail,
        explanation: Explanation {
            parts: vec![p],
            notes,
            factor_set: None,
        },
    }
}

pub(super) fn place_name(p: &Place) -> String {
    match p {
        Place::Coordinates(c) => format!("coordinates {}, {}", c.lat(), c.lon()),
        Place::Airport(code) => format!("airport {code}"),
        Place::Seaport(code) => format!("seaport {code}"),
        Place::Address { city, country_code } => match cities::city(city, country_code) {
            Some(c) if c.region.is_empty() => format!(
                "the centre of {}, {} (GeoNames; street and postcode do not refine it)",
                c.name, c.country_code
            ),
            Some(c) => format!(
                "the centre of {}, {}, {} (GeoNames; street and postcode do not refine it)",
                c.name, c.region, c.country_code
            ),
            None => format!("{city}, {country_code}"),
        },
    }
}

/// The exchange rates a spend went through to 2022 USD (none for USD).
/// The prefix of the ids of the 2011 euro rates.
pub(super) use crate::explain::EUR_RATE_2011;

/// The 2011 rate (none for euros) and the two price indices a transaction
/// converted its spend with.
pub(super) fn exiobase_conversion(s: &Spend, t: &transaction::TransactionTrace) -> Vec<FactorUse> {
    let c = &t.conversion;
    let code = s.currency.code();
    let series = if c.cpi_average {
        "average of the OECD countries' indices".to_owned()
    } else {
        exiobase::region_name(t.region).to_owned()
    };
    let cpi = |year: u16, value: Decimal| FactorUse {
        id: format!("CPI_{year}"),
        value,
        unit: "index (2015 = 100)".into(),
        source: "OECD.Stat PRICES_CPI, consumer price indices, via Tomorrow's bloom-contrib".into(),
        row: Some(series.clone()),
        year: Some(year),
        gases: None,
        catalogue_id: None,
    };
    let rate = (code != "EUR").then(|| FactorUse {
        id: format!("{EUR_RATE_2011}{code}"),
        value: c.per_eur_2011,
        unit: format!("{code}/EUR"),
        source: "Eurostat ert_bil_eur_a, euro exchange rates, annual average 2011".into(),
        row: Some(code.to_owned()),
        year: Some(exiobase::PRICE_YEAR),
        gases: None,
        catalogue_id: None,
    });
    rate.into_iter()
        .chain([
            cpi(exiobase::PRICE_YEAR, c.cpi_2011),
            cpi(c.cpi_year, c.cpi_then),
        ])
        .collect()
}

/// The spend in euros of 2011, and how it got there.
pub(super) fn spend_2011(s: &Spend, t: &transaction::TransactionTrace) -> Quantity {
    let c = &t.conversion;
    quantity(
        "spend",
        c.eur_2011.round_dp(2),
        "EUR (2011)",
        format!(
            "{} {} ÷ {} {}/EUR (2011) × CPI 2011 {} ÷ CPI {} {} (deflated to 2011 prices as EXIOBASE's upstream method does)",
            s.amount.normalize(),
            s.currency.code(),
            c.per_eur_2011.normalize(),
            s.currency.code(),
            c.cpi_2011.normalize(),
            c.cpi_year,
            c.cpi_then.normalize()
        ),
    )
}
