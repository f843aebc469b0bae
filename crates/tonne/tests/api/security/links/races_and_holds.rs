//! Orders that race cannot pass a limit, and the stock of an order nobody
//! confirmed comes back when its hold ends.

use std::time::Duration;

use serde_json::json;
use tonne_links::LimitsDraft;

use super::fixtures::{Customer, link, order_id, scarce_bundle, stock};
use crate::support::TestApp;

pub(super) async fn concurrent_orders_cannot_pass_a_limit(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let bundle = scarce_bundle(&app, &t.test_key).await;
    let id = link(
        &app,
        &t,
        &t.test_key,
        &bundle,
        Some(LimitsDraft {
            daily_orders: Some("3".into()),
            visitor_daily_orders: Some("100".into()),
            ..LimitsDraft::default()
        }),
    )
    .await;
    let c = Customer::arrive(&app, &id, &bundle).await;
    let tokens: Vec<String> = (0..8).map(|i| format!("race{i}")).collect();
    let answers = futures_util::future::join_all(tokens.iter().map(|k| c.order("1", k))).await;
    let statuses: Vec<u16> = answers.iter().map(|a| a.status).collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        3,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == 409).count(),
        5,
        "{statuses:?}"
    );
    assert_eq!(stock(&app, &t.test_key, &bundle).await, "497");

    // one visitor's limit, raced the same way on another link
    let per_visitor = {
        let res = app
            .post(
                "/v1/offset-links",
                &t.test_key,
                &json!({"name": "Visitors", "bundles": [bundle], "use_logo": false}),
            )
            .await;
        res.body["id"].as_str().unwrap().to_owned()
    };
    let v = Customer::arrive(&app, &per_visitor, &bundle).await;
    let tokens: Vec<String> = (0..8).map(|i| format!("visit{i}")).collect();
    let answers = futures_util::future::join_all(tokens.iter().map(|k| v.order("1", k))).await;
    let statuses: Vec<u16> = answers.iter().map(|a| a.status).collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        3,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == 429).count(),
        5,
        "{statuses:?}"
    );
    assert_eq!(stock(&app, &t.test_key, &bundle).await, "494");
}

pub(super) async fn an_unconfirmed_hosted_order_expires_and_its_stock_comes_back(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let bundle = scarce_bundle(&app, &t.live_key).await;
    let id = link(&app, &t, &t.live_key, &bundle, None).await;
    let c = Customer::arrive(&app, &id, &bundle).await;
    // a live order waits for the operator to confirm payment: `received`
    let unconfirmed = order_id(&c.order("1", "hold1").await.html);
    let confirmed = order_id(&c.order("0.5", "hold2").await.html);
    assert_eq!(stock(&app, &t.live_key, &bundle).await, "498.5");
    // the operator confirms the second in time
    app.services
        .ordering
        .advance(
            &confirmed,
            Some(tonne_ordering::OrderStatus::Placed),
            None,
            &tonne_kernel::Actor::CommandLine,
        )
        .await
        .unwrap();
    let status = |order: String| {
        let app = &app;
        let key = t.live_key.clone();
        async move {
            let res = app.get(&format!("/v1/orders/{order}"), &key).await;
            res.body["status"].as_str().unwrap_or_default().to_owned()
        }
    };
    // the hold is 2 s, checked every half second: bounded at 20 s
    let mut waited = Duration::ZERO;
    while status(unconfirmed.clone()).await != "cancelled" {
        assert!(waited < Duration::from_secs(20), "never expired");
        tokio::time::sleep(Duration::from_millis(200)).await;
        waited += Duration::from_millis(200);
    }
    assert_eq!(
        stock(&app, &t.live_key, &bundle).await,
        "499.5",
        "the unconfirmed tonne is back; the confirmed half stays taken"
    );
    assert_eq!(status(confirmed.clone()).await, "placed");
}
