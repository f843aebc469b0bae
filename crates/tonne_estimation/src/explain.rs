//! Estimates that explain themselves: for every estimate, the parts its mass
//! is made of, each with the factors it used (id, value, unit, publication,
//! table row, year) and the activity quantities they multiplied (distances
//! and how they were obtained, payload, spend after currency conversion, …).
//!
//! The parts add up to the estimate's mass exactly, to the gram: engines that
//! round each part (passenger and shipping legs, footprints) give their parts;
//! single-product estimates are one part.
//!
//! ```
//! use tonne_estimation::estimate::EstimateRequest;
//! use tonne_estimation::flight::{CabinClass, FlightRequest, FlightRoute};
//! use rust_decimal::Decimal;
//!
//! let computed = EstimateRequest::Flight(FlightRequest {
//!     route: FlightRoute::Airports { source: "LHR".into(), destination: "JFK".into() },
//!     cabin: CabinClass::Economy,
//!     passengers: Decimal::ONE,
//!     aircraft_type: None,
//! }).compute().unwrap();
//! let part = &computed.explanation.parts[0];
//! assert_eq!(part.factors[0].id, "FLIGHT_LONG_HAUL_ECONOMY");
//! assert_eq!(part.factors[0].year, Some(2025));
//! assert_eq!(part.quantities[0].name, "distance");
//! assert!(part.quantities[0].method.contains("great-circle"));
//! assert_eq!(part.mass, computed.mass.unwrap());
//! ```

use rust_decimal::Decimal;

use crate::estimate::{Computed, EstimateDetail, EstimateRequest};
pub use crate::explanation::{Explanation, FactorUse, Part, Quantity, Wtw};
use crate::factors::authored;
use crate::flight::{self};
use crate::shipping::{self};
use crate::transaction::{self, TransactionOutcome};
use crate::{EstimateError, electricity, factor_estimate};

mod freight;
mod parts;
mod travel;

use freight::{any_shipping_leg, any_shipping_part, fuel_part};
use parts::*;
use travel::*;

/// The date Tonne gives the exchange rates it converts spend with: they are
/// the ECB's 2022 annual averages, dated by the start of their period.
pub const EXCHANGE_RATE_DATE: &str = "2022-01-01";

/// The date of the 2011 euro rates a transaction converts its spend with
/// (Eurostat annual averages, dated by the start of their period).
pub const EXIOBASE_RATE_DATE: &str = "2011-01-01";

/// What a transaction estimate's 2024 answer shows beside its mass, read from
/// its explanation (so that a stored estimate answers as it was computed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransactionFacts<'a> {
    /// The spend factor: EXIOBASE (kg CO2e per euro of 2011), or USEEIO (kg
    /// CO2e per 2022 USD) for estimates computed before Tonne used EXIOBASE.
    pub emission_factor: &'a FactorUse,
    /// Units of the factor's currency per unit of the spend's, to six decimals.
    pub exchange_rate: Decimal,
    /// The date of the exchange rate: the start of the year it averages.
    pub exchange_rate_date: &'static str,
    /// The buyer's diet over a medium meat-eater's, where it scaled a food purchase.
    pub diet_factor: Option<Decimal>,
}

impl TransactionFacts<'_> {
    /// The merchant category the factor was reached from: named by the
    /// factor's id (`mcc:5411`, USEEIO estimates) or its row (`MCC 5411 …`,
    /// EXIOBASE ones).
    pub fn merchant_category(&self) -> Option<&'static transaction::Category> {
        let f = self.emission_factor;
        let code = f.id.strip_prefix("mcc:").or_else(|| {
            f.row
                .as_deref()?
                .strip_prefix("MCC ")?
                .split_whitespace()
                .next()
        })?;
        transaction::category(code)
    }
}

impl Explanation {
    /// The facts of a transaction estimate; `None` for other kinds and money movement.
    pub fn transaction_facts(&self) -> Option<TransactionFacts<'_>> {
        let p = self.parts.iter().find(|p| p.name == "transaction")?;
        p.transaction_facts()
    }
}

impl Part {
    /// The facts of a spend part (a transaction's, or a transaction
    /// document line's); `None` for a part without an emission factor.
    pub fn transaction_facts(&self) -> Option<TransactionFacts<'_>> {
        let p = self;
        let emission_factor = p.emission_factor()?;
        let (exchange_rate, exchange_rate_date) = if emission_factor.id.starts_with("exiobase:") {
            // the spend's currency per euro in 2011 (none for euros)
            let rate = p
                .factors
                .iter()
                .find(|f| f.id.starts_with(EUR_RATE_2011))
                .filter(|f| !f.value.is_zero())
                .map_or(Decimal::ONE, |f| Decimal::ONE / f.value);
            (rate, EXIOBASE_RATE_DATE)
        } else {
            let usd_per_eur = p.factors.iter().find(|f| f.id == authored::USD_PER_EUR.id);
            let other_per_eur = p
                .factors
                .iter()
                .find(|f| f.unit.ends_with("/EUR") && f.id != authored::USD_PER_EUR.id);
            let rate = match (usd_per_eur, other_per_eur) {
                (Some(usd), Some(other)) if !other.value.is_zero() => usd.value / other.value,
                (Some(usd), _) => usd.value,
                (None, _) => Decimal::ONE,
            };
            (rate, EXCHANGE_RATE_DATE)
        };
        Some(TransactionFacts {
            emission_factor,
            exchange_rate: exchange_rate.round_dp(6).normalize(),
            exchange_rate_date,
            diet_factor: p
                .quantities
                .iter()
                .find(|q| q.name == "diet_ratio")
                .map(|q| q.amount),
        })
    }
}

impl EstimateRequest {
    /// Runs the engine: the mass, the kind's detail and the explanation,
    /// which names the factor set and each emission factor's catalogue id.
    /// Pure: the same request gives the same result with the same tables.
    pub fn compute(&self) -> Result<Computed, EstimateError> {
        let mut computed = compute(self)?;
        let explanation = &mut computed.explanation;
        explanation.factor_set = Some(crate::catalogue::FACTOR_SET_VERSION.to_owned());
        for f in explanation
            .parts
            .iter_mut()
            .flat_map(|p| p.factors.iter_mut())
        {
            if f.catalogue_id.is_none() {
                f.catalogue_id = crate::catalogue::catalogue()
                    .of_engine_factor(&f.id)
                    .map(|c| c.id.clone());
            }
        }
        Ok(computed)
    }
}

/// Runs the engine of a request and explains it.
fn compute(request: &EstimateRequest) -> Result<Computed, EstimateError> {
    match request {
        EstimateRequest::Electricity {
            consumption,
            country_code,
        } => {
            let e = electricity::estimate(*consumption, country_code.as_deref())?;
            let code = country_code.as_deref().unwrap_or("WORLD");
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
        EstimateRequest::Flight(r) => {
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
        EstimateRequest::PassengerTransportation(r) => passengers(r),
        EstimateRequest::Shipping { shipment, leg } => {
            let (e, trace) = shipping::any_leg_traced("", shipment, leg)?;
            let mut notes = Vec::new();
            let p = any_shipping_part("leg", shipment, leg, &e, &trace, &mut notes);
            let detail = EstimateDetail::Shipping(any_shipping_leg(&e, leg, &trace, &p));
            Ok(single(e.mass, detail, p, notes))
        }
        EstimateRequest::MultiLegShipping { shipment, legs } => {
            // the engine checks the count, computes each leg once and sums;
            // each leg is explained from what it computed
            let (total, traces) = shipping::multi_leg_traced(shipment, legs)?;
            let mut parts = Vec::with_capacity(legs.len());
            let mut notes = Vec::new();
            let mut out = Vec::with_capacity(legs.len());
            for (i, ((l, e), trace)) in legs.iter().zip(&total.legs).zip(&traces).enumerate() {
                let p = any_shipping_part(&format!("legs[{i}]"), shipment, l, e, trace, &mut notes);
                out.push(any_shipping_leg(e, l, trace, &p));
                parts.push(p);
            }
            Ok(Computed {
                mass: Some(total.mass),
                detail: EstimateDetail::MultiLegShipping {
                    distance: total.distance,
                    legs: out,
                },
                explanation: Explanation {
                    parts,
                    notes,
                    factor_set: None,
                },
            })
        }
        EstimateRequest::MultiLegShippingByFuel { legs } => {
            let total = shipping::fuel::multi_leg(legs)?;
            let mut parts = Vec::with_capacity(legs.len());
            let mut notes = Vec::new();
            let mut out = Vec::with_capacity(legs.len());
            for (i, (l, e)) in legs.iter().zip(&total.legs).enumerate() {
                let p = fuel_part(&format!("legs[{i}]"), l, e, &mut notes);
                out.push(crate::estimate::FuelLegResult {
                    mass: e.mass,
                    wtw: p.wtw(),
                    energy_density: e.energy_density,
                    grade: l.fuel.grade(),
                });
                parts.push(p);
            }
            Ok(Computed {
                mass: Some(total.mass),
                detail: EstimateDetail::FuelLegs(out),
                explanation: Explanation {
                    parts,
                    notes,
                    factor_set: None,
                },
            })
        }
        EstimateRequest::Transaction(r) => {
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
        EstimateRequest::Company(r) => {
            let (e, parts, notes) = crate::footprint::company_explained(r)?;
            Ok(Computed {
                mass: Some(e.mass),
                detail: EstimateDetail::Company(e),
                explanation: Explanation {
                    parts,
                    notes,
                    factor_set: None,
                },
            })
        }
        EstimateRequest::Individual(r) => {
            let (e, parts, notes) = crate::footprint::individual_explained(r)?;
            Ok(Computed {
                mass: Some(e.mass),
                detail: EstimateDetail::Plain,
                explanation: Explanation {
                    parts,
                    notes,
                    factor_set: None,
                },
            })
        }
        EstimateRequest::TransactionDocument(r) => crate::transaction_document::compute(r),
        EstimateRequest::EmissionFactor(r) => {
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
    }
}

#[cfg(test)]
mod tests;
