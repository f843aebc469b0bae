//! One line's estimate: its journey or activity where Tonne can use it,
//! else its spend in the matched merchant category, else not estimated.

use rust_decimal::Decimal;

use crate::errors::EstimateError;
use crate::transaction_document::reading::RawLine;
use crate::transaction_document::{LineKind, LineValue, Match, Target, TravelMode};

use super::activity::{Activity, activity, litres};
use super::context::{Context, Estimated, run, spend_request};
use super::travel::travel;

/// Estimates one line (`Ok(None)`: not estimated, with the note why).
pub(super) fn line_estimate(
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
