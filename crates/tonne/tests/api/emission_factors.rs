//! The emission-factor catalogue over HTTP: listing with the 2024 contract's
//! filters and cursor, regions, and bad parameters.

use serde_json::Value;
use tonne_test_support::on_both_backends;

use crate::support::{TestApp, assert_error, conforms_2024};

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
    let anon = app
        .client
        .get(format!("{}/v1/emission-factors", app.base))
        .send()
        .await
        .unwrap();
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
    assert!(
        spend.body["data"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["source"] == "epa" && f["denominator_unit"] == "USD")
    );
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
    assert_eq!(seen.len(), 60, "every DESNZ factor the engines use");

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

on_both_backends!(
    with crate::support::TestApp::spawn;
    the_catalogue_lists_filters_and_pages_every_factor,
);
