//! What every line of one document shares, an estimated line before it is
//! numbered, and running an engine's request for a line.

use rust_decimal::Decimal;
use tonne_kernel::{Currency, Mass};

use crate::errors::EstimateError;
use crate::estimate::{Computed, EstimateRequest};
use crate::explain::Part;
use crate::transaction::{Merchant, TransactionRequest};
use crate::transaction_document::{DocumentRequest, LineKind};
use crate::units::Spend;

/// What every line of one document shares.
pub(super) struct Context<'a> {
    pub(super) request: &'a DocumentRequest,
    pub(super) currency: Currency,
    pub(super) country: String,
}

/// An estimated line before it is numbered.
pub(super) struct Estimated {
    pub(super) kind: LineKind,
    pub(super) parts: Vec<Part>,
    pub(super) notes: Vec<String>,
    pub(super) mass: Mass,
}

pub(super) fn spend_request(
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

pub(super) fn run(
    request: &EstimateRequest,
    kind: LineKind,
) -> Result<Option<Estimated>, EstimateError> {
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
