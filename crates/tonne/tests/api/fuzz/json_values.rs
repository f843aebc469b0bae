//! Arbitrary JSON, with the field names and values the API reads.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

pub(super) fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| json!(f)),
        "\\PC{0,24}".prop_map(Value::String),
        Just(json!("GBP")),
        Just(json!("live")),
        Just(json!("x".repeat(300))),
    ];
    leaf.prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("name".to_owned()),
                    Just("currency".to_owned()),
                    Just("beneficiary".to_owned()),
                    Just("bundle_portfolio_id".to_owned()),
                    Just("sibling_id".to_owned()),
                    Just("mass".to_owned()),
                    Just("amount".to_owned()),
                    Just("unit".to_owned()),
                    Just("value".to_owned()),
                    Just("bundle_selection".to_owned()),
                    Just("percentage".to_owned()),
                    Just("bundle_id".to_owned()),
                    Just("consumption".to_owned()),
                    Just("country_code".to_owned()),
                    Just("route".to_owned()),
                    Just("source".to_owned()),
                    Just("code".to_owned()),
                    Just("locode".to_owned()),
                    Just("legs".to_owned()),
                    Just("shipment".to_owned()),
                    Just("method".to_owned()),
                    Just("merchant".to_owned()),
                    Just("category_code".to_owned()),
                    Just("estimate_id".to_owned()),
                    "[a-z_]{1,10}",
                ],
                inner,
                0..5,
            )
            .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
        ]
    })
}
