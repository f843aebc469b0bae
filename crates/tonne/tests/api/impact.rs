//! Analytics and sustainability pages end to end: figures that add up to the
//! orders and estimates the API answered, modes and organisations that never
//! mix, every refusal with its code and nothing written, the public page as the
//! contract's JSON and as HTML (escaped, only what the owner chose).

use std::collections::BTreeMap;
use std::str::FromStr;

use rust_decimal::Decimal;
use serde_json::{Value, json};
use tonne_kernel::Actor;
use tonne_ordering::OrderStatus;

use crate::support::{TestApp, assert_error, assert_error_2024, conforms_2024};
use tonne_test_support::on_both_backends;

fn dec(v: &Value) -> Decimal {
    Decimal::from_str(
        v.as_str()
            .unwrap_or_else(|| panic!("not a decimal string: {v}")),
    )
    .unwrap()
}

async fn order(app: &TestApp, key: &str, tonnes: &str) -> Value {
    let res = app
        .post(
            "/v1/orders/by-mass",
            key,
            &json!({"mass": {"amount": tonnes, "unit": "t"}}),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    res.body
}

/// Moves an order step by step until it is `to`.
async fn advance_to(app: &TestApp, key: &str, id: &str, to: OrderStatus) -> Value {
    for _ in 0..6 {
        let current = app
            .send(app.request(reqwest::Method::GET, &format!("/v1/orders/{id}"), Some(key)))
            .await
            .body;
        if current["status"] == to.as_str() {
            return current;
        }
        let next = if to == OrderStatus::Cancelled {
            Some(OrderStatus::Cancelled)
        } else {
            None
        };
        app.services
            .ordering
            .advance(id, next, None, &Actor::CommandLine)
            .await
            .unwrap();
    }
    panic!("order {id} did not reach {to:?}");
}

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

async fn analytics_add_up_to_the_orders_and_never_mix_modes(app: TestApp) {
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
        &app.send(app.request(reqwest::Method::GET, "/v1/analytics/metrics", None))
            .await,
        401,
        "unauthorised",
    );
}

async fn emission_calculations_count_estimates_by_day_and_kind(app: TestApp) {
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
    let client = app
        .post(
            "/v1/accounts/client",
            &t.live_key,
            &json!({"name": "Client", "currency": "GBP"}),
        )
        .await;
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

async fn page_count(app: &TestApp) -> i64 {
    tonne_test_support::count(
        &app.services.db,
        "SELECT count(*) AS n FROM sustainability_pages",
    )
    .await
}

async fn sustainability_pages_per_contract_and_refusals_write_nothing(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let other = app.tenant().await;
    let body = json!({
        "status": "enabled", "slug": "acme", "title": "by_volume",
        "description": "by_custom_description",
        "custom_description": "We <script>alert(1)</script> offset & report.\n\nSecond <b>paragraph</b>.",
        "sections": ["bundles_breakdown", "certificates"]
    });
    assert_error(
        &app.get("/v1/sustainability-pages/current-account", &t.live_key)
            .await,
        404,
        "not_found",
    );
    let created = app
        .post("/v1/sustainability-pages", &t.live_key, &body)
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    conforms_2024("SustainabilityPage", &created.body);
    assert_eq!(created.body["slug"], "acme");
    assert_eq!(
        created.body["sections"],
        json!(["bundles_breakdown", "certificates"])
    );
    assert_eq!(
        created.body["url"],
        format!("{}/sustainability/live/acme", app.base)
    );
    let current = app
        .get("/v1/sustainability-pages/current-account", &t.live_key)
        .await;
    assert_eq!(current.body, created.body);

    // A second page, a taken slug: 409 with the contract's codes, nothing written.
    let before = page_count(&app).await;
    assert_error_2024(
        &app.post("/v1/sustainability-pages", &t.live_key, &body)
            .await,
        409,
        "sustainability_page_exists",
    );
    assert_error_2024(
        &app.post("/v1/sustainability-pages", &other.live_key, &body)
            .await,
        409,
        "sustainability_page_slug_not_unique",
    );
    assert_error(
        &app.put("/v1/sustainability-pages", &other.live_key, &body)
            .await,
        404,
        "not_found",
    );
    assert_error(
        &app.post(
            "/v1/sustainability-pages",
            &other.live_key,
            &json!({"status": "enabled", "slug": "x", "title": "by_volume", "sections": [], "colour": "red"}),
        )
        .await,
        400,
        "validation_error",
    );
    assert_eq!(page_count(&app).await, before);
    // The same slug in the other mode is another page.
    let test_page = app
        .post("/v1/sustainability-pages", &t.test_key, &body)
        .await;
    assert_eq!(test_page.status, 200, "{}", test_page.body);
    assert_eq!(
        test_page.body["url"],
        format!("{}/sustainability/test/acme", app.base)
    );
    // The other organisation takes another slug, then cannot rename onto ours.
    let theirs = app
        .post(
            "/v1/sustainability-pages",
            &other.live_key,
            &json!({"status": "enabled", "slug": "globex", "title": "by_price", "sections": []}),
        )
        .await;
    assert_eq!(theirs.status, 200, "{}", theirs.body);
    assert_error_2024(
        &app.put(
            "/v1/sustainability-pages",
            &other.live_key,
            &json!({"status": "enabled", "slug": "acme", "title": "by_price", "sections": []}),
        )
        .await,
        409,
        "sustainability_page_slug_not_unique",
    );
    assert_eq!(
        app.get("/v1/sustainability-pages/current-account", &other.live_key)
            .await
            .body["slug"],
        "globex"
    );

    // Hidden until the account's external pages are public.
    let public = "/v1/sustainability-pages/public/live/acme";
    assert_error(
        &app.send(app.request(reqwest::Method::GET, public, None))
            .await,
        404,
        "not_found",
    );
    assert_eq!(
        app.send(app.request(reqwest::Method::GET, "/sustainability/live/acme", None))
            .await
            .status,
        404
    );
    let patched = app
        .send(
            app.request(
                reqwest::Method::PATCH,
                &format!("/v1/accounts/{}", t.live_account),
                Some(&t.live_key),
            )
            .json(&json!({"external_pages_visibility": "public", "handle": "acme-live"})),
        )
        .await;
    assert_eq!(patched.status, 200, "{}", patched.body);

    // Orders: one live complete, one live placed, one test complete. Only the
    // complete live one counts.
    let done = order(&app, &t.live_key, "1.5").await;
    let done = advance_to(
        &app,
        &t.live_key,
        done["id"].as_str().unwrap(),
        OrderStatus::Complete,
    )
    .await;
    order(&app, &t.live_key, "4").await;
    let test_done = order(&app, &t.test_key, "9").await;
    advance_to(
        &app,
        &t.test_key,
        test_done["id"].as_str().unwrap(),
        OrderStatus::Complete,
    )
    .await;

    let res = app
        .send(app.request(reqwest::Method::GET, public, None))
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms_2024("PublicSustainabilityPage", &res.body);
    assert_eq!(
        res.body["title"],
        json!({"format": "by_volume", "quantity": "1.5"})
    );
    assert_eq!(res.body["description"]["format"], "by_custom_description");
    assert_eq!(res.body["account_name"], "Acme");
    assert_eq!(res.body["include_certificates"], true);
    assert_eq!(res.body["un_sdg"], Value::Null, "not chosen");
    let shares = res.body["bundles"].as_array().unwrap();
    let share_sum: Decimal = shares.iter().map(|s| dec(&s["quantity"])).sum();
    assert_eq!(share_sum, Decimal::from_str("1.5").unwrap());
    let percent: f64 = shares
        .iter()
        .map(|s| s["percent_of_total"].as_f64().unwrap())
        .sum();
    assert!((percent - 100.0).abs() < 0.05, "{percent}");
    assert_eq!(res.body["certificates"][0]["order_id"], done["id"]);
    assert_eq!(res.body["certificates"].as_array().unwrap().len(), 1);
    // By organisation and handle: the same page.
    let by_handle = app
        .send(app.request(
            reqwest::Method::GET,
            &format!(
                "/v1/sustainability-pages/public/{}/live/acme-live",
                t.organisation_id
            ),
            None,
        ))
        .await;
    assert_eq!(by_handle.status, 200, "{}", by_handle.body);
    assert_eq!(by_handle.body, res.body);
    for wrong in [
        format!(
            "/v1/sustainability-pages/public/{}/test/acme-live",
            t.organisation_id
        ),
        format!(
            "/v1/sustainability-pages/public/{}/live/acme-live",
            other.organisation_id
        ),
        "/v1/sustainability-pages/public/not-an-id/live/acme-live".to_owned(),
        "/v1/sustainability-pages/public/sandbox/acme".to_owned(),
    ] {
        let res = app
            .send(app.request(reqwest::Method::GET, &wrong, None))
            .await;
        assert_error(&res, 404, "not_found");
    }

    // The HTML page: escaped text, the chart, the certificate link, no test figures.
    let html = app.text("/sustainability/live/acme").await;
    assert!(
        html.contains("Acme has retired 1.5 tonnes of CO₂e"),
        "{html}"
    );
    assert!(html.contains("We &lt;script&gt;alert(1)&lt;/script&gt; offset &amp; report."));
    assert!(html.contains("Second &lt;b&gt;paragraph&lt;/b&gt;."));
    assert!(!html.contains("<script"), "no script at all");
    assert!(html.contains("<svg"), "the chart is drawn on the server");
    assert!(html.contains(&format!("/certificates/{}", done["id"].as_str().unwrap())));
    assert!(
        !html.contains("10.5") && !html.contains(">9<"),
        "no test figures"
    );

    // Settings change what is shown.
    let changed = app
        .put(
            "/v1/sustainability-pages",
            &t.live_key,
            &json!({"status": "enabled", "slug": "acme", "title": "by_price", "description": "by_supported_goals", "sections": ["unsdg"]}),
        )
        .await;
    assert_eq!(changed.status, 200, "{}", changed.body);
    conforms_2024("SustainabilityPage", &changed.body);
    let res = app
        .send(app.request(reqwest::Method::GET, public, None))
        .await;
    conforms_2024("PublicSustainabilityPage", &res.body);
    assert_eq!(res.body["title"]["format"], "by_price");
    assert_eq!(res.body["title"]["currency"], "GBP");
    let offset_cost: Decimal = done["bundles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| dec(&b["offset_cost"]))
        .sum();
    assert_eq!(dec(&res.body["title"]["value"]), offset_cost);
    assert_eq!(res.body["description"]["format"], "by_supported_goals");
    assert_eq!(res.body["bundles"], Value::Null);
    assert_eq!(res.body["include_certificates"], false);
    assert!(res.body.get("certificates").is_none());
    assert!(res.body["un_sdg"].as_array().is_some_and(|g| !g.is_empty()));
    // Disabled: gone from the public.
    let disabled = app
        .put(
            "/v1/sustainability-pages",
            &t.live_key,
            &json!({"status": "disabled", "slug": "acme", "title": "by_price", "sections": []}),
        )
        .await;
    assert_eq!(disabled.status, 200);
    assert_error(
        &app.send(app.request(reqwest::Method::GET, public, None))
            .await,
        404,
        "not_found",
    );
    assert_eq!(
        app.send(app.request(reqwest::Method::GET, "/sustainability/live/acme", None))
            .await
            .status,
        404
    );
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    analytics_add_up_to_the_orders_and_never_mix_modes,
    emission_calculations_count_estimates_by_day_and_kind,
    sustainability_pages_per_contract_and_refusals_write_nothing,
);
