//! How the store writes an estimate's typed result into its `result` column
//! (JSON, `"v": 2`), and reads it back — including rows written before the
//! estimate became typed (no `v`: the API's own answer fields, with the quote
//! terms inside the stored request), so that an upgrade reads every old estimate.

mod legacy;
mod legs;
mod typed;
mod values;

use serde_json::Value;
use tonne_estimation::estimate::{EstimateDetail, EstimateKind, QuoteTerms};
use tonne_estimation::explain::Explanation;
use tonne_kernel::Mass;

pub(super) use typed::Stored;

/// Reads a `result` column: the typed encoding, or a row written before it.
pub(super) fn decode(
    kind: EstimateKind,
    mass: Option<Mass>,
    result: &str,
    request: &str,
) -> Option<(EstimateDetail, Explanation, QuoteTerms)> {
    let value: Value = serde_json::from_str(result).ok()?;
    if value.get("v").is_some() {
        return serde_json::from_value::<Stored>(value)
            .ok()
            .and_then(Stored::decode);
    }
    legacy::legacy(kind, mass, &value, request)
}

#[cfg(test)]
mod tests;
