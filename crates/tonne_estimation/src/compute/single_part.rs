//! The estimates of one part: electricity, a flight, a card transaction, an
//! activity × a catalogue factor.

use rust_decimal::Decimal;

use super::parts::BAND_FLOOR;
use super::parts::{exiobase_conversion, part, quantity, single, spend_2011};
use super::travel::{aircraft_part, flight_route};
use crate::electricity::Energy;
use crate::estimate::{Computed, EstimateDetail};
use crate::explain::{Explanation, FactorUse};
use crate::factor_estimate::FactorRequest;
use crate::factors::authored;
use crate::flight::FlightRequest;
use crate::transaction::{TransactionOutcome, TransactionRequest};
use crate::{EstimateError, electricity, factor_estimate, flight, transaction};

pub(super) fn electricity(
    consumption: Energy,
    country_code: Option<&str>,
) -> Result<Computed, EstimateError> {
    let e = electricity::estimate(consumption, country_code)?;
    let code = country_code.unwrap_or("WORLD");
    Ok(single(
        e.mass,
        EstimateDetail::Plain,
        part(
            "consumption",
            e.mass,
            vec![FactorUse::grid(code, e.factor)],
            vec![quantity(
                "consumption",
                consumption.kwh(),
                "kWh",
                "as given, in kWh",
            )],
        ),
        vec![],
    ))
}

pub(super) fn flight(r: &FlightRequest) -> Result<Computed, EstimateError> {
    let e = flight::estimate(r)?;
    let (how, mut notes) = flight_route(&r.route);
    // the engine says whether the band's floor set the mass: no second pass
    if e.floored() {
        notes.push(BAND_FLOOR.into());
    }
    let passengers = quantity(
        "passengers",
        r.passengers,
        "passengers",
        "as given (default 1)",
    );
    let explained = match &e.aircraft {
        Some(used) => aircraft_part("flight", e.mass, used, &how, passengers),
        None => part(
            "flight",
            e.mass,
            vec![FactorUse::of(&e.factor)],
            vec![quantity("distance", e.distance.km(), "km", how), passengers],
        ),
    };
    Ok(single(e.mass, EstimateDetail::Plain, explained, notes))
}

pub(super) fn transaction(r: &TransactionRequest) -> Result<Computed, EstimateError> {
    let (outcome, trace) = transaction::estimate_traced(r)?;
    match (outcome, trace) {
        (
            TransactionOutcome::Estimate {
                mass,
                search_term_match,
            },
            Some(t),
        ) => {
            let mut factors = vec![FactorUse::exiobase(&t)];
            factors.extend(exiobase_conversion(&r.value, &t));
            let mut quantities = vec![spend_2011(&r.value, &t)];
            if let Some(d) = r.diet.filter(|_| t.diet_ratio != Decimal::ONE) {
                factors.push(FactorUse::of(&d.per_day()));
                factors.push(FactorUse::of(&authored::DIET_MEDIUM_MEAT));
                quantities.push(quantity(
                    "diet_ratio",
                    t.diet_ratio.round_dp(6),
                    "×",
                    "the buyer's diet over a medium meat-eater's (food purchases)",
                ));
            }
            Ok(single(
                mass,
                EstimateDetail::Transaction { search_term_match },
                part("transaction", mass, factors, quantities),
                vec![],
            ))
        }
        _ => Ok(Computed {
            mass: None,
            detail: EstimateDetail::MoneyMovement,
            explanation: Explanation {
                parts: vec![],
                notes: vec!["money movement: nothing to estimate".into()],
                factor_set: None,
            },
        }),
    }
}

pub(super) fn emission_factor(r: &FactorRequest) -> Result<Computed, EstimateError> {
    let e = factor_estimate::estimate(r)?;
    let f = &e.factor;
    let factor_use = FactorUse {
        id: f.id.clone(),
        value: f.kg_co2e,
        unit: format!("kg CO2e/{}", f.denominator),
        source: f.publication.clone(),
        row: Some(f.name.clone()),
        year: Some(f.publication_year),
        gases: f.gases.clone(),
        catalogue_id: None,
    };
    let how = e.conversion.clone().unwrap_or_else(|| "as given".into());
    Ok(single(
        e.mass,
        EstimateDetail::EmissionFactor(Box::new(e.factor.clone())),
        part(
            "activity",
            e.mass,
            vec![factor_use],
            vec![quantity("activity", e.converted, f.denominator, how)],
        ),
        vec![format!(
            "factor {} of Tonne's factor set {}",
            f.id,
            crate::catalogue::FACTOR_SET_VERSION
        )],
    ))
}
