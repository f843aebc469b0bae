//! Multi-match transaction estimates (ranked candidates, each stored as a
//! transaction) and the business analytics that sum actual estimates.

use serde_json::{Value, json};

use super::fixtures::{grams, receipt};
use crate::support::{TestApp, assert_error, assert_error_2024, conforms_transaction};

pub(super) async fn multi_match_ranks_candidates_stored_as_transactions(app: TestApp) {
    let t = app.tenant().await;
    let body = json!({
        "value": {"value": "100", "currency": "USD"},
        "merchant": {"country_code": "USA", "category_code": "5812", "name": "Airport coffee bar"}
    });
    let res = app
        .post(
            "/v1/estimates/transactions/multi-match?limit=3",
            &t.live_key,
            &body,
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    let estimates = res.body["estimates"].as_array().unwrap();
    // the code sent, the keyword, and what the texts add (at most the limit)
    assert!((2..=3).contains(&estimates.len()), "{}", res.body);
    assert_eq!(estimates[0]["search_term_match_score"], Value::Null);
    assert_eq!(estimates[1]["search_term_match"], "coffee");
    assert_eq!(estimates[1]["search_term_match_score"], 0);
    for e in estimates {
        conforms_transaction(e);
        let id = e["id"].as_str().unwrap();
        let read = app
            .get(&format!("/v1/estimates/transactions/{id}"), &t.live_key)
            .await;
        assert_eq!(read.status, 200, "{}", read.body);
        assert_eq!(read.body["mass"], e["mass"]);
    }
    let before = app.count_estimates_and_orders().await;
    let bad = app
        .post(
            "/v1/estimates/transactions/multi-match?limit=9",
            &t.live_key,
            &body,
        )
        .await;
    assert_error(&bad, 400, "validation_error");
    let nothing = json!({"value": {"value": "1", "currency": "USD"},
                         "merchant": {"country_code": "USA", "search_term": "zq"}});
    let res = app
        .post(
            "/v1/estimates/transactions/multi-match",
            &t.live_key,
            &nothing,
        )
        .await;
    assert_error(&res, 400, "validation_error");
    assert_eq!(app.count_estimates_and_orders().await, before);
}

pub(super) async fn business_analytics_sum_actual_estimates_by_category(app: TestApp) {
    let t = app.tenant().await;
    let empty = app.get("/v1/analytics/business", &t.live_key).await;
    assert_eq!(empty.status, 200, "{}", empty.body);
    assert_eq!(empty.body["number_of_estimates"], 0);
    assert_eq!(empty.body["categories"].as_object().unwrap().len(), 14);
    // an actual receipt (restaurant: other shops), an actual hotel transaction,
    // a transaction that is not actual (left out)
    let doc = app
        .post(
            "/v1/estimates/transaction-documents",
            &t.live_key,
            &receipt(),
        )
        .await;
    assert_eq!(doc.status, 200, "{}", doc.body);
    let hotel = json!({"value": {"value": "100", "currency": "EUR"},
                       "merchant": {"country_code": "GBR", "category_code": "7011"},
                       "is_transaction": true});
    let h = app
        .post("/v1/estimates/transactions", &t.live_key, &hotel)
        .await;
    assert_eq!(h.status, 200, "{}", h.body);
    let mut not_actual = hotel.clone();
    not_actual["is_transaction"] = json!(false);
    assert_eq!(
        app.post("/v1/estimates/transactions", &t.live_key, &not_actual)
            .await
            .status,
        200
    );
    let res = app.get("/v1/analytics/business", &t.live_key).await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert_eq!(res.body["number_of_estimates"], 2);
    let c = &res.body["categories"];
    assert_eq!(grams(&c["other_shops"]), 3_869);
    assert_eq!(grams(&c["hotels"]), grams(&h.body["mass"]));
    assert_eq!(grams(&res.body["mass"]), 3_869 + grams(&h.body["mass"]));
    let total: i64 = c.as_object().unwrap().values().map(grams).sum();
    assert_eq!(total, grams(&res.body["mass"]));
    // a range before everything: nothing
    let old = app
        .get(
            "/v1/analytics/business?from=2000-01-01&through=2000-01-31",
            &t.live_key,
        )
        .await;
    assert_eq!(old.body["number_of_estimates"], 0);
    let reversed = app
        .get(
            "/v1/analytics/business?from=2020-02-01&through=2020-01-01",
            &t.live_key,
        )
        .await;
    assert_error_2024(&reversed, 400, "time_range_invalid");
    let bad = app
        .get("/v1/analytics/business?from=soon", &t.live_key)
        .await;
    assert_error(&bad, 400, "validation_error");
}
