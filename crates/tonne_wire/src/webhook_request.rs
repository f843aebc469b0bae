//! The check of a `WebhookRequest` body (what a webhook receiver gets): the
//! envelope and each event's data to the depth a receiver dispatches on —
//! every field of the contract's `WebhookEvent`, the order's `id` and
//! `status` of an order event, the whole `OrderAllocation` of an allocation
//! event. Fields the contract does not name are allowed (it sets no
//! `additionalProperties: false`). The first problem is answered, with its
//! field's path (`events[2].data.allocation.quantity`).

use serde_json::{Map, Value};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// Most events one body may hold (Tonne sends at most `TONNE_WEBHOOK_BATCH_SIZE`, 10 by default).
pub const MAX_EVENTS: usize = 100;

/// The contract's `WebhookEvent.event_type`.
pub const EVENT_TYPES: [&str; 9] = [
    "order.received",
    "order.placed",
    "order.paid",
    "order.retiring",
    "order.cancelled",
    "order.failed",
    "order.completed",
    "allocation.new",
    "allocation.retired",
];

const ORDER_STATUSES: [&str; 7] = [
    "received",
    "placed",
    "paid",
    "retiring",
    "complete",
    "cancelled",
    "failed",
];

const ALLOCATION_STATUSES: [&str; 2] = ["new", "retired"];

/// A problem with one field of the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldProblem {
    /// The field's path (`events[0].event_type`, `body` for the whole).
    pub field: String,
    pub message: String,
}

fn problem(field: &str, message: impl Into<String>) -> FieldProblem {
    FieldProblem {
        field: field.to_owned(),
        message: message.into(),
    }
}

/// Checks a `WebhookRequest` body; answers how many events it holds.
pub fn check(body: &Value) -> Result<usize, FieldProblem> {
    let body = object("body", Some(body))?;
    let Some(events) = body.get("events") else {
        return Err(problem("events", "is required"));
    };
    let Value::Array(events) = events else {
        return Err(problem("events", "must be an array of WebhookEvent"));
    };
    if events.len() > MAX_EVENTS {
        return Err(problem(
            "events",
            format!("at most {MAX_EVENTS} events per request"),
        ));
    }
    for (i, event) in events.iter().enumerate() {
        check_event(&format!("events[{i}]"), event)?;
    }
    Ok(events.len())
}

fn check_event(path: &str, event: &Value) -> Result<(), FieldProblem> {
    let event = object(path, Some(event))?;
    let field = |name: &str| format!("{path}.{name}");
    let version = text(&field("api_version"), event.get("api_version"))?;
    if version != "v1" {
        return Err(problem(
            &field("api_version"),
            format!("'{version}' is not one of: v1"),
        ));
    }
    if let Some(account) = event.get("account_id") {
        text(&field("account_id"), Some(account))?;
    }
    text(&field("event_id"), event.get("event_id"))?;
    text(&field("sequence"), event.get("sequence"))?;
    let kind = one_of(&field("event_type"), event.get("event_type"), &EVENT_TYPES)?;
    let data = object(&field("data"), event.get("data"))?;
    let data_path = field("data");
    if kind.starts_with("order.") {
        let order_path = format!("{data_path}.order");
        let order = object(&order_path, data.get("order"))?;
        text(&format!("{order_path}.id"), order.get("id"))?;
        one_of(
            &format!("{order_path}.status"),
            order.get("status"),
            &ORDER_STATUSES,
        )?;
    } else {
        let allocation = format!("{data_path}.allocation");
        check_allocation(&allocation, data.get("allocation"))?;
        // the contract spells it `splitFrom`; the 3.9.2 client sends its
        // camelCase properties snake_cased (`split_from`): either is checked
        for name in ["splitFrom", "split_from"] {
            if let Some(split) = data.get(name) {
                check_allocation(&format!("{data_path}.{name}"), Some(split))?;
            }
        }
    }
    Ok(())
}

/// The contract's `OrderAllocation`, whole.
fn check_allocation(path: &str, value: Option<&Value>) -> Result<(), FieldProblem> {
    let allocation = object(path, value)?;
    let field = |name: &str| format!("{path}.{name}");
    for name in ["id", "order_id", "project_id"] {
        text(&field(name), allocation.get(name))?;
    }
    let quantity = text(&field("quantity"), allocation.get("quantity"))?;
    if !is_decimal(quantity) {
        return Err(problem(
            &field("quantity"),
            "must be a decimal string such as \"222.667\"",
        ));
    }
    one_of(
        &field("status"),
        allocation.get("status"),
        &ALLOCATION_STATUSES,
    )?;
    let created = text(&field("created_at"), allocation.get("created_at"))?;
    if OffsetDateTime::parse(created, &Rfc3339).is_err() {
        return Err(problem(
            &field("created_at"),
            "must be an RFC 3339 date-time",
        ));
    }
    Ok(())
}

/// `^[0-9]+(\.[0-9]+)?$`
fn is_decimal(s: &str) -> bool {
    let (whole, fraction) = match s.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (s, None),
    };
    let digits = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    digits(whole) && fraction.is_none_or(digits)
}

fn object<'a>(
    path: &str,
    value: Option<&'a Value>,
) -> Result<&'a Map<String, Value>, FieldProblem> {
    match value {
        None => Err(problem(path, "is required")),
        Some(Value::Object(map)) => Ok(map),
        Some(_) => Err(problem(path, "must be an object")),
    }
}

fn text<'a>(path: &str, value: Option<&'a Value>) -> Result<&'a str, FieldProblem> {
    match value {
        None => Err(problem(path, "is required")),
        Some(Value::String(s)) if !s.is_empty() => Ok(s),
        Some(Value::String(_)) => Err(problem(path, "must not be empty")),
        Some(_) => Err(problem(path, "must be a string")),
    }
}

fn one_of<'a>(
    path: &str,
    value: Option<&'a Value>,
    list: &[&str],
) -> Result<&'a str, FieldProblem> {
    let value = text(path, value)?;
    if list.contains(&value) {
        Ok(value)
    } else {
        Err(problem(
            path,
            format!("'{value}' is not one of: {}", list.join(", ")),
        ))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    fn order_event() -> Value {
        json!({"api_version": "v1", "account_id": "a1", "event_id": "e1",
               "event_type": "order.paid", "sequence": "00000000000000000003",
               "data": {"order": {"id": "o1", "status": "paid", "quantity": "1"}}})
    }

    fn allocation_event() -> Value {
        json!({"api_version": "v1", "event_id": "e2", "event_type": "allocation.new",
               "sequence": "00000000000000000004",
               "data": {"allocation": {"id": "al1", "order_id": "o1", "project_id": "p1",
                        "quantity": "222.667", "status": "new",
                        "created_at": "2026-11-27T01:20:00Z"}}})
    }

    #[test]
    fn the_contracts_shapes_pass_and_unknown_fields_are_allowed() {
        let mut extra = order_event();
        extra["surprise"] = json!(1);
        let body = json!({"events": [order_event(), allocation_event(), extra]});
        assert_eq!(check(&body), Ok(3));
        assert_eq!(check(&json!({"events": []})), Ok(0));
        let mut split = allocation_event();
        split["data"]["splitFrom"] = allocation_event()["data"]["allocation"].clone();
        assert_eq!(check(&json!({"events": [split]})), Ok(1));
    }

    #[test]
    fn each_problem_names_its_field() {
        let bad = |edit: &dyn Fn(&mut Value), expected: &str| {
            let mut events = json!([order_event(), allocation_event()]);
            edit(&mut events);
            let err = check(&json!({ "events": events })).unwrap_err();
            assert_eq!(err.field, expected, "{}", err.message);
        };
        bad(
            &|e| e[0]["api_version"] = json!("v2"),
            "events[0].api_version",
        );
        bad(
            &|e| e[0]["event_type"] = json!("order.shipped"),
            "events[0].event_type",
        );
        bad(&|e| e[0]["sequence"] = json!(3), "events[0].sequence");
        bad(&|e| e[0]["event_id"] = json!(""), "events[0].event_id");
        bad(
            &|e| e[0]["account_id"] = json!(null),
            "events[0].account_id",
        );
        bad(&|e| e[0]["data"] = json!([]), "events[0].data");
        bad(
            &|e| e[0]["data"]["order"]["status"] = json!("done"),
            "events[0].data.order.status",
        );
        // an order event's data must be an order, not an allocation
        bad(
            &|e| e[0]["data"] = e[1]["data"].clone(),
            "events[0].data.order",
        );
        bad(
            &|e| e[1]["data"]["allocation"]["quantity"] = json!("1e3"),
            "events[1].data.allocation.quantity",
        );
        bad(
            &|e| e[1]["data"]["allocation"]["quantity"] = json!("1."),
            "events[1].data.allocation.quantity",
        );
        bad(
            &|e| e[1]["data"]["allocation"]["status"] = json!("allocated"),
            "events[1].data.allocation.status",
        );
        bad(
            &|e| e[1]["data"]["allocation"]["created_at"] = json!("yesterday"),
            "events[1].data.allocation.created_at",
        );
        bad(
            &|e| {
                e[1]["data"]["allocation"]
                    .as_object_mut()
                    .unwrap()
                    .remove("order_id");
            },
            "events[1].data.allocation.order_id",
        );
        bad(
            &|e| e[1]["data"]["splitFrom"] = json!({"id": "x"}),
            "events[1].data.splitFrom.order_id",
        );
        bad(
            &|e| e[1]["data"]["split_from"] = json!({"id": "x"}),
            "events[1].data.split_from.order_id",
        );
        assert_eq!(check(&json!({})).unwrap_err().field, "events");
        assert_eq!(check(&json!({"events": {}})).unwrap_err().field, "events");
        assert_eq!(check(&json!([])).unwrap_err().field, "body");
        let many: Vec<Value> = (0..=MAX_EVENTS).map(|_| order_event()).collect();
        assert_eq!(
            check(&json!({ "events": many })).unwrap_err().field,
            "events"
        );
    }
}
