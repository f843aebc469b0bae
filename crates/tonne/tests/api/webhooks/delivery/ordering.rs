//! What reaches a receiver: signed, in order, filtered by account and mode,
//! nothing from before the webhook, and allocations after their orders.

use std::collections::HashSet;
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::Tenant;
use crate::webhooks::{
    Behaviour, Receiver, assert_in_order, client_account, conforms_request, create_webhook,
    distinct_order_events, is_order_event, order, order_counts, test_app, verify_all, wait_for,
};

pub(super) async fn orders_reach_the_receiver_signed_in_order_filtered_and_by_mode(
    db: tonne_test_support::TestDb,
) {
    let app = test_app(db, |_| {}).await;
    app.demo_catalogue().await;
    let rx = Receiver::start(Behaviour::Status(204));
    let t: Tenant = app.tenant().await;
    let client = client_account(&app, &t.test_key, "Client A").await;
    let all = create_webhook(&app, &t.test_key, &format!("{}/all", rx.base), None).await;
    let only_client = create_webhook(
        &app,
        &t.test_key,
        &format!("{}/client", rx.base),
        Some(vec![&client]),
    )
    .await;
    let live = create_webhook(&app, &t.live_key, &format!("{}/live", rx.base), None).await;
    for _ in 0..3 {
        order(&app, &t.test_key, None).await;
    }
    order(&app, &t.test_key, Some(&client)).await;
    // 4 orders × 5 transitions
    wait_for("20 order events at /all", Duration::from_secs(60), || {
        distinct_order_events(&rx.events("/all")) == 20
    })
    .await;
    wait_for("5 order events at /client", Duration::from_secs(30), || {
        distinct_order_events(&rx.events("/client")) == 5
    })
    .await;
    let received = rx.received();
    for r in &received {
        assert_eq!(r.content_type, "application/json");
        assert!(
            r.user_agent.starts_with("Tonne-Webhooks/"),
            "{}",
            r.user_agent
        );
        let body: Value = serde_json::from_slice(&r.body).unwrap();
        conforms_request(&body);
        assert!(body["events"].as_array().unwrap().len() <= 10);
        assert!(
            r.signature
                .contains(&format!("organisation={}", t.organisation_id))
        );
    }
    verify_all(
        &received
            .iter()
            .filter(|r| r.path == "/all")
            .cloned()
            .collect::<Vec<_>>(),
        all["secret"].as_str().unwrap(),
    );
    verify_all(
        &received
            .iter()
            .filter(|r| r.path == "/client")
            .cloned()
            .collect::<Vec<_>>(),
        only_client["secret"].as_str().unwrap(),
    );
    // gap-free and in order over every event (allocation events included)
    assert_in_order(&rx.events("/all"));
    let counts = order_counts(&rx.events("/all"));
    assert_eq!(counts.get(&t.test_account), Some(&15));
    assert_eq!(counts.get(&client), Some(&5));
    let client_counts = assert_in_order(&rx.events("/client"));
    assert_eq!(client_counts.keys().collect::<Vec<_>>(), vec![&client]);
    assert_eq!(order_counts(&rx.events("/client")).get(&client), Some(&5));
    // each event: the contract's envelope, the order as it was at that transition
    for (_, _, _, e) in rx.events("/all") {
        assert_eq!(e["api_version"], "v1");
        if !is_order_event(&e) {
            continue; // allocation events: their own test (`allocations`)
        }
        let status = e["data"]["order"]["status"].as_str().unwrap();
        let expected = match e["event_type"].as_str().unwrap() {
            "order.completed" => "complete",
            other => other.trim_start_matches("order."),
        };
        assert_eq!(status, expected, "{e}");
    }
    // the live webhook received nothing from test orders
    assert!(rx.events("/live").is_empty());
    let _ = live;
    // attempts are recorded
    let id = all["id"].as_str().unwrap();
    let attempts = app
        .get(
            &format!("/v1/webhooks/{id}/attempts?limit=100"),
            &t.test_key,
        )
        .await;
    assert!(
        attempts.body["data"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a["outcome"] == "delivered" && a["status_code"] == 204)
    );
}

/// A new webhook starts at each account's latest event: nothing that
/// happened before it was made reaches it (on SQLite too, whose `$N`
/// parameters are numbered in order of appearance).
pub(super) async fn a_new_webhook_starts_after_the_events_before_it(
    db: tonne_test_support::TestDb,
) {
    let app = test_app(db, |_| {}).await;
    app.demo_catalogue().await;
    let rx = Receiver::start(Behaviour::Status(204));
    let t: Tenant = app.tenant().await;
    order(&app, &t.test_key, None).await;
    let before = tonne_test_support::count(
        &app.services.db,
        format!(
            "SELECT last_sequence AS n FROM account_event_sequences WHERE account_id = '{}'",
            t.test_account
        ),
    )
    .await;
    assert!(before >= 1);
    create_webhook(&app, &t.test_key, &format!("{}/late", rx.base), None).await;
    order(&app, &t.test_key, None).await;
    wait_for("the second order's events", Duration::from_secs(60), || {
        distinct_order_events(&rx.events("/late")) >= 5
    })
    .await;
    let early: Vec<u64> = rx
        .events("/late")
        .iter()
        .map(|(_, sequence, _, _)| *sequence)
        .filter(|s| i64::try_from(*s).unwrap_or(i64::MAX) <= before)
        .collect();
    assert!(
        early.is_empty(),
        "events from before the webhook: {early:?}"
    );
}

/// Each project's allocation of an order is announced: `allocation.new`
/// when the order enters `retiring`, `allocation.retired` when its credits
/// are retired (here, by the test registry, at once), right after the
/// order's `order.retiring`, in the account's sequence, signed like any
/// event, and the contract's `OrderAllocation` of the order's projects.
pub(super) async fn allocations_follow_their_orders_events_signed_and_in_order(
    db: tonne_test_support::TestDb,
) {
    let app = test_app(db, |_| {}).await;
    app.demo_catalogue().await;
    let rx = Receiver::start(Behaviour::Status(200));
    let t = app.tenant().await;
    let w = create_webhook(&app, &t.test_key, &format!("{}/alloc", rx.base), None).await;
    let placed = app.order_tonnes(&t.test_key, "0.5").await;
    assert_eq!(placed.status, 200, "{}", placed.body);
    let order_id = placed.body["id"].as_str().unwrap().to_owned();
    wait_for("the order completed", Duration::from_secs(60), || {
        rx.events("/alloc")
            .iter()
            .any(|e| e.3["event_type"] == "order.completed")
    })
    .await;
    let order = app
        .get(&format!("/v1/orders/{order_id}"), &t.test_key)
        .await
        .body;
    let projects = order["projects"].as_array().unwrap().clone();
    assert!(!projects.is_empty());
    let n = projects.len();

    // first-seen events, in sequence order
    let events = rx.events("/alloc");
    assert_in_order(&events);
    let mut seen = HashSet::new();
    let firsts: Vec<Value> = events
        .into_iter()
        .filter(|e| seen.insert(e.2.clone()))
        .map(|e| e.3)
        .collect();
    let kinds: Vec<&str> = firsts
        .iter()
        .map(|e| e["event_type"].as_str().unwrap())
        .collect();
    let mut expected = vec![
        "order.received",
        "order.placed",
        "order.paid",
        "order.retiring",
    ];
    expected.extend(std::iter::repeat_n("allocation.new", n));
    expected.extend(std::iter::repeat_n("allocation.retired", n));
    expected.push("order.completed");
    assert_eq!(kinds, expected);

    // the allocations are the order's projects, in its order, each with an id
    let new: Vec<&Value> = firsts[4..4 + n]
        .iter()
        .map(|e| &e["data"]["allocation"])
        .collect();
    let retired: Vec<&Value> = firsts[4 + n..4 + 2 * n]
        .iter()
        .map(|e| &e["data"]["allocation"])
        .collect();
    let ids: HashSet<&str> = new.iter().map(|a| a["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), n, "one id per allocation");
    for ((a, r), p) in new.iter().zip(&retired).zip(&projects) {
        assert_eq!(a["order_id"], order_id.as_str());
        assert_eq!(a["project_id"], p["project_id"]);
        assert_eq!(a["quantity"], p["quantity"]);
        assert_eq!(a["status"], "new");
        assert_eq!(
            (r["id"].clone(), r["status"].clone()),
            (a["id"].clone(), json!("retired"))
        );
        assert_eq!(
            r["created_at"], a["created_at"],
            "the allocation's time, kept"
        );
        assert!(a["created_at"].as_str().unwrap().ends_with('Z'));
        assert!(a.get("splitFrom").is_none());
    }
    let tonnes: rust_decimal::Decimal = new
        .iter()
        .map(|a| {
            a["quantity"]
                .as_str()
                .unwrap()
                .parse::<rust_decimal::Decimal>()
                .unwrap()
        })
        .sum();
    assert_eq!(
        tonnes,
        "0.5".parse().unwrap(),
        "the allocations add up to the order"
    );
    for r in rx.received() {
        let body: Value = serde_json::from_slice(&r.body).unwrap();
        conforms_request(&body);
        // and Tonne's own conformance check of receivers' bodies agrees
        let checked = app
            .send(
                app.request(reqwest::Method::POST, "/v1/WebhookRequest", None)
                    .json(&body),
            )
            .await;
        assert_eq!(checked.status, 200, "{}", checked.body);
    }
    verify_all(&rx.received(), w["secret"].as_str().unwrap());
}
