//! The public pages: a certificate, a sustainability page, a logistics page.

use serde_json::json;

use super::kit::*;
use crate::support::TestApp;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_completed_orders_certificate_page_reads_well_in_a_real_browser() {
    let Some(kit) = start().await else {
        return;
    };
    let app = TestApp::spawn(tonne_test_support::TestDb::sqlite()).await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let order = app.order_tonnes(&t.live_key, "12.5").await;
    let id = order.body["id"].as_str().unwrap().to_owned();
    crate::cli::tonne(
        &crate::cli::complete_with_serial(&id, "VCS-11825-2026"),
        &app.database_url,
    );
    let done = app.get(&format!("/v1/orders/{id}"), &t.live_key).await;
    let url = done.body["public_certificate_url"]
        .as_str()
        .expect("a complete order has a public certificate")
        .to_owned();
    let c = kit.open(&app.base).await;
    c.goto(&url).await.unwrap();
    assert!(
        c.title()
            .await
            .unwrap()
            .starts_with("Certificate of carbon credit retirement"),
    );
    let shown = c.text().await;
    for needle in ["Acme", "12.5 tonnes of CO₂e", "VCS-11825-2026-1", "Country"] {
        assert!(shown.contains(needle), "{needle:?} missing: {shown}");
    }
    // then a phone: the table becomes one card per project, no sideways scrolling
    c.wide_and_narrow("06-certificate", "certificate").await;
    // not complete: the page says so, with 404
    let pending = app.order_tonnes(&t.live_key, "1").await;
    c.visit(&format!(
        "/certificates/{}",
        pending.body["id"].as_str().unwrap()
    ))
    .await;
    assert!(c.text().await.contains("Certificate not found"));
    c.axe("certificate not found").await;
    // the PDF, as saved by a person, for a look
    let pdf = app
        .fetch(&format!("/certificates/{id}.pdf"), None)
        .await
        .bytes()
        .await
        .unwrap();
    std::fs::write(target_dir().join("browser/06-certificate.pdf"), &pdf).unwrap();
    c.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sustainability_page_reads_well_in_a_real_browser() {
    let Some(kit) = start().await else {
        return;
    };
    let app = TestApp::spawn(tonne_test_support::TestDb::sqlite()).await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    app.make_pages_public(&t).await;
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
    let c = kit.open(&app.base).await;
    c.goto(&url).await.unwrap();
    assert_eq!(c.title().await.unwrap(), "Acme — climate impact");
    let shown = c.text().await;
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
    c.wide_and_narrow("07-sustainability", "sustainability page")
        .await;
    // A certificate link leads to the certificate.
    c.click(fantoccini::Locator::Css("ul.certificates a")).await;
    assert!(
        c.text()
            .await
            .contains("Certificate of carbon credit retirement"),
        "the certificate page"
    );
    // Unknown: a page that says so, with 404.
    c.visit("/sustainability/live/nobody").await;
    assert!(c.text().await.contains("Page not found"));
    c.axe("sustainability page not found").await;
    c.close().await;
}

/// The public logistics page of an account with actual shipments (a truck,
/// a ship and a warehouse): its totals by mode and hub, both charts named,
/// every figure in a table, axe-core clean wide and narrow, no script.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_logistics_page_reads_well_in_a_real_browser() {
    let Some(kit) = start().await else {
        return;
    };
    let app = TestApp::spawn(tonne_test_support::TestDb::sqlite()).await;
    let t = app.tenant().await;
    app.make_pages_public(&t).await;
    let multi =
        crate::shipping_analytics::ship_by_truck_ship_and_warehouse(&app, &t.live_key).await;
    assert_eq!(multi.status, 200, "{}", multi.body);
    let c = kit.open(&app.base).await;
    c.visit(&format!("/logistics/{}", t.live_account)).await;
    assert_eq!(c.title().await.unwrap(), "Acme — logistics emissions");
    let shown = c.text().await;
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
    c.axe("logistics page").await;
    assert_reflows(&c, "logistics page").await;
    c.set_window_size(390, 844).await.unwrap();
    screenshot(&c, "08-logistics-narrow").await;
    c.axe("logistics page (narrow)").await;
    c.set_window_size(1100, 1400).await.unwrap();
    c.visit("/logistics/0123456789abcdef0123456789abcdef").await;
    assert!(c.text().await.contains("Page not found"));
    c.close().await;
}
