//! Freight by class, end to end: every 2024 method name is accepted and
//! takes its most specific DESNZ row; a stand-in says which factor it uses
//! and lowers the leg's data-quality score.

use rust_decimal::Decimal;
use serde_json::{Value, json};
use tonne_test_support::on_both_backends;

use crate::support::{TestApp, assert_error, conforms_2024};

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
    let res = app
        .post(
            "/v1/estimates/shipping",
            &t.live_key,
            &road("truck_rigid_7_5t_refrigerated"),
        )
        .await;
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
    let res = app
        .post(
            "/v1/estimates/shipping",
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
    let res = app
        .post(
            "/v1/estimates/shipping",
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
    let res = app
        .post(
            "/v1/estimates/shipping",
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
        let res = app
            .post("/v1/estimates/shipping", &t.live_key, &road(bad))
            .await;
        assert_error(&res, 400, "validation_error");
    }
    assert_eq!(app.count_estimates_and_orders().await, before);
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    methods_by_class_take_their_rows_and_grade_their_quality,
);
