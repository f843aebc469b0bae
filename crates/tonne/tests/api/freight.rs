//! Freight by class, end to end: every 2024 method name is accepted and
//! takes its most specific DESNZ row; a stand-in says which factor it uses
//! and lowers the leg's data-quality score.

use rust_decimal::Decimal;
use serde_json::{Value, json};
use tonne_test_support::on_both_backends;

use crate::support::{Reply, TestApp, assert_error, assert_invalid_field, conforms_2024};

const SHIPPING: &str = "/v1/estimates/shipping";

/// `POST /v1/estimates/shipping`.
async fn shipping(app: &TestApp, key: &str, body: &Value) -> Reply {
    app.post(SHIPPING, key, body).await
}

fn grams(v: &Value) -> i64 {
    let t: Decimal = v["mass"]["amount"].as_str().unwrap().parse().unwrap();
    rust_decimal::prelude::ToPrimitive::to_i64(&(t * Decimal::from(1_000_000))).unwrap()
}

async fn methods_by_class_take_their_rows_and_grade_their_quality(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let road = |method: &str| {
        json!({
            "shipment": {"mass": {"amount": "2", "unit": "t"}},
            "route": {"amount": "100", "unit": "km"},
            "method": method,
        })
    };
    // DESNZ 2025 HGV refrigerated, rigid 3.5–7.5 t, average laden: 0.62837
    // kg/t·km × 2 t × 100 km = 125.674 kg tank-to-wheel, + its WTT row
    // (28_908_3112_14_1) 0.14669 × 2 × 100 = 29.338 kg: 155.012 kg; its own
    // row, a sent distance, a mass
    let res = shipping(&app, &t.live_key, &road("truck_rigid_7_5t_refrigerated")).await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms_2024("SingleShippingEmissionEstimate", &res.body);
    assert_eq!(grams(&res.body), 155_012);
    assert_eq!(
        res.body["data_quality_score"],
        json!({"score": "A", "components": {"emission_factor_score": "A", "route_score": "A", "shipment_score": "A"}})
    );
    assert_eq!(
        res.body["emission_factor"]["gas_emissions"]["co2e"],
        "0.62837"
    );
    assert!(res.body["emission_factor"]["gas_emissions"]["wtw_breakdown"].is_object());

    // a gas-fuelled truck: the diesel row of its class, said, graded C
    let res = shipping(
        &app,
        &t.live_key,
        &road("truck_articulated_40t_si_engine_cng"),
    )
    .await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms_2024("SingleShippingEmissionEstimate", &res.body);
    // DESNZ articulated over 33 t, average laden: 0.07703 × 2 × 100 = 15.406 kg
    // + WTT 0.01799 × 2 × 100 = 3.598 kg = 19.004 kg
    assert_eq!(grams(&res.body), 19_004);
    assert_eq!(res.body["data_quality_score"]["score"], "C");
    let notes = res.body["explanation"]["notes"].to_string();
    assert!(
        notes.contains("gas-fuelled") && notes.contains("HGV_ARTIC_OVER_33"),
        "{notes}"
    );

    // a ship by type and size (SimpleSeaShippingMethod): DESNZ bulk carrier
    // 200,000+ dwt, 0.00253 kg/t·km, over the maritime network (graded B)
    let res = shipping(
        &app,
        &t.live_key,
        &json!({
            "shipment": {"mass": {"amount": "1000", "unit": "t"}},
            "route": {"source": {"locode": "CNSHA"}, "destination": {"locode": "NLRTM"}},
            "method": "sea_bulk_carrier_over_200dwkt_hfo",
        }),
    )
    .await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms_2024("SingleShippingEmissionEstimate", &res.body);
    assert_eq!(
        res.body["emission_factor"]["gas_emissions"]["co2e"],
        "0.00253"
    );
    assert_eq!(
        res.body["data_quality_score"]["components"]["route_score"],
        "B"
    );
    assert_eq!(res.body["data_quality_score"]["score"], "B");

    // containers converted by the average cargo type: the shipment is graded C
    let res = shipping(
        &app,
        &t.live_key,
        &json!({
            "shipment": {"containers": "2"},
            "route": {"amount": "1000", "unit": "km"},
            "method": "truck_articulated_44t_container",
        }),
    )
    .await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert_eq!(
        res.body["data_quality_score"]["components"]["shipment_score"],
        "C"
    );

    // names the document does not have: 400, nothing stored
    let before = app.count_estimates_and_orders().await;
    for bad in [
        "truck_rigid_7_5t_hovercraft",
        "sea_bulk_carrier_11dwkt_hfo",
        "electric_freight_train_us_average",
    ] {
        let res = app.post(SHIPPING, &t.live_key, &road(bad)).await;
        assert_error(&res, 400, "validation_error");
    }
    assert_eq!(app.count_estimates_and_orders().await, before);
}

/// Client 3.9.2's multi-leg estimate by fuel, by hand from the DESNZ 2025 rows:
/// - 1,000 l of diesel (100 % mineral, 1_101_1012_8_1): 1,000 × 2.66155 =
///   2,661.55 kg tank-to-wheel + 1,000 × 0.62409 (WTT- fuels 11_101_1012_8_1)
///   = 624.09 kg = 3,285.64 kg; 2.66155 kg/l ÷ 0.26808 kg/kWh (Net CV) ×
///   3.6 MJ/kWh = 35.7415 MJ/l;
/// - 1,000 l of 95 % diesel + 5 % biodiesel ME (2_103_1032_8_1, 0.16751 kg/l;
///   WTT 12_900_1032_8_1, 0.39508 kg/l): 0.95 × 2.66155 + 0.05 × 0.16751 =
///   2.536848 kg/l → 2,536.848 kg; 0.95 × 0.62409 + 0.05 × 0.39508 =
///   0.6126395 kg/l → 612.640 kg; 3,149.488 kg.
///
/// Total 6,435.128 kg.
async fn multi_leg_by_fuel_is_litres_times_the_fuel_rows(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let body = json!({
        "legs": [
            {"fuel": "diesel", "fuel_consumed_litres": 1000},
            {"fuel": "95_diesel_5_biodiesel", "fuel_consumed_litres": 1000.0},
        ],
        "is_shipment": true,
        "shipped_at": "2024-05-01T10:00:00Z",
    });
    let res = app
        .post(
            "/v1/estimates/shipping/multi-leg/by-fuel",
            &t.live_key,
            &body,
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    let e = &res.body;
    for k in [
        "id",
        "quote",
        "request",
        "external_estimate_url",
        "legs",
        "mass",
        "is_shipment",
        "shipped_at",
        "data_quality_score",
        "created_at",
        "filename",
        "user_fullname",
    ] {
        assert!(e.get(k).is_some(), "missing `{k}` in {e}");
    }
    assert_eq!(grams(e), 6_435_128);
    assert_eq!(e["is_shipment"], true);
    assert_eq!(e["shipped_at"], "2024-05-01T10:00:00Z");
    assert_eq!(e["request"]["legs"][0]["fuel"], "diesel");
    assert_eq!(e["data_quality_score"], json!({"score": "A"}));
    conforms_2024("EstimateQuote", &e["quote"]);
    let legs = e["legs"].as_array().unwrap();
    assert_eq!(grams(&legs[0]), 3_285_640);
    assert_eq!(
        legs[0]["mass"]["wtw_details"],
        json!({"wtt": {"amount": "0.62409", "unit": "t"}, "ttw": {"amount": "2.66155", "unit": "t"}, "unknown": {"amount": "0", "unit": "t"}})
    );
    assert_eq!(
        legs[0]["methodology_details"],
        json!({"energy_density": {"amount": "35.7415", "unit": "MJ/l"}})
    );
    assert_eq!(
        legs[0]["emission_factor"]["id"],
        "FUEL_DIESEL_MINERAL_LITRE"
    );
    assert_eq!(legs[0]["emission_factor"]["denominator_unit"], "l");
    assert_eq!(
        legs[0]["emission_factor"]["gas_emissions"]["wtw_breakdown"]["wtt_co2e"],
        "0.62409"
    );
    conforms_2024(
        "EmissionFactorWithGasEmissions",
        &legs[0]["emission_factor"],
    );
    assert_eq!(grams(&legs[1]), 3_149_488);
    assert_eq!(
        legs[1]["emission_factor"]["gas_emissions"]["co2e"],
        "2.536848"
    );
    assert_eq!(legs[1]["mass"]["wtw_details"]["wtt"]["amount"], "0.61264");
    conforms_2024(
        "EmissionFactorWithGasEmissions",
        &legs[1]["emission_factor"],
    );
    assert!(
        e["explanation"]["notes"]
            .to_string()
            .contains("well-to-wheel"),
        "{}",
        e["explanation"]
    );

    // read back as computed, in another unit
    let id = e["id"].as_str().unwrap();
    let got = app
        .get(
            &format!("/v1/estimates/shipping/multi-leg/by-fuel/{id}?estimate_mass_unit=kg"),
            &t.live_key,
        )
        .await;
    assert_eq!(got.status, 200, "{}", got.body);
    assert_eq!(got.body["mass"]["amount"], "6435.128");
    assert_eq!(got.body["legs"], {
        let mut legs = e["legs"].clone();
        for (i, l) in legs.as_array_mut().unwrap().iter_mut().enumerate() {
            l["mass"] = got.body["legs"][i]["mass"].clone();
        }
        legs
    });
    // another kind's id is not found here, nor this id on the multi-leg route
    let other = app
        .get(
            &format!("/v1/estimates/shipping/multi-leg/{id}"),
            &t.live_key,
        )
        .await;
    assert_eq!(other.status, 404, "{}", other.body);

    // ordered by estimate: the well-to-wheel mass
    let order = app
        .post(
            "/v1/orders/by-estimate",
            &t.live_key,
            &json!({"estimate_id": id, "idempotency_key": "by-fuel-1"}),
        )
        .await;
    assert_eq!(order.status, 200, "{}", order.body);
    assert_eq!(order.body["requested_quantity"], e["mass"]["amount"]);

    // refusals name the field, and nothing is stored
    let before = app.count_estimates_and_orders().await;
    for (bad, field) in [
        (
            json!({"legs": [{"fuel": "kerosene", "fuel_consumed_litres": 1}]}),
            "legs[0].fuel",
        ),
        (
            json!({"legs": [{"fuel": "lpg", "fuel_consumed_litres": 1}, {"fuel": "lpg", "fuel_consumed_litres": -2}]}),
            "legs[1].fuel_consumed_litres",
        ),
        (json!({"legs": []}), "legs"),
        (json!({"legs": [{"fuel": "lpg"}]}), "fuel_consumed_litres"),
    ] {
        let res = app
            .post(
                "/v1/estimates/shipping/multi-leg/by-fuel",
                &t.live_key,
                &bad,
            )
            .await;
        assert_invalid_field(&res, field);
    }
    assert_eq!(app.count_estimates_and_orders().await, before);
}

/// The road method by hand (DESNZ 2025 articulated > 33 t, see
/// `shipping::road::tests`): load factor 0.8, empty runs 0.25 → 0.0840491
/// kg/t·km tank-to-wheel, 0.0198336 well-to-tank; 10 t × 100 km = 84.049 kg
/// and 19.834 kg, 103.883 kg. Energy: 0.0840491 ÷ (0.25953 ÷ 3.6 kg CO2e per
/// MJ of diesel) = 1.165864 MJ/t·km; capacity 1.06921 ÷ 0.05988 = 17.856 t.
async fn road_and_inferred_vessel_methods(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let on_road = |method: Value| {
        json!({
            "shipment": {"mass": {"amount": "10", "unit": "t"}},
            "route": {"amount": "100", "unit": "km"},
            "method": method,
        })
    };
    let res = shipping(&app, &t.live_key, &on_road(json!({"vehicle_type": "truck_articulated_40t", "fuel": "diesel", "load_factor": 0.8, "empty_runs_factor": 0.25, "gradient": "hilly"}))).await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms_2024("SingleShippingEmissionEstimate", &res.body);
    assert_eq!(grams(&res.body), 103_883);
    assert_eq!(res.body["mass"]["wtw_details"]["ttw"]["amount"], "0.084049");
    assert_eq!(
        res.body["methodology_details"],
        json!({
            "energy_consumption": {"amount": "1.165864", "unit": "MJ/tkm"},
            "vehicle_capacity": "17.856",
            "load_factor": 0.8,
            "empty_runs_factor": 0.25,
            "emission_standard": "euro6",
            "capacity_utilisation": 0.6,
            "situation": "motorway_rural_freeflow",
            "gradient": "hilly",
        })
    );
    assert_eq!(res.body["emission_factor"]["id"], "HGV_ARTIC_OVER_33");
    assert_eq!(res.body["data_quality_score"]["score"], "A");
    // read back as computed
    let id = res.body["id"].as_str().unwrap();
    let got = app
        .get(&format!("/v1/estimates/shipping/{id}"), &t.live_key)
        .await;
    assert_eq!(
        got.body["methodology_details"],
        res.body["methodology_details"]
    );
    assert_eq!(got.body["mass"], res.body["mass"]);

    // neither load nor empty runs: DESNZ's average-laden row, as the simple name
    let plain = shipping(
        &app,
        &t.live_key,
        &on_road(json!({"vehicle_type": "truck_articulated_40t", "fuel": "diesel"})),
    )
    .await;
    let simple = shipping(&app, &t.live_key, &on_road(json!("truck_articulated_40t"))).await;
    assert_eq!(plain.body["mass"], simple.body["mass"]);
    // a multi-leg road leg, with client 3.9.2's route_inference (accepted: legs as sent)
    let multi = app
        .post(
            "/v1/estimates/shipping/multi-leg",
            &t.live_key,
            &json!({
                "shipment": {"mass": {"amount": "10", "unit": "t"}},
                "legs": [{"route": {"amount": "100", "unit": "km"}, "method": {"vehicle_type": "truck", "fuel": "gasoline", "refrigerated": true}}],
                "route_inference": "on",
            }),
        )
        .await;
    assert_eq!(multi.status, 200, "{}", multi.body);
    assert_eq!(multi.body["legs"][0]["data_quality_score"]["score"], "C");
    assert!(
        multi.body["explanation"]["notes"]
            .to_string()
            .contains("gasoline"),
        "{}",
        multi.body["explanation"]
    );

    // an inferred vessel: no schedules, the average container ship, flagged
    let sea = |method: Value| {
        json!({
            "shipment": {"containers": "2"},
            "route": {"source": {"locode": "CNSHA"}, "destination": {"locode": "NLRTM"}},
            "method": method,
        })
    };
    let inferred = shipping(&app, &t.live_key, &sea(json!({"vessel_inference": {"departure_on": "2024-05-01", "arrival_on": "2024-06-10", "carrier_name": "MAERSK"}}))).await;
    assert_eq!(inferred.status, 200, "{}", inferred.body);
    conforms_2024("SingleShippingEmissionEstimate", &inferred.body);
    let container = shipping(
        &app,
        &t.live_key,
        &sea(json!({"vessel_type": "container_ship"})),
    )
    .await;
    assert_eq!(inferred.body["mass"], container.body["mass"]);
    assert_eq!(
        inferred.body["methodology"],
        json!(["imo_unavailable_container_ship_fallback"])
    );
    assert_eq!(
        inferred.body["data_quality_score"]["components"]["emission_factor_score"],
        "C"
    );
    assert!(
        inferred.body["explanation"]["notes"]
            .to_string()
            .contains("vessel inference unavailable")
    );

    // bad values name their field; nothing is stored
    let before = app.count_estimates_and_orders().await;
    for (method, field) in [
        (
            json!({"vehicle_type": "bicycle", "fuel": "diesel"}),
            "method.vehicle_type",
        ),
        (
            json!({"vehicle_type": "truck", "fuel": "hydrogen"}),
            "method.fuel",
        ),
        (
            json!({"vehicle_type": "truck", "fuel": "diesel", "load_factor": 0}),
            "method.load_factor",
        ),
        (
            json!({"vehicle_type": "truck", "fuel": "diesel", "load_factor": 1.5}),
            "method.load_factor",
        ),
        (
            json!({"vehicle_type": "truck", "fuel": "diesel", "empty_runs_factor": -0.1}),
            "method.empty_runs_factor",
        ),
        (
            json!({"vehicle_type": "truck", "fuel": "diesel", "situation": "moon"}),
            "method.situation",
        ),
    ] {
        let res = app
            .post("/v1/estimates/shipping", &t.live_key, &on_road(method))
            .await;
        assert_invalid_field(&res, field);
    }
    for (method, field) in [
        (
            json!({"vessel_inference": {"departure_on": "2024-05-01", "arrival_on": "2024-06-10", "carrier_name": "ACME"}}),
            "method.vessel_inference.carrier_name",
        ),
        (
            json!({"vessel_inference": {"departure_on": "2024-05-01", "arrival_on": "2024-04-10", "carrier_name": "MSC"}}),
            "method.vessel_inference.arrival_on",
        ),
    ] {
        let res = app
            .post("/v1/estimates/shipping", &t.live_key, &sea(method))
            .await;
        assert_invalid_field(&res, field);
    }
    assert_eq!(app.count_estimates_and_orders().await, before);
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    methods_by_class_take_their_rows_and_grade_their_quality,
    multi_leg_by_fuel_is_litres_times_the_fuel_rows,
    road_and_inferred_vessel_methods,
);
