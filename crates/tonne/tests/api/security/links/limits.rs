//! A link's limits per order, per day and per visitor address: each
//! refusal takes no stock.

use serde_json::json;
use tonne_links::{LimitsDraft, LinkChanges};

use super::fixtures::{Customer, link, scarce_bundle, stock};
use crate::support::TestApp;

pub(super) async fn an_order_above_the_per_order_limit_is_refused_and_takes_no_stock(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let bundle = scarce_bundle(&app, &t.live_key).await;
    // a public live link made over the API: the server's default limits
    let id = link(&app, &t, &t.live_key, &bundle, None).await;
    let c = Customer::arrive(&app, &id, &bundle).await;

    // the order: 250 t of the scarce bundle in one anonymous order
    for step in ["quote", "order"] {
        let refused = c.submit(step, "250", "big1").await;
        assert_eq!(refused.status, 400, "{step}: {}", refused.html);
        assert!(
            refused.html.contains("at most 10 t per order"),
            "{}",
            refused.html
        );
        assert!(
            refused.html.contains("role=\"alert\""),
            "shown with the form"
        );
    }
    // within the mass but above the value (2 t × 650.00 and commission)
    let refused = c.order("2", "big2").await;
    assert_eq!(refused.status, 400, "{}", refused.html);
    assert!(
        refused.html.contains("at most 1000.00 GBP per order"),
        "{}",
        refused.html
    );
    assert_eq!(
        stock(&app, &t.live_key, &bundle).await,
        "500",
        "nothing taken"
    );
    let orders = app
        .get(&format!("/v1/orders?offset_link_id={id}"), &t.live_key)
        .await;
    assert_eq!(orders.body["data"].as_array().unwrap().len(), 0);

    // within both: placed, and only its tonne is taken
    let placed = c.order("1", "small1").await;
    assert_eq!(placed.status, 200, "{}", placed.html);
    assert_eq!(stock(&app, &t.live_key, &bundle).await, "499");
}

pub(super) async fn a_link_takes_no_more_orders_or_tonnes_a_day_than_its_owner_allows(
    app: TestApp,
) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let bundle = scarce_bundle(&app, &t.test_key).await;
    let counted = link(
        &app,
        &t,
        &t.test_key,
        &bundle,
        Some(LimitsDraft {
            daily_orders: Some("2".into()),
            visitor_daily_orders: Some("100".into()),
            ..LimitsDraft::default()
        }),
    )
    .await;
    let c = Customer::arrive(&app, &counted, &bundle).await;
    for token in ["a1", "a2"] {
        assert_eq!(c.order("1", token).await.status, 200);
    }
    // the same token again answers the order already placed (not counted twice)
    assert_eq!(c.order("1", "a2").await.status, 200);
    let refused = c.order("1", "a3").await;
    assert_eq!(refused.status, 409, "{}", refused.html);
    assert!(
        refused
            .html
            .contains("taken all the orders it accepts today"),
        "{}",
        refused.html
    );
    assert_eq!(stock(&app, &t.test_key, &bundle).await, "498");

    // the mass per day: 1.5 t, then 1 t would pass it
    let res = app
        .put(
            &format!("/v1/offset-links/{counted}"),
            &t.test_key,
            &json!({"name": "Counted", "use_logo": false}),
        )
        .await;
    assert_eq!(res.status, 200, "the API's update keeps the limits");
    assert_eq!(c.order("1", "a4").await.status, 409, "still limited");
    let massed = {
        let res = app
            .post(
                "/v1/offset-links",
                &t.test_key,
                &json!({"name": "Massed", "bundles": [bundle], "use_logo": false}),
            )
            .await;
        let id = res.body["id"].as_str().unwrap().to_owned();
        app.services
            .links
            .update(
                t.test_account.parse().unwrap(),
                &id,
                LinkChanges {
                    name: "Massed".into(),
                    limits: Some(LimitsDraft {
                        daily_tonnes: Some("2".into()),
                        visitor_daily_orders: Some("100".into()),
                        ..LimitsDraft::default()
                    }),
                    ..LinkChanges::default()
                },
            )
            .await
            .unwrap();
        id
    };
    let m = Customer::arrive(&app, &massed, &bundle).await;
    assert_eq!(m.order("1.5", "b1").await.status, 200);
    let refused = m.order("1", "b2").await;
    assert_eq!(refused.status, 409, "{}", refused.html);
    assert!(
        refused.html.contains("today's limit of CO₂e"),
        "{}",
        refused.html
    );
    assert_eq!(m.order("0.5", "b3").await.status, 200, "exactly the limit");
    assert_eq!(stock(&app, &t.test_key, &bundle).await, "496");
}

pub(super) async fn one_visitor_address_places_no_more_orders_a_day_than_the_link_allows(
    app: TestApp,
) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let bundle = scarce_bundle(&app, &t.test_key).await;
    // the default: 3 orders per visitor address a day
    let id = link(&app, &t, &t.test_key, &bundle, None).await;
    let c = Customer::arrive(&app, &id, &bundle).await;
    for token in ["v1", "v2", "v3"] {
        assert_eq!(c.order("1", token).await.status, 200);
    }
    // a new browser (cookie, user agent) from the same address is the same visitor
    let again = Customer::arrive(&app, &id, &bundle).await;
    let refused = again.order("1", "v4").await;
    assert_eq!(refused.status, 429, "{}", refused.html);
    assert!(
        refused
            .html
            .contains("as many orders through this offset link today"),
        "{}",
        refused.html
    );
    let wait: i64 = refused.retry_after.expect("Retry-After").parse().unwrap();
    assert!(
        (1..=86_400).contains(&wait),
        "until the next UTC day: {wait}"
    );
    assert_eq!(stock(&app, &t.test_key, &bundle).await, "497");
}
