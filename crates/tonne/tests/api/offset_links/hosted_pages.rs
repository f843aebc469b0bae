//! The hosted pages over plain HTTP: one order through the link, the card
//! step, live links and signed analytics URLs, and the per-IP rate limit.

use serde_json::json;

use super::fixtures::{create, create_paid_link};
use super::visitor::Visitor;
use crate::support::{TestApp, conforms};

/// The quote step's form: `email` asks for `amount` of `bundle` (in `unit`,
/// when given).
fn quote_form<'a>(
    csrf: &'a str,
    bundle: &'a str,
    email: &'a str,
    amount: &'a str,
    unit: Option<&'a str>,
) -> Vec<(&'a str, &'a str)> {
    let mut form = vec![
        ("csrf", csrf),
        ("bundle", bundle),
        ("email", email),
        ("amount", amount),
    ];
    form.extend(unit.map(|u| ("unit", u)));
    form
}

pub(super) async fn hosted_pages_place_one_order_through_the_link(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let bundles = app.bundle_ids(&t.test_key).await;
    let link = create(
        &app,
        &t.test_key,
        json!({
            "name": "Campaign", "title": "<script>alert(1)</script> Fund a forest",
            "bundles": [bundles[0], bundles[1]], "emails": ["jane@example.org"],
            "use_logo": false
        }),
    )
    .await;
    let id = link["id"].as_str().unwrap().to_owned();
    let bundle = bundles[1].as_str();

    let mut v = Visitor::new(&app);
    let page = v.open(&id).await;
    assert_eq!(page.status, 200);
    assert!(page.html.contains("<html lang=\"en\">"));
    assert!(
        page.html
            .contains("&lt;script&gt;alert(1)&lt;/script&gt; Fund a forest")
    );
    assert!(!page.html.contains("<script"), "no script at all");
    assert!(page.html.contains("<label for=\"email\">Email</label>"));
    assert!(page.html.contains("<label for=\"amount\">Amount</label>"));
    let csrf = page.field("csrf");

    let (_, orders_before) = app.count_estimates_and_orders().await;
    // no CSRF token, a wrong one, or no cookie: refused with a page, no form
    let mut stranger = Visitor::new(&app);
    let refused = stranger
        .post(
            &id,
            "quote",
            &quote_form(&csrf, bundle, "jane@example.org", "5", None),
        )
        .await;
    assert_eq!(refused.status, 403);
    assert!(!refused.html.contains("<form"));
    let refused = v
        .post(
            &id,
            "order",
            &[
                ("csrf", "00"),
                ("token", "t1"),
                ("bundle", bundle),
                ("email", "jane@example.org"),
                ("amount", "5"),
            ],
        )
        .await;
    assert_eq!(refused.status, 403);

    // the allow-list is enforced and never revealed; bounds are explained
    let not_listed = v
        .post(
            &id,
            "quote",
            &quote_form(&csrf, bundle, "john@example.org", "5", Some("money")),
        )
        .await;
    assert_eq!(not_listed.status, 403);
    assert!(not_listed.html.contains("may not use this offset link"));
    assert!(
        !not_listed.html.contains("jane@example.org"),
        "the list is not shown"
    );
    for (amount, unit) in [
        ("0", "money"),
        ("-2", "money"),
        ("10000.01", "money"),
        ("2000", "tonnes"),
        ("abc", "money"),
    ] {
        let page = v
            .post(
                &id,
                "quote",
                &quote_form(&csrf, bundle, "jane@example.org", amount, Some(unit)),
            )
            .await;
        assert_eq!(page.status, 400, "{amount} {unit}");
        assert!(page.html.contains("role=\"alert\""), "{}", page.html);
        assert!(page.html.contains("<form"), "the form is shown again");
    }

    // the quote, then the order: twice with the same token is one order
    let confirm = v
        .post(
            &id,
            "quote",
            &quote_form(&csrf, bundle, "Jane@Example.org", "1.5", Some("tonnes")),
        )
        .await;
    assert_eq!(confirm.status, 200, "{}", confirm.html);
    assert!(confirm.html.contains("<dd>1.5</dd>"), "{}", confirm.html);
    let token = confirm.field("token");
    let form = [
        ("csrf", csrf.as_str()),
        ("token", token.as_str()),
        ("bundle", bundle),
        ("email", "Jane@Example.org"),
        ("amount", "1.5"),
        ("unit", "tonnes"),
    ];
    let placed = v.post(&id, "order", &form).await;
    assert_eq!(placed.status, 200, "{}", placed.html);
    let order_id = placed.order_id();
    let again = v.post(&id, "order", &form).await;
    assert_eq!(again.order_id(), order_id, "a double submit is one order");
    assert!(
        placed
            .html
            .contains(&format!("{}/certificates/{order_id}", app.base))
    );
    let (_, orders_after) = app.count_estimates_and_orders().await;
    assert_eq!(orders_after, orders_before + 1);

    let orders = app
        .get(&format!("/v1/orders?offset_link_id={id}"), &t.test_key)
        .await;
    conforms("PaginatedOrders", &orders.body);
    let data = orders.body["data"].as_array().unwrap();
    assert_eq!(data.len(), 1);
    assert_eq!(data[0]["id"], order_id.as_str());
    assert_eq!(data[0]["offset_link_id"], id.as_str());
    assert_eq!(data[0]["email"], "Jane@Example.org");
    assert_eq!(data[0]["quantity"], "1.5");

    let analytics = app
        .get(&format!("/v1/offset-links/{id}/analytics"), &t.test_key)
        .await;
    conforms("OffsetLinkAnalytics", &analytics.body);
    assert_eq!(analytics.body["placed_orders"], 1);
    assert_eq!(analytics.body["unique_visitors"], 1, "one browser, one day");
    assert_eq!(analytics.body["orders"][0]["email"], "Jane@Example.org");
    assert_eq!(
        analytics.body["orders"][0]["bundles"][0]["bundle_id"],
        bundle
    );

    // switched off: a clear page without a form; unknown: 404
    let off = app
        .put(
            &format!("/v1/offset-links/{id}"),
            &t.test_key,
            &json!({"name": "Campaign", "use_logo": false, "status": "disabled"}),
        )
        .await;
    assert_eq!(off.status, 200);
    let gone = v.open(&id).await;
    assert_eq!(gone.status, 410);
    assert!(!gone.html.contains("<form"));
    let late = v.post(&id, "order", &form).await;
    assert_eq!(late.status, 410);
    let missing = v.open(&"0".repeat(32)).await;
    assert_eq!(missing.status, 404);
    let junk = v.open("..%2F..%2Fetc").await;
    assert_eq!(junk.status, 404);
}

pub(super) async fn the_card_step_declines_without_placing_and_accepts_the_test_card(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let bundles = app.bundle_ids(&t.test_key).await;
    let id = create_paid_link(&app, &t.test_key, "Pay", &bundles[0], "20.00").await;
    let mut v = Visitor::new(&app);
    let (chosen, confirm) = v.quote(&id, &bundles[0]).await;
    let choice = chosen.form();
    assert_eq!(confirm.status, 200, "{}", confirm.html);
    assert!(
        confirm
            .html
            .contains("<label for=\"card\">Card number</label>")
    );
    let token = confirm.field("token");
    let with_card = |card: &'static str| {
        let mut f = choice.to_vec();
        f.push(("token", token.as_str()));
        f.push(("card", card));
        f
    };
    let (_, before) = app.count_estimates_and_orders().await;
    let declined = v
        .post(&id, "order", &with_card("4000 0000 0000 0002"))
        .await;
    assert_eq!(declined.status, 402);
    assert!(declined.html.contains("declined"), "{}", declined.html);
    assert_eq!(app.count_estimates_and_orders().await.1, before, "no order");
    let paid = v
        .post(&id, "order", &with_card("4242 4242 4242 4242"))
        .await;
    assert_eq!(paid.status, 200, "{}", paid.html);
    let order = app
        .get(&format!("/v1/orders/{}", paid.order_id()), &t.test_key)
        .await;
    assert_eq!(order.body["total_cost"], "20.00");
    assert_eq!(
        order.body["payment_method"], "card",
        "the card authorised on the page pays it"
    );
    assert_eq!(app.count_estimates_and_orders().await.1, before + 1);
}

pub(super) async fn live_links_wait_for_the_operator_and_analytics_open_by_a_signed_url(
    app: TestApp,
) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let bundles = app.bundle_ids(&t.live_key).await;
    let id = create_paid_link(&app, &t.live_key, "Live", &bundles[0], "8.00").await;
    let mut v = Visitor::new(&app);
    let (chosen, confirm) = v.quote(&id, &bundles[0]).await;
    let choice = chosen.form();
    assert!(
        confirm.html.contains("once your payment has been received"),
        "{}",
        confirm.html
    );
    assert!(
        !confirm.html.contains("name=\"card\""),
        "live mode collects no card"
    );
    let token = confirm.field("token");
    let mut form = choice.to_vec();
    form.push(("token", token.as_str()));
    let placed = v.post(&id, "order", &form).await;
    assert_eq!(placed.status, 200, "{}", placed.html);
    assert!(placed.html.contains("has confirmed your payment"));
    let order = app
        .get(&format!("/v1/orders/{}", placed.order_id()), &t.live_key)
        .await;
    assert_eq!(
        order.body["status"], "received",
        "waits for `tonne orders advance`"
    );
    assert_eq!(
        order.body["payment_method"], "invoice",
        "paid outside Tonne, confirmed by the operator"
    );

    // the analytics page: a URL printed by the CLI opens without a key
    let url = crate::cli::tonne(
        &[
            "--secrets-key",
            &"ab".repeat(32),
            "offset-links",
            "analytics-url",
            &id,
            "--public-url",
            &app.base,
        ],
        &app.database_url,
    );
    let url = url.trim();
    assert!(
        url.starts_with(&format!("{}/l/{id}/analytics?expires=", app.base)),
        "{url}"
    );
    let page = app.client.get(url).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(
        html.contains("<svg") && html.contains("Placed orders"),
        "{html}"
    );
    assert!(
        html.contains("a@example.org"),
        "the orders with their email"
    );
    let tampered = app.client.get(format!("{url}0")).send().await.unwrap();
    assert_eq!(tampered.status(), 403);
    let link_id: tonne_links::OffsetLinkId = id.parse().unwrap();
    let past = time::OffsetDateTime::now_utc().unix_timestamp() - 1;
    let expired = tonne_pages::analytics_url(&app.base, &app.services.page_key, link_id, past);
    assert_eq!(app.client.get(expired).send().await.unwrap().status(), 403);
}

pub(super) async fn hosted_pages_are_rate_limited_per_client_ip(db: tonne_test_support::TestDb) {
    let app = TestApp::spawn_with(db, |o| {
        o.page_rate = tonne_http::rate_limit::RatePolicy {
            per_second: 1,
            burst: 3,
        };
    })
    .await;
    let mut v = Visitor::new(&app);
    let statuses: Vec<u16> = {
        let mut out = vec![];
        for _ in 0..4 {
            out.push(v.open(&"0".repeat(32)).await.status);
        }
        out
    };
    assert_eq!(statuses, vec![404, 404, 404, 429]);
    let res = app.fetch(&format!("/l/{}", "0".repeat(32)), None).await;
    assert_eq!(res.status(), 429);
    assert!(res.headers().get("retry-after").is_some());
    // the API's own limit is separate
    let t = app.tenant().await;
    assert_eq!(app.get("/v1/offset-links", &t.test_key).await.status, 200);
}
