//! The catalogue's entries, built from the crate's tables: each factor's
//! contract unit, region, category and citation.

use rust_decimal::Decimal;

use super::factor::{CatalogueFactor, FactorSource, LogicalUnit};
use crate::countries::country_name;
use crate::factors::{Factor, GasSplit, authored, desnz_2025};
use crate::{exiobase, grid, transaction};

/// The engines' units (after `kg CO2e/`) as the contract's denominators and
/// dimensions, with the multiplier from the engine's value to the
/// catalogue's (kg per denominator unit). The one list of denominators the
/// catalogue uses ([`denominator_unit`] reads it too).
const UNITS: [(&str, &str, LogicalUnit, (i64, u32)); 12] = [
    (
        "passenger.km",
        "person*km",
        LogicalUnit::PersonDistance,
        (1, 0),
    ),
    ("km", "km", LogicalUnit::Distance, (1, 0)),
    ("tonne.km", "t*km", LogicalUnit::MassDistance, (1, 0)),
    ("tonnes", "t", LogicalUnit::Mass, (1, 0)),
    ("kg fuel", "kg", LogicalUnit::Mass, (1, 0)),
    ("kWh", "kWh", LogicalUnit::Energy, (1, 0)),
    // gross calorific value = higher heating value
    ("kWh (Gross CV)", "kWh HHV", LogicalUnit::Energy, (1, 0)),
    ("cubic metres", "m3", LogicalUnit::Volume, (1, 0)),
    (
        "per FTE Working Hour",
        "fte*working_hour",
        LogicalUnit::PersonTime,
        (1, 0),
    ),
    ("USD (2022)", "USD", LogicalUnit::Currency, (1, 0)),
    // euros at 2011 prices: a factor estimate deflates its spend (exiobase)
    ("EUR (2011)", "EUR", LogicalUnit::Currency, (1, 0)),
    // the contract has no person-day: a day's diet × 30.4375 days a month
    ("day", "person*month", LogicalUnit::PersonTime, (304_375, 4)),
];

/// A denominator the catalogue uses, as `&'static str` (how a stored
/// factor's unit is read back).
pub(super) fn denominator_unit(unit: &str) -> Option<&'static str> {
    UNITS.iter().map(|u| u.1).find(|d| *d == unit)
}

/// The contract's denominator and dimension of an engine unit, and the
/// multiplier from the engine's value to the catalogue's (kg per unit).
fn unit_of(unit: &str) -> Option<(&'static str, LogicalUnit, Decimal)> {
    let (per, scale) = unit
        .strip_prefix("kg CO2e/")
        .map(|u| (u, Decimal::ONE))
        .or_else(|| {
            unit.strip_prefix("g CO2e/")
                .map(|u| (u, Decimal::new(1, 3)))
        })?;
    let &(_, denominator, logical, (mantissa, exponent)) = UNITS.iter().find(|u| u.0 == per)?;
    Some((
        denominator,
        logical,
        Decimal::new(mantissa, exponent) * scale,
    ))
}

const DESNZ_PUBLICATION: &str = "UK Government GHG Conversion Factors for Company Reporting 2025 (DESNZ), version 1, 2025-06-10; Open Government Licence v3.0";
const EXIOBASE_PUBLICATION: &str = "EXIOBASE 3.4 (Stadler et al. 2018, Journal of Industrial Ecology 22(3), doi:10.1111/jiec.12715), 2011 product-by-product multipliers reduced to COICOP categories by Tomorrow (bloom-contrib, footprints.yml); kg CO2e per euro at 2011 basic prices; CC BY-SA 4.0";
const USEEIO_PUBLICATION: &str = "US EPA Supply Chain Greenhouse Gas Emission Factors v1.3.0 (USEEIO), NAICS-6, kg CO2e per 2022 USD purchaser price, with margins; US Government work, public domain";

fn new_year(year: u16) -> time::Date {
    time::Date::from_calendar_date(i32::from(year), time::Month::January, 1)
        .unwrap_or(time::Date::MIN)
}

fn desnz(f: &Factor) -> Option<CatalogueFactor> {
    let (denominator, logical_unit, k) = unit_of(f.unit)?;
    let row = f.row()?;
    let path = row.split_once(": ").map_or(row, |(_, p)| p);
    let category = path.split(" / ").take(2).collect::<Vec<_>>().join(" / ");
    Some(CatalogueFactor {
        id: format!("desnz-2025.{}", f.id),
        name: path.to_owned(),
        source: FactorSource::Beis,
        source_version: "2025".into(),
        publication: DESNZ_PUBLICATION.into(),
        publication_year: 2025,
        published: time::macros::date!(2025 - 06 - 10),
        region: "United Kingdom".into(),
        category: Some(category),
        denominator,
        logical_unit,
        kg_co2e: f.value() * k,
        gases: GasSplit::of(f.id),
        engine_id: f.id.to_owned(),
    })
}

fn authored(f: &Factor) -> Option<CatalogueFactor> {
    let (denominator, logical_unit, k) = unit_of(f.unit)?;
    let (dataset, region, category, name, year) = if f.id == authored::TIM_JET_FUEL_TTW.id {
        (
            "tim-3.0.0",
            "World",
            "Air / Jet fuel",
            "Jet fuel burnt, tank-to-wake (CORSIA carbon intensity × ISO 14083 heating value)"
                .to_owned(),
            2024,
        )
    } else if f.id.starts_with("DIET_") {
        let who =
            f.id.trim_start_matches("DIET_")
                .replace('_', " ")
                .to_lowercase();
        (
            "scarborough-2014",
            "United Kingdom",
            "Diet",
            format!("Diet of {who} eaters, 2000 kcal a day, per person-month"),
            2014,
        )
    } else {
        let what =
            f.id.trim_start_matches("IWW_")
                .replace('_', " ")
                .to_lowercase();
        (
            "tonne-2025",
            "World",
            "Freight / Inland waterways",
            format!("Inland waterway freight, {what} (Tonne's assumption)"),
            2025,
        )
    };
    Some(CatalogueFactor {
        id: format!("{dataset}.{}", f.id),
        name: name
            .replace("vegan eaters", "vegans")
            .replace("vegetarian eaters", "vegetarians"),
        source: FactorSource::Lune,
        source_version: year.to_string(),
        publication: f.source.to_owned(),
        publication_year: year,
        published: new_year(year),
        region: region.into(),
        category: Some(category.into()),
        denominator,
        logical_unit,
        kg_co2e: f.value() * k,
        gases: GasSplit::of(f.id),
        engine_id: f.id.to_owned(),
    })
}

pub(super) fn build() -> Vec<CatalogueFactor> {
    let mut all: Vec<CatalogueFactor> = desnz_2025::ALL.iter().filter_map(desnz).collect();
    all.extend(authored::EMISSION_FACTORS.iter().filter_map(authored));
    for (code, g) in grid::all() {
        let region = country_name(code).unwrap_or(code);
        all.push(CatalogueFactor {
            id: format!("ember-{}.grid.{code}", g.year),
            name: format!("Electricity from the grid, {region}, lifecycle"),
            source: FactorSource::Lune,
            source_version: g.year.to_string(),
            publication: crate::GRID_SOURCE.into(),
            publication_year: g.year,
            published: new_year(g.year),
            region: region.to_owned(),
            category: Some("Electricity grid".into()),
            denominator: "kWh",
            logical_unit: LogicalUnit::Energy,
            kg_co2e: g.g_co2e_per_kwh / Decimal::from(1000),
            gases: None,
            engine_id: format!("grid:{code}"),
        });
    }
    for (naics, title, kg) in transaction::naics_factors() {
        all.push(CatalogueFactor {
            id: format!("useeio-1.3.0.naics.{naics}"),
            name: format!("{title} (NAICS {naics})"),
            source: FactorSource::Epa,
            source_version: "1.3.0".into(),
            publication: USEEIO_PUBLICATION.into(),
            publication_year: 2024,
            published: new_year(2024),
            region: "United States".into(),
            category: Some(title),
            denominator: "USD",
            logical_unit: LogicalUnit::Currency,
            kg_co2e: kg,
            gases: None,
            engine_id: format!("naics:{naics}"),
        });
    }
    all.push(CatalogueFactor {
        id: "useeio-1.3.0.median".into(),
        name: "Median of the USEEIO factors (purchases Tonne has not mapped to an industry)".into(),
        source: FactorSource::Epa,
        source_version: "1.3.0".into(),
        publication: USEEIO_PUBLICATION.into(),
        publication_year: 2024,
        published: new_year(2024),
        region: "United States".into(),
        category: None,
        denominator: "USD",
        logical_unit: LogicalUnit::Currency,
        kg_co2e: transaction::unmapped_factor(),
        gases: None,
        engine_id: "useeio:median".into(),
    });
    all.extend(exiobase::all().iter().map(|i| {
        let region = exiobase::region_name(i.region);
        let (name, region) = if i.region == exiobase::MEAN {
            (
                format!(
                    "{} (COICOP {}), unweighted mean of the EXIOBASE regions",
                    i.name, i.coicop
                ),
                "World",
            )
        } else {
            (
                format!("{} (COICOP {}), {region}", i.name, i.coicop),
                region,
            )
        };
        CatalogueFactor {
            id: exiobase_id(i),
            name,
            source: FactorSource::Exiobase,
            source_version: "3.4".into(),
            publication: EXIOBASE_PUBLICATION.into(),
            publication_year: 2018,
            published: new_year(2018),
            region: region.to_owned(),
            category: Some(format!("Household consumption / COICOP {}", i.coicop)),
            denominator: "EUR",
            logical_unit: LogicalUnit::Currency,
            kg_co2e: i.kg_per_eur_2011,
            gases: None,
            engine_id: i.engine_id(),
        }
    }));
    all.sort_by(|a, b| a.id.cmp(&b.id));
    all
}

/// The catalogue id of an EXIOBASE intensity: `exiobase-3.4.coicop-01.1.US`.
fn exiobase_id(i: &exiobase::Intensity) -> String {
    format!("exiobase-3.4.coicop-{}.{}", i.coicop, i.region)
}
