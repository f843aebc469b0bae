//! The emission-factor catalogue over HTTP: listing with the 2024 contract's
//! filters and cursor, regions, and bad parameters.

use serde_json::{Value, json};
use tonne_test_support::on_both_backends;

use crate::support::{TestApp, assert_error, assert_error_2024, conforms, conforms_2024};

fn ids(body: &Value) -> Vec<String> {
    body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap().to_owned())
        .collect()
}

async fn the_catalogue_lists_filters_and_pages_every_factor(app: TestApp) {
    let t = app.tenant().await;
    // signed-out callers get 401
    let anon = app.fetch("/v1/emission-factors", None).await;
    assert_eq!(anon.status(), 401);

    // A search ranks the factor named so first, with its value and citation.
    let rail = app
        .get(
            "/v1/emission-factors?name=national%20rail&limit=3",
            &t.live_key,
        )
        .await;
    assert_eq!(rail.status, 200, "{}", rail.body);
    conforms_2024("PaginatedEmissionFactors", &rail.body);
    let first = &rail.body["data"][0];
    assert_eq!(first["id"], "desnz-2025.RAIL_NATIONAL");
    assert_eq!(first["source"], "beis");
    assert_eq!(first["denominator_unit"], "person*km");
    assert_eq!(first["numerator_unit"], "kg");
    // DESNZ 2025 25_315_3147_11_1: 0.03546 kg CO2e per passenger.km
    assert_eq!(first["gas_emissions"]["co2e"], "0.03546");
    assert!(
        first["publication"]
            .as_str()
            .unwrap()
            .contains("Open Government Licence")
    );
    for f in rail.body["data"].as_array().unwrap() {
        conforms_2024("EmissionFactorWithGasEmissions", f);
    }

    // Filters combine: source, unit, year, region (any case), with fallback.
    let grid = app
        .get(
            "/v1/emission-factors?region=germany&unit=energy&source=lune",
            &t.live_key,
        )
        .await;
    assert_eq!(grid.status, 200);
    let found = ids(&grid.body);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].ends_with(".grid.DEU"), "{found:?}");
    assert_eq!(grid.body["data"][0]["region"], "Germany");
    let with_world = app
        .get(
            "/v1/emission-factors?region=Germany&region_fallback=always&unit=energy&limit=100",
            &t.live_key,
        )
        .await;
    let found = ids(&with_world.body);
    assert!(
        found.iter().any(|id| id.ends_with(".grid.WORLD")),
        "{found:?}"
    );
    let spend = app
        .get(
            "/v1/emission-factors?source=epa&source=exiobase&unit=currency&limit=100",
            &t.live_key,
        )
        .await;
    assert!(spend.body["data"].as_array().unwrap().iter().all(|f| {
        (f["source"] == "epa" && f["denominator_unit"] == "USD")
            || (f["source"] == "exiobase" && f["denominator_unit"] == "EUR")
    }));
    // a source of the contract Tonne has no factor of: nothing, not an error
    let none = app
        .get("/v1/emission-factors?source=ecoinvent", &t.live_key)
        .await;
    assert_eq!(none.status, 200);
    assert_eq!(none.body["data"], serde_json::json!([]));
    let old = app
        .get("/v1/emission-factors?publication_year=2014", &t.live_key)
        .await;
    assert!(
        ids(&old.body)
            .iter()
            .all(|id| id.starts_with("scarborough-2014.")),
        "{}",
        old.body
    );

    // Pages follow the cursor to the end, each factor once.
    let mut seen = Vec::new();
    let mut path = "/v1/emission-factors?source=beis&limit=25".to_owned();
    loop {
        let page = app.get(&path, &t.live_key).await;
        assert_eq!(page.status, 200);
        seen.extend(ids(&page.body));
        match page.body["next_cursor"].as_str() {
            Some(next) => path = format!("/v1/emission-factors?source=beis&limit=25&after={next}"),
            None => break,
        }
    }
    let mut unique = seen.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), seen.len());
    assert_eq!(seen.len(), 95, "every DESNZ factor the engines use");

    // Regions: every region named by a factor.
    let regions = app.get("/v1/emission-factors/regions", &t.live_key).await;
    assert_eq!(regions.status, 200);
    conforms_2024("EmissionFactorRegions", &regions.body);
    let regions = regions.body.as_array().unwrap();
    for r in ["United Kingdom", "United States", "Germany", "World"] {
        assert!(regions.iter().any(|x| x == r), "{r}");
    }

    // Bad parameters: 400 with the contract's codes.
    for (query, code) in [
        ("unit=furlongs", "validation_error"),
        ("source=ember", "validation_error"),
        ("publication_year=twenty", "validation_error"),
        ("publication_year=2021.5", "validation_error"),
        ("region_fallback=sometimes", "validation_error"),
        ("after=nope", "validation_error"),
        ("limit=0", "pagination_limit_invalid"),
        ("limit=101", "pagination_limit_invalid"),
    ] {
        let res = app
            .get(&format!("/v1/emission-factors?{query}"), &t.live_key)
            .await;
        assert_error(&res, 400, code);
    }
}

async fn an_estimate_from_a_chosen_factor_is_stored_read_quoted_and_ordered(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let other = app.tenant().await;
    let body = json!({
        "emission_factor_id": "useeio-1.3.0.naics.722511",
        "activity": {"value": "100", "unit": "EUR"},
        "metadata": {"ref": "dinner"},
        "idempotency_key": "ef-1",
    });
    let made = app
        .post("/v1/estimates/emission-factor", &t.live_key, &body)
        .await;
    assert_eq!(made.status, 200, "{}", made.body);
    conforms_2024("EmissionFactorEstimate", &made.body);
    // 100 EUR × 1.053 USD/EUR (ECB 2022) × 0.194 kg/USD (USEEIO v1.3.0, NAICS
    // 722511) = 20.4282 kg, kept to the gram
    assert_eq!(made.body["mass"]["amount"], "0.020428");
    assert_eq!(made.body["mass"]["unit"], "t");
    let factor = &made.body["emission_factor"];
    assert_eq!(factor["id"], "useeio-1.3.0.naics.722511");
    assert_eq!(factor["source"], "epa");
    assert_eq!(factor["denominator_unit"], "USD");
    assert_eq!(factor["gas_emissions"]["co2e"], "0.194");
    assert_eq!(made.body["request"]["activity"]["unit"], "EUR");
    assert_eq!(made.body["quote"]["requested_quantity"], "0.020428");
    let explained = &made.body["explanation"]["parts"][0];
    assert_eq!(explained["factors"][0]["id"], "useeio-1.3.0.naics.722511");
    assert!(
        explained["quantities"][0]["method"]
            .as_str()
            .unwrap()
            .contains("ECB")
    );

    // Read back as stored; another account and another kind's path do not find it.
    let id = made.body["id"].as_str().unwrap().to_owned();
    let read = app
        .get(&format!("/v1/estimates/emission-factor/{id}"), &t.live_key)
        .await;
    assert_eq!(read.status, 200);
    conforms_2024("EmissionFactorEstimate", &read.body);
    assert_eq!(read.body["mass"], made.body["mass"]);
    assert_eq!(read.body["emission_factor"], made.body["emission_factor"]);
    for (path, key) in [
        (
            format!("/v1/estimates/emission-factor/{id}"),
            &other.live_key,
        ),
        (format!("/v1/estimates/electricity/{id}"), &t.live_key),
    ] {
        assert_error(&app.get(&path, key).await, 404, "estimate_not_found");
    }

    // Orderable by estimate like any other kind.
    let order = app
        .post(
            "/v1/orders/by-estimate",
            &t.live_key,
            &json!({"estimate_id": id}),
        )
        .await;
    assert_eq!(order.status, 200, "{}", order.body);
    conforms("OrderByEstimate", &order.body);
    assert_eq!(order.body["requested_quantity"], "0.020428");

    // Units of one dimension convert: 2 t·km… as 2000 kg·km is not a unit, but
    // 500 l of natural gas is 0.5 m3 × 2.06672 kg = 1.03336 kg.
    let gas = app
        .post(
            "/v1/estimates/emission-factor",
            &t.live_key,
            &json!({"emission_factor_id": "desnz-2025.NATURAL_GAS_M3", "activity": {"value": "500", "unit": "l"}}),
        )
        .await;
    assert_eq!(gas.status, 200, "{}", gas.body);
    assert_eq!(gas.body["mass"]["amount"], "0.001033");

    // Bad input: the contract's codes, nothing stored.
    let before = app.get("/v1/orders", &t.live_key).await;
    for (body, status, code) in [
        (
            json!({"emission_factor_id": "desnz-1999.NOPE", "activity": {"value": "1", "unit": "km"}}),
            400,
            "emission_factor_id_invalid",
        ),
        (
            json!({"emission_factor_id": "desnz-2025.HGV_ALL", "activity": {"value": "1", "unit": "kWh"}}),
            400,
            "emission_factor_unit_mismatch",
        ),
        (
            json!({"emission_factor_id": "useeio-1.3.0.naics.722511", "activity": {"value": "1", "unit": "JPY"}}),
            400,
            "exchange_rate_not_found",
        ),
        (
            json!({"emission_factor_id": "desnz-2025.HGV_ALL", "activity": {"value": "-1", "unit": "t*km"}}),
            400,
            "validation_error",
        ),
        (
            json!({"emission_factor_id": "desnz-2025.HGV_ALL", "activity": {"value": "1", "unit": "furlong*fortnight"}}),
            400,
            "validation_error",
        ),
        (
            json!({"emission_factor_id": "desnz-2025.HGV_ALL"}),
            400,
            "validation_error",
        ),
    ] {
        let res = app
            .post("/v1/estimates/emission-factor", &t.live_key, &body)
            .await;
        assert_error_2024(&res, status, code);
    }
    // the repeated idempotency key is refused and stores nothing either
    assert_eq!(
        app.post("/v1/estimates/emission-factor", &t.live_key, &body)
            .await
            .status,
        409
    );
    let stored = app
        .services
        .estimates
        .list(
            t.live_account.parse().unwrap(),
            &[tonne_estimation::estimate::EstimateKind::EmissionFactor],
            Default::default(),
            tonne_kernel::PageRequest::first(),
        )
        .await
        .unwrap();
    assert_eq!(stored.items.len(), 2, "only the two accepted estimates");
    drop(before);
}

/// Every emission factor an estimate's explanation names is listed in the
/// catalogue under its `catalogue_id`, and the explanation names the factor set.
async fn every_factor_an_estimate_uses_is_in_the_catalogue(app: TestApp) {
    let t = app.tenant().await;
    let mut listed = std::collections::HashSet::new();
    let mut path = "/v1/emission-factors?limit=100".to_owned();
    loop {
        let page = app.get(&path, &t.live_key).await;
        assert_eq!(page.status, 200);
        listed.extend(ids(&page.body));
        match page.body["next_cursor"].as_str() {
            Some(next) => path = format!("/v1/emission-factors?limit=100&after={next}"),
            None => break,
        }
    }
    let requests = [
        (
            "electricity",
            json!({"consumption": {"amount": "10", "unit": "MWh"}, "country_code": "DEU"}),
        ),
        (
            "flight",
            json!({"route": {"source": {"code": "LHR"}, "destination": {"code": "JFK"}}, "cabin_class": "business"}),
        ),
        (
            "shipping",
            json!({"shipment": {"mass": {"amount": "3", "unit": "t"}}, "route": {"amount": "1000", "unit": "km"}, "method": "truck_generic_hgv"}),
        ),
        (
            "transactions",
            json!({"value": {"value": "100", "currency": "USD"}, "merchant": {"category_code": "5812", "country_code": "USA"}}),
        ),
        ("company", crate::estimates::company()),
    ];
    for (kind, body) in requests {
        let res = app
            .post(&format!("/v1/estimates/{kind}"), &t.live_key, &body)
            .await;
        assert_eq!(res.status, 200, "{kind}: {}", res.body);
        let explanation = &res.body["explanation"];
        assert_eq!(explanation["factor_set"], "2026.12", "{kind}");
        let mut named = 0;
        for part in explanation["parts"].as_array().unwrap() {
            for f in part["factors"].as_array().unwrap() {
                let unit = f["unit"].as_str().unwrap();
                if unit.starts_with("kg CO2e/") || unit.starts_with("g CO2e/") {
                    let id = f["catalogue_id"]
                        .as_str()
                        .unwrap_or_else(|| panic!("{kind}: {f} has no catalogue id"));
                    assert!(listed.contains(id), "{kind}: {id} is not listed");
                    named += 1;
                } else {
                    assert!(f.get("catalogue_id").is_none(), "{kind}: {f}");
                }
            }
        }
        assert!(named > 0, "{kind}: {explanation}");
    }
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    the_catalogue_lists_filters_and_pages_every_factor,
    every_factor_an_estimate_uses_is_in_the_catalogue,
    an_estimate_from_a_chosen_factor_is_stored_read_quoted_and_ordered,
);
