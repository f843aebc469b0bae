//! A member uploads a data sheet and reads its shipments.

use std::time::Duration;

use fantoccini::Locator;

use super::kit::*;
use crate::support::TestApp;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_uploads_a_data_sheet_and_reads_its_shipments_in_a_real_browser() {
    let Some(kit) = start().await else {
        return;
    };
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
    let s = kit.open(&app.base).await;
    s.sign_in("ada@acme.example").await;
    s.wait(Locator::LinkText("Shipments")).await;
    s.click(Locator::LinkText("Shipments")).await;
    s.wait(Locator::XPath("//button[text()='Filter']")).await;
    assert!(s.text().await.contains("No shipment matches."));
    s.check("39-console-shipments-empty").await;

    // A data sheet with problems: listed by line and column, nothing uploaded.
    s.click(Locator::LinkText("Batches and data sheets")).await;
    s.wait(Locator::Id("file")).await;
    s.fill(Locator::Id("file"), bad.to_str().unwrap()).await;
    s.press("Upload data sheet").await;
    s.wait(Locator::Id("sheet-problems")).await;
    let shown = s.text().await;
    assert!(
        shown.contains("Line 1, column colour: unknown column"),
        "{shown}"
    );
    assert!(shown.contains("Line 2, column distance_km"), "{shown}");
    assert!(shown.contains("Line 3, column carriage"), "{shown}");
    s.check("40-console-data-sheet-problems").await;

    // The template: a batch, processed in the background.
    s.fill(Locator::Id("file"), good.to_str().unwrap()).await;
    s.press("Upload data sheet").await;
    s.wait(Locator::XPath("//h1[text()='Shipment batch']"))
        .await;
    let batch = s.current_url().await.unwrap();
    let mut processed = false;
    for _ in 0..100 {
        if s.text().await.contains("Rows stored\n3") {
            processed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        s.goto(batch.as_str()).await.unwrap();
    }
    assert!(processed, "the batch is processed: {}", s.text().await);
    s.check("41-console-shipment-batch").await;
    s.click(Locator::LinkText("Back to the batches")).await;
    s.wait(Locator::Css("table")).await;
    assert!(s.text().await.contains("march legs.csv"));
    s.check("42-console-shipment-batches").await;

    // The shipments, filtered, and one shipment's legs.
    s.click(Locator::LinkText("Shipments")).await;
    s.wait(Locator::LinkText("PO-1001")).await;
    s.check("43-console-shipments").await;
    s.click(Locator::LinkText("PO-1001")).await;
    s.wait(Locator::XPath("//h1[text()='Shipment PO-1001']"))
        .await;
    let shown = s.text().await;
    assert!(shown.contains("Well-to-wheel (total)"), "{shown}");
    s.check("44-console-shipment").await;
    s.execute(
        "Array.from(document.querySelectorAll('h2')).find(h => h.textContent === 'Legs').scrollIntoView();",
        vec![],
    )
    .await
    .unwrap();
    screenshot(&s, "45-console-shipment-legs").await;
    s.close().await;
}
