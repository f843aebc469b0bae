//! What every explanation is built from: a part, a quantity, the factor uses
//! that are not plain constants (grid, merchant category, NAICS industry,
//! exchange rates), and how places and spends are described.

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::estimate::{Computed, EstimateDetail};
use crate::explanation::{Explanation, FactorUse, Part, Quantity};
use crate::factors::authored;
use crate::route::Place;
use crate::transaction::{self};
use crate::{GRID_SOURCE, GridFactor, Spend, cities, grid};

impl FactorUse {
    pub(super) fn grid(code: &str, g: GridFactor) -> Self {
        Self {
            id: format!("grid:{code}"),
            value: g.g_co2e_per_kwh,
            unit: "g CO2e/kWh".into(),
            source: GRID_SOURCE.into(),
            row: Some(code.to_owned()),
            year: Some(g.year),
            gases: None,
            catalogue_id: None,
        }
    }

    pub(super) fn usd(c: &transaction::Category) -> Self {
        Self {
            id: format!("mcc:{}", c.code),
            value: c.kg_per_usd,
            unit: "kg CO2e/USD (2022)".into(),
            source: "US EPA Supply Chain GHG Emission Factors v1.3.0 (USEEIO), with margins".into(),
            row: Some(if c.naics.is_empty() {
                format!("MCC {} {}: median factor (unmapped)", c.code, c.description)
            } else {
                format!("MCC {} {} → NAICS {}", c.code, c.description, c.naics)
            }),
            year: Some(2022),
            gases: None,
            catalogue_id: None,
        }
    }
}

pub(super) fn quantity(
    name: &str,
    amount: Decimal,
    unit: &str,
    method: impl Into<String>,
) -> Quantity {
    Quantity {
        name: name.to_owned(),
        amount: amount.normalize(),
        unit: unit.to_owned(),
        method: method.into(),
    }
}

pub(super) fn part(
    name: impl Into<String>,
    mass: Mass,
    factors: Vec<FactorUse>,
    q: Vec<Quantity>,
) -> Part {
    Part {
        name: name.into(),
        mass,
        factors,
        quantities: q,
    }
}

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
pub(super) fn exchange(s: &Spend) -> Vec<FactorUse> {
    use tonne_kernel::Currency;
    match s.currency {
        Currency::Usd => vec![],
        // the currency's rate per euro (none for the euro itself), then USD per euro
        c => crate::units::usd_rate(c)
            .filter(|_| c != Currency::Eur)
            .into_iter()
            .chain([authored::USD_PER_EUR])
            .map(|f| FactorUse::of(&f))
            .collect(),
    }
}

pub(super) fn spend(name: &str, s: &Spend, usd: Decimal) -> Quantity {
    quantity(
        name,
        usd.round_dp(2),
        "USD (2022)",
        format!(
            "{} {} converted at 2022 average rates",
            s.amount.normalize(),
            s.currency.code()
        ),
    )
}

pub(super) fn grid_use(code: &str) -> Vec<FactorUse> {
    grid::check_country("country_code", code)
        .map(|g| vec![FactorUse::grid(code, g)])
        .unwrap_or_default()
}

pub(super) fn usd_naics(naics: &str) -> FactorUse {
    FactorUse {
        id: format!("naics:{naics}"),
        value: transaction::category_by_naics(naics).unwrap_or_default(),
        unit: "kg CO2e/USD (2022)".into(),
        source: "US EPA Supply Chain GHG Emission Factors v1.3.0 (USEEIO), with margins".into(),
        row: Some(format!("NAICS {naics}")),
        year: Some(2022),
        gases: None,
        catalogue_id: None,
    }
}
