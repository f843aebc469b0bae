//! Analytics that add up to the orders and never mix modes; emission
//! calculations counted by day and kind.

use std::collections::BTreeMap;
use std::str::FromStr;

use rust_decimal::Decimal;
use serde_json::{Value, json};
use tonne_ordering::OrderStatus;

use super::fixtures::{advance_to, dec, order};
use crate::support::{TestApp, assert_error, assert_error_2024, conforms_2024};

/// Sums of the orders' bundle lines by bundle id: (tonnes, offset cost).
fn line_sums(orders: &[Value]) -> BTreeMap<String, (Decimal, Decimal)> {
    let mut sums = BTreeMap::new();
    for o in orders {
        for b in o["bundles"].as_array().unwrap() {
            let e = sums
                .entry(b["bundle_id"].as_str().unwrap().to_owned())
                .or_insert((Decimal::ZERO, Decimal::ZERO));
            e.0 += dec(&b["quantity"]);
            e.1 += dec(&b["offset_cost"]);
        }
    }
    sums
}

fn totals(list: &Value) -> (Decimal, Decimal) {
    list.as_array()
        .unwrap()
        .iter()
        .fold((Decimal::ZERO, Decimal::ZERO), |(q, v), row| {
            (q + dec(&row["quantity"]), v + dec(&row["value"]))
        })
}

pub(super) async fn analytics_add_up_to_the_orders_and_never_mix_modes(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let other = app.tenant().await;
    let mut live = Vec::new();
    for tonnes in ["0.5", "1.25", "2"] {
        live.push(order(&app, &t.live_key, tonnes).await);
    }
    let cancelled = order(&app, &t.live_key, "7").await;
    advance_to(
        &app,
        &t.live_key,
        cancelled["id"].as_str().unwrap(),
        OrderStatus::Cancelled,
    )
    .await;
    let test_order = order(&app, &t.test_key, "3").await;

    // By property: every list adds up to the live orders, cancelled excluded;
    // nothing allocated yet.
    let res = app
        .get("/v1/analytics/aggregated-by-property", &t.live_key)
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms_2024("AggregatedAnalyticsByProperty", &res.body);
    let expected = line_sums(&live);
    let total = expected
        .values()
        .fold((Decimal::ZERO, Decimal::ZERO), |a, b| {
            (a.0 + b.0, a.1 + b.1)
        });
    assert_eq!(total.0, Decimal::from_str("3.75").unwrap());
    for key in ["bundle", "location", "registry", "offset_type"] {
        assert_eq!(totals(&res.body[key]), total, "{key}: {}", res.body);
    }
    for b in res.body["bundle"].as_array().unwrap() {
        let (q, v) = expected[b["bundle_id"].as_str().unwrap()];
        assert_eq!((dec(&b["quantity"]), dec(&b["value"])), (q, v), "{b}");
    }
    assert_eq!(
        res.body["location"],
        json!([{"location": "Not yet allocated", "quantity": total.0.normalize().to_string(), "value": res.body["location"][0]["value"]}])
    );

    // Allocate and complete two orders: continents and registries appear, and
    // still add up.
    let mut complete = Vec::new();
    for o in &live[..2] {
        complete.push(
            advance_to(
                &app,
                &t.live_key,
                o["id"].as_str().unwrap(),
                OrderStatus::Complete,
            )
            .await,
        );
    }
    let res = app
        .get("/v1/analytics/aggregated-by-property", &t.live_key)
        .await;
    conforms_2024("AggregatedAnalyticsByProperty", &res.body);
    for key in ["bundle", "location", "registry", "offset_type"] {
        assert_eq!(totals(&res.body[key]), total, "{key}: {}", res.body);
    }
    let allocated: Decimal = complete
        .iter()
        .flat_map(|o| o["projects"].as_array().unwrap().iter())
        .map(|p| dec(&p["quantity"]))
        .sum();
    let unallocated = res.body["location"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["location"] == "Not yet allocated")
        .map(|l| dec(&l["quantity"]))
        .unwrap_or_default();
    assert_eq!(allocated + unallocated, total.0);
    assert!(
        res.body["location"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["location"] != "Not yet allocated"),
        "{}",
        res.body
    );

    // Metrics: the projects of the allocated orders and their goals.
    let res = app.get("/v1/analytics/metrics", &t.live_key).await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms_2024("AnalyticsMetrics", &res.body);
    let projects: std::collections::BTreeSet<&str> = complete
        .iter()
        .flat_map(|o| o["projects"].as_array().unwrap().iter())
        .map(|p| p["project_id"].as_str().unwrap())
        .collect();
    assert_eq!(res.body["number_of_projects"], projects.len());
    assert_eq!(
        res.body["number_of_un_sdgs"],
        res.body["un_sdg"].as_array().unwrap().len()
    );

    // Cumulative: the last day of each series is the bundle's total.
    let res = app
        .get("/v1/analytics/cumulative-per-bundle", &t.live_key)
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms_2024("CumulativeBundleAnalytics", &res.body);
    for series in res.body.as_array().unwrap() {
        let points = series["timeseries"].as_array().unwrap();
        assert_eq!(points.len(), 31, "30 days ago through today");
        let last = points.last().unwrap();
        let (q, v) = expected[series["bundle_id"].as_str().unwrap()];
        assert_eq!((dec(&last["quantity"]), dec(&last["value"])), (q, v));
    }
    assert_eq!(res.body.as_array().unwrap().len(), expected.len());

    // The test key sees the test order only; another organisation nothing.
    let res = app
        .get("/v1/analytics/aggregated-by-property", &t.test_key)
        .await;
    assert_eq!(totals(&res.body["bundle"]).0, dec(&test_order["quantity"]));
    for key in [&other.live_key, &other.test_key] {
        let res = app.get("/v1/analytics/aggregated-by-property", key).await;
        assert_eq!(res.body["bundle"], json!([]), "{}", res.body);
        let res = app.get("/v1/analytics/cumulative-per-bundle", key).await;
        assert_eq!(res.body, json!([]));
        let res = app.get("/v1/analytics/metrics", key).await;
        assert_eq!(res.body["number_of_projects"], 0);
    }

    // A range before the orders: empty lists; cumulative figures carry over
    // from before a range.
    let res = app
        .get(
            "/v1/analytics/aggregated-by-property?from=2020-01-01&through=2020-01-31",
            &t.live_key,
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert_eq!(res.body["bundle"], json!([]));
    let tomorrow = (time::OffsetDateTime::now_utc().date() + time::Duration::days(1)).to_string();
    let res = app
        .get(
            &format!("/v1/analytics/cumulative-per-bundle?from={tomorrow}&through={tomorrow}"),
            &t.live_key,
        )
        .await;
    for series in res.body.as_array().unwrap() {
        let (q, _) = expected[series["bundle_id"].as_str().unwrap()];
        assert_eq!(dec(&series["timeseries"][0]["quantity"]), q);
    }

    // Refusals.
    for uri in [
        "/v1/analytics/metrics?from=2026-02-01&through=2026-01-01",
        "/v1/analytics/cumulative-per-bundle?from=1990-01-01",
        "/v1/analytics/aggregated-by-property?from=2100-01-01",
        "/v1/analytics/emission-calculations?from=2000-01-01&through=2026-01-01",
    ] {
        assert_error_2024(&app.get(uri, &t.live_key).await, 400, "time_range_invalid");
    }
    assert_error(
        &app.get("/v1/analytics/metrics?from=01/02/2026", &t.live_key)
            .await,
        400,
        "validation_error",
    );
    assert_error(
        &app.get_without_key("/v1/analytics/metrics").await,
        401,
        "unauthorised",
    );
}

pub(super) async fn emission_calculations_count_estimates_by_day_and_kind(app: TestApp) {
    let t = app.tenant().await;
    let flight = json!({"route": {"source": {"code": "LHR"}, "destination": {"code": "JFK"}}, "passengers": 1, "cabin_class": "economy"});
    let electricity =
        json!({"consumption": {"amount": "1000", "unit": "kWh"}, "country_code": "GBR"});
    let mut live_tonnes = Decimal::ZERO;
    for (path, body) in [
        ("/v1/estimates/flight", &flight),
        ("/v1/estimates/flight", &flight),
        ("/v1/estimates/electricity", &electricity),
    ] {
        let res = app.post(path, &t.live_key, body).await;
        assert_eq!(res.status, 200, "{}", res.body);
        if path.ends_with("flight") {
            live_tonnes += dec(&res.body["mass"]["amount"]);
        }
    }
    let res = app.post("/v1/estimates/flight", &t.test_key, &flight).await;
    assert_eq!(res.status, 200);

    let res = app
        .get("/v1/analytics/emission-calculations", &t.live_key)
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms_2024("EmissionCalculationMetrics", &res.body);
    let series = res.body["timeseries"].as_array().unwrap();
    assert_eq!(series.len(), 31);
    assert_eq!(series.last().unwrap()["count"], 3);
    assert_eq!(
        series
            .iter()
            .map(|p| p["count"].as_u64().unwrap())
            .sum::<u64>(),
        3
    );
    assert_eq!(res.body["by_kind"][0]["kind"], "electricity");
    assert_eq!(res.body["by_kind"][1]["kind"], "flight");
    assert_eq!(res.body["by_kind"][1]["count"], 2);
    assert_eq!(dec(&res.body["by_kind"][1]["total_tonnes"]), live_tonnes);

    let res = app
        .get(
            "/v1/analytics/emission-calculations?interval=month",
            &t.live_key,
        )
        .await;
    conforms_2024("EmissionCalculationMetrics", &res.body);
    let months = res.body["timeseries"].as_array().unwrap();
    assert!(months.len() <= 2, "{}", res.body);
    assert!(
        months
            .iter()
            .all(|p| p["date"].as_str().unwrap().ends_with("-01"))
    );
    assert_eq!(months.last().unwrap()["count"], 3);

    // A client account of the organisation: all_accounts counts it for the
    // organisation's key, and a client key reads only its own.
    let client = app.new_client_account(&t.live_key, "Client", "GBP").await;
    assert_eq!(client.status, 200, "{}", client.body);
    let client_id = client.body["id"].as_str().unwrap().to_owned();
    let res = app
        .send(
            app.request(
                reqwest::Method::POST,
                "/v1/estimates/flight",
                Some(&t.live_key),
            )
            .header("Lune-Account", &client_id)
            .json(&flight),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    let own = app
        .get("/v1/analytics/emission-calculations", &t.live_key)
        .await;
    assert_eq!(
        own.body["timeseries"].as_array().unwrap().last().unwrap()["count"],
        3
    );
    let all = app
        .get(
            "/v1/analytics/emission-calculations?all_accounts=true",
            &t.live_key,
        )
        .await;
    assert_eq!(
        all.body["timeseries"].as_array().unwrap().last().unwrap()["count"],
        4
    );
    let as_client = app
        .send(
            app.request(
                reqwest::Method::GET,
                "/v1/analytics/emission-calculations?all_accounts=true",
                Some(&t.live_key),
            )
            .header("Lune-Account", &client_id),
        )
        .await;
    assert_eq!(
        as_client.body["timeseries"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()["count"],
        1,
        "{}",
        as_client.body
    );
    // The test mode's own estimate only, even with all_accounts.
    let test = app
        .get(
            "/v1/analytics/emission-calculations?all_accounts=true",
            &t.test_key,
        )
        .await;
    assert_eq!(
        test.body["timeseries"].as_array().unwrap().last().unwrap()["count"],
        1
    );
}
