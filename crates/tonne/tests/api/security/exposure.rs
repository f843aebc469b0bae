//! What answers without a key shows nothing private: `/metrics` is not on the
//! public address, the API docs carry the console's headers, another
//! tenant's account is answered as unknown, and the console never prints text
//! from its address bar.

use serde_json::json;
use tonne_test_support::on_both_backends;

use crate::console::{PASSWORD, Visitor, member};
use crate::support::{TestApp, assert_error};

async fn metrics_are_served_apart_from_the_public_address(app: TestApp) {
    let public = app.fetch("/metrics", None).await;
    assert_eq!(public.status(), 404, "/metrics on the public address");
    let text = public.text().await.unwrap();
    assert!(!text.contains("tonne_http_requests"), "{text}");
    let metrics = app.metrics().await;
    assert!(metrics.contains("tonne_"), "{metrics}");
}

async fn the_api_docs_carry_security_headers(app: TestApp) {
    let res = app.fetch("/docs/", None).await;
    assert_eq!(res.status(), 200);
    let h = res.headers();
    assert_eq!(h["x-content-type-options"], "nosniff");
    assert_eq!(h["x-frame-options"], "DENY");
    let csp = h["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"));
}

async fn another_tenants_account_is_answered_as_unknown(app: TestApp) {
    let a = app.tenant().await;
    let b = app.tenant().await;
    let foreign = app
        .put(
            &format!("/v1/accounts/{}", b.live_account),
            &a.live_key,
            &json!({"name": "Hijack"}),
        )
        .await;
    let unknown = app
        .put(
            "/v1/accounts/0190c6f1a7b27c3e9f2d4b1a2c3d4e5f",
            &a.live_key,
            &json!({"name": "Hijack"}),
        )
        .await;
    assert_error(&foreign, 404, "not_found");
    assert_error(&unknown, 404, "not_found");
    assert_eq!(foreign.body, unknown.body, "told apart by the body");
    let theirs = app.get("/v1/accounts/me", &b.live_key).await;
    assert_ne!(theirs.body["name"], "Hijack");
    // deleting another tenant's logo: the same answer as an unknown id
    let foreign = app
        .delete(
            &format!("/v1/accounts/{}/logo", b.live_account),
            &a.live_key,
        )
        .await;
    let unknown = app
        .delete(
            "/v1/accounts/0190c6f1a7b27c3e9f2d4b1a2c3d4e5f/logo",
            &a.live_key,
        )
        .await;
    assert_error(&foreign, 404, "not_found");
    assert_eq!(foreign.body, unknown.body, "told apart by the body");
}

async fn the_console_prints_no_text_from_the_address_bar(app: TestApp) {
    let t = app.tenant().await;
    member(&app, "member@example.org", &t.organisation_id).await;
    let mut v = Visitor::new(&app);
    v.sign_in("member@example.org", PASSWORD).await;
    let page = v
        .get("/console/client-accounts?created=Your%20account%20is%20suspended%2C%20call%20us")
        .await;
    assert_eq!(page.status, 200);
    assert!(!page.html.contains("suspended"), "{}", page.html);
    // a cursor typed into the address bar is the visitor's mistake, not a
    // store failure: the first page, never a 503
    let bogus = v
        .get("/console/offset-links?mode=test&after=ffffffffffffffffffffffffffffffff")
        .await;
    assert_eq!(bogus.status, 303, "{}", bogus.html);
    // a real creation names the new account, looked up by its id
    let form = v.get("/console/client-accounts").await;
    let once = form
        .html
        .split(r#"name="once" value=""#)
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap()
        .to_owned();
    let made = v
        .post(
            "/console/client-accounts",
            &[
                ("csrf", form.csrf().as_str()),
                ("mode", "live"),
                ("once", once.as_str()),
                ("name", "Shop of Ada"),
                ("currency", "EUR"),
            ],
        )
        .await;
    assert_eq!(made.status, 303, "{}", made.html);
    let to = made.location.unwrap();
    assert!(!to.contains("Ada"), "the name is not in the address: {to}");
    let listed = v.get(&to).await;
    assert!(
        listed
            .html
            .contains("Client account <strong>Shop of Ada</strong> created.")
    );
}

async fn over_https_the_hosted_pages_csrf_cookie_is_host_prefixed(db: tonne_test_support::TestDb) {
    let app =
        TestApp::spawn_with(db, |o| o.public_url = Some("https://tonne.example".into())).await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let bundles = app.bundle_ids(&t.test_key).await;
    let link = app
        .post(
            "/v1/offset-links",
            &t.test_key,
            &json!({"name": "Checkout", "bundles": [bundles[0]], "use_logo": false, "require_payment": false}),
        )
        .await;
    assert_eq!(link.status, 200, "{}", link.body);
    let id = link.body["id"].as_str().unwrap();
    let page = app.fetch(&format!("/l/{id}"), None).await;
    assert_eq!(page.status(), 200);
    let cookie = page.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(cookie.starts_with("__Host-tonne_csrf="), "{cookie}");
    assert!(
        cookie.contains("; Secure") && cookie.contains("Path=/;"),
        "{cookie}"
    );
    assert!(!cookie.contains("Domain"), "{cookie}");
}

mod https_pages {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite() {
        super::over_https_the_hosted_pages_csrf_cookie_is_host_prefixed(
            tonne_test_support::TestDb::sqlite(),
        )
        .await;
    }
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    metrics_are_served_apart_from_the_public_address,
    the_api_docs_carry_security_headers,
    another_tenants_account_is_answered_as_unknown,
    the_console_prints_no_text_from_the_address_bar,
);
