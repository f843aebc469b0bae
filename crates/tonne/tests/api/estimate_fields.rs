//! Estimate answers in their 2024 shape: the fields the 2024 document and the
//! official TypeScript client 3.9.2 require, each with the value its
//! derivation gives (docs/methodology.md), and `estimate_mass_unit`.

use rust_decimal::Decimal;
use serde_json::{Value, json};

use crate::support::{TestApp, assert_error, conforms};
use tonne_test_support::on_both_backends;

fn dec(v: &Value) -> Decimal {
    v.as_str()
        .unwrap_or_else(|| panic!("not a decimal string: {v}"))
        .parse()
        .unwrap()
}

fn sea() -> Value {
    json!({"source": {"locode": "CNSHA"}, "destination": {"locode": "NLRTM"}})
}

/// The keys 3.9.2's `ShippingLegEmissionEstimate` requires (nullable or not).
const LEG_KEYS: &[&str] = &[
    "mass",
    "distance_calculation_method",
    "activity",
    "intensity",
    "route",
    "emission_factor",
    "methodology",
    "distance_calculation_details",
    "methodology_details",
    "data_quality_score",
    "converted_shipment",
    "shipment_conversion_method",
    "resolved_legs",
];

fn has_keys(body: &Value, keys: &[&str]) {
    for k in keys {
        assert!(body.get(*k).is_some(), "missing `{k}` in {body}");
    }
    // EstimateMassWithBreakdowns
    assert!(body["mass"].get("wtw_details").is_some(), "{body}");
    assert!(body["mass"]["pollutants"].is_null(), "{body}");
}

/// The stages of a shipping mass: freight is well-to-wheel, so
/// well-to-tank, tank-to-wheel and unknown add up to the mass.
fn stages(mass: &Value) -> (Decimal, Decimal, Decimal) {
    let w = &mass["wtw_details"];
    let (wtt, ttw, unknown) = (
        dec(&w["wtt"]["amount"]),
        dec(&w["ttw"]["amount"]),
        dec(&w["unknown"]["amount"]),
    );
    assert_eq!(wtt + ttw + unknown, dec(&mass["amount"]), "{mass}");
    for k in ["wtt", "ttw", "unknown"] {
        assert_eq!(w[k]["unit"], mass["unit"], "{mass}");
    }
    (wtt, ttw, unknown)
}

async fn a_shipping_answer_has_every_2024_field_with_its_derivation(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let body = json!({"shipment": {"containers": "2"}, "route": sea(), "method": {"vessel_type": "container_ship"}});
    let res = app.post("/v1/estimates/shipping", &t.live_key, &body).await;
    assert_eq!(res.status, 200, "{}", res.body);
    let e = &res.body;
    conforms("SingleShippingEmissionEstimate", e);
    has_keys(e, LEG_KEYS);
    for k in [
        "is_shipment",
        "shipped_at",
        "external_estimate_url",
        "created_at",
        "filename",
        "user_fullname",
        "raw_distance",
        "adjusted_distance",
    ] {
        assert!(e.get(k).is_some(), "missing `{k}`");
    }
    assert_eq!(e["is_shipment"], false);
    assert_eq!(e["shipped_at"], e["created_at"]);
    assert!(e["external_estimate_url"].is_null());
    // over the maritime network, between the two ports
    assert_eq!(e["distance_calculation_method"], "sea_distance_algorithm");
    assert_eq!(e["route"]["source"]["label"], "seaport CNSHA");
    assert_eq!(e["route"]["legs"][0]["location"]["label"], "seaport NLRTM");
    assert_eq!(e["route"]["legs"][0]["distance"], e["distance"]);
    // 2 TEU without a mass: converted at the average cargo type (10 t/TEU)
    assert_eq!(
        e["converted_shipment"],
        json!({"amount": "20", "unit": "t"})
    );
    assert_eq!(e["shipment_conversion_method"], "average_cargo_type");
    assert_eq!(e["activity"]["unit"], "t*km");
    assert_eq!(
        dec(&e["activity"]["value"]),
        (Decimal::from(20) * dec(&e["distance"]["amount"])).round_dp(6)
    );
    // the DESNZ container ship factor, its gases and its well-to-tank row
    let f = &e["emission_factor"];
    assert_eq!(f["id"], "SEA_CONTAINER_AVERAGE");
    assert_eq!(f["source"], "beis");
    assert_eq!(f["publication_year"], 2025);
    assert_eq!(f["denominator_unit"], "t*km");
    assert_eq!(f["region"], "United Kingdom");
    let g = &f["gas_emissions"];
    assert_eq!(
        (g["co2e"].as_str(), g["co2"].as_str()),
        (Some("0.01612"), Some("0.01592"))
    );
    // CH4 and N2O as masses of the gas: CO2e ÷ AR5 GWP100 (28, 265)
    assert!(
        (dec(&g["methane"]) * Decimal::from(28) - Decimal::new(1, 5)).abs() < Decimal::new(1, 10)
    );
    assert!(
        (dec(&g["nitrous_oxide"]) * Decimal::from(265) - Decimal::new(19, 5)).abs()
            < Decimal::new(1, 9)
    );
    assert_eq!(g["wtw_breakdown"]["wtt_co2e"], "0.00365");
    // the mass: well-to-wheel, the DESNZ container row (tank-to-wheel) and
    // its well-to-tank row, each to the gram
    let (wtt, ttw, unknown) = stages(&e["mass"]);
    assert_eq!(unknown, Decimal::ZERO);
    let expected_wtt = ttw * Decimal::from(1_000_000) * Decimal::new(365, 5)
        / Decimal::new(1612, 5)
        / Decimal::from(1_000_000);
    assert!(
        (wtt - expected_wtt).abs() <= Decimal::new(1, 6),
        "{wtt} {expected_wtt}"
    );
    // intensity (t per t·km by default): ttw × payload × km is the
    // tank-to-wheel mass, wtw × payload × km the mass
    let i = &e["intensity"];
    assert_eq!(i["ttw"]["unit"], "t_per_tkm");
    let back = dec(&i["ttw"]["amount"]) * Decimal::from(20) * dec(&e["distance"]["amount"]);
    assert!((back - ttw).abs() < Decimal::new(1, 6), "{back}");
    let back = dec(&i["wtw"]["amount"]) * Decimal::from(20) * dec(&e["distance"]["amount"]);
    assert!(
        (back - dec(&e["mass"]["amount"])).abs() < Decimal::new(2, 6),
        "{back}"
    );
    assert_eq!(
        dec(&i["wtw"]["amount"]),
        dec(&i["wtt"]["amount"]) + dec(&i["ttw"]["amount"])
    );

    // a read answers the same, and so does a PUT of the same request
    let id = e["id"].as_str().unwrap();
    let got = app
        .get(&format!("/v1/estimates/shipping/{id}"), &t.live_key)
        .await;
    assert_eq!(got.status, 200, "{}", got.body);
    conforms("SingleShippingEmissionEstimate", &got.body);
    for k in LEG_KEYS.iter().chain(&["shipped_at", "created_at"]) {
        assert_eq!(got.body[*k], e[*k], "{k}");
    }
    // sent as shipments, with a cargo type: as sent
    let shipped = json!({"shipment": {"containers": "2", "cargo_type": "heavyweight"}, "route": sea(),
        "method": {"vessel_type": "container_ship"}, "is_shipment": true, "shipped_at": "2026-11-20T10:20:30Z"});
    let res = app
        .post("/v1/estimates/shipping", &t.live_key, &shipped)
        .await;
    if res.status == 200 {
        // (the request fields belong to the estimate requests' slice)
        assert_eq!(
            res.body["shipment_conversion_method"],
            "user_provided_cargo_type"
        );
        assert_eq!(res.body["converted_shipment"]["amount"], "29");
        assert_eq!(res.body["is_shipment"], true);
        assert_eq!(res.body["shipped_at"], "2026-11-20T10:20:30Z");
    }
}

async fn multi_leg_answers_say_how_each_leg_was_measured(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let body = json!({"shipment": {"mass": {"amount": "10", "unit": "t"}}, "legs": [
        {"route": {"amount": "100", "unit": "km"}, "method": "diesel_truck"},
        {"route": sea(), "method": {"vessel_imo_number": "9745225"}},
        {"route": {"source": {"code": "AMS"}, "destination": {"code": "FRA"}}, "method": "cargo_plane"},
        {"route": {"source": {"lat": 52.37, "lon": 4.89}, "destination": {"lat": 50.11, "lon": 8.68}}, "method": "diesel_freight_train"},
        {"route": {"amount": "50", "unit": "km"}, "method": "inland_waterway_motor_vessel_small"}]});
    let res = app
        .post("/v1/estimates/shipping/multi-leg", &t.live_key, &body)
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    let e = &res.body;
    conforms("MultiLegShippingEmissionEstimate", e);
    for k in [
        "is_shipment",
        "shipped_at",
        "data_quality_score",
        "raw_distance",
        "distance",
        "adjusted_distance",
        "external_estimate_url",
        "created_at",
        "filename",
        "user_fullname",
    ] {
        assert!(e.get(k).is_some(), "missing `{k}`");
    }
    let legs = e["legs"].as_array().unwrap();
    for l in legs {
        has_keys(l, LEG_KEYS);
        assert!(l["converted_shipment"].is_null() && l["shipment_conversion_method"].is_null());
    }
    let methods: Vec<&str> = legs
        .iter()
        .map(|l| l["distance_calculation_method"].as_str().unwrap())
        .collect();
    assert_eq!(
        methods,
        [
            "user_input",
            "sea_distance_algorithm",
            "great_circle_distance",
            "great_circle_distance",
            "user_input"
        ]
    );
    assert!(legs[0]["route"].is_null());
    assert_eq!(legs[2]["route"]["source"]["label"], "airport AMS");
    // rail between coordinates: great-circle, then × 1.2 for the detour
    let (raw, used) = (
        dec(&legs[3]["raw_distance"]["amount"]),
        dec(&legs[3]["distance"]["amount"]),
    );
    assert!(
        (raw * Decimal::new(12, 1) - used).abs() < Decimal::new(2, 3),
        "{raw} {used}"
    );
    assert_eq!(legs[3]["adjusted_distance"], legs[3]["distance"]);
    // inland waterways: Tonne's own factor, no well-to-tank row: stage unknown
    assert_eq!(legs[4]["emission_factor"]["source"], "lune");
    let (wtt, ttw, unknown) = stages(&legs[4]["mass"]);
    assert_eq!((wtt, ttw), (Decimal::ZERO, Decimal::ZERO));
    assert_eq!(unknown, dec(&legs[4]["mass"]["amount"]));
    assert_eq!(legs[4]["intensity"]["unknown"], legs[4]["intensity"]["wtw"]);
    // the legs' stages add up to the estimate's
    let (wtt, ttw, unknown) = stages(&e["mass"]);
    let sum = legs
        .iter()
        .map(|l| stages(&l["mass"]))
        .fold((Decimal::ZERO, Decimal::ZERO, Decimal::ZERO), |a, b| {
            (a.0 + b.0, a.1 + b.1, a.2 + b.2)
        });
    assert_eq!((wtt, ttw, unknown), sum);
    let raws: Decimal = legs.iter().map(|l| dec(&l["raw_distance"]["amount"])).sum();
    assert!((raws - dec(&e["raw_distance"]["amount"])).abs() < Decimal::new(1, 2));
    assert_eq!(e["adjusted_distance"], e["distance"]);
}

async fn estimate_mass_unit_converts_every_mass_of_a_shipping_answer(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let body = json!({"shipment": {"mass": {"amount": "3", "unit": "t"}}, "route": {"amount": "250", "unit": "km"}, "method": "diesel_truck"});
    let in_t = app.post("/v1/estimates/shipping", &t.live_key, &body).await;
    assert_eq!(in_t.status, 200, "{}", in_t.body);
    // 3 t × 250 km × 0.10163 kg/t·km = 76.2225 kg (76.223 to the gram)
    // tank-to-wheel + 3 × 250 × 0.02359 (WTT, 28_907_3140_14_1) = 17.6925 kg
    // (17.693) well-to-tank: 93.916 kg
    assert_eq!(in_t.body["mass"]["amount"], "0.093916");
    let in_kg = app
        .post(
            "/v1/estimates/shipping?estimate_mass_unit=kg",
            &t.live_key,
            &body,
        )
        .await;
    assert_eq!(in_kg.status, 200, "{}", in_kg.body);
    conforms("SingleShippingEmissionEstimate", &in_kg.body);
    assert_eq!(in_kg.body["mass"]["amount"], "93.916");
    assert_eq!(in_kg.body["mass"]["unit"], "kg");
    assert_eq!(
        in_kg.body["mass"]["wtw_details"]["ttw"],
        json!({"amount": "76.223", "unit": "kg"})
    );
    assert_eq!(
        in_kg.body["intensity"]["ttw"],
        json!({"amount": "0.10163", "unit": "kg_per_tkm"})
    );
    let id = in_kg.body["id"].as_str().unwrap();
    for (unit, amount) in [("mg", "93916000"), ("g", "93916"), ("t", "0.093916")] {
        let r = app
            .get(
                &format!("/v1/estimates/shipping/{id}?estimate_mass_unit={unit}"),
                &t.live_key,
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(
            r.body["mass"],
            json!({"amount": amount, "unit": unit, "wtw_details": r.body["mass"]["wtw_details"], "pollutants": null})
        );
        // `mg` is a 2024 unit: the 2023 document (whose clients never ask
        // for it) knows only g, kg and t
        if unit != "mg" {
            conforms("SingleShippingEmissionEstimate", &r.body);
        }
    }
    let put = app
        .put(
            &format!("/v1/estimates/shipping/{id}?estimate_mass_unit=g"),
            &t.live_key,
            &body,
        )
        .await;
    assert_eq!(put.status, 200, "{}", put.body);
    assert_eq!(put.body["mass"]["unit"], "g");
    let multi = json!({"shipment": {"mass": {"amount": "3", "unit": "t"}}, "legs": [{"route": {"amount": "250", "unit": "km"}, "method": "diesel_truck"}]});
    let m = app
        .post(
            "/v1/estimates/shipping/multi-leg?estimate_mass_unit=kg",
            &t.live_key,
            &multi,
        )
        .await;
    assert_eq!(m.status, 200, "{}", m.body);
    assert_eq!(m.body["mass"]["unit"], "kg");
    assert_eq!(m.body["legs"][0]["mass"]["amount"], "93.916");
    conforms("MultiLegShippingEmissionEstimate", &m.body);
    // an unknown unit is refused, and nothing is stored
    let bad = app
        .post(
            "/v1/estimates/shipping?estimate_mass_unit=lb",
            &t.live_key,
            &body,
        )
        .await;
    assert_error(&bad, 400, "validation_error");
    let bad = app
        .get(
            &format!("/v1/estimates/shipping/{id}?estimate_mass_unit=tonnes"),
            &t.live_key,
        )
        .await;
    assert_error(&bad, 400, "validation_error");
}

async fn a_transaction_answer_shows_its_factor_rate_and_match(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let body = json!({"value": {"value": "100", "currency": "GBP"}, "merchant": {"country_code": "GBR", "category_code": "7011"}});
    let res = app
        .post("/v1/estimates/transactions", &t.live_key, &body)
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    let e = &res.body;
    conforms("TransactionEmissionEstimate", e);
    for k in [
        "emission_factor",
        "diet_factor",
        "exchange_rate",
        "exchange_rate_date",
        "search_term_match",
        "search_term_match_score",
        "semantic_matching_model",
        "is_transaction",
        "transaction_processed_at",
        "external_estimate_url",
    ] {
        assert!(e.get(k).is_some(), "missing `{k}`");
    }
    // 1 ÷ 0.86788 GBP/EUR (Eurostat, 2011 average)
    assert_eq!(e["exchange_rate"], "1.152233");
    assert_eq!(e["exchange_rate_date"], "2011-01-01");
    assert!(e["diet_factor"].is_null());
    let f = &e["emission_factor"];
    // EXIOBASE 3.4, COICOP 11.2 accommodation services, United Kingdom
    assert_eq!(f["id"], "exiobase:11.2:GB");
    assert_eq!(f["source"], "exiobase");
    assert_eq!(f["source_version"], "3.4");
    assert_eq!(f["denominator_unit"], "EUR");
    assert_eq!(f["region"], "United Kingdom");
    assert_eq!(f["gas_emissions"]["co2e"], "0.100806346421");
    // by category: the category's own description is the matched term
    assert!(
        e["search_term_match"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("hotel"),
        "{}",
        e["search_term_match"]
    );
    // the factor × the spend in euros deflated to 2011 prices (UK CPI 2011
    // 93.6 ÷ 2019 107.8, OECD) is the mass
    let kg = Decimal::from(100) * dec(&e["exchange_rate"]) * Decimal::new(936, 1)
        / Decimal::new(1078, 1)
        * dec(&f["gas_emissions"]["co2e"]);
    assert!((kg / Decimal::from(1000) - dec(&e["mass"]["amount"])).abs() < Decimal::new(1, 6));
    // food for a vegan: the diet factor
    let vegan = json!({"value": {"value": "50", "currency": "USD"}, "merchant": {"country_code": "USA", "category_code": "5411"}, "diet": "vegan"});
    let v = app
        .post("/v1/estimates/transactions", &t.live_key, &vegan)
        .await;
    assert_eq!(v.status, 200, "{}", v.body);
    conforms("TransactionEmissionEstimate", &v.body);
    // 1 ÷ 1.392 USD/EUR (2011)
    assert_eq!(v.body["exchange_rate"], "0.718391");
    assert!(dec(&v.body["diet_factor"]) < Decimal::ONE);
    let id = v.body["id"].as_str().unwrap();
    let got = app
        .get(&format!("/v1/estimates/transactions/{id}"), &t.live_key)
        .await;
    for k in [
        "emission_factor",
        "diet_factor",
        "exchange_rate",
        "search_term_match",
    ] {
        assert_eq!(got.body[k], v.body[k], "{k}");
    }
}

async fn passenger_legs_name_their_factor_and_distance(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let body = json!({"passengers": 2, "legs": [
        {"route": {"amount": "100", "unit": "km"}, "vehicle_type": "car_supermini"},
        {"route": {"amount": "431.7", "unit": "km"}, "rail_type": "national_rail"},
        {"route": {"amount": "1000", "unit": "km"}, "cabin_class": "business"}]});
    let res = app
        .post("/v1/estimates/passenger-transportation", &t.live_key, &body)
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms("PassengerTransportationEmissionEstimate", &res.body);
    let legs = res.body["legs"].as_array().unwrap();
    let ids: Vec<&str> = legs
        .iter()
        .map(|l| l["emission_factor"]["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "CAR_SUPERMINI",
            "RAIL_NATIONAL",
            "FLIGHT_SHORT_HAUL_BUSINESS"
        ]
    );
    assert_eq!(
        legs[1]["distance"],
        json!({"amount": "431.7", "unit": "km"})
    );
    assert_eq!(legs[0]["emission_factor"]["denominator_unit"], "km");
    assert_eq!(legs[1]["emission_factor"]["denominator_unit"], "person*km");
    // national rail: 0.03546 kg CO2e, of which CO2 0.0351; WTT 0.00897
    let g = &legs[1]["emission_factor"]["gas_emissions"];
    assert_eq!(
        (g["co2e"].as_str(), g["co2"].as_str()),
        (Some("0.03546"), Some("0.0351"))
    );
    assert_eq!(g["wtw_breakdown"]["wtt_co2e"], "0.00897");
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    a_shipping_answer_has_every_2024_field_with_its_derivation,
    multi_leg_answers_say_how_each_leg_was_measured,
    estimate_mass_unit_converts_every_mass_of_a_shipping_answer,
    a_transaction_answer_shows_its_factor_rate_and_match,
    passenger_legs_name_their_factor_and_distance,
);
