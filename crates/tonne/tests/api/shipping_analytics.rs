//! `GET /v1/analytics/shipping/public/{account_id}` end to end: no key, only
//! while the account's external pages are public, only its actual shipments
//! (`is_shipment`), emissions per mode that add up to the estimates' legs and
//! the mean g CO2e per tonne·km, in the 2024 document's shape; nothing of
//! another account or mode; refusals with their codes.

use rust_decimal::Decimal;
use serde_json::{Value, json};
use tonne_test_support::on_both_backends;

use crate::support::{Reply, TestApp, assert_error, conforms_2024};

/// An actual shipment of 10 t estimated: 100 km by truck, 1,000 km by
/// container ship, then a warehouse.
pub(crate) async fn ship_by_truck_ship_and_warehouse(app: &TestApp, key: &str) -> Reply {
    app.post(
        "/v1/estimates/shipping/multi-leg",
        key,
        &json!({"shipment": {"mass": {"amount": "10", "unit": "t"}}, "is_shipment": true,
            "legs": [{"route": {"amount": "100", "unit": "km"}, "method": "diesel_truck"},
                     {"route": {"amount": "1000", "unit": "km"}, "method": {"vessel_type": "container_ship"}},
                     {"method": "warehouse_ambient"}]}),
    )
    .await
}

/// Grams of a `Mass` (decimal-string tonnes).
fn grams(v: &Value) -> i64 {
    to_grams(v["amount"].as_str().unwrap().parse().unwrap())
}

fn to_grams(t: Decimal) -> i64 {
    i64::try_from((t * Decimal::from(1_000_000)).round()).unwrap()
}

/// Grams of a JSON number of tonnes.
fn tonnes_to_grams(v: &Value) -> i64 {
    to_grams(number(v))
}

fn number(v: &Value) -> Decimal {
    assert!(v.is_number(), "{v}");
    v.to_string().parse().unwrap()
}

async fn public_shipping_analytics_show_actual_shipments_only(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let path = format!("/v1/analytics/shipping/public/{}", t.live_account);
    let get = |p: String| {
        let app = &app;
        async move { app.get_without_key(&p).await }
    };
    // hidden (the default): 404 as for an unknown id, nothing told apart
    assert_error(&get(path.clone()).await, 404, "not_found");
    assert_error(
        &get("/v1/analytics/shipping/public/0123456789abcdef0123456789abcdef".into()).await,
        404,
        "not_found",
    );
    assert_error(
        &get("/v1/analytics/shipping/public/x".into()).await,
        404,
        "not_found",
    );
    app.make_pages_public(&t).await;

    // two actual shipments (a truck and sea leg and a warehouse, a single air leg), one quote
    let multi = ship_by_truck_ship_and_warehouse(&app, &t.live_key).await;
    assert_eq!(multi.status, 200, "{}", multi.body);
    let air = app
        .post(
            "/v1/estimates/shipping",
            &t.live_key,
            &json!({"shipment": {"mass": {"amount": "2", "unit": "t"}}, "is_shipment": true,
                "route": {"amount": "500", "unit": "km"}, "method": "cargo_plane"}),
        )
        .await;
    assert_eq!(air.status, 200, "{}", air.body);
    let quote_only = app
        .post(
            "/v1/estimates/shipping",
            &t.live_key,
            &json!({"shipment": {"mass": {"amount": "5", "unit": "t"}},
                "route": {"amount": "500", "unit": "km"}, "method": "diesel_truck"}),
        )
        .await;
    assert_eq!(quote_only.status, 200, "{}", quote_only.body);
    // an actual shipment links the account's public logistics page; a quote does not
    let page = format!("/logistics/{}", t.live_account);
    for shipment in [&multi.body, &air.body] {
        let url = shipment["external_estimate_url"]
            .as_str()
            .unwrap_or_default();
        assert!(
            url.starts_with("http") && url.ends_with(&page),
            "{shipment}"
        );
    }
    assert!(quote_only.body["external_estimate_url"].is_null());
    let listed = app.get("/v1/estimates/shipping/all", &t.live_key).await;
    assert!(
        listed.body["data"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["external_estimate_url"]
                .as_str()
                .is_some_and(|u| u.ends_with(&page))),
        "{}",
        listed.body
    );
    // the test account's shipment never shows on the live account's page
    let test_mode = app
        .post(
            "/v1/estimates/shipping",
            &t.test_key,
            &json!({"shipment": {"mass": {"amount": "5", "unit": "t"}}, "is_shipment": true,
                "route": {"amount": "500", "unit": "km"}, "method": "diesel_truck"}),
        )
        .await;
    assert_eq!(test_mode.status, 200, "{}", test_mode.body);

    let res = get(format!("{path}?interval=month")).await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms_2024("AnalyticsShippingEstimates", &res.body);
    assert_eq!(res.body["account"]["name"], "Acme");
    assert_eq!(res.body["account"]["type"], "live");
    let points = res.body["emission_timeseries"].as_array().unwrap();
    let sum = |mode: &str| {
        points
            .iter()
            .map(|p| tonnes_to_grams(&p[mode]))
            .sum::<i64>()
    };
    let legs = multi.body["legs"].as_array().unwrap();
    assert_eq!(sum("road"), grams(&legs[0]["mass"]));
    assert_eq!(sum("sea"), grams(&legs[1]["mass"]));
    assert_eq!(sum("air"), grams(&air.body["mass"]));
    // the hub leg: 10 t handled in an ambient warehouse
    assert_eq!(sum("logistic_site"), grams(&legs[2]["mass"]));
    assert!(sum("logistic_site") > 0);
    assert_eq!((sum("rail"), sum("inland_waterway")), (0, 0));
    // intensity: the mean of each shipment's g per t·km — the multi-leg one
    // over 10 t × 1,100 km, the air one over 2 t × 500 km
    let multi_g = Decimal::from(grams(&multi.body["mass"])) / Decimal::from(10 * 1100);
    let air_g = Decimal::from(grams(&air.body["mass"])) / Decimal::from(2 * 500);
    let total = number(&res.body["carbon_intensity_total"]);
    let expected = (multi_g + air_g) / Decimal::from(2);
    assert!(
        (total - expected).abs() < Decimal::new(1, 2),
        "{total} vs {expected}"
    );
    let today = points.last().unwrap();
    assert!(tonnes_to_grams(&today["sea"]) > 0);

    // day buckets: 31 points for the default 30 days back, all present
    let days = get(path.clone()).await;
    assert_eq!(
        days.body["emission_timeseries"].as_array().unwrap().len(),
        31
    );
    assert_eq!(
        days.body["carbon_intensity_timeseries"]
            .as_array()
            .unwrap()
            .len(),
        31
    );
    // a range with none of them: zeros
    let old = get(format!("{path}?from=2020-01-01&through=2020-01-03")).await;
    assert_eq!(old.status, 200, "{}", old.body);
    assert_eq!(number(&old.body["carbon_intensity_total"]), Decimal::ZERO);
    assert!(
        old.body["emission_timeseries"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| tonnes_to_grams(&p["sea"]) == 0 && tonnes_to_grams(&p["air"]) == 0)
    );

    // refusals
    assert_error(
        &get(format!("{path}?interval=week")).await,
        400,
        "validation_error",
    );
    assert_error(
        &get(format!("{path}?from=2026-13-01")).await,
        400,
        "validation_error",
    );
    assert_error(
        &get(format!("{path}?from=2026-02-01&through=2026-01-01")).await,
        400,
        "time_range_invalid",
    );
    assert_error(
        &get(format!("{path}?from=2000-01-01&through=2026-01-01")).await,
        400,
        "time_range_invalid",
    );

    // the public logistics page and its CSVs: the same figures, no key
    let page = app.text(&format!("/logistics/{}", t.live_account)).await;
    assert!(
        page.contains("By mode and hub") && page.contains("Acme"),
        "{page}"
    );
    let csv_url = format!("{}/logistics/{}/emissions.csv", app.base, t.live_account);
    let res = reqwest::get(&csv_url).await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "text/csv; charset=utf-8");
    let body = res.text().await.unwrap();
    let mut r = csv::Reader::from_reader(body.as_bytes());
    let head: Vec<String> = r.headers().unwrap().iter().map(str::to_owned).collect();
    assert_eq!(
        head,
        [
            "month",
            "road",
            "rail",
            "sea",
            "inland waterway",
            "air",
            "hubs",
            "total"
        ]
    );
    let column = |name: &str| head.iter().position(|h| h == name).unwrap();
    let mut by_mode = [Decimal::ZERO; 3];
    for rec in r.records() {
        let rec = rec.unwrap();
        for (i, mode) in ["road", "sea", "hubs"].iter().enumerate() {
            by_mode[i] += rec[column(mode)].parse::<Decimal>().unwrap();
        }
    }
    // to the kilogram (the CSV gives tonnes to three decimals)
    let kg = |g: i64| (Decimal::from(g) / Decimal::from(1_000_000)).round_dp(3);
    assert_eq!(by_mode[0], kg(grams(&legs[0]["mass"])));
    assert_eq!(by_mode[1], kg(grams(&legs[1]["mass"])));
    assert_eq!(by_mode[2], kg(grams(&legs[2]["mass"])));
    let intensity = reqwest::get(format!(
        "{}/logistics/{}/intensity.csv",
        app.base, t.live_account
    ))
    .await
    .unwrap();
    assert_eq!(intensity.status(), 200);
    assert!(
        intensity
            .text()
            .await
            .unwrap()
            .starts_with("month,g_co2e_per_tkm")
    );
    // a bad date is a page saying so; hidden again, every address is 404
    let bad = reqwest::get(format!(
        "{}/logistics/{}?from=March",
        app.base, t.live_account
    ))
    .await
    .unwrap();
    assert_eq!(bad.status(), 400);
    let patched = app
        .patch_live_account(&t, &json!({"external_pages_visibility": "hidden"}))
        .await;
    assert_eq!(patched.status, 200, "{}", patched.body);
    let hidden = app
        .get(
            &format!(
                "/v1/estimates/shipping/{}",
                air.body["id"].as_str().unwrap()
            ),
            &t.live_key,
        )
        .await;
    assert!(
        hidden.body["external_estimate_url"].is_null(),
        "{}",
        hidden.body
    );
    for path in ["", "/emissions.csv", "/intensity.csv"] {
        let res = reqwest::get(format!("{}/logistics/{}{path}", app.base, t.live_account))
            .await
            .unwrap();
        assert_eq!(res.status(), 404, "{path}");
    }
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    public_shipping_analytics_show_actual_shipments_only,
);
