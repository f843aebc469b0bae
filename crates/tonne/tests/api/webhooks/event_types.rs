//! `event_types` (Tonne's extension): a webhook receives only the types it
//! chose; an organisation pinned before `2024-08-08` receives no allocation
//! events whatever its webhooks chose; a bad list is 400 and writes nothing.

use super::*;

fn types_of(events: &[(String, u64, String, Value)]) -> Vec<String> {
    let mut seen = HashSet::new();
    events
        .iter()
        .filter(|e| seen.insert(e.2.clone()))
        .map(|e| e.3["event_type"].as_str().unwrap().to_owned())
        .collect()
}

async fn a_bad_list_is_refused_and_nothing_written(db: tonne_test_support::TestDb) {
    let app = TestApp::spawn(db).await;
    let t = app.tenant().await;
    let created = app
        .post(
            "/v1/webhooks",
            &t.test_key,
            &json!({"url": "http://127.0.0.1:9/hook",
                    "event_types": ["allocation.new", "order.completed", "order.completed"]}),
        )
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    // deduplicated, in the order Tonne lists the types; the contract's shape otherwise
    assert_eq!(
        created.body["event_types"],
        json!(["order.completed", "allocation.new"])
    );
    conforms_webhook("WebhookFullSecret", &created.body);
    let id = created.body["id"].as_str().unwrap().to_owned();
    let plain = create_webhook(&app, &t.test_key, "http://127.0.0.1:9/plain", None).await;
    assert!(plain.get("event_types").is_none(), "{plain}");
    for (body, field) in [
        (
            json!({"url": "http://127.0.0.1:9/x", "event_types": ["order.completed", "order.shipped"]}),
            "event_types[1]",
        ),
        (
            json!({"url": "http://127.0.0.1:9/x", "event_types": ["webhook.test"]}),
            "event_types[0]",
        ),
        (
            json!({"url": "http://127.0.0.1:9/x", "event_types": []}),
            "event_types",
        ),
        (
            json!({"url": "http://127.0.0.1:9/x", "event_types": null}),
            "event_types",
        ),
        (
            json!({"url": "http://127.0.0.1:9/x", "event_types": "order.paid"}),
            "event_types",
        ),
    ] {
        let res = app.post("/v1/webhooks", &t.test_key, &body).await;
        assert_error(&res, 400, "validation_error");
        let message = res.body["errors"][0]["message"].as_str().unwrap();
        assert!(message.starts_with(field), "{body}: {message}");
    }
    let listed = app.get("/v1/webhooks", &t.test_key).await;
    assert_eq!(listed.body.as_array().unwrap().len(), 2, "nothing written");
    // an update with a bad name changes nothing
    let path = format!("/v1/webhooks/{id}");
    let res = app
        .put(
            &path,
            &t.test_key,
            &json!({"url": "http://127.0.0.1:9/changed", "event_types": ["Order.Paid"]}),
        )
        .await;
    assert_error(&res, 400, "validation_error");
    let read = app.get(&path, &t.test_key).await.body;
    assert_eq!(read["url"], "http://127.0.0.1:9/hook");
    assert_eq!(
        read["event_types"],
        json!(["order.completed", "allocation.new"])
    );
    conforms_webhook("Webhook", &read);
    // absent keeps them, a list replaces them, null is every type again
    let kept = app
        .put(
            &path,
            &t.test_key,
            &json!({"url": "http://127.0.0.1:9/hook"}),
        )
        .await;
    assert_eq!(
        kept.body["event_types"],
        json!(["order.completed", "allocation.new"])
    );
    let replaced = app
        .put(
            &path,
            &t.test_key,
            &json!({"url": "http://127.0.0.1:9/hook", "event_types": ["order.failed"]}),
        )
        .await;
    assert_eq!(replaced.status, 200, "{}", replaced.body);
    assert_eq!(replaced.body["event_types"], json!(["order.failed"]));
    let cleared = app
        .put(
            &path,
            &t.test_key,
            &json!({"url": "http://127.0.0.1:9/hook", "event_types": null}),
        )
        .await;
    assert_eq!(cleared.status, 200, "{}", cleared.body);
    assert!(
        cleared.body.get("event_types").is_none(),
        "{}",
        cleared.body
    );
    let listed = app.get("/v1/webhooks", &t.test_key).await.body;
    assert!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .all(|w| w.get("event_types").is_none())
    );
}

/// A webhook choosing `order.completed` and `allocation.retired` receives
/// those only, signed and in sequence order, beside one receiving every type.
async fn a_webhook_receives_only_the_types_it_chose(db: tonne_test_support::TestDb) {
    let app = test_app(db, |_| {}).await;
    app.demo_catalogue().await;
    let rx = Receiver::start(Behaviour::Status(200));
    let t = app.tenant().await;
    let chosen = app
        .post(
            "/v1/webhooks",
            &t.test_key,
            &json!({"url": format!("{}/chosen", rx.base),
                    "event_types": ["order.completed", "allocation.retired"]}),
        )
        .await;
    assert_eq!(chosen.status, 200, "{}", chosen.body);
    let all = create_webhook(&app, &t.test_key, &format!("{}/all", rx.base), None).await;
    order(&app, &t.test_key, None).await;
    order(&app, &t.test_key, None).await;
    wait_for("both orders completed", Duration::from_secs(60), || {
        ["/all", "/chosen"].iter().all(|path| {
            types_of(&rx.events(path))
                .iter()
                .filter(|t| *t == "order.completed")
                .count()
                == 2
        })
    })
    .await;
    let every = types_of(&rx.events("/all"));
    assert!(every.iter().any(|t| t == "allocation.new"), "{every:?}");
    let got = types_of(&rx.events("/chosen"));
    assert!(
        got.iter()
            .all(|t| t == "order.completed" || t == "allocation.retired"),
        "{got:?}"
    );
    assert!(got.iter().any(|t| t == "allocation.retired"), "{got:?}");
    // the same events as the other webhook's of those types, in sequence order
    let sequences = |path: &str| -> Vec<u64> {
        let mut seen = HashSet::new();
        rx.events(path)
            .into_iter()
            .filter(|e| seen.insert(e.2.clone()))
            .filter(|e| {
                let t = e.3["event_type"].as_str().unwrap();
                t == "order.completed" || t == "allocation.retired"
            })
            .map(|e| e.1)
            .collect()
    };
    let chosen_sequences = sequences("/chosen");
    assert!(chosen_sequences.is_sorted(), "{chosen_sequences:?}");
    // (the allocation.retired after the last order.completed may still be on its way)
    wait_for("the same events", Duration::from_secs(30), || {
        sequences("/chosen") == sequences("/all")
    })
    .await;
    let chosen_requests: Vec<Received> = rx
        .received()
        .into_iter()
        .filter(|r| r.path == "/chosen")
        .collect();
    verify_all(&chosen_requests, chosen.body["secret"].as_str().unwrap());
    for r in &chosen_requests {
        conforms_request(&serde_json::from_slice(&r.body).unwrap());
    }
    let _ = all;
}

/// An organisation whose pinned version predates `2024-08-08` receives no
/// allocation events, even on a webhook that chose them; its order events
/// arrive as ever.
async fn an_organisation_pinned_before_2024_08_08_gets_no_allocation_events(
    db: tonne_test_support::TestDb,
) {
    let app = test_app(db, |_| {}).await;
    app.demo_catalogue().await;
    let rx = Receiver::start(Behaviour::Status(200));
    let t = app.tenant().await;
    create_webhook(&app, &t.test_key, &format!("{}/all", rx.base), None).await;
    let chose = app
        .post(
            "/v1/webhooks",
            &t.test_key,
            &json!({"url": format!("{}/chose", rx.base),
                    "event_types": ["allocation.new", "allocation.retired", "order.completed"]}),
        )
        .await;
    assert_eq!(chose.status, 200, "{}", chose.body);
    order(&app, &t.test_key, None).await;
    // The 2023 contract's organisation: no version of this build is earlier
    // than 2024-08-08, so the pin is written as a database holding one
    // would have it (after the last API request, which reads the pin).
    tonne_test_support::execute(
        &app.services.db,
        format!(
            "UPDATE organisation_api_versions SET version = '2023-01-01' WHERE organisation_id = '{}'",
            t.organisation_id
        ),
    )
    .await;
    wait_for("the order completed", Duration::from_secs(60), || {
        ["/all", "/chose"].iter().all(|path| {
            types_of(&rx.events(path))
                .iter()
                .any(|t| t == "order.completed")
        })
    })
    .await;
    // the allocation events were written, after the pin changed
    let allocations = tonne_test_support::count(
        &app.services.db,
        format!(
            "SELECT COUNT(*) AS n FROM order_events WHERE account_id = '{}' AND event_type LIKE 'allocation.%'",
            t.test_account
        ),
    )
    .await;
    assert!(allocations >= 2, "{allocations}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        types_of(&rx.events("/all")),
        vec![
            "order.received",
            "order.placed",
            "order.paid",
            "order.retiring",
            "order.completed"
        ]
    );
    assert_eq!(types_of(&rx.events("/chose")), vec!["order.completed"]);
    for r in rx.received() {
        // each body holds in the 2023 document as a whole
        conforms("WebhookRequest", &serde_json::from_slice(&r.body).unwrap());
    }
}

tonne_test_support::on_both_backends!(
    a_bad_list_is_refused_and_nothing_written,
    a_webhook_receives_only_the_types_it_chose,
    an_organisation_pinned_before_2024_08_08_gets_no_allocation_events,
);
