//! Shipping estimates: from address to address, listed by page and filter,
//! and logistics sites alone and as a leg.

use serde_json::json;

use super::fixtures::{explained, grams, sea};
use crate::support::{
    TestApp, assert_error, assert_error_2024, assert_invalid_field, conforms, conforms_2024,
    first_error_message,
};

/// Addresses resolve offline to their city's centroid (GeoNames): road legs use
/// great-circle × 1.2, sea legs snap to the nearest seaport.
pub(super) async fn shipping_from_address_to_address(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let address = |street: &str, postcode: &str, city: &str, country: &str| json!({"street_line1": street, "postcode": postcode, "city": city, "country_code": country});
    let truck = app
        .post(
            "/v1/estimates/shipping",
            &t.test_key,
            &json!({"shipment": {"mass": {"amount": "10", "unit": "t"}},
                    "route": {"source": address("10 Downing Street", "SW1A 2AA", "london", "GBR"),
                              "destination": address("1 Centenary Square", "B1 1BB", "Birmingham", "GBR")},
                    "method": "diesel_truck"}),
        )
        .await;
    assert_eq!(truck.status, 200, "{}", truck.body);
    conforms("SingleShippingEmissionEstimate", &truck.body);
    // London–Birmingham great circle ≈ 163 km, × 1.2 ≈ 195 km
    let km: f64 = truck.body["distance"]["amount"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((185.0..205.0).contains(&km), "{}", truck.body);
    // the explanation names the places chosen, with their region, and the precision
    let how = truck.body["explanation"]["parts"][0]["quantities"][0]["method"]
        .as_str()
        .unwrap_or_default();
    assert!(
        how.contains("London, England, GBR") && how.contains("Birmingham, England, GBR"),
        "{how}"
    );
    assert!(
        how.contains("street and postcode do not refine it"),
        "{how}"
    );
    explained("/v1/estimates/shipping", &truck.body);
    // a street in another London changes nothing: the precision is the city
    let ontario = app
        .post(
            "/v1/estimates/shipping",
            &t.test_key,
            &json!({"shipment": {"mass": {"amount": "10", "unit": "t"}},
                    "route": {"source": address("1 Other Street", "00000", "LONDON", "GBR"),
                              "destination": address("x", "y", "birmingham", "GBR")},
                    "method": "diesel_truck"}),
        )
        .await;
    assert_eq!(ontario.body["mass"], truck.body["mass"]);

    let sea = app
        .post(
            "/v1/estimates/shipping",
            &t.test_key,
            &json!({"shipment": {"mass": {"amount": "10", "unit": "t"}},
                    "route": {"source": address("Am Sandtorkai 1", "20457", "Hamburg", "DEU"),
                              "destination": address("1 Broadway", "10004", "New York City", "USA")},
                    "method": {"vessel_type": "container_ship"}}),
        )
        .await;
    assert_eq!(sea.status, 200, "{}", sea.body);
    conforms("SingleShippingEmissionEstimate", &sea.body);
    let km: f64 = sea.body["distance"]["amount"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (6_000.0..8_000.0).contains(&km),
        "Hamburg–New York by sea: {}",
        sea.body
    );

    let unknown = app
        .post(
            "/v1/estimates/shipping",
            &t.test_key,
            &json!({"shipment": {"mass": {"amount": "1", "unit": "t"}},
                    "route": {"source": address("1 Main St", "1", "Atlantis", "GRC"),
                              "destination": address("1 Main St", "1", "Athens", "GRC")},
                    "method": "diesel_truck"}),
        )
        .await;
    assert_error(&unknown, 400, "address_not_found");
    assert!(first_error_message(&unknown).contains("Atlantis"));
}

/// `GET /v1/estimates/shipping/all`: both shipping kinds and nothing else,
/// most recent first, paged by cursor, filtered by `is_shipment` and a time
/// range, in the unit asked; another account's estimates never appear.
pub(super) async fn shipping_estimates_are_listed_by_page_and_filter(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let other = app.tenant().await;
    let single = json!({"shipment": {"containers": "1"}, "route": sea(), "method": {"vessel_type": "container_ship"}});
    let mut actual = single.clone();
    actual["is_shipment"] = json!(true);
    let multi = json!({"shipment": {"mass": {"amount": "10", "unit": "t"}}, "legs": [
        {"route": {"amount": "100", "unit": "km"}, "method": "diesel_truck"}]});
    let mut ids = Vec::new();
    for (path, body) in [
        ("/v1/estimates/shipping", &single),
        ("/v1/estimates/shipping/multi-leg", &multi),
        ("/v1/estimates/shipping", &actual),
    ] {
        let res = app.post(path, &t.live_key, body).await;
        assert_eq!(res.status, 200, "{}", res.body);
        ids.push(res.body["id"].as_str().unwrap().to_owned());
    }
    let flight = json!({"route": {"source": {"code": "LHR"}, "destination": {"code": "JFK"}}, "cabin_class": "economy"});
    assert_eq!(
        app.post("/v1/estimates/flight", &t.live_key, &flight)
            .await
            .status,
        200
    );
    assert_eq!(
        app.post("/v1/estimates/shipping", &other.live_key, &single)
            .await
            .status,
        200
    );

    let all = app.get("/v1/estimates/shipping/all", &t.live_key).await;
    assert_eq!(all.status, 200, "{}", all.body);
    conforms_2024("PaginatedAnyShippingEmissionEstimates", &all.body);
    let listed: Vec<&str> = all.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    let newest_first: Vec<&str> = ids.iter().rev().map(String::as_str).collect();
    assert_eq!(
        listed, newest_first,
        "both shipping kinds, newest first, nothing else"
    );
    assert_eq!(all.body["has_more"], false);

    // pages by cursor
    let first = app
        .get("/v1/estimates/shipping/all?limit=2", &t.live_key)
        .await;
    assert_eq!(first.body["has_more"], true);
    let cursor = first.body["next_cursor"].as_str().unwrap().to_owned();
    assert_eq!(cursor, newest_first[1]);
    let second = app
        .get(
            &format!("/v1/estimates/shipping/all?limit=2&after={cursor}"),
            &t.live_key,
        )
        .await;
    assert_eq!(second.body["data"][0]["id"], newest_first[2]);
    assert_eq!(second.body["has_more"], false);

    // filters and the unit
    let shipments = app
        .get(
            "/v1/estimates/shipping/all?is_shipment=true&estimate_mass_unit=kg",
            &t.live_key,
        )
        .await;
    let data = shipments.body["data"].as_array().unwrap();
    assert_eq!(data.len(), 1, "{}", shipments.body);
    assert_eq!(data[0]["id"], ids[2].as_str());
    assert_eq!(data[0]["mass"]["unit"], "kg");
    let others = app
        .get("/v1/estimates/shipping/all?is_shipment=false", &t.live_key)
        .await;
    assert_eq!(others.body["data"].as_array().unwrap().len(), 2);
    let empty = app
        .get(
            "/v1/estimates/shipping/all?from=2000-01-01T00:00:00Z&through=2000-12-31T00:00:00Z",
            &t.live_key,
        )
        .await;
    assert_eq!(empty.body["data"], json!([]));
    let now = app
        .get(
            "/v1/estimates/shipping/all?from=2000-01-01T00:00:00Z&through=2999-01-01T00:00:00Z",
            &t.live_key,
        )
        .await;
    assert_eq!(now.body["data"].as_array().unwrap().len(), 3);

    // bad queries: 400, with the 2024 code for a time range
    for (query, code) in [
        (
            "from=2020-01-02T00:00:00Z&through=2020-01-01T00:00:00Z",
            "time_range_invalid",
        ),
        ("from=2020-01-01T00:00:00Z", "time_range_invalid"),
        (
            "from=yesterday&through=2020-01-01T00:00:00Z",
            "validation_error",
        ),
        ("is_shipment=maybe", "validation_error"),
        ("limit=0", "pagination_limit_invalid"),
        ("after=00000000000000000000000000000000", "validation_error"),
    ] {
        let res = app
            .get(&format!("/v1/estimates/shipping/all?{query}"), &t.live_key)
            .await;
        assert_error_2024(&res, 400, code);
    }
    // the other organisation sees only its own
    let theirs = app.get("/v1/estimates/shipping/all", &other.live_key).await;
    assert_eq!(theirs.body["data"].as_array().unwrap().len(), 1);
    // another account's cursor is not a position here
    let foreign = app
        .get(
            &format!("/v1/estimates/shipping/all?after={}", ids[0]),
            &other.live_key,
        )
        .await;
    assert_error_2024(&foreign, 400, "validation_error");
}

/// A logistics site (hub): 12 t through an ambient warehouse, GLEC v3
/// 17.5 kg CO2e per tonne handled = 210 kg, all well-to-tank; no route, no
/// distance; read back and recomputed alike. A hub leg adds to a multi-leg
/// total. An unknown site, a negative mass, a transport method without its
/// route: 400 `validation_error` naming the field, nothing stored.
pub(super) async fn logistics_site_estimates_alone_and_as_a_leg(app: TestApp) {
    let t = app.tenant().await;
    let site =
        json!({"shipment": {"mass": {"amount": "12", "unit": "t"}}, "method": "warehouse_ambient"});
    let res = app
        .post(
            "/v1/estimates/shipping?estimate_mass_unit=kg",
            &t.live_key,
            &site,
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms_2024("SingleShippingEmissionEstimate", &res.body);
    let b = &res.body;
    assert_eq!(b["mass"]["amount"], "210", "{b}");
    assert_eq!(b["mass"]["wtw_details"]["wtt"]["amount"], "210");
    assert_eq!(b["mass"]["wtw_details"]["ttw"]["amount"], "0");
    assert!(
        b["route"].is_null() && b["distance_calculation_method"].is_null(),
        "{b}"
    );
    assert_eq!(b["activity"], json!({"value": "12", "unit": "t"}));
    assert_eq!(
        b["intensity"]["wtt"],
        json!({"amount": "17.5", "unit": "kg_per_t"})
    );
    assert_eq!(b["intensity"]["wtw"]["amount"], "17.5");
    assert_eq!(b["emission_factor"]["id"], "HUB_WAREHOUSE_AMBIENT", "{b}");
    assert!(b["data_quality_score"]["components"]["route_score"].is_null());
    assert_eq!(b["request"]["method"], "warehouse_ambient");
    assert!(b["request"].get("route").is_none(), "{b}");
    let id = b["id"].as_str().unwrap().to_owned();
    let read = app
        .get(
            &format!("/v1/estimates/shipping/{id}?estimate_mass_unit=kg"),
            &t.live_key,
        )
        .await;
    assert_eq!(read.status, 200, "{}", read.body);
    conforms_2024("SingleShippingEmissionEstimate", &read.body);
    assert_eq!(read.body["mass"], b["mass"]);
    assert_eq!(read.body["intensity"], b["intensity"]);
    assert!(read.body["distance_calculation_method"].is_null());
    let mut chilled = site.clone();
    chilled["method"] = json!("warehouse_chilled");
    let put = app
        .put(
            &format!("/v1/estimates/shipping/{id}?estimate_mass_unit=kg"),
            &t.live_key,
            &chilled,
        )
        .await;
    assert_eq!(put.status, 200, "{}", put.body);
    conforms_2024("SingleShippingEmissionEstimate", &put.body);
    // the mixed warehouse figure stands in: 12 × 33.0 = 396 kg
    assert_eq!(put.body["mass"]["amount"], "396", "{}", put.body);

    let road = json!({"route": {"amount": "250", "unit": "km"}, "method": "truck_generic_van"});
    let alone = app
        .post(
            "/v1/estimates/shipping?estimate_mass_unit=kg",
            &t.live_key,
            &json!({"shipment": {"mass": {"amount": "12", "unit": "t"}}, "route": road["route"], "method": road["method"]}),
        )
        .await;
    assert_eq!(alone.status, 200, "{}", alone.body);
    let road_g = grams(&alone.body["mass"]) / 1000;
    let multi = app
        .post(
            "/v1/estimates/shipping/multi-leg?estimate_mass_unit=kg",
            &t.live_key,
            &json!({"shipment": {"mass": {"amount": "12", "unit": "t"}},
                    "legs": [road, {"method": "warehouse_ambient"}]}),
        )
        .await;
    assert_eq!(multi.status, 200, "{}", multi.body);
    conforms_2024("MultiLegShippingEmissionEstimate", &multi.body);
    let m = &multi.body;
    assert_eq!(grams(&m["mass"]) / 1000, road_g + 210_000, "{m}");
    assert_eq!(m["legs"][1]["mass"]["amount"], "210");
    assert!(m["legs"][1]["route"].is_null());
    assert_eq!(m["distance"]["amount"], alone.body["distance"]["amount"]);
    let w = &m["mass"]["wtw_details"];
    assert_eq!(
        grams(&w["wtt"]) + grams(&w["ttw"]) + grams(&w["unknown"]),
        grams(&m["mass"]),
        "{m}"
    );

    let before = app.count_estimates_and_orders().await;
    for (path, body, field) in [
        (
            "/v1/estimates/shipping",
            json!({"shipment": {"mass": {"amount": "12", "unit": "t"}}, "method": "warehouse_frozen"}),
            "method",
        ),
        (
            "/v1/estimates/shipping",
            json!({"shipment": {"mass": {"amount": "-12", "unit": "t"}}, "method": "warehouse_ambient"}),
            "shipment",
        ),
        (
            "/v1/estimates/shipping",
            json!({"shipment": {"mass": {"amount": "12", "unit": "t"}}, "method": "truck_generic_van"}),
            "route",
        ),
        (
            "/v1/estimates/shipping/multi-leg",
            json!({"shipment": {"mass": {"amount": "12", "unit": "t"}}, "legs": [{"method": "truck_generic_van"}]}),
            "legs[0].route",
        ),
        (
            "/v1/estimates/shipping/multi-leg",
            json!({"shipment": {"mass": {"amount": "12", "unit": "t"}}, "legs": [road, {"method": "igloo"}]}),
            "legs[1].method",
        ),
    ] {
        let res = app.post(path, &t.live_key, &body).await;
        assert_invalid_field(&res, field);
    }
    assert_eq!(app.count_estimates_and_orders().await, before);
}
