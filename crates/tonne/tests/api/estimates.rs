//! Emission estimates and orders by estimate, end to end.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::support::{
    Reply, TestApp, assert_error, assert_error_2024, conforms, conforms_2024, conforms_transaction,
};
use tonne_test_support::on_both_backends;

/// `PATCH` with a JSON body.
async fn patch(app: &TestApp, path: &str, key: &str, body: &Value) -> Reply {
    app.send(
        app.request(reqwest::Method::PATCH, path, Some(key))
            .json(body),
    )
    .await
}

fn tonnes(v: &Value) -> f64 {
    v["amount"].as_str().unwrap().parse::<f64>().unwrap()
}

/// Exact grams of a `Mass` in tonnes (at most 6 decimals).
fn grams(v: &Value) -> i64 {
    let amount = v["amount"].as_str().unwrap();
    let (whole, fraction) = amount.split_once('.').unwrap_or((amount, ""));
    assert!(fraction.len() <= 6, "{amount}");
    format!("{whole}{fraction:0<6}").parse().unwrap()
}

pub(crate) fn company() -> Value {
    json!({
        "employees": 50, "remote_employees_percentage": 20,
        "office_area": {"amount": "800", "unit": "square_meters"},
        "country_code": "GBR", "electricity_consumption": 60000, "green_electricity_used": false,
        "gas_consumption": 5000, "company_cars": 3,
        "average_car_distance_travelled": {"amount": "15000", "unit": "km"},
        "employees_using_public_transport": 30, "short_flights": 40, "medium_flights": 10,
        "long_flights": 5, "first_or_business_class_percentage": 10,
        "food_and_drinks_expenses": {"value": "20000", "currency": "GBP"},
        "vegetarian_and_vegan_percentage": 30,
        "electronic_device_expenses": {"value": "30000", "currency": "GBP"},
        "garbage": 4000, "recycled_garbage_percentage": 50,
        "tech": {"cloud": {"cost": {"value": "12000", "currency": "USD"}, "provider": "aws"},
                 "on_premise": {"electricity_cost": {"value": "1000", "currency": "EUR"}}}
    })
}

fn individual() -> Value {
    let m = |v: &str| json!({"value": v, "currency": "EUR"});
    json!({
        "country_code": "FRA", "car_use": true, "short_flights": 2, "medium_flights": 1,
        "long_flights": 1, "days_per_week_using_public_transport": 3, "diet": "medium_meat_eater",
        "monthly_grocery_expenses": m("300"), "monthly_restaurant_expenses": m("100"),
        "monthly_clothing_expenses": m("50"), "monthly_furniture_appliances_expenses": m("30"),
        "monthly_other_expenses": m("200"), "electricity_consumption": 2500,
        "green_electricity_used": false, "gas_consumption": 800
    })
}

fn sea() -> Value {
    json!({"source": {"locode": "CNSHA"}, "destination": {"locode": "NLRTM"}})
}

async fn every_kind_answers_the_contracts_shape_with_a_quote(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let cases = [
        (
            "/v1/estimates/electricity",
            "ElectricityEmissionEstimate",
            json!({"consumption": {"amount": "1000", "unit": "kWh"}, "country_code": "GBR", "name": "office"}),
        ),
        (
            "/v1/estimates/flight",
            "FlightEmissionEstimate",
            json!({"route": {"source": {"code": "LHR"}, "destination": {"code": "KJFK"}}, "cabin_class": "economy", "passengers": 2}),
        ),
        (
            "/v1/estimates/passenger-transportation",
            "PassengerTransportationEmissionEstimate",
            json!({"passengers": 2, "legs": [
             {"route": {"amount": "100", "unit": "km"}, "vehicle_type": "car_supermini"},
             {"route": {"source": {"lat": 48.8566, "lon": 2.3522}, "destination": {"lat": 45.764, "lon": 4.8357}}, "rail_type": "national_rail"},
             {"route": {"amount": "1000", "unit": "km"}, "cabin_class": "business"}]}),
        ),
        (
            "/v1/estimates/shipping",
            "SingleShippingEmissionEstimate",
            json!({"shipment": {"containers": "2", "cargo_type": "average"}, "route": sea(), "method": {"vessel_type": "container_ship"}}),
        ),
        (
            "/v1/estimates/shipping/multi-leg",
            "MultiLegShippingEmissionEstimate",
            json!({"shipment": {"mass": {"amount": "10", "unit": "t"}}, "legs": [
             {"route": {"amount": "106.9614", "unit": "km"}, "method": "diesel_truck"},
             {"route": sea(), "method": {"vessel_imo_number": "9745225"}},
             {"route": {"source": {"code": "AMS"}, "destination": {"code": "FRA"}}, "method": "cargo_plane"}]}),
        ),
        (
            "/v1/estimates/transactions",
            "TransactionEmissionEstimate",
            json!({"value": {"value": "100", "currency": "EUR"}, "merchant": {"country_code": "GBR", "fuzzy_search_term": "Bananas"}, "diet": "vegan"}),
        ),
        (
            "/v1/estimates/transactions",
            "TransactionEmissionEstimate",
            json!({"value": {"value": "100", "currency": "EUR"}, "merchant": {"country_code": "GBR", "search_term": "Bananas"}, "diet": "vegan"}),
        ),
        (
            "/v1/estimates/company",
            "CompanyEmissionEstimate",
            company(),
        ),
        (
            "/v1/estimates/individual",
            "IndividualEmissionEstimate",
            individual(),
        ),
    ];
    for (path, schema, body) in cases {
        let res = app.post(path, &t.live_key, &body).await;
        assert_eq!(res.status, 200, "{path}: {}", res.body);
        if schema == "TransactionEmissionEstimate" {
            conforms_transaction(&res.body);
        } else {
            conforms(schema, &res.body);
        }
        assert_eq!(res.body["request"], body, "{path}: the request is echoed");
        assert_eq!(res.body["id"].as_str().unwrap().len(), 32);
        assert_eq!(
            res.body["quote"]["requested_quantity"], res.body["mass"]["amount"],
            "{path}"
        );
        assert!(tonnes(&res.body["mass"]) > 0.0, "{path}");
        explained(path, &res.body);
    }

    // electricity by hand: 1,000 kWh × 215.79 g (Ember 2024, GBR)
    let e = app
        .post(
            "/v1/estimates/electricity",
            &t.live_key,
            &json!({"consumption": {"amount": "1", "unit": "MWh"}, "country_code": "GBR"}),
        )
        .await;
    assert_eq!(e.body["mass"], json!({"amount": "0.21579", "unit": "t"}));
    // the company's scopes and components each add up to the total
    let c = app
        .post("/v1/estimates/company", &t.live_key, &company())
        .await;
    let total = grams(&c.body["mass"]);
    let scopes: i64 = ["scope1", "scope2", "scope3"]
        .iter()
        .map(|k| grams(&c.body[k]))
        .sum();
    let parts: i64 = c.body["components"]
        .as_object()
        .unwrap()
        .values()
        .map(grams)
        .sum();
    assert_eq!((scopes, parts), (total, total));
    // multi-leg: legs in order, summing to the total; the sea leg follows the network (~19,600 km)
    let m = app.post("/v1/estimates/shipping/multi-leg", &t.live_key, &json!({
        "shipment": {"mass": {"amount": "10", "unit": "t"}},
        "legs": [{"route": {"amount": "100", "unit": "km"}, "method": "diesel_truck"},
                 {"route": sea(), "method": {"vessel_imo_number": "9745225", "vessel_type": "container_ship", "trade_lane": "aggregated_transsuez"}}]})).await;
    let legs = m.body["legs"].as_array().unwrap();
    assert_eq!(
        legs.iter().map(|l| grams(&l["mass"])).sum::<i64>(),
        grams(&m.body["mass"])
    );
    // 10 t × 100 km × 0.10163 kg/t·km (DESNZ 2025 all HGVs, 27_304_3140_14_1) = 101.63 kg
    // + 10 t × 100 km × 0.02359 (its WTT row 28_907_3140_14_1) = 23.59 kg: 125.22 kg well-to-wheel
    assert_eq!(legs[0]["mass"]["amount"], "0.12522");
    assert_eq!(legs[0]["mass"]["wtw_details"]["ttw"]["amount"], "0.10163");
    assert_eq!(legs[0]["mass"]["wtw_details"]["wtt"]["amount"], "0.02359");
    assert_eq!(
        legs[1]["methodology"],
        json!(["imo_unavailable_container_ship_trade_lane_fallback"])
    );
    let sea_km = tonnes(&legs[1]["distance"]);
    assert!((17_500.0..21_400.0).contains(&sea_km), "{sea_km}");
}

/// An answer's explanation (Tonne's extension): parts whose masses add up to
/// the estimate's mass exactly, each factor with its provenance.
fn explained(path: &str, body: &Value) {
    let grams = |m: &Value| {
        let t: rust_decimal::Decimal = m["amount"].as_str().unwrap().parse().unwrap();
        t * rust_decimal::Decimal::from(1_000_000)
    };
    let parts = body["explanation"]["parts"]
        .as_array()
        .unwrap_or_else(|| panic!("{path}: {body}"));
    assert!(!parts.is_empty(), "{path}");
    let sum: rust_decimal::Decimal = parts.iter().map(|p| grams(&p["mass"])).sum();
    assert_eq!(sum, grams(&body["mass"]), "{path}: Σ parts = mass");
    for p in parts {
        for f in p["factors"].as_array().unwrap() {
            for field in ["id", "value", "unit", "source"] {
                assert!(
                    f[field].as_str().is_some_and(|v| !v.is_empty()),
                    "{path}: {f}"
                );
            }
        }
        for q in p["quantities"].as_array().unwrap() {
            assert!(
                q["amount"].as_str().is_some() && q["method"].as_str().is_some(),
                "{path}: {q}"
            );
        }
    }
}

async fn stored_estimates_are_read_recomputed_in_place_and_private(app: TestApp) {
    app.demo_catalogue().await;
    let (t, other) = (app.tenant().await, app.tenant().await);
    let body = json!({"value": {"value": "50", "currency": "GBP"}, "merchant": {"country_code": "GBR", "category_code": "5812"}});
    let created = app
        .post("/v1/estimates/transactions", &t.live_key, &body)
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    let id = created.body["id"].as_str().unwrap().to_owned();
    let path = format!("/v1/estimates/transactions/{id}");
    let read = app.get(&path, &t.live_key).await;
    assert_eq!(read.status, 200);
    conforms("TransactionEmissionEstimate", &read.body);
    assert_eq!(
        (&read.body["mass"], &read.body["request"]),
        (&created.body["mass"], &body)
    );
    // the explanation is stored with the estimate: a read answers the same one
    assert_eq!(read.body["explanation"], created.body["explanation"]);
    explained(&path, &read.body);

    let mut bigger = body.clone();
    bigger["value"]["value"] = json!("100");
    let put = app.put(&path, &t.live_key, &bigger).await;
    assert_eq!(put.status, 200, "{}", put.body);
    assert_eq!(put.body["id"], id.as_str());
    assert!(tonnes(&put.body["mass"]) > tonnes(&created.body["mass"]));
    assert_eq!(app.get(&path, &t.live_key).await.body["request"], bigger);

    // another account, another kind's path, an unknown id: 404 estimate_not_found
    assert_error(
        &app.get(&path, &other.live_key).await,
        404,
        "estimate_not_found",
    );
    assert_error(
        &app.put(&path, &other.live_key, &body).await,
        404,
        "estimate_not_found",
    );
    assert_error(
        &app.get(&format!("/v1/estimates/company/{id}"), &t.live_key)
            .await,
        404,
        "estimate_not_found",
    );
    assert_error(
        &app.get(
            "/v1/estimates/shipping/0123456789abcdef0123456789abcdef",
            &t.live_key,
        )
        .await,
        404,
        "estimate_not_found",
    );
    // a bad PUT changes nothing
    let mut bad = body.clone();
    bad["merchant"]["country_code"] = json!("ZZZ");
    assert_error(
        &app.put(&path, &t.live_key, &bad).await,
        400,
        "validation_error",
    );
    assert_eq!(app.get(&path, &t.live_key).await.body["request"], bigger);
    // without a catalogue price the quote is an Errors object, and the estimate still answers
    let flight = app.post("/v1/estimates/flight", &t.test_key, &json!({"route": {"amount": "800", "unit": "km"}, "bundle_selection": [{"bundle_id": "0123456789abcdef0123456789abcdef"}]})).await;
    assert_eq!(flight.status, 200, "{}", flight.body);
    conforms("FlightEmissionEstimate", &flight.body);
    assert_eq!(
        flight.body["quote"]["errors"][0]["error_code"],
        "bundle_id_invalid"
    );
}

async fn an_estimate_is_ordered_once_and_then_frozen(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let shipping = json!({"shipment": {"mass": {"amount": "3", "unit": "t"}}, "route": {"amount": "1000", "unit": "km"}, "method": "truck_generic_hgv"});
    let e = app
        .post("/v1/estimates/shipping", &t.live_key, &shipping)
        .await;
    let id = e.body["id"].as_str().unwrap().to_owned();
    let order = app
        .post(
            "/v1/orders/by-estimate",
            &t.live_key,
            &json!({"estimate_id": id, "idempotency_key": "est-1", "quantity_trunc": "kg"}),
        )
        .await;
    assert_eq!(order.status, 200, "{}", order.body);
    conforms("OrderByEstimate", &order.body);
    assert_eq!(order.body["estimate_id"], id.as_str());
    assert_eq!(order.body["requested_quantity"], e.body["mass"]["amount"]);
    assert_eq!(order.body["type"], "quantity");

    assert_error(
        &app.post(
            "/v1/orders/by-estimate",
            &t.live_key,
            &json!({"estimate_id": id}),
        )
        .await,
        409,
        "estimate_order_already_placed",
    );
    assert_error(
        &app.put(
            &format!("/v1/estimates/shipping/{id}"),
            &t.live_key,
            &shipping,
        )
        .await,
        409,
        "estimate_order_already_placed",
    );
    assert_error(
        &app.post(
            "/v1/orders/by-estimate",
            &t.live_key,
            &json!({"estimate_id": id, "idempotency_key": "est-1"}),
        )
        .await,
        409,
        "order_idempotency_already_exists",
    );
    assert_error(
        &app.post(
            "/v1/orders/by-estimate",
            &t.live_key,
            &json!({"estimate_id": "0123456789abcdef0123456789abcdef"}),
        )
        .await,
        400,
        "estimate_not_found",
    );
    let other = app.tenant().await;
    assert_error(
        &app.post(
            "/v1/orders/by-estimate",
            &other.live_key,
            &json!({"estimate_id": id}),
        )
        .await,
        400,
        "estimate_not_found",
    );

    // ten concurrent orders of one estimate: exactly one is placed
    let fresh = app
        .post(
            "/v1/estimates/electricity",
            &t.live_key,
            &json!({"consumption": {"amount": "5", "unit": "MWh"}}),
        )
        .await;
    let fresh = fresh.body["id"].as_str().unwrap().to_owned();
    let app = Arc::new(app);
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let (app, key, fresh) = (app.clone(), t.live_key.clone(), fresh.clone());
        tasks.push(tokio::spawn(async move {
            app.post(
                "/v1/orders/by-estimate",
                &key,
                &json!({"estimate_id": fresh}),
            )
            .await
            .status
            .as_u16()
        }));
    }
    let mut statuses = Vec::new();
    for task in tasks {
        statuses.push(task.await.unwrap());
    }
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
}

async fn a_batch_answers_every_entry_in_order(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let good = |v: usize| json!({"value": {"value": format!("{v}"), "currency": "USD"}, "merchant": {"country_code": "USA", "category_code": "5411"}});
    let mut entries: Vec<Value> = (1..=97).map(good).collect();
    entries.insert(10, json!({"value": {"value": "10", "currency": "USD"}, "merchant": {"country_code": "USA", "category_code": "6011"}}));
    entries.insert(20, json!({"value": {"value": "10", "currency": "JPY"}, "merchant": {"country_code": "USA", "category_code": "5411"}}));
    entries.insert(30, json!({"value": {"value": "10", "currency": "USD"}, "merchant": {"country_code": "USA", "category_code": "0001"}}));
    assert_eq!(entries.len(), 100);
    let res = app
        .post(
            "/v1/estimates/transactions/batch",
            &t.live_key,
            &Value::Array(entries),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms("BatchTransactionEmissionEstimate", &res.body);
    let out = res.body.as_array().unwrap();
    assert_eq!(out.len(), 100);
    assert_eq!(out[10], json!({}));
    assert_eq!(out[20]["errors"][0]["error_code"], "validation_error");
    assert!(
        out[20]["errors"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("[20].value.currency"),
        "{}",
        out[20]
    );
    assert_eq!(out[30]["errors"][0]["error_code"], "validation_error");
    // in order: entry 0 spent 1 USD, entry 1 spent 2 USD
    assert_eq!(out[0]["request"]["value"]["value"], "1");
    assert_eq!(out[1]["request"]["value"]["value"], "2");
    assert!(grams(&out[1]["mass"]) > grams(&out[0]["mass"]));
    // each stored estimate reads back
    let id = out[99]["id"].as_str().unwrap();
    assert_eq!(
        app.get(&format!("/v1/estimates/transactions/{id}"), &t.live_key)
            .await
            .status,
        200
    );
    // bounds: 1 to 100 entries
    let too_many = Value::Array((1..=101).map(good).collect());
    assert_error(
        &app.post("/v1/estimates/transactions/batch", &t.live_key, &too_many)
            .await,
        400,
        "validation_error",
    );
    assert_error(
        &app.post("/v1/estimates/transactions/batch", &t.live_key, &json!([]))
            .await,
        400,
        "validation_error",
    );
    assert_error(
        &app.post(
            "/v1/estimates/transactions/batch",
            &t.live_key,
            &json!({"value": 1}),
        )
        .await,
        400,
        "validation_error",
    );
}

async fn bad_input_gets_the_contracts_codes(app: TestApp) {
    let t = app.tenant().await;
    let key = &t.live_key;
    let cases = [
        (
            "/v1/estimates/flight",
            json!({"route": {"source": {"code": "LHR"}, "destination": {"code": "QQQ"}}}),
            "airport_invalid",
        ),
        (
            "/v1/estimates/flight",
            json!({"route": {"source": {"code": "lhr"}, "destination": {"code": "JFK"}}}),
            "validation_error",
        ),
        (
            "/v1/estimates/flight",
            json!({"route": {"amount": "-5", "unit": "km"}}),
            "validation_error",
        ),
        (
            "/v1/estimates/flight",
            json!({"route": {"amount": "5", "unit": "km"}, "passengers": -1}),
            "validation_error",
        ),
        (
            "/v1/estimates/shipping",
            json!({"shipment": {"mass": {"amount": "1", "unit": "t"}}, "route": {"source": {"locode": "ZZZZZ"}, "destination": {"locode": "NLRTM"}}, "method": {"vessel_type": "container_ship"}}),
            "port_not_found",
        ),
        (
            "/v1/estimates/shipping",
            json!({"shipment": {"mass": {"amount": "1", "unit": "t"}}, "route": {"source": {"street_line1": "1 Main St", "postcode": "1000", "city": "X", "country_code": "GBR"}, "destination": {"locode": "NLRTM"}}, "method": "diesel_truck"}),
            "address_not_found",
        ),
        (
            "/v1/estimates/shipping",
            json!({"shipment": {"mass": {"amount": "1", "unit": "t"}}, "route": {"amount": "10", "unit": "km"}, "method": "teleporter"}),
            "validation_error",
        ),
        (
            "/v1/estimates/electricity",
            json!({"consumption": {"amount": "1", "unit": "TWh"}}),
            "validation_error",
        ),
        (
            "/v1/estimates/electricity",
            json!({"consumption": {"amount": "1", "unit": "kWh"}, "country_code": "XYZ"}),
            "validation_error",
        ),
        (
            "/v1/estimates/transactions",
            json!({"value": {"value": "1", "currency": "GBP"}, "merchant": {"country_code": "GBR", "category_code": "5411", "fuzzy_search_term": "x"}}),
            "validation_error",
        ),
        (
            "/v1/estimates/passenger-transportation",
            json!({"legs": []}),
            "validation_error",
        ),
        (
            "/v1/estimates/company",
            json!({"employees": 1}),
            "validation_error",
        ),
        (
            "/v1/estimates/individual",
            json!({"country_code": "FRA"}),
            "validation_error",
        ),
    ];
    for (path, body, code) in cases {
        assert_error(&app.post(path, key, &body).await, 400, code);
    }
    // money movement: 204, nothing stored
    let res = app.post("/v1/estimates/transactions", key, &json!({"value": {"value": "1", "currency": "GBP"}, "merchant": {"country_code": "GBR", "category_code": "4829"}})).await;
    assert_eq!(res.status, 204);
    assert_error(
        &app.get(
            "/v1/estimates/electricity/0123456789abcdef0123456789abcdef",
            "nope",
        )
        .await,
        401,
        "unauthorised",
    );
}

/// Addresses resolve offline to their city's centroid (GeoNames): road legs use
/// great-circle × 1.2, sea legs snap to the nearest seaport.
async fn shipping_from_address_to_address(app: TestApp) {
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
    assert!(
        unknown.body["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("Atlantis")
    );
}

async fn current_clients_requests_are_accepted_with_their_meaning(app: TestApp) {
    app.demo_catalogue().await;
    let (t, other) = (app.tenant().await, app.tenant().await);
    let merchant = |m: Value| json!({"value": {"value": "20", "currency": "GBP"}, "merchant": m});
    // `search_term` (2024) matches as `fuzzy_search_term` (2023) does
    let new = app
        .post(
            "/v1/estimates/transactions",
            &t.live_key,
            &merchant(json!({"country_code": "GBR", "search_term": "bananas", "category": "Groceries", "name": "Corner shop"})),
        )
        .await;
    assert_eq!(new.status, 200, "{}", new.body);
    conforms_2024("TransactionEmissionEstimate", &new.body);
    let old = app
        .post(
            "/v1/estimates/transactions",
            &t.live_key,
            &merchant(json!({"country_code": "GBR", "fuzzy_search_term": "bananas"})),
        )
        .await;
    assert_eq!(old.status, 200, "{}", old.body);
    assert_eq!(new.body["mass"], old.body["mass"]);
    assert_eq!(new.body["search_term_match"], old.body["search_term_match"]);
    for (m, field) in [
        (
            json!({"country_code": "GBR", "search_term": "bananas", "fuzzy_search_term": "bananas"}),
            "merchant",
        ),
        (
            json!({"country_code": "GBR", "search_term": ""}),
            "merchant.search_term",
        ),
        (
            json!({"country_code": "GBR", "search_term": "bananas", "category_code": "5812"}),
            "merchant",
        ),
    ] {
        let res = app
            .post("/v1/estimates/transactions", &t.live_key, &merchant(m))
            .await;
        assert_error(&res, 400, "validation_error");
        let message = res.body["errors"][0]["message"].as_str().unwrap();
        assert!(message.starts_with(field), "{message} should name {field}");
    }

    // `metadata` and `idempotency_key`: stored and answered, on every kind
    let electricity = json!({"consumption": {"amount": "1000", "unit": "kWh"}, "country_code": "GBR",
        "metadata": {"order": "A-17", "team": "ops"}, "idempotency_key": "elec-1"});
    let created = app
        .post("/v1/estimates/electricity", &t.live_key, &electricity)
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    conforms("ElectricityEmissionEstimate", &created.body);
    assert_eq!(
        created.body["metadata"],
        json!({"order": "A-17", "team": "ops"})
    );
    assert_eq!(created.body["idempotency_key"], "elec-1");
    assert_eq!(created.body["request"], electricity);
    let id = created.body["id"].as_str().unwrap().to_owned();
    let read = app
        .get(&format!("/v1/estimates/electricity/{id}"), &t.live_key)
        .await;
    assert_eq!(read.body["metadata"], created.body["metadata"]);
    assert_eq!(read.body["idempotency_key"], "elec-1");
    // a repeat of the key, on any kind, is 409 and stores nothing
    let repeat = app
        .post(
            "/v1/estimates/transactions",
            &t.live_key,
            &json!({"value": {"value": "20", "currency": "GBP"},
                "merchant": {"country_code": "GBR", "category_code": "5812"}, "idempotency_key": "elec-1"}),
        )
        .await;
    assert_error_2024(&repeat, 409, "estimate_idempotency_already_exists");
    // another account (another organisation, or the same one's test mode) has its own keys
    for key in [&other.live_key, &t.test_key] {
        let res = app
            .post("/v1/estimates/electricity", key, &electricity)
            .await;
        assert_eq!(res.status, 200, "{}", res.body);
    }

    // a transaction estimate is found by its key, on its account only
    let tx = json!({"value": {"value": "35", "currency": "GBP"},
        "merchant": {"country_code": "GBR", "category_code": "5812"},
        "idempotency_key": "tx 2024 #1", "is_transaction": true,
        "transaction_processed_at": "2024-07-17T14:30:00Z", "region_fallback": "never",
        "metadata": {"user_id": "u-38925d"}});
    let tx_created = app
        .post("/v1/estimates/transactions", &t.live_key, &tx)
        .await;
    assert_eq!(tx_created.status, 200, "{}", tx_created.body);
    conforms_2024("TransactionEmissionEstimate", &tx_created.body);
    let by_key = "/v1/estimates/transactions/by-idempotency-key/tx%202024%20%231";
    let found = app.get(by_key, &t.live_key).await;
    assert_eq!(found.status, 200, "{}", found.body);
    conforms_2024("TransactionEmissionEstimate", &found.body);
    assert_eq!(found.body["id"], tx_created.body["id"]);
    assert_eq!(found.body["request"], tx);
    assert_error(
        &app.get(by_key, &other.live_key).await,
        404,
        "estimate_not_found",
    );
    assert_error(
        &app.get(by_key, &t.test_key).await,
        404,
        "estimate_not_found",
    );
    // the key of an electricity estimate names no transaction estimate
    assert_error(
        &app.get(
            "/v1/estimates/transactions/by-idempotency-key/elec-1",
            &t.live_key,
        )
        .await,
        404,
        "estimate_not_found",
    );

    // shipping annotations
    let shipping = json!({"shipment": {"containers": "2"}, "route": sea(),
        "method": {"vessel_type": "container_ship"}, "is_shipment": true,
        "shipped_at": "2024-12-01T12:30:30.000Z"});
    let res = app
        .post("/v1/estimates/shipping", &t.live_key, &shipping)
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms_2024("SingleShippingEmissionEstimate", &res.body);
    assert_eq!(res.body["request"], shipping);
    let shipping_id = res.body["id"].as_str().unwrap().to_owned();

    // PATCH …/annotations: absent fields unchanged, nothing recomputed
    let annotations = format!("/v1/estimates/shipping/{shipping_id}/annotations");
    let patched = patch(
        &app,
        &annotations,
        &t.live_key,
        &json!({"metadata": {"po": "7"}, "idempotency_key": "ship-1"}),
    )
    .await;
    assert_eq!(patched.status, 200, "{}", patched.body);
    conforms_2024("SingleShippingEmissionEstimate", &patched.body);
    assert_eq!(patched.body["mass"], res.body["mass"]);
    assert_eq!(patched.body["metadata"], json!({"po": "7"}));
    assert_eq!(patched.body["idempotency_key"], "ship-1");
    let read = app
        .get(
            &format!("/v1/estimates/shipping/{shipping_id}"),
            &t.live_key,
        )
        .await;
    assert_eq!(read.body["metadata"], json!({"po": "7"}));
    // bad bodies are 400 and change nothing; another key's owner is 409
    for bad in [
        json!({}),
        json!({"is_shipment": null}),
        json!({"shipped_at": "soon"}),
        json!({"metadata": {"": "x"}}),
        json!({"idempotency_key": ""}),
        json!({"is_transaction": true}),
    ] {
        let res = patch(&app, &annotations, &t.live_key, &bad).await;
        assert_error(&res, 400, "validation_error");
    }
    assert_error_2024(
        &patch(
            &app,
            &annotations,
            &t.live_key,
            &json!({"idempotency_key": "elec-1"}),
        )
        .await,
        409,
        "estimate_idempotency_already_exists",
    );
    let read = app
        .get(
            &format!("/v1/estimates/shipping/{shipping_id}"),
            &t.live_key,
        )
        .await;
    assert_eq!(
        (&read.body["metadata"], &read.body["idempotency_key"]),
        (&json!({"po": "7"}), &json!("ship-1"))
    );
    // another account's estimate, another kind's route: 404
    assert_error(
        &patch(
            &app,
            &annotations,
            &other.live_key,
            &json!({"is_shipment": false}),
        )
        .await,
        404,
        "estimate_not_found",
    );
    assert_error(
        &patch(
            &app,
            &format!("/v1/estimates/shipping/multi-leg/{shipping_id}/annotations"),
            &t.live_key,
            &json!({"is_shipment": false}),
        )
        .await,
        404,
        "estimate_not_found",
    );
    let tx_id = tx_created.body["id"].as_str().unwrap();
    let tx_patched = patch(
        &app,
        &format!("/v1/estimates/transactions/{tx_id}/annotations"),
        &t.live_key,
        &json!({"is_transaction": false, "transaction_processed_at": "2024-07-18T09:00:00+02:00"}),
    )
    .await;
    assert_eq!(tx_patched.status, 200, "{}", tx_patched.body);
    conforms_2024("TransactionEmissionEstimate", &tx_patched.body);
    assert_eq!(tx_patched.body["idempotency_key"], "tx 2024 #1");
    assert_eq!(tx_patched.body["metadata"], json!({"user_id": "u-38925d"}));

    // bad values: 400 naming the field, nothing stored
    let long_key = "k".repeat(101);
    for (path, body, field) in [
        (
            "/v1/estimates/electricity",
            json!({"consumption": {"amount": "1", "unit": "kWh"}, "idempotency_key": long_key}),
            "idempotency_key",
        ),
        (
            "/v1/estimates/electricity",
            json!({"consumption": {"amount": "1", "unit": "kWh"}, "idempotency_key": null}),
            "idempotency_key",
        ),
        (
            "/v1/estimates/electricity",
            json!({"consumption": {"amount": "1", "unit": "kWh"}, "metadata": {"n": 1}}),
            "metadata",
        ),
        (
            "/v1/estimates/electricity",
            json!({"consumption": {"amount": "1", "unit": "kWh"}, "metadata": null}),
            "metadata",
        ),
        (
            "/v1/estimates/electricity",
            json!({"consumption": {"amount": "1", "unit": "kWh"}, "metadata": {"": "x"}}),
            "metadata",
        ),
        (
            "/v1/estimates/shipping",
            json!({"shipment": {"containers": "2"}, "route": sea(),
                "method": {"vessel_type": "container_ship"}, "shipped_at": "yesterday"}),
            "shipped_at",
        ),
        (
            "/v1/estimates/transactions",
            json!({"value": {"value": "1", "currency": "GBP"},
                "merchant": {"country_code": "GBR", "category_code": "5812"},
                "transaction_processed_at": "2024-07-17"}),
            "transaction_processed_at",
        ),
        (
            "/v1/estimates/transactions",
            json!({"value": {"value": "1", "currency": "GBP"},
                "merchant": {"country_code": "GBR", "category_code": "5812"},
                "region_fallback": "sometimes"}),
            "region_fallback",
        ),
        (
            "/v1/estimates/electricity",
            json!({"consumption": {"amount": "1", "unit": "kWh"}, "colour": "green"}),
            "colour",
        ),
    ] {
        let res = app.post(path, &t.live_key, &body).await;
        assert_error(&res, 400, "validation_error");
        let message = res.body["errors"][0]["message"].as_str().unwrap();
        assert!(message.contains(field), "{message} should name {field}");
    }
}

async fn passenger_estimates_are_read_back(app: TestApp) {
    app.demo_catalogue().await;
    let (t, other) = (app.tenant().await, app.tenant().await);
    let body = json!({"passengers": 2, "legs": [
        {"route": {"amount": "100", "unit": "km"}, "vehicle_type": "car_supermini"}]});
    let created = app
        .post("/v1/estimates/passenger-transportation", &t.live_key, &body)
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    let path = format!(
        "/v1/estimates/passenger-transportation/{}",
        created.body["id"].as_str().unwrap()
    );
    let read = app.get(&path, &t.live_key).await;
    assert_eq!(read.status, 200, "{}", read.body);
    conforms("PassengerTransportationEmissionEstimate", &read.body);
    assert_eq!(
        (
            &read.body["mass"],
            &read.body["legs"],
            &read.body["request"]
        ),
        (&created.body["mass"], &created.body["legs"], &body)
    );
    assert_error(
        &app.get(&path, &other.live_key).await,
        404,
        "estimate_not_found",
    );
    assert_error(
        &app.get(&path, &t.test_key).await,
        404,
        "estimate_not_found",
    );
    // another kind's id is not a passenger estimate
    let flight = app
        .post(
            "/v1/estimates/flight",
            &t.live_key,
            &json!({"route": {"amount": "800", "unit": "km"}}),
        )
        .await;
    assert_error(
        &app.get(
            &format!(
                "/v1/estimates/passenger-transportation/{}",
                flight.body["id"].as_str().unwrap()
            ),
            &t.live_key,
        )
        .await,
        404,
        "estimate_not_found",
    );
}

async fn one_idempotency_key_under_concurrency_makes_one_estimate(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let app = Arc::new(app);
    let mut tasks = Vec::new();
    for i in 0..10 {
        let (app, key) = (app.clone(), t.live_key.clone());
        tasks.push(tokio::spawn(async move {
            let res = app
                .post(
                    "/v1/estimates/transactions",
                    &key,
                    &json!({"value": {"value": format!("{}", 10 + i), "currency": "GBP"},
                        "merchant": {"country_code": "GBR", "category_code": "5812"},
                        "idempotency_key": "once"}),
                )
                .await;
            if res.status == 409 {
                assert_error_2024(&res, 409, "estimate_idempotency_already_exists");
            }
            (res.status.as_u16(), res.body["id"].clone())
        }));
    }
    let mut statuses = Vec::new();
    let mut winner = Value::Null;
    for task in tasks {
        let (status, id) = task.await.unwrap();
        if status == 200 {
            winner = id;
        }
        statuses.push(status);
    }
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    let found = app
        .get(
            "/v1/estimates/transactions/by-idempotency-key/once",
            &t.live_key,
        )
        .await;
    assert_eq!(found.body["id"], winner);
}

/// `GET /v1/estimates/shipping/all`: both shipping kinds and nothing else,
/// most recent first, paged by cursor, filtered by `is_shipment` and a time
/// range, in the unit asked; another account's estimates never appear.
async fn shipping_estimates_are_listed_by_page_and_filter(app: TestApp) {
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
async fn logistics_site_estimates_alone_and_as_a_leg(app: TestApp) {
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
        assert_error(&res, 400, "validation_error");
        assert!(
            res.body.to_string().contains(field),
            "{field}: {}",
            res.body
        );
    }
    assert_eq!(app.count_estimates_and_orders().await, before);
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    shipping_estimates_are_listed_by_page_and_filter,
    logistics_site_estimates_alone_and_as_a_leg,
    shipping_from_address_to_address,
    every_kind_answers_the_contracts_shape_with_a_quote,
    stored_estimates_are_read_recomputed_in_place_and_private,
    an_estimate_is_ordered_once_and_then_frozen,
    a_batch_answers_every_entry_in_order,
    bad_input_gets_the_contracts_codes,
    current_clients_requests_are_accepted_with_their_meaning,
    passenger_estimates_are_read_back,
    one_idempotency_key_under_concurrency_makes_one_estimate,
);
