//! From a read document to estimated lines.
//!
//! 1. Lines with a negative amount (discounts, refunds) and lines matched to
//!    [`Target::NotEstimated`] (tax, tips…) are not estimated; their amounts
//!    still count towards the lines' sum.
//! 2. Each other line is matched ([`super::matching::match_line`]); a line
//!    nothing matches but that has an amount is spend in the document's
//!    category ([`super::matching::match_document`]).
//! 3. Flights and trains with a route (airports; cities or a distance for
//!    trains) are passenger estimates; electricity, gas and fuel with a
//!    quantity in a unit Tonne converts are activity estimates. Without them,
//!    or if their engine refuses (an unknown airport or city), a line with an
//!    amount is spend in the travel or activity's merchant category.
//! 4. When the document has a total and the lines' amounts add up to more
//!    than `tolerance` × total away from it, the lines are not trusted: the
//!    whole document is estimated instead (the `fallback`), as it is when no
//!    line could be itemised. No line and no total: `validation_error`.

use rust_decimal::Decimal;
use tonne_kernel::{Currency, Mass};

use super::matching::{self, Match, Target};
use super::reading::{RawLine, read};
use super::{
    DocumentRequest, DocumentResult, LineItem, LineKind, LineValue, TravelLine, TravelMode,
    TravelRoute,
};
use crate::electricity::{Energy, EnergyUnit};
use crate::errors::EstimateError;
use crate::estimate::{Computed, EstimateDetail, EstimateRequest};
use crate::explain::{Explanation, FactorUse, Part, Quantity};
use crate::factor_estimate::FactorRequest;
use crate::factors::Factor;
use crate::factors::desnz_2025 as desnz;
use crate::flight::FlightRoute;
use crate::passenger::{Leg, PassengerRequest, Rail};
use crate::route::{CabinClass, Place, Route};
use crate::transaction::{Merchant, TransactionRequest};
use crate::units::Spend;
use crate::units::kg_to_mass;
use crate::{Distance, DistanceUnit};

/// What every line of one document shares.
struct Context<'a> {
    request: &'a DocumentRequest,
    currency: Currency,
    country: String,
}

/// An estimated line before it is numbered.
struct Estimated {
    kind: LineKind,
    parts: Vec<Part>,
    notes: Vec<String>,
    mass: Mass,
}

fn spend_request(
    cx: &Context<'_>,
    amount: Decimal,
    currency: Currency,
    mcc: &str,
) -> EstimateRequest {
    EstimateRequest::Transaction(TransactionRequest {
        value: Spend { amount, currency },
        country_code: cx.country.clone(),
        merchant: Merchant::CategoryCode(mcc.to_owned()),
        diet: cx.request.diet,
        processed_year: cx.request.processed_year,
    })
}

fn run(request: &EstimateRequest, kind: LineKind) -> Result<Option<Estimated>, EstimateError> {
    let c: Computed = request.compute()?;
    let Some(mass) = c.mass else {
        return Ok(None);
    };
    Ok(Some(Estimated {
        kind,
        parts: c.explanation.parts,
        notes: c.explanation.notes,
        mass,
    }))
}

fn airport_code(s: &str) -> Option<String> {
    let code = s.trim().to_ascii_uppercase();
    ((code.len() == 3 || code.len() == 4) && crate::places::airport(&code).is_some())
        .then_some(code)
}

/// Two airport codes in a text: `LHR-JFK`, `LHR → JFK`, `LHR to JFK`.
fn airports_in(text: &str) -> Option<(String, String)> {
    let codes: Vec<String> = text
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() == 3 && w.chars().all(|c| c.is_ascii_uppercase()))
        .filter_map(airport_code)
        .collect();
    match codes.as_slice() {
        [a, b] if a != b => Some((a.clone(), b.clone())),
        _ => None,
    }
}

fn cabin(text: &str) -> CabinClass {
    let words = crate::cities::fold(text);
    if words.split(' ').any(|w| w == "first") {
        CabinClass::First
    } else if words.split(' ').any(|w| w == "business") {
        CabinClass::Business
    } else {
        CabinClass::Economy
    }
}

fn km(field: &str, amount: Decimal) -> Result<Distance, EstimateError> {
    Distance::parse(field, &amount.normalize().to_string(), DistanceUnit::Km)
}

/// A journey's request, or `None` when the line names no route.
fn travel(
    cx: &Context<'_>,
    line: &RawLine,
    mode: TravelMode,
) -> Result<Option<(EstimateRequest, TravelLine)>, EstimateError> {
    let text = line.text.clone().unwrap_or_default();
    let passengers = line
        .passengers
        .filter(|p| *p > Decimal::ZERO)
        .unwrap_or(Decimal::ONE);
    let distance = line.distance_km.or_else(|| {
        line.quantity.filter(|_| {
            line.unit
                .as_deref()
                .is_some_and(|u| u.eq_ignore_ascii_case("km"))
        })
    });
    let (leg, route) = match mode {
        TravelMode::Flight => {
            let named = match (line.origin.as_deref(), line.destination.as_deref()) {
                (Some(o), Some(d)) => airport_code(o).zip(airport_code(d)),
                _ => airports_in(&text),
            };
            let class = cabin(&text);
            match (named, distance) {
                (Some((source, destination)), _) => (
                    Leg::Flight {
                        route: FlightRoute::Airports {
                            source: source.clone(),
                            destination: destination.clone(),
                        },
                        cabin: class,
                        aircraft_type: None,
                    },
                    TravelRoute::Airports {
                        source,
                        destination,
                    },
                ),
                (None, Some(d)) => (
                    Leg::Flight {
                        route: FlightRoute::Distance(km("distance_km", d)?),
                        cabin: class,
                        aircraft_type: None,
                    },
                    TravelRoute::Distance,
                ),
                (None, None) => return Ok(None),
            }
        }
        TravelMode::Rail => {
            let rail = if matching::keyword(&text).is_some_and(|(k, _)| k == "eurostar")
                || crate::cities::fold(&text).contains("international")
            {
                Rail::International
            } else {
                Rail::National
            };
            match (
                distance,
                line.origin.as_deref(),
                line.destination.as_deref(),
            ) {
                (Some(d), _, _) => (
                    Leg::Rail {
                        route: Route::Distance(km("distance_km", d)?),
                        rail,
                    },
                    TravelRoute::Distance,
                ),
                (None, Some(o), Some(d)) => (
                    Leg::Rail {
                        route: Route::Between {
                            source: Place::Address {
                                city: o.to_owned(),
                                country_code: cx.country.clone(),
                            },
                            destination: Place::Address {
                                city: d.to_owned(),
                                country_code: cx.country.clone(),
                            },
                        },
                        rail,
                    },
                    TravelRoute::Cities {
                        source: o.to_owned(),
                        destination: d.to_owned(),
                    },
                ),
                _ => return Ok(None),
            }
        }
    };
    let class = match &leg {
        Leg::Flight { cabin, .. } => *cabin,
        _ => CabinClass::Economy,
    };
    Ok(Some((
        EstimateRequest::PassengerTransportation(PassengerRequest {
            passengers,
            legs: vec![leg],
        }),
        TravelLine {
            mode,
            route,
            distance_km: Decimal::ZERO,
            passengers,
            cabin: class,
        },
    )))
}

/// How an activity is computed.
enum Activity {
    /// Through an engine: electricity on the grid, gas by a catalogue factor.
    Request(Box<EstimateRequest>, String),
    /// Litres of a fuel × its DESNZ 2025 factor (the rows the freight
    /// engine burns; they are not catalogue entries).
    Litres(Factor, Decimal),
}

/// Litres × a DESNZ fuel factor, explained as one part.
fn litres(factor: &Factor, amount: Decimal) -> Result<Estimated, EstimateError> {
    let mass = kg_to_mass("quantity", amount * factor.value())?;
    Ok(Estimated {
        kind: LineKind::Activity {
            amount,
            unit: "l".into(),
        },
        parts: vec![Part {
            name: "activity".into(),
            mass,
            factors: vec![FactorUse::of(factor)],
            quantities: vec![Quantity {
                name: "activity".into(),
                amount,
                unit: "litres".into(),
                method: "as given on the line".into(),
            }],
            wtt: None,
        }],
        notes: vec![],
        mass,
    })
}

/// An activity's computation, or `None` without a quantity in a unit
/// Tonne converts for it.
fn activity(cx: &Context<'_>, line: &RawLine, target: Target) -> Option<Activity> {
    let q = line.quantity?;
    let unit = crate::cities::fold(line.unit.as_deref()?);
    let amount = q.normalize().to_string();
    let factor = |engine_id: &str, unit: &str| {
        let id = crate::catalogue::catalogue()
            .by_engine_id(engine_id)?
            .id
            .clone();
        Some(Activity::Request(
            Box::new(EstimateRequest::EmissionFactor(
                FactorRequest::parse(&id, &amount, unit).ok()?,
            )),
            unit.to_owned(),
        ))
    };
    let is_litres = matches!(unit.as_str(), "l" | "litre" | "litres" | "liter" | "liters");
    match target {
        Target::Electricity => {
            let (u, name) = match unit.as_str() {
                "kwh" => (EnergyUnit::KWh, "kWh"),
                "mwh" => (EnergyUnit::MWh, "MWh"),
                _ => return None,
            };
            Some(Activity::Request(
                Box::new(EstimateRequest::Electricity {
                    consumption: Energy::parse(&amount, u).ok()?,
                    country_code: Some(cx.country.clone()),
                }),
                name.to_owned(),
            ))
        }
        Target::NaturalGas => match unit.as_str() {
            "kwh" => factor("NATURAL_GAS_KWH_GROSS", "kWh"),
            "m3" | "cubic metres" | "cubic meters" => factor("NATURAL_GAS_M3", "m3"),
            _ => None,
        },
        Target::Diesel if is_litres => Some(Activity::Litres(desnz::FUEL_DIESEL_BLEND_LITRE, q)),
        Target::Petrol if is_litres => Some(Activity::Litres(desnz::FUEL_PETROL_MINERAL_LITRE, q)),
        _ => None,
    }
}

/// Estimates one line (`Ok(None)`: not estimated, with the note why).
fn line_estimate(
    cx: &Context<'_>,
    line: &RawLine,
    m: &mut Match,
    notes: &mut Vec<String>,
) -> Result<Option<(Estimated, LineValue)>, EstimateError> {
    let value = LineValue {
        amount: line.amount.unwrap_or(Decimal::ZERO),
        currency: line.currency.unwrap_or(cx.currency),
    };
    let label = format!("line {}", line.index);
    let specific = match m.target {
        Target::Flight | Target::Rail => {
            let mode = if m.target == Target::Flight {
                TravelMode::Flight
            } else {
                TravelMode::Rail
            };
            travel(cx, line, mode)?.map(|(r, t)| (r, LineKind::PassengerTransportation(t)))
        }
        Target::Electricity | Target::NaturalGas | Target::Diesel | Target::Petrol => {
            match activity(cx, line, m.target) {
                Some(Activity::Litres(factor, amount)) => {
                    return Ok(Some((litres(&factor, amount)?, value)));
                }
                Some(Activity::Request(r, unit)) => Some((
                    *r,
                    LineKind::Activity {
                        amount: line.quantity.unwrap_or_default(),
                        unit,
                    },
                )),
                None => None,
            }
        }
        Target::Spend(_) | Target::NotEstimated => None,
    };
    if let Some((request, kind)) = specific {
        match run(&request, kind) {
            Ok(Some(mut e)) => {
                if let LineKind::PassengerTransportation(t) = &mut e.kind {
                    t.distance_km = e
                        .parts
                        .first()
                        .and_then(|p| p.quantities.iter().find(|q| q.name == "distance"))
                        .map_or(Decimal::ZERO, |q| q.amount);
                }
                return Ok(Some((e, value)));
            }
            Ok(None) => {}
            Err(err) => notes.push(format!("{label}: {err}; estimated by its spend instead")),
        }
    }
    let Some(mcc) = m.target.spend_mcc() else {
        notes.push(format!(
            "{label}: {}: not a purchase, not estimated",
            m.reason
        ));
        return Ok(None);
    };
    let Some(amount) = line.amount else {
        notes.push(format!(
            "{label}: no amount and nothing else to estimate it by"
        ));
        return Ok(None);
    };
    if !matches!(m.target, Target::Spend(_)) {
        m.reason = format!(
            "{}; no route or quantity Tonne can use: spend in MCC {mcc}",
            m.reason
        );
    }
    let request = spend_request(cx, amount, value.currency, mcc);
    match run(
        &request,
        LineKind::Transaction {
            mcc: mcc.to_owned(),
        },
    )? {
        Some(e) => Ok(Some((e, value))),
        None => {
            notes.push(format!(
                "{label}: MCC {mcc} is money movement: not estimated"
            ));
            Ok(None)
        }
    }
}

fn named(parts: Vec<Part>, name: &str) -> Vec<Part> {
    parts
        .into_iter()
        .map(|mut p| {
            p.name = name.to_owned();
            p
        })
        .collect()
}

/// Estimates a transaction document.
pub(crate) fn compute(r: &DocumentRequest) -> Result<Computed, EstimateError> {
    r.key_value.check()?;
    let doc = read(&r.key_value)?;
    let total = r.value.or(doc.total);
    let readable = doc
        .lines
        .iter()
        .any(|l| l.text.is_some() || l.amount.is_some() || l.mcc.is_some());
    if !readable && total.is_none() {
        return Err(EstimateError::invalid(
            "unstructured_data.key_value",
            "no line Tonne can read and no total value (send value or a total)",
        ));
    }
    let currency = r.currency.or(doc.currency).ok_or_else(|| {
        EstimateError::invalid("currency", "no currency in the request or the document")
    })?;
    let country = r
        .merchant
        .country_code
        .clone()
        .or(doc.country_code.clone())
        .ok_or_else(|| {
            EstimateError::invalid(
                "merchant.country_code",
                "no country in the request or the document",
            )
        })?;
    crate::grid::check_country("merchant.country_code", &country)?;
    let cx = Context {
        request: r,
        currency,
        country,
    };
    let merchant_mcc = r
        .merchant
        .category_code
        .as_deref()
        .or(doc.merchant_mcc.as_deref());
    let merchant_name = r.merchant.name.as_deref().or(doc.merchant_name.as_deref());
    let words: Vec<&str> = [
        r.merchant.search_term.as_deref(),
        r.merchant.category.as_deref(),
        merchant_name,
    ]
    .into_iter()
    .flatten()
    .collect();
    let document_match = matching::match_document(&words, merchant_mcc);

    let mut notes = Vec::new();
    let mut items = Vec::new();
    let mut parts = Vec::new();
    let mut sum = Decimal::ZERO;
    let mut one_currency = true;
    for line in &doc.lines {
        if let Some(a) = line.amount {
            sum += if line.negative { -a } else { a };
            one_currency &= line.currency.is_none_or(|c| c == currency);
        }
        if line.negative {
            notes.push(format!(
                "line {}: a negative amount (discount or refund): not estimated",
                line.index
            ));
            continue;
        }
        let text = line.text.as_deref();
        let mut m = match matching::match_line(
            text,
            line.category.as_deref(),
            line.mcc.as_deref(),
            merchant_mcc,
        ) {
            Some(m) => m,
            None if line.amount.is_some() => Match {
                reason: format!(
                    "nothing in the line matched: the document's category ({})",
                    document_match.reason
                ),
                score: document_match.score.map(|s| s.max(1)).or(Some(1)),
                ..document_match.clone()
            },
            None => {
                notes.push(format!(
                    "line {}: nothing to match and no amount: not itemised",
                    line.index
                ));
                continue;
            }
        };
        let Some((e, value)) = line_estimate(&cx, line, &mut m, &mut notes)? else {
            continue;
        };
        let name = format!("line_items[{}]", items.len());
        notes.extend(e.notes.into_iter().map(|n| format!("{name}: {n}")));
        parts.extend(named(e.parts, &name));
        items.push(LineItem {
            item: text.map_or_else(|| m.text.clone(), str::to_owned),
            value,
            mass: e.mass,
            country_code: cx.country.clone(),
            kind: e.kind,
            matched: m.text,
            score: m.score,
            reason: m.reason,
        });
    }
    if let Some(t) = total
        && !items.is_empty()
        && one_currency
        && (sum - t).abs() > r.tolerance * t
    {
        notes.push(format!(
            "the lines add up to {} {}, the total is {} {}: more than {} % apart, so the whole document is estimated",
            sum.normalize(),
            currency.code(),
            t.normalize(),
            currency.code(),
            (r.tolerance * Decimal::ONE_HUNDRED).normalize()
        ));
        items.clear();
        parts.clear();
    }
    let fallback = if items.is_empty() {
        let Some(t) = total else {
            return Err(EstimateError::invalid(
                "unstructured_data.key_value",
                "no line Tonne can itemise and no total value (send value or a total)",
            ));
        };
        let Target::Spend(mcc) = document_match.target else {
            return Err(EstimateError::invalid("merchant", "no spend category"));
        };
        let Some(e) = run(
            &spend_request(&cx, t, currency, mcc),
            LineKind::Transaction {
                mcc: mcc.to_owned(),
            },
        )?
        else {
            return Err(EstimateError::invalid(
                "merchant.category_code",
                "is money movement: nothing to estimate",
            ));
        };
        notes.extend(e.notes.into_iter().map(|n| format!("fallback: {n}")));
        parts = named(e.parts, "fallback");
        Some(LineItem {
            item: merchant_name.unwrap_or(mcc).to_owned(),
            value: LineValue {
                amount: t,
                currency,
            },
            mass: e.mass,
            country_code: cx.country.clone(),
            kind: e.kind,
            matched: document_match.text.clone(),
            score: document_match.score,
            reason: document_match.reason.clone(),
        })
    } else {
        None
    };
    let grams: i64 = parts.iter().map(|p| p.mass.grams()).sum();
    let mass = Mass::from_grams(grams);
    Ok(Computed {
        mass: Some(mass),
        detail: EstimateDetail::TransactionDocument(Box::new(DocumentResult {
            line_items: items,
            fallback,
        })),
        explanation: Explanation {
            parts,
            notes,
            factor_set: None,
        },
    })
}
