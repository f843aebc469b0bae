//! Orders are private: only a key of the order's organisation and mode reads
//! an order, its certificate PDF or its idempotency key lookup; everyone else
//! gets the 404 of an unknown id. The public certificate (page and PDF) says
//! only what a certificate needs.

use reqwest::Method;
use serde_json::json;
use tonne_test_support::on_both_backends;

use crate::support::{TestApp, assert_error, conforms};

async fn an_order_answers_only_its_organisation_and_mode(app: TestApp) {
    app.demo_catalogue().await;
    let owner = app.tenant().await;
    let stranger = app.tenant().await;
    let body = json!({
        "mass": {"amount": "1", "unit": "t"},
        "idempotency_key": "private-1",
        "metadata": {"customer": "c-42"},
    });
    let placed = app.post("/v1/orders/by-mass", &owner.test_key, &body).await;
    assert_eq!(placed.status, 200, "{}", placed.body);
    let id = placed.body["id"].as_str().unwrap().to_owned();
    let order = format!("/v1/orders/{id}");
    let certificate = format!("/v1/orders/{id}/certificate");
    let by_key = "/v1/orders/by-idempotency-key/private-1";

    // the owner reads it
    let read = app.get(&order, &owner.test_key).await;
    assert_eq!(read.status, 200, "{}", read.body);
    conforms("Order", &read.body);

    // nobody else does, and none of them learns that it exists
    for (who, key) in [
        ("no key", None),
        ("a wrong key", Some("tonne_test_not-a-key")),
        ("the owner's other mode", Some(owner.live_key.as_str())),
        ("another organisation", Some(stranger.test_key.as_str())),
        (
            "another organisation's other mode",
            Some(stranger.live_key.as_str()),
        ),
    ] {
        for path in [order.as_str(), certificate.as_str(), by_key] {
            let res = app.send(app.request(Method::GET, path, key)).await;
            assert_error(&res, 404, "not_found");
            let text = res.body.to_string();
            assert!(
                !text.contains("c-42") && !text.contains("private-1"),
                "{who} {path}: {text}"
            );
        }
    }
}

async fn the_public_certificate_shows_nothing_private(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let body = json!({
        "mass": {"amount": "1", "unit": "t"},
        "idempotency_key": "idem-secret-7",
        "metadata": {"customer": "meta-secret-7"},
    });
    let placed = app.post("/v1/orders/by-mass", &t.live_key, &body).await;
    let id = placed.body["id"].as_str().unwrap().to_owned();
    for to in ["paid", "retiring", "complete"] {
        crate::cli::tonne(&["orders", "advance", &id, "--to", to], &app.database_url);
    }
    let page = app.fetch(&format!("/certificates/{id}"), None).await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains(&format!("/certificates/{id}.pdf")), "{html}");
    assert!(!html.contains(&format!("/v1/orders/{id}")), "{html}");
    for secret in ["idem-secret-7", "meta-secret-7", "customer"] {
        assert!(!html.contains(secret), "the page shows {secret}");
    }
    // its PDF needs no key and carries no private field either
    let pdf = app.fetch(&format!("/certificates/{id}.pdf"), None).await;
    assert_eq!(pdf.status(), 200);
    assert_eq!(pdf.headers()["content-type"], "application/pdf");
    let bytes = pdf.bytes().await.unwrap();
    let doc = lopdf::Document::load_mem(&bytes).expect("a parseable PDF");
    let text = doc.extract_text(&[1]).unwrap_or_default();
    assert!(!text.is_empty());
    for secret in ["idem-secret-7", "meta-secret-7"] {
        assert!(!text.contains(secret), "the PDF shows {secret}");
    }
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    an_order_answers_only_its_organisation_and_mode,
    the_public_certificate_shows_nothing_private,
);
