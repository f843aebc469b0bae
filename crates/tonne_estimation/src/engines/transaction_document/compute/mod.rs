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
use tonne_kernel::Mass;

use super::matching::{self, Match, Target};
use super::reading::read;
use super::{DocumentRequest, DocumentResult, LineItem, LineKind, LineValue};
use crate::errors::EstimateError;
use crate::estimate::{Computed, EstimateDetail};
use crate::explain::{Explanation, Part};

mod activity;
mod context;
mod line;
mod travel;

use context::{Context, run, spend_request};
use line::line_estimate;

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
