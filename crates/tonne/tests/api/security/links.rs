//! Hosted pages cannot drain stock or bill a client without limit: an
//! anonymous order on a public link is held to the link's per-order limits
//! (mass and value), its daily count and mass, and a daily count per visitor
//! address — also when orders race — and stock held by an order nobody
//! confirmed comes back when the hold ends. Every refusal leaves the stock as
//! it was. On SQLite and PostgreSQL.

use std::time::Duration;

use reqwest::Method;
use serde_json::json;
use tonne_links::{LimitsDraft, LinkChanges};
use tonne_test_support::{TestDb, on_both_backends};

use crate::support::{Tenant, TestApp};

/// The server with the hosted pages' per-IP rate limit out of the way (these
/// tests count orders, not requests) and a two-second hold.
async fn spawn(db: TestDb) -> TestApp {
    TestApp::spawn_with(db, |o| {
        o.page_rate = tonne_http::rate_limit::RatePolicy {
            per_second: 100_000,
            burst: 100_000,
        };
        o.links.hold = time::Duration::seconds(2);
    })
    .await
}

/// The demo's scarce bundle (direct air capture: 500 t at 650.00 a tonne).
async fn scarce_bundle(app: &TestApp, key: &str) -> String {
    let res = app.get("/v1/bundles?limit=100", key).await;
    res.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["available_quantity"] == "500")
        .map(|b| b["id"].as_str().unwrap().to_owned())
        .expect("the demo catalogue's 500 t bundle")
}

/// The bundle's available tonnes, as the API reads them.
async fn stock(app: &TestApp, key: &str, bundle: &str) -> String {
    let res = app.get(&format!("/v1/bundles/{bundle}"), key).await;
    assert_eq!(res.status, 200, "{}", res.body);
    res.body["available_quantity"].as_str().unwrap().to_owned()
}

/// A link offering the bundle over the API (the server's default limits),
/// then, when given, the owner's own limits (the console's path into the domain).
async fn link(
    app: &TestApp,
    t: &Tenant,
    key: &str,
    bundle: &str,
    limits: Option<LimitsDraft>,
) -> String {
    let res = app
        .post(
            "/v1/offset-links",
            key,
            &json!({"name": "Public", "bundles": [bundle], "use_logo": false}),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    let id = res.body["id"].as_str().unwrap().to_owned();
    if let Some(limits) = limits {
        let account = if key == t.live_key {
            &t.live_account
        } else {
            &t.test_account
        };
        app.services
            .links
            .update(
                account.parse().unwrap(),
                &id,
                LinkChanges {
                    name: "Public".into(),
                    limits: Some(limits),
                    ..LinkChanges::default()
                },
            )
            .await
            .unwrap();
    }
    id
}

/// A browser on the link's page: its CSRF cookie and the form's token.
struct Customer<'a> {
    app: &'a TestApp,
    link: String,
    bundle: String,
    cookie: String,
    csrf: String,
}

struct Answer {
    status: u16,
    retry_after: Option<String>,
    html: String,
}

impl<'a> Customer<'a> {
    async fn arrive(app: &'a TestApp, link: &str, bundle: &str) -> Self {
        let res = app
            .request(Method::GET, &format!("/l/{link}"), None)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        let set = res.headers()["set-cookie"].to_str().unwrap().to_owned();
        let cookie = set.split(';').next().unwrap().to_owned();
        let html = res.text().await.unwrap();
        let marker = "name=\"csrf\" value=\"";
        let start = html.find(marker).unwrap() + marker.len();
        let csrf = html[start..start + html[start..].find('"').unwrap()].to_owned();
        Self {
            app,
            link: link.to_owned(),
            bundle: bundle.to_owned(),
            cookie,
            csrf,
        }
    }

    /// Submits a step of the form for `tonnes` (`token` on the order step).
    async fn submit(&self, step: &str, tonnes: &str, token: &str) -> Answer {
        let form = [
            ("csrf", self.csrf.as_str()),
            ("token", token),
            ("bundle", self.bundle.as_str()),
            ("email", "anyone@example.org"),
            ("amount", tonnes),
            ("unit", "tonnes"),
        ];
        let res = self
            .app
            .request(Method::POST, &format!("/l/{}/{step}", self.link), None)
            .header("Cookie", &self.cookie)
            .form(&form)
            .send()
            .await
            .unwrap();
        Answer {
            status: res.status().as_u16(),
            retry_after: res
                .headers()
                .get("retry-after")
                .map(|v| v.to_str().unwrap().to_owned()),
            html: res.text().await.unwrap(),
        }
    }

    async fn order(&self, tonnes: &str, token: &str) -> Answer {
        self.submit("order", tonnes, token).await
    }
}

fn order_id(html: &str) -> String {
    let start = html.find("<code>").expect("an order id") + 6;
    html[start..start + html[start..].find("</code>").unwrap()].to_owned()
}

async fn an_order_above_the_per_order_limit_is_refused_and_takes_no_stock(app: TestApp) {
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

async fn a_link_takes_no_more_orders_or_tonnes_a_day_than_its_owner_allows(app: TestApp) {
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

async fn one_visitor_address_places_no_more_orders_a_day_than_the_link_allows(app: TestApp) {
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

async fn concurrent_orders_cannot_pass_a_limit(app: TestApp) {
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

async fn an_unconfirmed_hosted_order_expires_and_its_stock_comes_back(app: TestApp) {
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

/// A member of the organisation, signed in to the console.
async fn owner<'a>(
    app: &'a TestApp,
    email: &str,
    organisation: &str,
) -> crate::console::Visitor<'a> {
    let password = "limits are set by owners";
    app.services
        .users
        .create(
            tonne_accounts::users::NewUser {
                email: email.parse().unwrap(),
                role: tonne_accounts::users::Role::Member(organisation.parse().unwrap()),
            },
            Some(tonne_accounts::users::Password::new(password).unwrap()),
            &tonne_kernel::Actor::CommandLine,
        )
        .await
        .unwrap();
    let mut visitor = crate::console::Visitor::new(app);
    visitor.sign_in(email, password).await;
    visitor
}

async fn the_owner_sets_the_limits_in_the_console_and_the_page_keeps_to_them(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let rival = app.tenant().await;
    let bundle = scarce_bundle(&app, &t.test_key).await;
    let account = t.test_account.clone();
    let ada = owner(&app, "ada@acme.example", &t.organisation_id).await;
    let list = ada
        .get(&format!(
            "/console/offset-links?mode=test&account={account}"
        ))
        .await;
    let csrf = list.csrf();
    assert!(
        list.html.contains("Most tonnes per order"),
        "the form has the limits"
    );
    // created with a limit above the server's ceiling (1,000 t): refused beside it
    let refused = ada
        .post(
            "/console/offset-links",
            &[
                ("csrf", &csrf),
                ("mode", "test"),
                ("account", &account),
                ("name", "Owned"),
                ("bundles", &bundle),
                ("order_tonnes", "1000.5"),
            ],
        )
        .await;
    assert_eq!(refused.status, 400);
    assert!(
        refused.html.contains("id=\"link-order_tonnes-error\""),
        "{}",
        refused.html
    );
    let made = ada
        .post(
            "/console/offset-links",
            &[
                ("csrf", &csrf),
                ("mode", "test"),
                ("account", &account),
                ("name", "Owned"),
                ("bundles", &bundle),
                ("order_tonnes", "0.5"),
            ],
        )
        .await;
    assert_eq!(made.status, 303, "{}", made.html);
    let links = app.get("/v1/offset-links", &t.test_key).await;
    let id = links.body["data"][0]["id"].as_str().unwrap().to_owned();
    let c = Customer::arrive(&app, &id, &bundle).await;
    let over = c.order("1", "own1").await;
    assert_eq!(over.status, 400);
    assert!(
        over.html.contains("at most 0.5 t per order"),
        "{}",
        over.html
    );

    // the link's page: its limits, changed by the owner (a bad value refused beside it)
    let path = format!("/console/offset-links/{id}/limits");
    let bad = ada
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("mode", "test"),
                ("account", &account),
                ("visitor_daily_orders", "0"),
            ],
        )
        .await;
    assert_eq!(bad.status, 400);
    assert!(
        bad.html.contains("id=\"link-visitor_daily_orders-error\""),
        "{}",
        bad.html
    );
    let form = [
        ("csrf", csrf.as_str()),
        ("mode", "test"),
        ("account", account.as_str()),
        ("order_tonnes", "2"),
        ("visitor_daily_orders", "1"),
    ];
    let saved = ada.post(&path, &form).await;
    assert_eq!(saved.status, 303, "{}", saved.html);
    let page = ada.get(saved.location.as_deref().unwrap()).await;
    assert!(
        page.html.contains("1 orders per visitor address per day"),
        "{}",
        page.html
    );
    assert_eq!(c.order("1", "own2").await.status, 200, "1 t now within 2 t");
    assert_eq!(
        c.order("1", "own3").await.status,
        429,
        "one order per visitor"
    );
    assert_eq!(stock(&app, &t.test_key, &bundle).await, "499");

    // another organisation's member cannot change them; the change is audited
    let bob = owner(&app, "bob@rival.example", &rival.organisation_id).await;
    let bob_csrf = bob.get("/console/").await.csrf();
    let poke = bob
        .post(
            &path,
            &[
                ("csrf", &bob_csrf),
                ("mode", "test"),
                ("account", &account),
                ("order_tonnes", "1000"),
            ],
        )
        .await;
    assert_eq!(poke.status, 404);
    let forged = ada.post(&path, &form[1..]).await;
    assert_eq!(forged.status, 403, "no CSRF token");
    let log = crate::console::audit_of(&app, &id).await;
    let actions: Vec<&str> = log.iter().map(|e| e.action.as_str()).collect();
    assert_eq!(
        actions,
        ["offset_link.limits_changed", "offset_link.created"]
    );
}

on_both_backends!(
    with crate::security::links::spawn;
    an_order_above_the_per_order_limit_is_refused_and_takes_no_stock,
    a_link_takes_no_more_orders_or_tonnes_a_day_than_its_owner_allows,
    one_visitor_address_places_no_more_orders_a_day_than_the_link_allows,
    concurrent_orders_cannot_pass_a_limit,
    an_unconfirmed_hosted_order_expires_and_its_stock_comes_back,
    the_owner_sets_the_limits_in_the_console_and_the_page_keeps_to_them,
);
