//! Shared helpers of the webhook tests: webhooks, orders and client accounts
//! made through the API, waiting, per-account order of events, and the
//! contracts and signatures of deliveries.

use std::collections::{BTreeMap, HashSet};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::receiver::Received;
use crate::support::{Reply, TestApp, conforms, conforms_2024};

/// `POST /v1/webhooks` of a webhook to `url`; the answer, unchecked.
pub(crate) async fn post_webhook(app: &TestApp, key: &str, url: &str) -> Reply {
    app.post("/v1/webhooks", key, &json!({ "url": url })).await
}

pub(super) async fn create_webhook(
    app: &TestApp,
    key: &str,
    url: &str,
    accounts: Option<Vec<&str>>,
) -> Value {
    let mut body = json!({ "url": url });
    if let Some(ids) = accounts {
        body["account_ids"] = json!(ids);
    }
    let res = app.post("/v1/webhooks", key, &body).await;
    assert_eq!(res.status, 200, "{}", res.body);
    res.body
}

/// `PUT /v1/webhooks/{id}/rotate-secret`.
pub(super) async fn rotate_secret(app: &TestApp, key: &str, id: &str) -> Reply {
    let path = format!("/v1/webhooks/{id}/rotate-secret");
    app.put(&path, key, &json!({})).await
}

/// The contract's `Url` pattern refuses loopback `http://` (allowed in tests by
/// `TONNE_WEBHOOKS_ALLOW_PRIVATE`): validate everything else of the body.
pub(super) fn conforms_webhook(schema: &str, body: &Value) {
    let mut b = body.clone();
    b["url"] = json!("https://hooks.example.com/tonne");
    conforms(schema, &b);
}

pub(super) async fn order(app: &TestApp, key: &str, account: Option<&str>) {
    let mut req = app
        .request(reqwest::Method::POST, "/v1/orders/by-mass", Some(key))
        .json(&json!({"mass": {"amount": "0.5", "unit": "t"}}));
    if let Some(a) = account {
        req = req.header("Lune-Account", a);
    }
    let res = app.send(req).await;
    assert_eq!(res.status, 200, "{}", res.body);
}

/// An order of 0.5 t of one bundle (for the demo's biochar bundle: one
/// project, so one allocation).
pub(super) async fn order_of(app: &TestApp, key: &str, account: Option<&str>, bundle: &str) {
    let mut req = app
        .request(reqwest::Method::POST, "/v1/orders/by-mass", Some(key))
        .json(&json!({"mass": {"amount": "0.5", "unit": "t"},
                      "bundle_selection": [{"bundle_id": bundle, "percentage": 100}]}));
    if let Some(a) = account {
        req = req.header("Lune-Account", a);
    }
    let res = app.send(req).await;
    assert_eq!(res.status, 200, "{}", res.body);
}

pub(super) async fn client_account(app: &TestApp, key: &str, name: &str) -> String {
    let res = app.new_client_account(key, name, "GBP").await;
    assert_eq!(res.status, 200, "{}", res.body);
    res.body["id"].as_str().unwrap().to_owned()
}

pub(crate) async fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Every event first seen in per-account order (a re-send of earlier events is a
/// duplicate, never a step back), no gaps; returns first-seen events per account.
pub(super) fn assert_in_order(events: &[(String, u64, String, Value)]) -> BTreeMap<String, u64> {
    let mut next: BTreeMap<String, u64> = BTreeMap::new();
    for (account, seq, _, _) in events {
        let expected = next.entry(account.clone()).or_insert(1);
        if *seq == *expected {
            *expected += 1;
        } else {
            assert!(
                *seq < *expected,
                "account {account}: event {seq} arrived before {expected}"
            );
        }
    }
    next.into_iter().map(|(a, n)| (a, n - 1)).collect()
}

/// The distinct order events (`order.*`) among `events`. Every webhook also
/// receives its orders' allocation events (`allocation.*`, interleaved in the
/// same sequence): counts of order transitions count these.
pub(super) fn distinct_order_events(events: &[(String, u64, String, Value)]) -> usize {
    events
        .iter()
        .filter(|e| is_order_event(&e.3))
        .map(|e| e.2.clone())
        .collect::<HashSet<_>>()
        .len()
}

pub(super) fn is_order_event(event: &Value) -> bool {
    event["event_type"]
        .as_str()
        .is_some_and(|t| t.starts_with("order."))
}

/// A delivery's body against the contracts: whole against the 2024 document
/// (the one whose `WebhookEvent` has allocation events), and its order events
/// against both (the 2023 document knows only those).
pub(crate) fn conforms_request(body: &Value) {
    conforms_2024("WebhookRequest", body);
    let orders: Vec<Value> = body["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| is_order_event(e))
        .cloned()
        .collect();
    conforms("WebhookRequest", &json!({ "events": orders }));
}

/// Per account, the distinct order events among `events`.
pub(super) fn order_counts(events: &[(String, u64, String, Value)]) -> BTreeMap<String, u64> {
    let mut seen: BTreeMap<String, HashSet<String>> = BTreeMap::new();
    for (account, _, id, e) in events {
        if is_order_event(e) {
            seen.entry(account.clone()).or_default().insert(id.clone());
        }
    }
    seen.into_iter()
        .map(|(a, ids)| (a, u64::try_from(ids.len()).unwrap()))
        .collect()
}

pub(crate) fn verify_all(received: &[Received], secret: &str) {
    for r in received {
        tonne_webhooks::verify(
            secret,
            &r.signature,
            &r.body,
            time::OffsetDateTime::now_utc(),
            time::Duration::minutes(5),
        )
        .unwrap_or_else(|e| panic!("{e}: {}", r.signature));
    }
}

pub(super) async fn test_app(
    db: tonne_test_support::TestDb,
    tweak: impl FnOnce(&mut tonne::server::ServeOptions),
) -> TestApp {
    TestApp::spawn_with(db, |o| {
        o.test_order_step = Duration::from_millis(200);
        tweak(o);
    })
    .await
}
