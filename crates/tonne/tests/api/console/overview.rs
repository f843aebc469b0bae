//! The operator's overview: live orders and tonnes per day (an SVG chart),
//! revenue per currency, estimates, webhook failures and low stock.

use serde_json::json;
use tonne_test_support::on_both_backends;

use super::{PASSWORD, Visitor, member, operator};
use crate::support::TestApp;

async fn the_overview_counts_live_orders_revenue_estimates_and_flags_low_stock(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let order = |tonnes: &'static str| {
        let app = &app;
        let key = t.live_key.clone();
        async move {
            let o = app
                .post(
                    "/v1/orders/by-mass",
                    &key,
                    &json!({ "mass": { "amount": tonnes, "unit": "t" } }),
                )
                .await;
            assert_eq!(o.status, 200, "{}", o.body);
            o.body
        }
    };
    let kept = order("2").await;
    let cancelled = order("3").await;
    let test_order = app.order_tonnes(&t.test_key, "7").await;
    assert_eq!(test_order.status, 200);
    let estimate = app
        .post(
            "/v1/estimates/electricity",
            &t.live_key,
            &json!({"consumption": {"amount": "1", "unit": "MWh"}, "country_code": "GBR"}),
        )
        .await;
    assert_eq!(estimate.status, 200, "{}", estimate.body);

    operator(&app, "op@example.org").await;
    let mut v = Visitor::new(&app);
    v.sign_in("op@example.org", PASSWORD).await;
    let csrf = v.get("/console/").await.csrf();
    let id = cancelled["id"].as_str().unwrap();
    let cancel = v
        .post(
            &format!("/console/orders/{id}/advance"),
            &[("csrf", &csrf), ("to", "cancelled")],
        )
        .await;
    assert_eq!(cancel.status, 303);
    // Direct Air Capture: 500 t, down to 40 t.
    let list = v.get("/console/catalogue").await;
    let end = list.html.find("\">Direct Air Capture</a>").unwrap();
    let start = list.html[..end].rfind("/console/catalogue/").unwrap() + 19;
    let bundle = &list.html[start..end];
    let removed = v
        .post(
            &format!("/console/catalogue/{bundle}/stock"),
            &[
                ("csrf", &csrf),
                ("direction", "remove"),
                ("quantity", "460"),
                ("reason", "sold elsewhere"),
            ],
        )
        .await;
    assert_eq!(removed.status, 303);

    let page = v.get("/console/").await;
    assert_eq!(page.status, 200);
    let html = &page.html;
    assert!(html.contains("<svg"), "the chart is drawn on the server");
    // live only, the cancelled order left out (the test-mode order too)
    assert!(html.contains("Orders: 1; tonnes: 2 "), "{html}");
    let total = kept["total_cost"].as_str().unwrap();
    let currency = kept["currency"].as_str().unwrap();
    assert!(
        html.contains(&format!("<dt>{currency}</dt><dd>{total}</dd>")),
        "revenue {currency} {total}"
    );
    assert!(html.contains("all accounts and modes: 1."), "one estimate");
    assert!(html.contains("0 of 0 delivery attempts failed (no attempts)"));
    assert!(html.contains("Stock needs attention"));
    assert!(html.contains("Direct Air Capture</a> (low stock)"));

    // A member's overview has none of it.
    member(&app, "ada@example.org", &t.organisation_id).await;
    let mut m = Visitor::new(&app);
    m.sign_in("ada@example.org", PASSWORD).await;
    let theirs = m.get("/console/").await;
    assert_eq!(theirs.status, 200);
    assert!(!theirs.html.contains("<svg") && !theirs.html.contains("Revenue"));
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    the_overview_counts_live_orders_revenue_estimates_and_flags_low_stock,
);
