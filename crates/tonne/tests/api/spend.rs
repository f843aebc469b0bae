//! Spend-based estimates the EXIOBASE way, end to end: a card transaction
//! takes the EXIOBASE 3.4 intensity of its COICOP category and the
//! merchant's region, after converting the value to euros at the 2011 rate
//! and deflating it to 2011 prices; the EXIOBASE factors are in the catalogue
//! and can be chosen through the factor estimate. Expected figures are
//! computed by hand from the source rows (docs/methodology.md).

use serde_json::{Value, json};
use tonne_test_support::on_both_backends;

use crate::support::{TestApp, assert_error, conforms, conforms_2024};

fn grams(v: &Value) -> i64 {
    let t: rust_decimal::Decimal = v["mass"]["amount"].as_str().unwrap().parse().unwrap();
    let g = t * rust_decimal::Decimal::from(1_000_000);
    rust_decimal::prelude::ToPrimitive::to_i64(&g).unwrap()
}

async fn a_transaction_is_deflated_converted_and_regionalised(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    // 100 USD at a US supermarket in 2015: 100 ÷ 1.392 USD/EUR (Eurostat 2011)
    // × 94.9 ÷ 100.0 (OECD CPI, US, 2011 and 2015) × 1.5364118088902992 kg/EUR
    // (EXIOBASE 3.4, COICOP 01, US) = 104.745 kg
    let body = json!({
        "value": {"value": "100", "currency": "USD"},
        "merchant": {"country_code": "USA", "category_code": "5411"},
        "transaction_processed_at": "2015-06-01T12:00:00Z",
    });
    let res = app
        .post("/v1/estimates/transactions", &t.live_key, &body)
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms("TransactionEmissionEstimate", &res.body);
    assert_eq!(grams(&res.body), 104_745);
    assert_eq!(res.body["emission_factor"]["id"], "exiobase:01:US");
    assert_eq!(res.body["emission_factor"]["region"], "United States");
    assert_eq!(res.body["exchange_rate"], "0.718391");
    let parts = &res.body["explanation"]["parts"][0];
    assert_eq!(
        parts["factors"][0]["catalogue_id"],
        "exiobase-3.4.coicop-01.US"
    );
    let ids: Vec<&str> = parts["factors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "exiobase:01:US",
            "EUR_RATE_2011_USD",
            "CPI_2011",
            "CPI_2015"
        ]
    );

    // Kenya is not an EXIOBASE country: rest of Africa (2.911992173797467
    // kg/EUR), deflated with the OECD average index (Kenya has none):
    // 100 ÷ 1.392 × 92.053333 ÷ 109.208889 (2011, 2019) × 2.911992… = 176.333 kg
    let kenya = json!({
        "value": {"value": "100", "currency": "USD"},
        "merchant": {"country_code": "KEN", "category_code": "5411"},
    });
    let res = app
        .post("/v1/estimates/transactions", &t.live_key, &kenya)
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert_eq!(grams(&res.body), 176_333);
    assert_eq!(res.body["emission_factor"]["id"], "exiobase:01:WF");
    assert_eq!(
        res.body["emission_factor"]["region"],
        "Rest of Africa (EXIOBASE)"
    );

    // Bad input: nothing is stored.
    let before = app.count_estimates_and_orders().await;
    for (bad, code) in [
        (
            json!({"value": {"value": "100", "currency": "USD"}, "merchant": {"country_code": "USA", "category_code": "5411"}, "transaction_processed_at": "last tuesday"}),
            "validation_error",
        ),
        (
            json!({"value": {"value": "-5", "currency": "USD"}, "merchant": {"country_code": "USA", "category_code": "5411"}}),
            "validation_error",
        ),
        (
            json!({"value": {"value": "5", "currency": "USD"}, "merchant": {"country_code": "XXX", "category_code": "5411"}}),
            "validation_error",
        ),
    ] {
        let res = app
            .post("/v1/estimates/transactions", &t.live_key, &bad)
            .await;
        assert_error(&res, 400, code);
    }
    assert_eq!(app.count_estimates_and_orders().await, before);
}

async fn exiobase_factors_are_listed_and_can_be_chosen(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let us = app
        .get(
            "/v1/emission-factors?source=exiobase&region=United%20States&limit=100",
            &t.live_key,
        )
        .await;
    assert_eq!(us.status, 200, "{}", us.body);
    conforms_2024("PaginatedEmissionFactors", &us.body);
    let data = us.body["data"].as_array().unwrap();
    assert_eq!(data.len(), 63, "every COICOP category of the table");
    assert!(data.iter().all(|f| f["denominator_unit"] == "EUR"
        && f["source_version"] == "3.4"
        && f["id"].as_str().unwrap().ends_with(".US")));
    // Kenya has no intensities of its own: with region_fallback, the rest of
    // Africa's (and the World means); without, none
    let kenya = app
        .get(
            "/v1/emission-factors?source=exiobase&region=Kenya&region_fallback=always&limit=100",
            &t.live_key,
        )
        .await;
    assert_eq!(kenya.status, 200);
    let ids: Vec<&str> = kenya.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"exiobase-3.4.coicop-01.WF"), "{ids:?}");
    let strict = app
        .get(
            "/v1/emission-factors?source=exiobase&region=Kenya",
            &t.live_key,
        )
        .await;
    assert_eq!(strict.body["data"], json!([]));

    // 100 USD × the US food intensity, with the upstream conversion: 100 ÷
    // 1.392 × 94.9 ÷ 107.9 (US CPI 2011, 2019) × 1.5364118088902992 = 97.076 kg
    let body = json!({
        "emission_factor_id": "exiobase-3.4.coicop-01.US",
        "activity": {"value": "100", "unit": "USD"},
    });
    let made = app
        .post("/v1/estimates/emission-factor", &t.live_key, &body)
        .await;
    assert_eq!(made.status, 200, "{}", made.body);
    conforms_2024("EmissionFactorEstimate", &made.body);
    assert_eq!(grams(&made.body), 97_076);
    assert_eq!(made.body["emission_factor"]["source"], "exiobase");
    // a currency the 2011 table lacks, and a unit of another dimension
    let before = app.count_estimates_and_orders().await;
    for (unit, status, code) in [
        ("XAU", 400, "exchange_rate_not_found"),
        ("kg", 400, "emission_factor_unit_mismatch"),
    ] {
        let bad = json!({
            "emission_factor_id": "exiobase-3.4.coicop-01.US",
            "activity": {"value": "100", "unit": unit},
        });
        let res = app
            .post("/v1/estimates/emission-factor", &t.live_key, &bad)
            .await;
        assert_error(&res, status, code);
    }
    assert_eq!(app.count_estimates_and_orders().await, before);
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    a_transaction_is_deflated_converted_and_regionalised,
    exiobase_factors_are_listed_and_can_be_chosen,
);
