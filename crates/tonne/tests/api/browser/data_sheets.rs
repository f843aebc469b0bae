//! A member uploads a data sheet and reads its shipments.

use std::time::Duration;

use fantoccini::Locator;

use super::kit::*;
use crate::support::TestApp;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_uploads_a_data_sheet_and_reads_its_shipments_in_a_real_browser() {
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
    crate::console::member(&app, "ada@acme.example", &t.organisation_id).await;
    let files = tempfile::tempdir().unwrap();
    let bad = files.path().join("bad legs.csv");
    std::fs::write(
        &bad,
        "shipment_id,carriage,mode,train_type,distance_km,colour\nA,main,rail,diesel_freight_train,\"1,5\",red\nA,middle,rail,diesel_freight_train,10,\n",
    )
    .unwrap();
    let good = files.path().join("march legs.csv");
    std::fs::write(&good, tonne_wire::data_sheet::TEMPLATE).unwrap();
    let c = browser(&driver).await;
    let check = |name: &'static str| {
        let (c, axe) = (&c, &axe);
        async move {
            assert_controls_named(c).await;
            if let Some(axe) = axe {
                assert_axe_clean(c, axe, name).await;
            }
            screenshot(c, name).await;
            assert_reflows(c, name).await;
        }
    };
    c.goto(&format!("{}/console/sign-in", app.base))
        .await
        .unwrap();
    c.find(Locator::Id("email"))
        .await
        .unwrap()
        .send_keys("ada@acme.example")
        .await
        .unwrap();
    c.find(Locator::Id("password"))
        .await
        .unwrap()
        .send_keys("correct horse battery")
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Sign in']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::LinkText("Shipments")).await.unwrap();
    c.find(Locator::LinkText("Shipments"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::XPath("//button[text()='Filter']"))
        .await
        .unwrap();
    assert!(text(&c).await.contains("No shipment matches."));
    check("39-console-shipments-empty").await;

    // A data sheet with problems: listed by line and column, nothing uploaded.
    c.find(Locator::LinkText("Batches and data sheets"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("file")).await.unwrap();
    c.find(Locator::Id("file"))
        .await
        .unwrap()
        .send_keys(bad.to_str().unwrap())
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Upload data sheet']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("sheet-problems")).await.unwrap();
    let shown = text(&c).await;
    assert!(
        shown.contains("Line 1, column colour: unknown column"),
        "{shown}"
    );
    assert!(shown.contains("Line 2, column distance_km"), "{shown}");
    assert!(shown.contains("Line 3, column carriage"), "{shown}");
    check("40-console-data-sheet-problems").await;

    // The template: a batch, processed in the background.
    c.find(Locator::Id("file"))
        .await
        .unwrap()
        .send_keys(good.to_str().unwrap())
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Upload data sheet']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::XPath("//h1[text()='Shipment batch']"))
        .await
        .unwrap();
    let batch = c.current_url().await.unwrap();
    let mut processed = false;
    for _ in 0..100 {
        if text(&c).await.contains("Rows stored\n3") {
            processed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        c.goto(batch.as_str()).await.unwrap();
    }
    assert!(processed, "the batch is processed: {}", text(&c).await);
    check("41-console-shipment-batch").await;
    c.find(Locator::LinkText("Back to the batches"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Css("table")).await.unwrap();
    assert!(text(&c).await.contains("march legs.csv"));
    check("42-console-shipment-batches").await;

    // The shipments, filtered, and one shipment's legs.
    c.find(Locator::LinkText("Shipments"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::LinkText("PO-1001")).await.unwrap();
    check("43-console-shipments").await;
    c.find(Locator::LinkText("PO-1001"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::XPath("//h1[text()='Shipment PO-1001']"))
        .await
        .unwrap();
    let shown = text(&c).await;
    assert!(shown.contains("Well-to-wheel (total)"), "{shown}");
    check("44-console-shipment").await;
    c.execute(
        "Array.from(document.querySelectorAll('h2')).find(h => h.textContent === 'Legs').scrollIntoView();",
        vec![],
    )
    .await
    .unwrap();
    screenshot(&c, "45-console-shipment-legs").await;
    c.close().await.unwrap();
}
