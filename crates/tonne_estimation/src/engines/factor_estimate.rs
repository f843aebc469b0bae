//! Estimates from a chosen factor: an activity (amount and unit) × one factor
//! of the [`crate::catalogue`], converting the activity's unit to the factor's
//! denominator where both measure the same thing.
//!
//! ```
//! use tonne_estimation::factor_estimate::{self, FactorRequest};
//!
//! // 12 passenger·km by national rail × 0.03546 kg per passenger·km (DESNZ 2025)
//! let r = FactorRequest::parse("desnz-2025.RAIL_NATIONAL", "12", "person*km").unwrap();
//! let e = factor_estimate::estimate(&r).unwrap();
//! assert_eq!(e.mass.grams(), 426); // 12 × 0.03546 kg = 0.42552 kg
//! let bad = FactorRequest::parse("desnz-2025.RAIL_NATIONAL", "12", "kWh").unwrap();
//! assert!(factor_estimate::estimate(&bad).is_err());
//! ```

use rust_decimal::Decimal;
use tonne_kernel::{Currency, Mass};

use crate::catalogue::{self, CatalogueFactor, FactorSource};
use crate::errors::EstimateError;
use crate::exiobase;
use crate::units::{kg_to_mass, parse_amount, usd_rate};

/// What is measured, and on which basis (energy units name their calorific
/// basis: `kWh HHV` converts to `GJ HHV`, never to a plain `kWh`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dimension {
    Distance,
    Mass,
    Energy(&'static str),
    Volume,
    Area,
    Time,
    PersonDistance,
    MassDistance,
    ContainerDistance,
    Currency,
    /// A unit that converts to nothing but itself (`person*month`, `meal`…).
    Own(&'static str),
}

/// The dimension of a contract unit and its size in that dimension's base
/// unit (km, kg, kWh, l, m2, hour, person·km, t·km, TEU·km).
fn dimension(unit: &str) -> Option<(Dimension, Decimal)> {
    let d = |mantissa: i64, scale: u32| Decimal::new(mantissa, scale);
    let energy = |basis: &'static str, per_kwh: Decimal| Some((Dimension::Energy(basis), per_kwh));
    // 1 MJ = 1/3.6 kWh; 1 toe = 41.868 GJ = 11630 kWh (IEA)
    let mj = Decimal::ONE / d(36, 1);
    match unit {
        "km" => Some((Dimension::Distance, Decimal::ONE)),
        "m" => Some((Dimension::Distance, d(1, 3))),
        "mi" => Some((Dimension::Distance, d(1_609_344, 6))),
        "nm" => Some((Dimension::Distance, d(1852, 3))),
        "kg" => Some((Dimension::Mass, Decimal::ONE)),
        "t" => Some((Dimension::Mass, Decimal::from(1000))),
        "kWh" => energy("", Decimal::ONE),
        "MJ" => energy("", mj),
        "GJ" => energy("", mj * Decimal::from(1000)),
        "toe" => energy("", Decimal::from(11_630)),
        "kWh ICV" | "kWh LHV" => energy("net", Decimal::ONE),
        "MJ ICV" => energy("net", mj),
        "GJ ICV" => energy("net", mj * Decimal::from(1000)),
        "toe ICV" => energy("net", Decimal::from(11_630)),
        "kWh HHV" => energy("gross", Decimal::ONE),
        "GJ HHV" => energy("gross", mj * Decimal::from(1000)),
        "toe HHV" => energy("gross", Decimal::from(11_630)),
        "kWh SCV" => energy("standard", Decimal::ONE),
        "GJ SCV" => energy("standard", mj * Decimal::from(1000)),
        "toe SCV" => energy("standard", Decimal::from(11_630)),
        "l" => Some((Dimension::Volume, Decimal::ONE)),
        "ml" => Some((Dimension::Volume, d(1, 3))),
        "Ml" => Some((Dimension::Volume, Decimal::from(1_000_000))),
        "m3" => Some((Dimension::Volume, Decimal::from(1000))),
        "m2" => Some((Dimension::Area, Decimal::ONE)),
        "ha" => Some((Dimension::Area, Decimal::from(10_000))),
        "hour" => Some((Dimension::Time, Decimal::ONE)),
        "seconds" => Some((Dimension::Time, Decimal::ONE / Decimal::from(3600))),
        "person*km" => Some((Dimension::PersonDistance, Decimal::ONE)),
        "t*km" => Some((Dimension::MassDistance, Decimal::ONE)),
        "TEU*km" => Some((Dimension::ContainerDistance, Decimal::ONE)),
        own if OWN.contains(&own) => Some((Dimension::Own(own_name(own)), Decimal::ONE)),
        code if code.len() == 3 && code.bytes().all(|b| b.is_ascii_uppercase()) => {
            Some((Dimension::Currency, Decimal::ONE))
        }
        _ => None,
    }
}

/// The contract's units that convert only to themselves.
const OWN: [&str; 16] = [
    "item",
    "guest*night",
    "room*night",
    "ha*year",
    "m2*year",
    "m3*km",
    "kg*day",
    "km*year",
    "m*year",
    "person*month",
    "vehicle*km",
    "meal",
    "fte*working_hour",
    "TEU",
    "p",
    "A4_sheets",
];

/// The static name of one of [`OWN`].
fn own_name(unit: &str) -> &'static str {
    OWN.into_iter().find(|u| *u == unit).unwrap_or("")
}

/// An estimate request: the factor's id and the activity as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FactorRequest {
    /// A catalogue id.
    pub factor_id: String,
    /// The activity's amount (non-negative).
    pub amount: Decimal,
    /// The activity's unit, as the contract names units.
    pub unit: String,
}

impl FactorRequest {
    /// Checks the amount's and unit's form (not yet the factor or the
    /// conversion: [`estimate`] does).
    pub fn parse(factor_id: &str, value: &str, unit: &str) -> Result<Self, EstimateError> {
        let amount = parse_amount("activity.value", value)?;
        if dimension(unit).is_none() {
            return Err(EstimateError::invalid(
                "activity.unit",
                "is not a unit of the contract's EmissionFactorDenominatorUnit",
            ));
        }
        Ok(Self {
            factor_id: factor_id.trim().to_owned(),
            amount,
            unit: unit.to_owned(),
        })
    }
}

/// A factor estimate's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FactorEstimate {
    pub mass: Mass,
    /// The factor as it was when used.
    pub factor: CatalogueFactor,
    /// The activity in the factor's denominator unit.
    pub converted: Decimal,
    /// How the activity's unit became the factor's, when they differ (a
    /// sentence for the explanation).
    pub conversion: Option<String>,
}

/// Units of `code` per euro, ECB 2022 annual averages (the rates the
/// transaction engine uses), or `exchange_rate_not_found`.
fn per_eur(code: &str) -> Result<Decimal, EstimateError> {
    code.parse::<Currency>()
        .ok()
        .and_then(usd_rate)
        .map(|f| f.value())
        .ok_or_else(|| EstimateError::ExchangeRateNotFound(code.to_owned()))
}

/// Activity × factor. An unknown id is `emission_factor_id_invalid`; a unit
/// of another dimension (or calorific basis) `emission_factor_unit_mismatch`;
/// a currency without a rate `exchange_rate_not_found`.
pub fn estimate(r: &FactorRequest) -> Result<FactorEstimate, EstimateError> {
    let factor = catalogue::catalogue()
        .get(&r.factor_id)
        .ok_or_else(|| EstimateError::EmissionFactorIdInvalid(r.factor_id.clone()))?;
    let mismatch = || EstimateError::EmissionFactorUnitMismatch {
        activity: r.unit.clone(),
        factor: factor.denominator.to_owned(),
    };
    let (from, from_size) = dimension(&r.unit).ok_or_else(mismatch)?;
    let (to, to_size) = dimension(factor.denominator).ok_or_else(mismatch)?;
    if from != to {
        return Err(mismatch());
    }
    let (converted, conversion) = if factor.source == FactorSource::Exiobase {
        // euros of 2011: the upstream method's rate and deflation, with the
        // index of the factor's region (the average for a rest-of-world one)
        let region = factor.engine_id.rsplit(':').next().unwrap_or("");
        let c = exiobase::to_eur_2011(r.amount, &r.unit, region, None)?;
        (
            c.eur_2011,
            Some(format!(
                "{} {} ÷ {} {}/EUR (Eurostat, 2011) × CPI 2011 {} ÷ CPI {} {} ({}) = EUR at 2011 prices",
                r.amount.normalize(),
                r.unit,
                c.per_eur_2011.normalize(),
                r.unit,
                c.cpi_2011.normalize(),
                c.cpi_year,
                c.cpi_then.normalize(),
                if c.cpi_average {
                    "OECD countries' average index"
                } else {
                    "OECD"
                }
            )),
        )
    } else if r.unit == factor.denominator {
        (r.amount, None)
    } else if from == Dimension::Currency {
        let rate = per_eur(factor.denominator)? / per_eur(&r.unit)?;
        (
            r.amount * rate,
            Some(format!(
                "{} {} × {} {}/{} (ECB euro reference rates, annual average 2022)",
                r.amount.normalize(),
                r.unit,
                rate.round_dp(6).normalize(),
                factor.denominator,
                r.unit
            )),
        )
    } else {
        let ratio = from_size / to_size;
        (
            r.amount * ratio,
            Some(format!(
                "{} {} × {} {}/{}",
                r.amount.normalize(),
                r.unit,
                ratio.round_dp(9).normalize(),
                factor.denominator,
                r.unit
            )),
        )
    };
    let kg = converted.checked_mul(factor.kg_co2e).ok_or_else(|| {
        EstimateError::invalid("activity.value", "gives an estimate out of range")
    })?;
    Ok(FactorEstimate {
        mass: kg_to_mass("activity.value", kg)?,
        factor: factor.clone(),
        converted,
        conversion,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn run(id: &str, value: &str, unit: &str) -> Result<FactorEstimate, EstimateError> {
        estimate(&FactorRequest::parse(id, value, unit)?)
    }

    #[test]
    fn same_unit_multiplies_by_the_published_factor() {
        // DESNZ 2025 HGV all, 0.10163 kg CO2e per tonne.km × 2,000 t·km = 203.26 kg
        let e = run("desnz-2025.HGV_ALL", "2000", "t*km").unwrap();
        assert_eq!(e.mass.grams(), 203_260);
        assert_eq!(e.conversion, None);
    }

    #[test]
    fn units_of_one_dimension_convert() {
        // 100 miles on a long-haul economy seat, 0.11704 kg/passenger.km: not a
        // person-distance unit, so refused
        assert!(matches!(
            run("desnz-2025.FLIGHT_LONG_HAUL_ECONOMY", "100", "mi"),
            Err(EstimateError::EmissionFactorUnitMismatch { .. })
        ));
        // DESNZ natural gas, 2.06672 kg CO2e per m3: 500 l = 0.5 m3 → 1.03336 kg
        let gas = run("desnz-2025.NATURAL_GAS_M3", "500", "l").unwrap();
        assert_eq!(gas.mass.grams(), 1_033);
        assert_eq!(gas.converted, Decimal::new(5, 1));
        // Ember grid (kWh): 3.6 MJ is 1 kWh
        let grid = catalogue::catalogue()
            .by_engine_id("grid:DEU")
            .unwrap()
            .clone();
        let mj = run(&grid.id, "3600", "MJ").unwrap();
        let kwh = run(&grid.id, "1000", "kWh").unwrap();
        assert_eq!(mj.mass, kwh.mass);
        // a gross-CV factor takes gross-CV energy only
        assert!(run("desnz-2025.NATURAL_GAS_KWH_GROSS", "10", "kWh HHV").is_ok());
        assert!(run("desnz-2025.NATURAL_GAS_KWH_GROSS", "10", "kWh").is_err());
    }

    #[test]
    fn currencies_convert_at_the_2022_rates_and_unknown_ones_are_refused() {
        // USEEIO full-service restaurants, 0.194 kg per USD; 100 EUR × 1.053 USD/EUR
        // (ECB 2022) = 105.3 USD → 20.4282 kg
        let e = run("useeio-1.3.0.naics.722511", "100", "EUR").unwrap();
        assert_eq!(e.converted, Decimal::new(1053, 1));
        assert_eq!(e.mass.grams(), 20_428);
        assert!(matches!(
            run("useeio-1.3.0.naics.722511", "100", "JPY"),
            Err(EstimateError::ExchangeRateNotFound(c)) if c == "JPY"
        ));
        assert!(matches!(
            run("useeio-1.3.0.naics.722511", "100", "kg"),
            Err(EstimateError::EmissionFactorUnitMismatch { .. })
        ));
    }

    #[test]
    fn unknown_ids_units_and_amounts_are_refused() {
        assert!(matches!(
            run("desnz-2019.NOPE", "1", "km"),
            Err(EstimateError::EmissionFactorIdInvalid(_))
        ));
        assert!(FactorRequest::parse("desnz-2025.HGV_ALL", "1", "furlongs").is_err());
        assert!(FactorRequest::parse("desnz-2025.HGV_ALL", "-1", "t*km").is_err());
        assert!(FactorRequest::parse("desnz-2025.HGV_ALL", "1e9", "t*km").is_err());
        assert!(run("desnz-2025.HGV_ALL", "999999999999", "t*km").is_ok());
    }
}
