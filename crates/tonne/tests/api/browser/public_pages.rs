//! The public pages: a certificate, a sustainability page, a logistics page.

use serde_json::json;

use super::kit::*;
use crate::support::TestApp;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_completed_orders_certificate_page_reads_well_in_a_real_browser() {
    let Some(driver) = driver().await else {
        return;
    };
    let axe = axe_source();
    assert!(
        axe.is_some() || !mandatory(),
        "CI=true: axe-core must be installed in target/axe (.ci/run does it)"
    );
    let app = TestApp::spawn(tonne_test_support::TestDb::sqlite()).await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let order = app
        .post(
            "/v1/orders/by-mass",
            &t.live_key,
            &json!({"mass": {"amount": "12.5", "unit": "t"}}),
        )
        .await;
    let id = order.body["id"].as_str().unwrap().to_owned();
    crate::cli::tonne(
        &[
            "orders",
            "advance",
            &id,
            "--to",
            "complete",
            "--registry-serial",
            "VCS-11825-2026",
        ],
        &app.database_url,
    );
    let done = app
        .send(app.request(
            reqwest::Method::GET,
            &format!("/v1/orders/{id}"),
            Some(&t.live_key),
        ))
        .await;
    let url = done.body["public_certificate_url"]
        .as_str()
        .expect("a complete order has a public certificate")
        .to_owned();
    let c = browser(&driver).await;
    c.goto(&url).await.unwrap();
    assert!(
        c.title()
            .await
            .unwrap()
            .starts_with("Certificate of carbon credit retirement"),
    );
    let shown = text(&c).await;
    for needle in ["Acme", "12.5 tonnes of CO₂e", "VCS-11825-2026-1", "Country"] {
        assert!(shown.contains(needle), "{needle:?} missing: {shown}");
    }
    screenshot(&c, "06-certificate").await;
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "certificate").await;
    }
    // a phone: the table becomes one card per project, no sideways scrolling
    c.set_window_size(390, 844).await.unwrap();
    let overflow = c
        .execute(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(overflow, json!(0), "no horizontal scroll at 390 px");
    screenshot(&c, "06-certificate-narrow").await;
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "certificate (narrow)").await;
    }
    c.set_window_size(1100, 1400).await.unwrap();
    // not complete: the page says so, with 404
    let pending = app
        .post(
            "/v1/orders/by-mass",
            &t.live_key,
            &json!({"mass": {"amount": "1", "unit": "t"}}),
        )
        .await;
    c.goto(&format!(
        "{}/certificates/{}",
        app.base,
        pending.body["id"].as_str().unwrap()
    ))
    .await
    .unwrap();
    assert!(text(&c).await.contains("Certificate not found"));
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "certificate not found").await;
    }
    // the PDF, as saved by a person, for a look
    let pdf = app
        .client
        .get(format!("{}/certificates/{id}.pdf", app.base))
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    std::fs::write(target_dir().join("browser/06-certificate.pdf"), &pdf).unwrap();
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sustainability_page_reads_well_in_a_real_browser() {
    let Some(driver) = driver().await else {
        return;
    };
    let axe = axe_source();
    assert!(
        axe.is_some() || !mandatory(),
        "CI=true: axe-core must be installed in target/axe (.ci/run does it)"
    );
    let app = TestApp::spawn(tonne_test_support::TestDb::sqlite()).await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let patched = app
        .send(
            app.request(
                reqwest::Method::PATCH,
                &format!("/v1/accounts/{}", t.live_account),
                Some(&t.live_key),
            )
            .json(&json!({"external_pages_visibility": "public"})),
        )
        .await;
    assert_eq!(patched.status, 200, "{}", patched.body);
    for tonnes in ["12.5", "3.25"] {
        let order = app
            .post(
                "/v1/orders/by-mass",
                &t.live_key,
                &json!({"mass": {"amount": tonnes, "unit": "t"}}),
            )
            .await;
        let id = order.body["id"].as_str().unwrap().to_owned();
        crate::cli::tonne(
            &["orders", "advance", &id, "--to", "complete"],
            &app.database_url,
        );
    }
    let page = app
        .post(
            "/v1/sustainability-pages",
            &t.live_key,
            &json!({
                "status": "enabled", "slug": "acme", "title": "by_volume",
                "description": "by_custom_description",
                "custom_description": "Every parcel we ship is offset <b>in full</b>.",
                "sections": ["bundles_breakdown", "unsdg", "certificates"]
            }),
        )
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    let url = page.body["url"].as_str().unwrap().to_owned();
    let c = browser(&driver).await;
    c.goto(&url).await.unwrap();
    assert_eq!(c.title().await.unwrap(), "Acme — climate impact");
    let shown = text(&c).await;
    for needle in [
        "Acme has retired 15.75 tonnes of CO₂e",
        "Every parcel we ship is offset <b>in full</b>.",
        "By bundle",
        "By project",
        "UN Sustainable Development Goals",
        "Certificates",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing: {shown}");
    }
    let scripts = c
        .execute("return document.scripts.length;", vec![])
        .await
        .unwrap();
    assert_eq!(scripts, json!(0), "no script on the page");
    screenshot(&c, "07-sustainability").await;
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "sustainability page").await;
    }
    c.set_window_size(390, 844).await.unwrap();
    let overflow = c
        .execute(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(overflow, json!(0), "no horizontal scroll at 390 px");
    screenshot(&c, "07-sustainability-narrow").await;
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "sustainability page (narrow)").await;
    }
    c.set_window_size(1100, 1400).await.unwrap();
    // A certificate link leads to the certificate.
    c.find(fantoccini::Locator::Css("ul.certificates a"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert!(
        text(&c)
            .await
            .contains("Certificate of carbon credit retirement"),
        "the certificate page"
    );
    // Unknown: a page that says so, with 404.
    c.goto(&format!("{}/sustainability/live/nobody", app.base))
        .await
        .unwrap();
    assert!(text(&c).await.contains("Page not found"));
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "sustainability page not found").await;
    }
    c.close().await.unwrap();
}

/// The public logistics page of an account with actual shipments (a truck,
/// a ship and a warehouse): its totals by mode and hub, both charts named,
/// every figure in a table, axe-core clean wide and narrow, no script.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_logistics_page_reads_well_in_a_real_browser() {
    let Some(driver) = driver().await else {
        return;
    };
    let axe = axe_source();
    assert!(
        axe.is_some() || !mandatory(),
        "CI=true: axe-core must be installed in target/axe (.ci/run does it)"
    );
    let app = TestApp::spawn(tonne_test_support::TestDb::sqlite()).await;
    let t = app.tenant().await;
    let patched = app
        .send(
            app.request(
                reqwest::Method::PATCH,
                &format!("/v1/accounts/{}", t.live_account),
                Some(&t.live_key),
            )
            .json(&json!({"external_pages_visibility": "public"})),
        )
        .await;
    assert_eq!(patched.status, 200, "{}", patched.body);
    let multi = app
        .post(
            "/v1/estimates/shipping/multi-leg",
            &t.live_key,
            &json!({"shipment": {"mass": {"amount": "10", "unit": "t"}}, "is_shipment": true,
                "legs": [{"route": {"amount": "100", "unit": "km"}, "method": "diesel_truck"},
                         {"route": {"amount": "1000", "unit": "km"}, "method": {"vessel_type": "container_ship"}},
                         {"method": "warehouse_ambient"}]}),
        )
        .await;
    assert_eq!(multi.status, 200, "{}", multi.body);
    let c = browser(&driver).await;
    c.goto(&format!("{}/logistics/{}", app.base, t.live_account))
        .await
        .unwrap();
    assert_eq!(c.title().await.unwrap(), "Acme — logistics emissions");
    let shown = text(&c).await;
    for needle in [
        "By mode and hub",
        "Month by month",
        "Carbon intensity",
        "hubs",
        "Download these figures (CSV)",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing: {shown}");
    }
    let charts = c
        .execute(
            "return document.querySelectorAll('svg[role=img] > title').length;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(charts, json!(2), "both charts are named");
    let scripts = c
        .execute("return document.scripts.length;", vec![])
        .await
        .unwrap();
    assert_eq!(scripts, json!(0), "no script on the page");
    screenshot(&c, "08-logistics").await;
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "logistics page").await;
    }
    assert_reflows(&c, "logistics page").await;
    c.set_window_size(390, 844).await.unwrap();
    screenshot(&c, "08-logistics-narrow").await;
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "logistics page (narrow)").await;
    }
    c.set_window_size(1100, 1400).await.unwrap();
    c.goto(&format!(
        "{}/logistics/0123456789abcdef0123456789abcdef",
        app.base
    ))
    .await
    .unwrap();
    assert!(text(&c).await.contains("Page not found"));
    c.close().await.unwrap();
}
