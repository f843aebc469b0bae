//! Shared helpers of the order tests.

use serde_json::{Value, json};

pub(super) fn mass(amount: &str) -> Value {
    json!({"mass": {"amount": amount, "unit": "t"}})
}
