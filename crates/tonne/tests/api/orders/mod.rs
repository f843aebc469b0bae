//! Orders, end to end.

mod creation;
mod fixtures;
mod idempotency;

use std::time::Duration;

use reqwest::Method;
use tonne_test_support::{TestDb, on_both_backends};

use crate::support::{TestApp, conforms};
use fixtures::mass;

use creation::*;
use idempotency::*;

on_both_backends!(
    with crate::support::TestApp::spawn;
    orders_by_mass_and_value_are_created_read_and_listed,
    a_repeated_idempotency_key_is_409_and_creates_nothing,
    fifty_concurrent_requests_with_one_key_create_exactly_one_order,
    bad_orders_are_refused_and_write_nothing,
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn test_orders_advance_by_themselves_and_live_orders_by_the_cli() {
    let app = TestApp::spawn_with(TestDb::sqlite(), |o| {
        o.test_order_step = Duration::from_millis(150)
    })
    .await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    // The test account has a logo: the certificate (page and PDF) shows it.
    let (content_type, form) = crate::accounts::logo_form(&crate::accounts::png(24, 12));
    let uploaded = app
        .send(
            app.request(
                Method::POST,
                &format!("/v1/accounts/{}/logo", t.test_account),
                Some(&t.test_key),
            )
            .header("Content-Type", content_type)
            .body(form),
        )
        .await;
    assert_eq!(uploaded.status, 200, "{}", uploaded.body);
    let test_order = app
        .post("/v1/orders/by-mass", &t.test_key, &mass("1"))
        .await;
    let live_order = app
        .post("/v1/orders/by-mass", &t.live_key, &mass("1"))
        .await;
    let (test_id, live_id) = (
        test_order.body["id"].as_str().unwrap().to_owned(),
        live_order.body["id"].as_str().unwrap().to_owned(),
    );
    let mut status = String::new();
    for _ in 0..60 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        status = app
            .get(&format!("/v1/orders/{test_id}"), &t.test_key)
            .await
            .body["status"]
            .as_str()
            .unwrap()
            .to_owned();
        if status == "complete" {
            break;
        }
    }
    assert_eq!(status, "complete", "the test order walked the pipeline");
    let done = app.get(&format!("/v1/orders/{test_id}"), &t.test_key).await;
    conforms("Order", &done.body);
    let projects = done.body["projects"]
        .as_array()
        .expect("projects once retiring");
    let retired: f64 = projects
        .iter()
        .map(|p| p["quantity"].as_str().unwrap().parse::<f64>().unwrap())
        .sum();
    assert!(
        (retired - 1.0).abs() < 1e-9,
        "projects add up to the order: {projects:?}"
    );
    assert_eq!(
        done.body["certificate"],
        format!("{}/v1/orders/{test_id}/certificate", app.base),
        "absolute on TONNE_PUBLIC_URL"
    );
    let page_url = format!("{}/certificates/{test_id}", app.base);
    assert_eq!(done.body["public_certificate_url"], page_url.as_str());
    assert!(
        projects.iter().all(|p| p["status"] == "retired"),
        "a complete order's credits are retired: {projects:?}"
    );

    // The certificate: a real PDF whose text carries the figures.
    let res = app
        .fetch(
            &format!("/v1/orders/{test_id}/certificate"),
            Some(&t.test_key),
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "application/pdf");
    let pdf = res.bytes().await.unwrap();
    assert!(pdf.starts_with(b"%PDF"));
    let doc = lopdf::Document::load_mem(&pdf).expect("a parseable PDF");
    let images = doc
        .objects
        .values()
        .filter_map(|o| o.as_stream().ok())
        .filter(|s| {
            s.dict
                .get(b"Subtype")
                .and_then(|v| v.as_name())
                .is_ok_and(|n| n == b"Image")
        })
        .count();
    assert_eq!(images, 1, "the account's logo is drawn in the PDF");
    let text = doc.extract_text(&[1]).expect("text on page 1");
    for needle in [
        test_id.as_str(),
        "Total retired: 1 t CO2e",
        "Acme",
        "serial: TEST-",
        "registry: ",
    ] {
        assert!(
            text.contains(needle),
            "certificate lacks {needle:?}:\n{text}"
        );
    }
    let first_project = projects[0]["project_name"].as_str().unwrap();
    assert!(
        text.contains(first_project),
        "{first_project} missing:\n{text}"
    );
    let all_pages: String = doc
        .get_pages()
        .keys()
        .map(|n| doc.extract_text(&[*n]).unwrap())
        .collect();
    assert!(
        !all_pages.contains("/v1/"),
        "no API path in the PDF:\n{all_pages}"
    );
    assert!(
        all_pages.contains(&page_url),
        "the PDF names its public page"
    );
    // The public certificate page: anyone holding the id, once complete.
    let page = app.client.get(&page_url).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(
        page.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let html = page.text().await.unwrap();
    let today = {
        let d = time::OffsetDateTime::now_utc().date();
        format!("{} {} {}", d.day(), d.month(), d.year())
    };
    for needle in [
        "Certificate of carbon credit retirement",
        "Acme",
        "Retired on behalf of",
        today.as_str(),
        "1 tonnes of CO₂e",
        first_project,
        projects[0]["project_type"].as_str().unwrap(),
        "TEST-",
        "Test mode",
        "<th scope=\"col\">Country</th>",
    ] {
        assert!(html.contains(needle), "page lacks {needle:?}:\n{html}");
    }
    assert!(!html.contains("<script"), "no JavaScript");
    for p in projects {
        assert!(html.contains(p["project_name"].as_str().unwrap()));
    }
    for (path, why) in [
        (format!("/certificates/{live_id}"), "not complete yet"),
        (
            "/certificates/00000000000000000000000000000000".to_owned(),
            "no such order",
        ),
        ("/certificates/nonsense".to_owned(), "not an id"),
    ] {
        let res = app.fetch(&path, None).await;
        assert_eq!(res.status(), 404, "{why}");
        assert!(res.text().await.unwrap().contains("Certificate not found"));
    }

    let live = app.get(&format!("/v1/orders/{live_id}"), &t.live_key).await;
    assert_eq!(
        live.body["status"], "received",
        "live orders wait for the operator"
    );

    let out = crate::cli::tonne(
        &["orders", "advance", &live_id, "--to", "paid"],
        &app.database_url,
    );
    assert!(out.contains("is paid"), "{out}");
    let err = std::process::Command::new(env!("CARGO_BIN_EXE_tonne"))
        .args([
            "orders",
            "cancel",
            &live_id,
            "--database-url",
            &app.database_url,
        ])
        .output()
        .unwrap();
    assert!(!err.status.success(), "a paid order cannot be cancelled");
    assert!(String::from_utf8_lossy(&err.stderr).contains("cannot go from paid to cancelled"));
    let out = crate::cli::tonne(
        &["orders", "advance", &live_id, "--to", "retiring"],
        &app.database_url,
    );
    assert!(out.contains("is retiring"), "{out}");
    let retiring = app.get(&format!("/v1/orders/{live_id}"), &t.live_key).await;
    conforms("Order", &retiring.body);
    assert!(
        retiring.body["projects"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["status"] == "allocated"),
        "no serial issued yet: allocated, not retired: {}",
        retiring.body
    );
    assert!(retiring.body["public_certificate_url"].is_null());
    let out = crate::cli::tonne(
        &["orders", "advance", &live_id, "--to", "complete"],
        &app.database_url,
    );
    assert!(out.contains("is complete"), "{out}");
    // Completed by the operator without serials: retired on their word, and the
    // page says the serials are not issued.
    let live = app.get(&format!("/v1/orders/{live_id}"), &t.live_key).await;
    conforms("Order", &live.body);
    assert_eq!(live.body["payment_method"], "invoice");
    assert!(
        live.body["projects"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["status"] == "retired")
    );
    let html = app
        .client
        .get(live.body["public_certificate_url"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("Not issued yet"), "{html}");
    assert!(!html.contains("Test mode"), "{html}");
}

/// How many bundles a quote for 4 t has.
async fn bundles_quoted_for_4_t(app: &TestApp, key: &str) -> usize {
    app.post("/v1/orders/by-mass/quote", key, &mass("4"))
        .await
        .body["bundles"]
        .as_array()
        .unwrap()
        .len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_selection_set_by_the_cli_applies_to_requests_without_one() {
    let app = TestApp::spawn(TestDb::sqlite()).await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let bundles = app.get("/v1/bundles?limit=100", &t.live_key).await.body;
    let first = bundles["data"][0]["id"].as_str().unwrap().to_owned();
    let second = bundles["data"][1]["id"].as_str().unwrap().to_owned();
    let out = crate::cli::tonne(
        &[
            "accounts",
            "set-selection",
            "--account",
            &t.live_account,
            "--bundle",
            &format!("{first}:25"),
            "--bundle",
            &format!("{second}:75"),
        ],
        &app.database_url,
    );
    assert!(out.contains("75%"), "{out}");
    let quote = app
        .post("/v1/orders/by-mass/quote", &t.live_key, &mass("4"))
        .await;
    let ids: Vec<&str> = quote.body["bundles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["bundle_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![first.as_str(), second.as_str()]);
    assert_eq!(quote.body["bundles"][0]["quantity"], "1");
    // The test sibling is unaffected; clearing restores the catalogue default.
    assert!(bundles_quoted_for_4_t(&app, &t.test_key).await > 2);
    crate::cli::tonne(
        &["accounts", "set-selection", "--account", &t.live_account],
        &app.database_url,
    );
    assert!(bundles_quoted_for_4_t(&app, &t.live_key).await > 2);
}
