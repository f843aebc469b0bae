//! Every console form acts once: the same stock form posted twice (a double
//! click, a resend) changes the stock once.

use tonne_test_support::on_both_backends;

use crate::console::{PASSWORD, Visitor, field, member, operator};
use crate::support::TestApp;

async fn the_stock_form_posted_twice_adds_once(app: TestApp) {
    app.demo_catalogue().await;
    operator(&app, "op@example.org").await;
    let mut v = Visitor::new(&app);
    v.sign_in("op@example.org", PASSWORD).await;
    let t = app.tenant().await;
    let bundles = app.get("/v1/bundles?limit=100", &t.live_key).await;
    let id = bundles.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "Direct Air Capture")
        .expect("the demo catalogue's Direct Air Capture")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let here = format!("/console/catalogue/{id}");
    let page = v.get(&here).await;
    assert_eq!(page.status, 200);
    let (csrf, once) = (page.csrf(), field(&page.html, "once"));
    let available = || async {
        app.get(&format!("/v1/bundles/{id}"), &t.live_key)
            .await
            .body["available_quantity"]
            .clone()
    };
    assert_eq!(available().await, "500");
    let form = [
        ("csrf", csrf.as_str()),
        ("once", once.as_str()),
        ("direction", "add"),
        ("quantity", "250"),
        ("reason", "Delivery from the registry"),
    ];
    let stock = format!("{here}/stock");
    let (first, second) = tokio::join!(v.post(&stock, &form), v.post(&stock, &form));
    assert_eq!(first.status, 303, "{}", first.html);
    assert_eq!(second.status, 303, "{}", second.html);
    // and once more, after both
    let third = v.post(&stock, &form).await;
    assert_eq!(third.status, 303);
    assert_eq!(available().await, "750", "the form acted once");
    // a refused form gives its key back: corrected, the same form acts
    let page = v.get(&here).await;
    let once = field(&page.html, "once");
    let mut bad = [
        ("csrf", csrf.as_str()),
        ("once", once.as_str()),
        ("direction", "add"),
        ("quantity", "-1"),
        ("reason", "Oops"),
    ];
    let refused = v.post(&stock, &bad).await;
    assert_eq!(refused.status, 400, "{}", refused.html);
    bad[3] = ("quantity", "1");
    let fixed = v.post(&stock, &bad).await;
    assert_eq!(fixed.status, 303, "{}", fixed.html);
    assert_eq!(available().await, "751");
}

async fn the_new_key_form_posted_twice_makes_one_key(app: TestApp) {
    let t = app.tenant().await;
    member(&app, "member@example.org", &t.organisation_id).await;
    let mut v = Visitor::new(&app);
    v.sign_in("member@example.org", PASSWORD).await;
    let organisation = t.organisation_id.parse().unwrap();
    let keys = || async {
        app.services
            .accounts
            .list_keys(organisation)
            .await
            .unwrap()
            .len()
    };
    let before = keys().await;
    let page = v.get("/console/keys?mode=test").await;
    assert_eq!(page.status, 200);
    let (csrf, once) = (page.csrf(), field(&page.html, "once"));
    let form = [
        ("csrf", csrf.as_str()),
        ("mode", "test"),
        ("once", once.as_str()),
    ];
    let first = v.post("/console/keys", &form).await;
    assert_eq!(first.status, 200, "{}", first.html);
    assert!(first.html.contains("tonne_test_"), "the secret, once");
    let again = v.post("/console/keys", &form).await;
    assert_eq!(again.status, 303, "{}", again.html);
    assert!(!again.html.contains("tonne_test_"));
    assert_eq!(keys().await, before + 1, "one key for one form");
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    the_stock_form_posted_twice_adds_once,
    the_new_key_form_posted_twice_makes_one_key,
);
