//! The ISO 14083 report (`GET /v1/shipments/report`, a Tonne extension):
//! a CSV line per leg whose figures equal the shipments' to the gram, the
//! summary's totals by mode, phase and hub equal to their lines', the period
//! and the list's filters applied, formulas defused, the PDF readable, bad
//! parameters 400 naming them, another organisation's shipments absent.

use std::collections::HashMap;

use reqwest::Method;
use rust_decimal::Decimal;
use serde_json::{Value, json};
use tonne_test_support::on_both_backends;

use crate::shipments::{dec, good_row, hub_row, processed, upload_ok};
use crate::support::{TestApp, assert_error};

/// The answer's status, content type and raw body.
async fn raw(app: &TestApp, path: &str, key: &str) -> (u16, String, Vec<u8>) {
    let res = app
        .request(Method::GET, path, Some(key))
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    let kind = res
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    (status, kind, res.bytes().await.unwrap().to_vec())
}

/// The CSV's records, each as column → cell.
fn records(body: &[u8]) -> Vec<HashMap<String, String>> {
    let mut r = csv::Reader::from_reader(body);
    let head: Vec<String> = r.headers().unwrap().iter().map(str::to_owned).collect();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            assert_eq!(rec.len(), head.len(), "{rec:?}");
            head.iter()
                .cloned()
                .zip(rec.iter().map(str::to_owned))
                .collect()
        })
        .collect()
}

fn kg(cell: &str) -> Decimal {
    cell.parse().unwrap_or_else(|_| panic!("not kg: {cell}"))
}

/// [`hub_row`] with its truck leg departed at `date`.
fn dated_hub_row(reference: &str, date: &str) -> Value {
    let mut row = hub_row(reference);
    row["legs"][0]["dates"] = json!({"atd": date});
    row
}

fn client_totals_row(reference: &str, date: &str) -> Value {
    json!({
        "shipment_id": reference,
        "target_internal_id": "carrier-4",
        "emissions": {"total_emissions": "42.5", "wtt": "7.5", "distance_km": "120"},
        "legs": [{"carriage": "main", "method": {"vehicle_type": "truck", "fuel": "diesel"},
                  "distance": {"amount": "120", "unit": "km"},
                  "load": {"mass": {"amount": "2", "unit": "t"}}, "dates": {"atd": date}}]
    })
}

async fn a_report_adds_up_to_the_shipments_to_the_gram(app: TestApp) {
    let t = app.tenant().await;
    let other = app.tenant().await;
    let id = upload_ok(
        &app,
        &t.live_key,
        vec![
            good_row("=HYPERLINK(\"http://x\")", "2026-03-01T08:00:00Z"),
            dated_hub_row("HUB-1", "2026-03-02T08:00:00Z"),
            client_totals_row("OWN-1", "2026-03-03T08:00:00Z"),
            good_row("LATER", "2026-05-01T08:00:00Z"),
        ],
        true,
    )
    .await;
    let batch = processed(&app, &t.live_key, &id).await;
    assert_eq!(batch["success_count"], 4, "{batch}");
    // another organisation's shipment, in the same period
    let theirs = upload_ok(
        &app,
        &other.live_key,
        vec![dated_hub_row("THEIRS", "2026-03-05T08:00:00Z")],
        true,
    )
    .await;
    processed(&app, &other.live_key, &theirs).await;

    // the shipments of March, as the list answers them
    let list = app
        .get(
            "/v1/shipments?shipment_date_from=2026-03-01&shipment_date_to=2026-03-31&limit=100",
            &t.live_key,
        )
        .await;
    let shipments = list.body["data"].as_array().unwrap();
    assert_eq!(shipments.len(), 3, "{}", list.body);
    let expected: Decimal = shipments.iter().map(|s| dec(&s["total_emissions"])).sum();
    let expected_wtt: Decimal = shipments.iter().map(|s| dec(&s["wtt"])).sum();

    let (status, kind, body) = raw(
        &app,
        "/v1/shipments/report?from=2026-03-01&to=2026-03-31",
        &t.live_key,
    )
    .await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    assert_eq!(kind, "text/csv; charset=utf-8");
    let rows = records(&body);
    let legs: Vec<_> = rows.iter().filter(|r| r["record"] != "summary").collect();
    // three legs each for the two calculated shipments, one line for the client's totals
    assert_eq!(legs.len(), 7, "{rows:?}");
    let leg_sum: Decimal = legs.iter().map(|r| kg(&r["wtw_kg"])).sum();
    assert_eq!(leg_sum, expected);
    assert!(
        legs.iter()
            .all(|r| r["reference"] != "LATER" && r["reference"] != "THEIRS")
    );
    // the formula is defused, the cell otherwise as sent
    assert!(
        legs.iter()
            .any(|r| r["reference"] == "'=HYPERLINK(\"http://x\")")
    );
    let summary = |category: &str| {
        rows.iter()
            .find(|r| r["record"] == "summary" && r["category"] == category)
            .unwrap_or_else(|| panic!("no summary line {category}: {rows:?}"))
    };
    assert_eq!(kg(&summary("total")["wtw_kg"]), expected);
    assert_eq!(kg(&summary("total")["wtt_kg"]), expected_wtt);
    assert_eq!(summary("total")["notes"], "3 shipments");
    // the hub: 12 t × GLEC v3 warehouse ambient 17.5 kg/t = 210 kg, all WTT
    let hub = summary("hub:warehouse_ambient");
    assert_eq!(kg(&hub["wtw_kg"]), Decimal::from(210));
    assert_eq!(kg(&hub["wtt_kg"]), Decimal::from(210));
    assert_eq!(hub["tonnes"], "12");
    // modes, phases and the client's totals make up the total, each to the gram
    let modes: Decimal = rows
        .iter()
        .filter(|r| r["category"].starts_with("mode:") || r["category"].starts_with("hub:"))
        .map(|r| kg(&r["wtw_kg"]))
        .sum();
    let phases: Decimal = ["pre", "main", "on"]
        .iter()
        .map(|p| kg(&summary(&format!("phase:{p}"))["wtw_kg"]))
        .sum();
    let unallocated = kg(&summary("unallocated")["wtw_kg"]);
    assert_eq!(unallocated, Decimal::new(425, 1));
    assert_eq!(modes + unallocated, expected);
    assert_eq!(phases + unallocated, expected);
    let shares: Decimal = ["primary", "modelled", "default"]
        .iter()
        .map(|k| kg(&summary(&format!("data:{k}"))["wtw_kg"]))
        .sum();
    assert_eq!(shares, expected);
    assert_eq!(kg(&summary("data:primary")["wtw_kg"]), Decimal::new(425, 1));
    assert!(kg(&summary("mode:sea")["activity_tkm"]) > Decimal::ZERO);
    assert!(rows.iter().any(|r| r["category"].starts_with("source:")));

    // the list's filters apply: main carriage by sea alone
    let (_, _, body) = raw(
        &app,
        "/v1/shipments/report?from=2026-03-01&to=2026-03-31&main_carriage_mot=sea",
        &t.live_key,
    )
    .await;
    let rows = records(&body);
    assert!(
        rows.iter()
            .filter(|r| r["record"] != "summary")
            .all(|r| r["reference"].starts_with("'="))
    );

    // the other organisation sees its own only
    let (_, _, body) = raw(&app, "/v1/shipments/report", &other.live_key).await;
    let rows = records(&body);
    assert_eq!(rows.iter().filter(|r| r["record"] != "summary").count(), 3);

    // the PDF says the same totals
    let (status, kind, pdf) = raw(
        &app,
        "/v1/shipments/report?from=2026-03-01&to=2026-03-31&format=pdf",
        &t.live_key,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(kind, "application/pdf");
    let doc = lopdf::Document::load_mem(&pdf).unwrap();
    let n = u32::try_from(doc.get_pages().len()).unwrap();
    let text: String = (1..=n).map(|p| doc.extract_text(&[p]).unwrap()).collect();
    assert!(text.contains("ISO 14083"), "{text}");
    assert!(text.contains("2026-03-01 to 2026-03-31"), "{text}");
    assert!(
        text.contains(&format!(
            "Well-to-wheel (WTW): {} kg CO2e",
            expected.round_dp(3)
        )),
        "{text}"
    );
    assert!(text.contains("warehouse ambient"), "{text}");
    assert!(text.contains("Shipments: 3"), "{text}");
}

async fn bad_parameters_are_400_naming_them(app: TestApp) {
    let t = app.tenant().await;
    for (query, field) in [
        ("format=xml", "format"),
        ("from=2026-13-01", "from"),
        ("from=2026-04-01&to=2026-03-01", "from"),
        ("from=2026-03-01&shipment_date_from=2026-03-01", "from"),
        ("main_carriage_mot=bike", "main_carriage_mot"),
    ] {
        let res = app
            .get(&format!("/v1/shipments/report?{query}"), &t.live_key)
            .await;
        assert_error(&res, 400, "validation_error");
        assert!(
            res.body["error"]["message"]
                .as_str()
                .unwrap_or_default()
                .contains(field)
                || res.body.to_string().contains(field),
            "{query}: {}",
            res.body
        );
    }
    let res = app.get_without_key("/v1/shipments/report").await;
    assert_eq!(res.status, 401);
    // an empty report is a header and the summary's zeros
    let (status, _, body) = raw(&app, "/v1/shipments/report", &t.live_key).await;
    assert_eq!(status, 200);
    let rows = records(&body);
    assert!(rows.iter().all(|r| r["record"] == "summary"));
    assert_eq!(rows[0]["category"], "total");
    assert_eq!(rows[0]["wtw_kg"], "0");
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    a_report_adds_up_to_the_shipments_to_the_gram,
    bad_parameters_are_400_naming_them,
);
