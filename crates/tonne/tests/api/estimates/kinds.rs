//! Every kind of estimate answers the contract's shape with a quote;
//! passenger estimates are read back.

use serde_json::json;

use super::fixtures::{company, explained, grams, individual, sea, tonnes};
use crate::support::{TestApp, assert_error, conforms, conforms_transaction};

pub(super) async fn every_kind_answers_the_contracts_shape_with_a_quote(app: TestApp) {
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

pub(super) async fn passenger_estimates_are_read_back(app: TestApp) {
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
