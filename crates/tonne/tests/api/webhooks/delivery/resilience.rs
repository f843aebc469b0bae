//! Delivery under stress: a failing, hanging receiver, and a dispatcher
//! killed while another takes its streams over.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use crate::webhooks::{
    Behaviour, Receiver, assert_in_order, client_account, create_webhook, distinct_order_events,
    is_order_event, order, order_counts, order_of, test_app, verify_all, wait_for,
};

/// 400 orders over 20 accounts (2,000 order events) to a receiver that fails
/// 30 % of requests and holds 5 % past the timeout: every event arrives,
/// per-account order is never broken, every signature verifies. The orders
/// are of a one-project bundle, so each brings two allocation events (800
/// in all, interleaved); the default split over nine projects would bring
/// 7,200 and hold the run four times as long without testing more.
pub(super) async fn chaos_loses_nothing_and_keeps_order(db: tonne_test_support::TestDb) {
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
pub(super) async fn two_dispatchers_one_killed(db: tonne_test_support::TestDb) {
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
