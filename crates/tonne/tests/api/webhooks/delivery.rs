//! Delivery: signed, in order, retried, disabled and resumed; several dispatchers.

use super::*;

async fn orders_reach_the_receiver_signed_in_order_filtered_and_by_mode(
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
async fn a_new_webhook_starts_after_the_events_before_it(db: tonne_test_support::TestDb) {
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

async fn rotation_deletion_and_gone(db: tonne_test_support::TestDb) {
    let app = test_app(db, |_| {}).await;
    app.demo_catalogue().await;
    let rx = Receiver::start(Behaviour::Status(200));
    let t = app.tenant().await;
    let w = create_webhook(&app, &t.test_key, &format!("{}/r", rx.base), None).await;
    let id = w["id"].as_str().unwrap().to_owned();
    let old = w["secret"].as_str().unwrap().to_owned();
    // deliveries flowing during the rotation
    for _ in 0..4 {
        order(&app, &t.test_key, None).await;
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    let rotated = app
        .put(
            &format!("/v1/webhooks/{id}/rotate-secret"),
            &t.test_key,
            &json!({}),
        )
        .await;
    let new = rotated.body["secret"].as_str().unwrap().to_owned();
    let rotated_at = Instant::now();
    for _ in 0..4 {
        order(&app, &t.test_key, None).await;
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    wait_for("40 order events", Duration::from_secs(60), || {
        distinct_order_events(&rx.events("/r")) == 40
    })
    .await;
    let now = time::OffsetDateTime::now_utc();
    let tol = time::Duration::minutes(5);
    let mut with_new = 0;
    for r in rx.received() {
        let by_old = tonne_webhooks::verify(&old, &r.signature, &r.body, now, tol).is_ok();
        let by_new = tonne_webhooks::verify(&new, &r.signature, &r.body, now, tol).is_ok();
        assert!(by_old || by_new, "a request signed by neither secret");
        // a request signed before the rotation may still be in flight for a moment;
        // after that, only the new secret signs
        if r.at > rotated_at + Duration::from_millis(500) {
            assert!(
                by_new && !by_old,
                "signed with the old secret after the rotation"
            );
        }
        with_new += usize::from(by_new);
    }
    assert!(with_new > 0);
    assert_in_order(&rx.events("/r"));

    // 410 disables the webhook at once
    rx.set(Behaviour::Status(410));
    order(&app, &t.test_key, None).await;
    wait_for(
        "the webhook disabled by 410",
        Duration::from_secs(30),
        || {
            futures_like_block(app.get(&format!("/v1/webhooks/{id}"), &t.test_key))["enabled"]
                == false
        },
    )
    .await;
    let attempts = app
        .get(&format!("/v1/webhooks/{id}/attempts"), &t.test_key)
        .await;
    let last = &attempts.body["data"][0];
    assert_eq!(
        (last["outcome"].clone(), last["status_code"].clone()),
        (json!("disabled"), json!(410))
    );

    // re-enabled: everything since the last acknowledged event arrives, in order
    rx.set(Behaviour::Status(200));
    let put = app
        .put(
            &format!("/v1/webhooks/{id}"),
            &t.test_key,
            &json!({"url": format!("{}/r", rx.base), "enabled": true}),
        )
        .await;
    assert_eq!(put.body["enabled"], true);
    wait_for("45 order events", Duration::from_secs(60), || {
        distinct_order_events(&rx.events("/r")) == 45
    })
    .await;
    assert_in_order(&rx.events("/r"));

    // delete stops deliveries at once
    assert_eq!(
        app.delete(&format!("/v1/webhooks/{id}"), &t.test_key)
            .await
            .status,
        200
    );
    let before = rx.received().len();
    order(&app, &t.test_key, None).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(rx.received().len(), before, "a request after DELETE");
}

/// Blocks on a request from inside a sync closure (wait_for's predicate).
fn futures_like_block(fut: impl std::future::Future<Output = crate::support::Reply>) -> Value {
    tokio::task::block_in_place(|| tokio::runtime::Handle::current().block_on(fut)).body
}

async fn exhausted_schedule_disables_then_re_enabling_resumes(db: tonne_test_support::TestDb) {
    let app = test_app(db, |o| {
        if let Some(d) = o.dispatcher.as_mut() {
            d.schedule = tonne_webhooks::RetrySchedule::parse("1,1").unwrap();
        }
    })
    .await;
    app.demo_catalogue().await;
    let rx = Receiver::start(Behaviour::Status(500));
    let t = app.tenant().await;
    let w = create_webhook(&app, &t.test_key, &format!("{}/x", rx.base), None).await;
    let id = w["id"].as_str().unwrap().to_owned();
    order(&app, &t.test_key, None).await;
    wait_for("disabled after 3 attempts", Duration::from_secs(30), || {
        futures_like_block(app.get(&format!("/v1/webhooks/{id}"), &t.test_key))["enabled"] == false
    })
    .await;
    let attempts = app
        .get(&format!("/v1/webhooks/{id}/attempts"), &t.test_key)
        .await
        .body;
    let outcomes: Vec<&str> = attempts["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(outcomes, vec!["disabled", "failed", "failed"]);
    // while disabled, more events happen; nothing is sent
    order(&app, &t.test_key, None).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let sent_while_disabled = rx.received().len();
    assert_eq!(sent_while_disabled, 3);
    rx.set(Behaviour::Status(200));
    app.put(
        &format!("/v1/webhooks/{id}"),
        &t.test_key,
        &json!({"url": format!("{}/x", rx.base), "enabled": true}),
    )
    .await;
    wait_for(
        "all 10 events after re-enabling",
        Duration::from_secs(60),
        || distinct_order_events(&rx.events("/x")) == 10,
    )
    .await;
    assert_in_order(&rx.events("/x"));
    let counts = order_counts(&rx.events("/x"));
    assert_eq!(counts.get(&t.test_account), Some(&10));
    verify_all(&rx.received(), w["secret"].as_str().unwrap());
}

/// 400 orders over 20 accounts (2,000 order events) to a receiver that fails
/// 30 % of requests and holds 5 % past the timeout: every event arrives,
/// per-account order is never broken, every signature verifies. The orders
/// are of a one-project bundle, so each brings two allocation events (800
/// in all, interleaved); the default split over nine projects would bring
/// 7,200 and hold the run four times as long without testing more.
async fn chaos_loses_nothing_and_keeps_order(db: tonne_test_support::TestDb) {
    let app = test_app(db, |o| {
        if let Some(d) = o.dispatcher.as_mut() {
            d.timeout = Duration::from_secs(1);
            d.lease = Duration::from_secs(6);
            d.schedule = tonne_webhooks::RetrySchedule::parse(&vec!["0"; 40].join(",")).unwrap();
        }
    })
    .await;
    app.demo_catalogue().await;
    let rx = Receiver::start(Behaviour::Chaos {
        fail: 300,
        hang: 50,
        hang_for: Duration::from_millis(1_500),
    });
    let t = app.tenant().await;
    let w = create_webhook(&app, &t.test_key, &format!("{}/chaos", rx.base), None).await;
    let mut accounts = vec![t.test_account.clone()];
    for i in 1..20 {
        accounts.push(client_account(&app, &t.test_key, &format!("Client {i}")).await);
    }
    let mut tasks = Vec::new();
    let app = Arc::new(app);
    for (i, account) in accounts.iter().enumerate() {
        let (app, key, account) = (Arc::clone(&app), t.test_key.clone(), account.clone());
        let biochar = tonne::catalogue_file::bundle_id("demo-biochar").to_string();
        tasks.push(tokio::spawn(async move {
            for _ in 0..20 {
                order_of(&app, &key, (i > 0).then_some(account.as_str()), &biochar).await;
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    wait_for("2,000 order events", Duration::from_secs(110), || {
        distinct_order_events(&rx.events("/chaos")) == 2_000
    })
    .await;
    assert_in_order(&rx.events("/chaos"));
    let counts = order_counts(&rx.events("/chaos"));
    assert_eq!(counts.len(), 20);
    assert!(counts.values().all(|n| *n == 100), "{counts:?}");
    // and the 800 allocation events, each once at least
    let allocation_events: HashSet<String> = rx
        .events("/chaos")
        .into_iter()
        .filter(|e| !is_order_event(&e.3))
        .map(|e| e.2)
        .collect();
    assert_eq!(allocation_events.len(), 800);
    verify_all(&rx.received(), w["secret"].as_str().unwrap());
    let failed = rx.received().len();
    assert!(
        failed > 200,
        "the receiver's failures were exercised ({failed} requests)"
    );
}

/// Two dispatchers share the streams; one is killed mid-run (its leases are never
/// released); the other takes its streams over when the leases expire.
async fn two_dispatchers_one_killed(db: tonne_test_support::TestDb) {
    let app = test_app(db, |o| o.dispatcher = None).await;
    app.demo_catalogue().await;
    let rx = Receiver::start(Behaviour::Status(200));
    let t = app.tenant().await;
    let w = create_webhook(&app, &t.test_key, &format!("{}/two", rx.base), None).await;
    let mut accounts = vec![t.test_account.clone()];
    for i in 1..10 {
        accounts.push(client_account(&app, &t.test_key, &format!("C{i}")).await);
    }
    let config = tonne_dispatcher::DispatcherConfig {
        poll_interval: Duration::from_millis(20),
        timeout: Duration::from_secs(1),
        lease: Duration::from_secs(6),
        batch_size: 3,
        targets: tonne_webhooks::TargetPolicy {
            allow_private: true,
        },
        ..tonne_dispatcher::DispatcherConfig::default()
    };
    let start = |config: tonne_dispatcher::DispatcherConfig| {
        let registry = prometheus::Registry::new();
        let d = tonne_dispatcher::Dispatcher::new(
            Arc::new(app.services.webhook_store.clone()),
            config,
            tonne_dispatcher::DispatchMetrics::new(&registry).unwrap(),
        )
        .unwrap();
        let (stop, stopped) = tokio::sync::watch::channel(false);
        (stop, tokio::spawn(d.run(stopped)))
    };
    let (_stop_a, a) = start(config.clone());
    let (stop_b, b) = start(config);
    for round in 0..6 {
        for (i, account) in accounts.iter().enumerate() {
            order(&app, &t.test_key, (i > 0).then_some(account.as_str())).await;
        }
        if round == 2 {
            a.abort(); // a crash: no lease is given back
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    wait_for("300 order events", Duration::from_secs(90), || {
        distinct_order_events(&rx.events("/two")) == 300
    })
    .await;
    assert_in_order(&rx.events("/two"));
    let counts = order_counts(&rx.events("/two"));
    assert!(counts.values().all(|n| *n == 30), "{counts:?}");
    // and every allocation's events, new then retired, through the crash
    let (mut new, mut retired) = (HashSet::new(), HashSet::new());
    for (_, _, _, e) in rx.events("/two") {
        let id = e["data"]["allocation"]["id"].as_str().map(str::to_owned);
        match (e["event_type"].as_str().unwrap(), id) {
            ("allocation.new", Some(id)) => {
                assert!(!retired.contains(&id), "retired before new");
                new.insert(id);
            }
            ("allocation.retired", Some(id)) => {
                retired.insert(id);
            }
            _ => {}
        }
    }
    assert!(!new.is_empty());
    assert_eq!(new, retired, "each allocation new, then retired");
    verify_all(&rx.received(), w["secret"].as_str().unwrap());
    let _ = stop_b.send(true);
    let _ = b.await;
}

/// Each project's allocation of an order is announced: `allocation.new`
/// when the order enters `retiring`, `allocation.retired` when its credits
/// are retired (here, by the test registry, at once), right after the
/// order's `order.retiring`, in the account's sequence, signed like any
/// event, and the contract's `OrderAllocation` of the order's projects.
async fn allocations_follow_their_orders_events_signed_and_in_order(
    db: tonne_test_support::TestDb,
) {
    let app = test_app(db, |_| {}).await;
    app.demo_catalogue().await;
    let rx = Receiver::start(Behaviour::Status(200));
    let t = app.tenant().await;
    let w = create_webhook(&app, &t.test_key, &format!("{}/alloc", rx.base), None).await;
    let placed = app
        .post(
            "/v1/orders/by-mass",
            &t.test_key,
            &json!({"mass": {"amount": "0.5", "unit": "t"}}),
        )
        .await;
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

tonne_test_support::on_both_backends!(
    orders_reach_the_receiver_signed_in_order_filtered_and_by_mode,
    a_new_webhook_starts_after_the_events_before_it,
    allocations_follow_their_orders_events_signed_and_in_order,
    rotation_deletion_and_gone,
    exhausted_schedule_disables_then_re_enabling_resumes,
    chaos_loses_nothing_and_keeps_order
);

/// Several dispatchers are a PostgreSQL feature (SQLite runs exactly one).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_two_dispatchers_one_killed() {
    if let Some(db) = tonne_test_support::TestDb::postgres() {
        two_dispatchers_one_killed(db).await;
    }
}
