//! The offset-links API against the contract: every 4xx, isolation between
//! accounts and organisations, nothing written when refused.

use reqwest::Method;
use serde_json::{Value, json};

use super::fixtures::{create, link_count};
use crate::support::{Tenant, TestApp, assert_error, conforms};

pub(super) async fn api_per_contract_and_refusals_write_nothing(app: TestApp) {
    app.demo_catalogue().await;
    let t: Tenant = app.tenant().await;
    let other = app.tenant().await;
    let bundles = app.bundle_ids(&t.test_key).await;
    let link = create(
        &app,
        &t.test_key,
        json!({
            "name": "Checkout", "title": "Make it neutral", "description": "Fund a project.",
            "bundles": [bundles[0], bundles[1]], "value": "12.50",
            "emails": ["jane@example.org"], "expires_at": "2099-01-01T00:00:00Z",
            "use_logo": false, "require_payment": false
        }),
    )
    .await;
    let id = link["id"].as_str().unwrap().to_owned();
    assert_eq!(link["status"], "enabled");
    assert_eq!(link["value"], "12.50");
    assert_eq!(link["currency"], "GBP");
    assert_eq!(link["bundles"].as_array().unwrap().len(), 2);
    assert_eq!(link["url"], format!("{}/l/{id}", app.base));
    assert!(link["bundles"][0]["projects"].as_array().is_some());

    let got = app
        .get(&format!("/v1/offset-links/{id}"), &t.test_key)
        .await;
    assert_eq!(got.status, 200);
    conforms("OffsetLink", &got.body);
    assert_eq!(got.body, link);
    let list = app.get("/v1/offset-links", &t.test_key).await;
    conforms("PaginatedOffsetLinks", &list.body);
    assert_eq!(list.body["data"][0]["id"], id.as_str());

    // isolation: another organisation, the other mode, a bad cursor
    for key in [&other.test_key, &other.live_key, &t.live_key] {
        let res = app.get(&format!("/v1/offset-links/{id}"), key).await;
        assert_error(&res, 404, "not_found");
        let res = app
            .get(&format!("/v1/offset-links/{id}/analytics"), key)
            .await;
        assert_error(&res, 404, "not_found");
        let res = app
            .put(
                &format!("/v1/offset-links/{id}"),
                key,
                &json!({"name": "Mine", "use_logo": false}),
            )
            .await;
        assert_error(&res, 404, "not_found");
        assert_eq!(link_count(&app, key).await, 0);
    }
    let res = app
        .get(
            &format!("/v1/offset-links?after={}", "a".repeat(32)),
            &t.test_key,
        )
        .await;
    assert_error(&res, 400, "validation_error");

    // refusals: nothing is written
    let before = link_count(&app, &t.test_key).await;
    let ok = |extra: Value| {
        let mut body = json!({"name": "Another", "bundles": [bundles[0]], "use_logo": false});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let many: Vec<String> = (0..25).map(|i| format!("{i:032x}")).collect();
    let cases = [
        (
            ok(json!({"bundles": []})),
            400,
            "offset_link_bundles_size_invalid",
        ),
        (
            ok(json!({"bundles": many})),
            400,
            "offset_link_bundles_size_invalid",
        ),
        (
            ok(json!({"bundles": ["0".repeat(32)]})),
            400,
            "bundle_id_invalid",
        ),
        (
            ok(json!({"bundles": [bundles[0], bundles[0]]})),
            400,
            "bundle_id_invalid",
        ),
        (
            ok(json!({"emails": ["not an address"]})),
            400,
            "validation_error",
        ),
        (
            ok(json!({"expires_at": "2001-01-01T00:00:00Z"})),
            400,
            "validation_error",
        ),
        (
            ok(json!({"expires_at": "tomorrow"})),
            400,
            "validation_error",
        ),
        (ok(json!({"value": "-1"})), 400, "validation_error"),
        (ok(json!({"value": null})), 400, "validation_error"),
        (ok(json!({"name": " "})), 400, "validation_error"),
        (ok(json!({"colour": "red"})), 400, "validation_error"),
        (ok(json!({"name": "Checkout"})), 409, "validation_error"),
    ];
    for (body, status, code) in cases {
        let res = app.post("/v1/offset-links", &t.test_key, &body).await;
        assert_error(&res, status, code);
    }
    let text = app
        .send(
            app.request(Method::POST, "/v1/offset-links", Some(&t.test_key))
                .header("Content-Type", "text/plain")
                .body("name=x"),
        )
        .await;
    assert_error(&text, 415, "unsupported_media_type");
    assert_eq!(link_count(&app, &t.test_key).await, before);

    // updates: require_payment is fixed; status switches the link off and on
    let path = format!("/v1/offset-links/{id}");
    let res = app
        .put(
            &path,
            &t.test_key,
            &json!({"name": "Checkout", "use_logo": false, "require_payment": true}),
        )
        .await;
    assert_error(&res, 400, "validation_error");
    let res = app
        .put(&path, &t.test_key, &json!({"name": "Checkout 2", "use_logo": true, "status": "disabled", "require_payment": false}))
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms("OffsetLink", &res.body);
    assert_eq!(res.body["status"], "disabled");
    assert_eq!(res.body["name"], "Checkout 2");
    assert_eq!(res.body["value"], "12.50", "absent fields keep their value");
    let res = app
        .put(&path, &t.test_key, &json!({"name": "Checkout 2", "use_logo": true, "status": "enabled", "bundles": [bundles[2]]}))
        .await;
    assert_eq!(res.body["status"], "enabled");
    assert_eq!(res.body["bundles"][0]["id"], bundles[2].as_str());
    let res = app
        .put(
            &path,
            &t.test_key,
            &json!({"name": "Checkout 2", "use_logo": true, "bundles": []}),
        )
        .await;
    assert_error(&res, 400, "offset_link_bundles_size_invalid");

    let analytics = app.get(&format!("{path}/analytics"), &t.test_key).await;
    assert_eq!(analytics.status, 200);
    conforms("OffsetLinkAnalytics", &analytics.body);
    assert_eq!(analytics.body["placed_orders"], 0);
    let chart = app
        .get(&format!("{path}/analytics/chart.svg"), &t.test_key)
        .await;
    assert_eq!(chart.status, 200);
    assert_eq!(chart.header("content-type"), Some("image/svg+xml"));
}
