//! The emission factor an estimate used, as the 2024 contract shows it
//! (`EmissionFactorWithGasEmissions` with its `GasEmissions`).

use rust_decimal::Decimal;
use serde::Serialize;
use tonne_estimation::explain::{FactorUse, TransactionFacts};
use utoipa::ToSchema;

/// The 2024 contract's `EmissionFactorWithGasEmissions`: the factor an
/// estimate used, from Tonne's tables.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = EmissionFactorWithGasEmissions)]
pub struct EmissionFactorResponse {
    /// Tonne's stable name of the factor (`SEA_CONTAINER_AVERAGE`, `mcc:5812`).
    id: String,
    name: String,
    /// `beis` (DESNZ, formerly BEIS), `epa` (USEEIO), or `lune` (Tonne's own figure).
    source: &'static str,
    source_version: String,
    publication_year: u16,
    numerator_unit: &'static str,
    denominator_unit: String,
    created_at: String,
    region: String,
    category: Option<String>,
    gas_emissions: GasEmissionsResponse,
}

/// The 2024 contract's `GasEmissions`, per unit of the factor's activity.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = GasEmissions)]
pub struct GasEmissionsResponse {
    /// kg CO2e, all gases.
    co2e: String,
    /// kg of CO2.
    #[serde(skip_serializing_if = "Option::is_none")]
    co2: Option<String>,
    /// kg of methane (the gas, not its CO2e).
    #[serde(skip_serializing_if = "Option::is_none")]
    methane: Option<String>,
    /// kg of nitrous oxide (the gas).
    #[serde(skip_serializing_if = "Option::is_none")]
    nitrous_oxide: Option<String>,
    /// 3.9.2's `GasWTWBreakdown`: the factor (tank-to-wheel) and the DESNZ
    /// well-to-tank row of the same activity, kg CO2e per unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    wtw_breakdown: Option<GasWtwResponse>,
}

/// 3.9.2's `GasWTWBreakdown`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = GasWTWBreakdown)]
pub struct GasWtwResponse {
    source: &'static str,
    wtt_co2e: String,
    ttw_co2e: String,
}

fn plain(d: Decimal) -> String {
    d.round_dp(12).normalize().to_string()
}

/// The contract's name of a factor's activity unit (`EmissionFactorDenominatorUnit`).
fn denominator(unit: &str) -> String {
    let per = unit.split_once('/').map_or(unit, |(_, per)| per);
    match per {
        "tonne.km" => "t*km".into(),
        "passenger.km" => "person*km".into(),
        "km" => "km".into(),
        "kWh" | "kWh (Gross CV)" => "kWh".into(),
        "cubic metres" => "m3".into(),
        "tonnes" => "t".into(),
        "USD (2022)" => "USD".into(),
        "kg fuel" => "kg".into(),
        "litres" => "l".into(),
        "EUR (2011)" => "EUR".into(),
        "day" => "kg*day".into(),
        other => other.to_owned(),
    }
}

pub(crate) fn emission_factor(f: &FactorUse) -> EmissionFactorResponse {
    let desnz = f.source.starts_with("UK Government GHG Conversion Factors");
    let epa = f.source.starts_with("US EPA");
    // the listed factor answers for what the use does not carry: an EXIOBASE
    // factor's region, a factor whose citation names no year (the TIM's)
    let listed = f
        .catalogue_id
        .as_deref()
        .and_then(|id| tonne_estimation::catalogue::catalogue().get(id))
        .filter(|_| !desnz && !epa && (f.id.starts_with("exiobase:") || f.year.is_none()));
    if let Some(l) = listed {
        return EmissionFactorResponse {
            id: f.id.clone(),
            name: l.name.clone(),
            source: l.source.as_str(),
            source_version: l.source_version.clone(),
            publication_year: l.publication_year,
            numerator_unit: "kg",
            denominator_unit: l.denominator.to_owned(),
            created_at: format!("{}T00:00:00Z", l.published),
            region: l.region.clone(),
            category: f.row.clone().or_else(|| l.category.clone()),
            gas_emissions: gas_emissions(f),
        };
    }
    let year = f.year.unwrap_or(0);
    EmissionFactorResponse {
        id: f.id.clone(),
        // the DESNZ category path (after the row id), or the row as written
        name: f.row.as_deref().map_or_else(
            || f.id.clone(),
            |r| r.split_once(": ").map_or(r, |(_, path)| path).to_owned(),
        ),
        source: if desnz {
            "beis"
        } else if epa {
            "epa"
        } else {
            "lune"
        },
        source_version: if desnz {
            "2025 v1 (2025-06-10)".into()
        } else if epa {
            "1.3.0".into()
        } else {
            year.to_string()
        },
        publication_year: year,
        numerator_unit: if f.unit.starts_with("g CO2e") {
            "g"
        } else {
            "kg"
        },
        denominator_unit: denominator(&f.unit),
        created_at: if desnz {
            "2025-06-10T00:00:00Z".into()
        } else {
            format!("{year:04}-01-01T00:00:00Z")
        },
        region: if desnz {
            "United Kingdom".into()
        } else if epa {
            "United States".into()
        } else {
            "Global".into()
        },
        category: f.row.clone(),
        gas_emissions: gas_emissions(f),
    }
}

/// A factor use's gases as the contract shows them.
fn gas_emissions(f: &FactorUse) -> GasEmissionsResponse {
    GasEmissionsResponse {
        co2e: plain(f.value),
        co2: f.gases.as_ref().map(|g| plain(g.co2)),
        methane: f.gases.as_ref().map(|g| plain(g.methane_kg())),
        nitrous_oxide: f.gases.as_ref().map(|g| plain(g.nitrous_oxide_kg())),
        wtw_breakdown: f.gases.as_ref().map(|g| GasWtwResponse {
            source: "direct_from_source",
            wtt_co2e: plain(g.wtt),
            ttw_co2e: plain(f.value),
        }),
    }
}

/// The diet factor that scaled a transaction's purchase, as the contract
/// writes it (absent where none did).
pub fn diet_factor(facts: Option<&TransactionFacts<'_>>) -> Option<String> {
    facts
        .and_then(|f| f.diet_factor)
        .map(|d| d.normalize().to_string())
}
