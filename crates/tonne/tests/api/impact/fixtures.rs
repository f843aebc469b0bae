//! Shared helpers of the impact tests: decimals, and orders placed and moved
//! along their statuses.

use std::str::FromStr;

use rust_decimal::Decimal;
use serde_json::{Value, json};
use tonne_kernel::Actor;
use tonne_ordering::OrderStatus;

use crate::support::TestApp;

pub(super) fn dec(v: &Value) -> Decimal {
    Decimal::from_str(
        v.as_str()
            .unwrap_or_else(|| panic!("not a decimal string: {v}")),
    )
    .unwrap()
}

pub(super) async fn order(app: &TestApp, key: &str, tonnes: &str) -> Value {
    let res = app
        .post(
            "/v1/orders/by-mass",
            key,
            &json!({"mass": {"amount": tonnes, "unit": "t"}}),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    res.body
}

/// Moves an order step by step until it is `to`.
pub(super) async fn advance_to(app: &TestApp, key: &str, id: &str, to: OrderStatus) -> Value {
    for _ in 0..6 {
        let current = app.get(&format!("/v1/orders/{id}"), key).await.body;
        if current["status"] == to.as_str() {
            return current;
        }
        let next = if to == OrderStatus::Cancelled {
            Some(OrderStatus::Cancelled)
        } else {
            None
        };
        app.services
            .ordering
            .advance(id, next, None, &Actor::CommandLine)
            .await
            .unwrap();
    }
    panic!("order {id} did not reach {to:?}");
}
