//! Conventions every endpoint inherits: errors, auth, limits, ids, observability.

use std::time::Duration;

use reqwest::Method;
use serde_json::json;
use tonne_http::rate_limit::RatePolicy;
use tonne_test_support::TestDb;

use crate::support::{TestApp, assert_error, first_error_message};
use tonne_test_support::on_both_backends;

async fn missing_unknown_and_malformed_keys_are_401(app: TestApp) {
    let t = app.tenant().await;
    let none = app.get_without_key("/v1/accounts/me").await;
    assert_error(&none, 401, "unauthorised");
    let unknown = format!("tonne_live_{}", "A".repeat(43));
    for key in [
        unknown.as_str(),
        "nope",
        "tonne_test_short",
        &t.live_key[..t.live_key.len() - 1],
    ] {
        let res = app.get("/v1/accounts/me", key).await;
        assert_error(&res, 401, "unauthorised");
    }
    let basic = app
        .send(
            app.request(Method::GET, "/v1/accounts/me", None)
                .header("Authorization", "Basic dXNlcjpwYXNz"),
        )
        .await;
    assert_error(&basic, 401, "unauthorised");
}

async fn bodies_must_be_json_of_the_right_shape(app: TestApp) {
    let t = app.tenant().await;
    let post = |body: &'static [u8], ct: Option<&'static str>| {
        let mut req = app
            .request(Method::POST, "/v1/accounts", Some(&t.live_key))
            .body(body);
        if let Some(ct) = ct {
            req = req.header("Content-Type", ct);
        }
        req
    };
    assert_error(
        &app.send(post(br#"{"name":"x","currency":"GBP"}"#, None))
            .await,
        415,
        "unsupported_media_type",
    );
    assert_error(
        &app.send(post(
            br#"{"name":"x","currency":"GBP"}"#,
            Some("text/plain"),
        ))
        .await,
        415,
        "unsupported_media_type",
    );
    for (body, field) in [
        (&br#"{"name":"x","currency":"GBP""#[..], "body"),
        (br#"{"name":5,"currency":"GBP"}"#, "name"),
        (br#"{"currency":"GBP"}"#, "name"),
        (br#"{"name":"x","currency":"JPY"}"#, "currency"),
        (
            br#"{"name":"x","currency":"GBP","balance":"1000000.00"}"#,
            "balance",
        ),
        (
            br#"{"name":"x","currency":"GBP","beneficiary":null}"#,
            "beneficiary",
        ),
        (
            br#"{"name":"x","currency":"GBP","beneficiary":""}"#,
            "beneficiary",
        ),
        (b"{\"name\":\"\xff\xfe\",\"currency\":\"GBP\"}", "name"),
        (b"", "body"),
        (br#"[]"#, "body"),
        (br#"{"name":"x","currency":"GBP"} trailing"#, "body"),
    ] {
        let res = app.send(post(body, Some("application/json"))).await;
        assert_error(&res, 400, "validation_error");
        let message = res.body["errors"][0]["message"].as_str().unwrap();
        assert!(
            message.contains(field),
            "message `{message}` should name `{field}`"
        );
    }
    let long_name = format!(r#"{{"name":"{}","currency":"GBP"}}"#, "é".repeat(256));
    let res = app
        .send(
            app.request(Method::POST, "/v1/accounts", Some(&t.live_key))
                .header("Content-Type", "application/json")
                .body(long_name),
        )
        .await;
    assert_error(&res, 400, "validation_error");
    assert!(first_error_message(&res).starts_with("name"));
    assert_eq!(app.count_accounts(&t).await, 2, "nothing was written");
}

async fn oversized_bodies_are_413(app: TestApp) {
    let t = app.tenant().await;
    for size in [1024 * 1024 + 1, 10 * 1024 * 1024] {
        let big = format!(r#"{{"name":"{}","currency":"GBP"}}"#, "x".repeat(size));
        let res = app
            .send(
                app.request(Method::POST, "/v1/accounts", Some(&t.live_key))
                    .header("Content-Type", "application/json")
                    .body(big),
            )
            .await;
        assert_error(&res, 413, "payload_too_large");
    }
    assert_eq!(app.count_accounts(&t).await, 2);
    // still serving
    assert_eq!(app.get("/v1/accounts/me", &t.live_key).await.status, 200);
}

async fn unknown_routes_and_methods_answer_json_errors(app: TestApp) {
    let t = app.tenant().await;
    assert_error(
        &app.get("/v1/nothing-here", &t.live_key).await,
        404,
        "not_found",
    );
    assert_error(
        &app.get("/nothing-here", &t.live_key).await,
        404,
        "not_found",
    );
    let res = app
        .send(app.request(Method::DELETE, "/v1/accounts", Some(&t.live_key)))
        .await;
    assert_error(&res, 405, "method_not_allowed");
}

async fn every_response_has_a_request_id_and_echoes_a_valid_one(app: TestApp) {
    let t = app.tenant().await;
    let res = app.get("/v1/accounts/me", &t.live_key).await;
    assert_eq!(res.header("x-request-id").map(str::len), Some(32));
    let echoed = app
        .send(
            app.request(Method::GET, "/v1/accounts/me", Some(&t.live_key))
                .header("X-Request-Id", "client-chosen-42"),
        )
        .await;
    assert_eq!(echoed.header("x-request-id"), Some("client-chosen-42"));
    let replaced = app
        .send(
            app.request(Method::GET, "/v1/nope", None)
                .header("X-Request-Id", "bad id with spaces"),
        )
        .await;
    assert_ne!(replaced.header("x-request-id"), Some("bad id with spaces"));
    assert!(replaced.header("x-request-id").is_some());
}

async fn health_ready_metrics_and_openapi_are_served(app: TestApp) {
    let t = app.tenant().await;
    let health = app.get_without_key("/health").await;
    assert_eq!(
        (health.status.as_u16(), health.body["status"].as_str()),
        (200, Some("ok"))
    );
    let ready = app.get_without_key("/ready").await;
    assert_eq!(ready.status, 200);
    app.get("/v1/accounts/me", &t.live_key).await;
    let metrics = app.metrics().await;
    assert!(
        metrics.contains(
            r#"tonne_http_requests_total{method="GET",route="/v1/accounts/me",status="200"}"#
        ),
        "{metrics}"
    );
    assert!(metrics.contains("tonne_http_request_duration_seconds_bucket"));
    assert!(metrics.contains("tonne_db_pool_max_connections 4"));
    let doc = app.get_without_key("/v1/openapi.json").await;
    assert_eq!(doc.status, 200);
    for (path, method) in [
        ("/v1/accounts/me", "get"),
        ("/v1/accounts", "get"),
        ("/v1/accounts", "post"),
        ("/v1/accounts/{id}", "put"),
        ("/v1/accounts/client", "get"),
        ("/v1/accounts/client", "post"),
        ("/v1/accounts/client/{id}", "put"),
    ] {
        assert!(
            doc.body["paths"][path][method].is_object(),
            "{method} {path} missing from the OpenAPI document"
        );
    }
    let ui = app.fetch("/docs/", None).await;
    assert_eq!(ui.status(), 200);
    assert!(ui.text().await.unwrap().contains("swagger"));
}

/// `/docs` leads to the docs; a route whose contract lists no 415 answers a
/// body that is not JSON with 400, and a route that lists it keeps 415.
async fn docs_without_a_slash_and_non_json_bodies_where_415_is_not_listed(app: TestApp) {
    let no_redirects = crate::support::client_without_redirects();
    let docs = no_redirects
        .get(format!("{}/docs", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(docs.status(), 308);
    assert_eq!(docs.headers()["location"], "/docs/");
    let followed = app.fetch("/docs", None).await;
    assert_eq!(followed.status(), 200);
    assert!(followed.text().await.unwrap().contains("swagger"));

    let t = app.tenant().await;
    let created = crate::webhooks::post_webhook(&app, &t.test_key, "http://127.0.0.1:9/hook").await;
    assert_eq!(created.status, 200, "{}", created.body);
    let id = created.body["id"].as_str().unwrap();
    let path = format!("/v1/webhooks/{id}");
    for req in [
        app.request(Method::PUT, &path, Some(&t.test_key)),
        app.request(Method::PUT, &path, Some(&t.test_key))
            .header("Content-Type", "text/plain")
            .body(r#"{"enabled": false}"#),
    ] {
        let res = app.send(req).await;
        assert_error(&res, 400, "validation_error");
    }
    let unchanged = app.get(&path, &t.test_key).await;
    assert_eq!(unchanged.body["enabled"], true, "{}", unchanged.body);
    let res = app
        .send(
            app.request(Method::POST, "/v1/webhooks", Some(&t.test_key))
                .header("Content-Type", "text/plain")
                .body(r#"{"url": "http://127.0.0.1:9/hook"}"#),
        )
        .await;
    assert_error(&res, 415, "unsupported_media_type");
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    docs_without_a_slash_and_non_json_bodies_where_415_is_not_listed,
    missing_unknown_and_malformed_keys_are_401,
    bodies_must_be_json_of_the_right_shape,
    oversized_bodies_are_413,
    unknown_routes_and_methods_answer_json_errors,
    every_response_has_a_request_id_and_echoes_a_valid_one,
    health_ready_metrics_and_openapi_are_served,
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rate_limit_is_per_key_with_429_and_headers() {
    let app = TestApp::spawn_with(TestDb::sqlite(), |o| {
        o.rate = RatePolicy {
            per_second: 1,
            burst: 3,
        }
    })
    .await;
    let a = app.tenant().await;
    let b = app.tenant().await;
    let mut statuses = Vec::new();
    for _ in 0..4 {
        statuses.push(app.get("/v1/accounts/me", &a.live_key).await);
    }
    assert_eq!(
        statuses
            .iter()
            .map(|r| r.status.as_u16())
            .collect::<Vec<_>>(),
        vec![200, 200, 200, 429]
    );
    let limited = statuses.last().unwrap();
    assert_eq!(
        limited.body["errors"][0]["error_code"],
        "rate_limit_exceeded"
    );
    assert_eq!(limited.header("retry-after"), Some("1"));
    assert_eq!(limited.header("ratelimit-policy"), Some("1;w=1;burst=3"));
    assert!(limited.header("ratelimit").unwrap().contains("remaining=0"));
    assert_eq!(
        statuses[0].header("ratelimit"),
        Some("limit=3, remaining=2, reset=1")
    );
    assert_eq!(
        app.get("/v1/accounts/me", &b.live_key).await.status,
        200,
        "another key has its own budget"
    );
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(
        app.get("/v1/accounts/me", &a.live_key).await.status,
        200,
        "the budget refills"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_without_a_valid_key_are_limited_per_ip() {
    let app = TestApp::spawn_with(TestDb::sqlite(), |o| {
        o.rate = RatePolicy {
            per_second: 1,
            burst: 2,
        }
    })
    .await;
    let statuses: Vec<u16> = {
        let mut v = Vec::new();
        for i in 0..3 {
            let key = format!("tonne_live_{}", char::from(b'A' + i).to_string().repeat(43));
            v.push(app.get("/v1/accounts/me", &key).await.status.as_u16());
        }
        v
    };
    assert_eq!(
        statuses,
        vec![401, 401, 429],
        "rotating garbage keys does not escape the limit"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_revoked_by_another_process_stops_working_within_the_cache_ttl() {
    let app = TestApp::spawn_with(TestDb::sqlite(), |o| {
        o.key_cache_ttl = Duration::from_millis(500)
    })
    .await;
    let t = app.tenant().await;
    assert_eq!(app.get("/v1/accounts/me", &t.live_key).await.status, 200);
    let listed = crate::cli::tonne(
        &[
            "keys",
            "list",
            "--organisation",
            &t.organisation_id,
            "--json",
        ],
        &app.database_url,
    );
    let keys: serde_json::Value = serde_json::from_str(&listed).unwrap();
    let live_id = keys
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["mode"] == "live")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    crate::cli::tonne(&["keys", "revoke", &live_id], &app.database_url);
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_error(
        &app.get("/v1/accounts/me", &t.live_key).await,
        401,
        "unauthorised",
    );
    assert_eq!(app.get("/v1/accounts/me", &t.test_key).await.status, 200);
    let _ = json!({});
}
