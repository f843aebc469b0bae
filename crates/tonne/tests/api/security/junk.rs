//! Junk requests cost their sender and leave nothing behind: a method the
//! server does not know is 501 before routing and never becomes a metrics
//! label (60,000-character methods once grew `/metrics` to 153 MB); a path
//! no route matches is rate limited like any other request (600 anonymous
//! 404s in 2 s were all answered), and so is every other request outside
//! `/v1` (405s, the documentation, logos, the console; health probes from a
//! budget of their own); and an upload's file name loses its
//! control and format characters, a repeated part being refused.

use reqwest::Method;
use serde_json::Value;
use tonne_http::rate_limit::RatePolicy;
use tonne_test_support::{TestDb, on_both_backends};

use crate::support::{Reply, TestApp, assert_error};

async fn junk_methods_and_paths_leave_the_metrics_small(app: TestApp) {
    let before = app.metrics().await.len();
    for i in 0..60 {
        // a distinct, long method each time; and a distinct unmatched path
        let method = format!("J{i}{}", "UNK".repeat(2_000));
        let res = app
            .send(app.request(
                Method::from_bytes(method.as_bytes()).unwrap(),
                &format!("/nowhere-{i}"),
                None,
            ))
            .await;
        assert_error(&res, 501, "not_implemented");
        let res = app.get_without_key(&format!("/junk-path-{i}/x")).await;
        assert_error(&res, 404, "not_found");
    }
    // HTTP's own TRACE is routed like any method: a route that does not take
    // it answers 405 with `Allow`, as schemathesis expects of a method a
    // document does not list; CONNECT names a host, not a path: 404
    let res = app
        .send(app.request(Method::TRACE, "/v1/accounts/me", None))
        .await;
    assert_error(&res, 405, "method_not_allowed");
    assert!(res.header("allow").is_some(), "a 405 says what is allowed");
    let res = app
        .send(app.request(Method::CONNECT, "/v1/accounts/me", None))
        .await;
    assert_error(&res, 404, "not_found");
    let metrics = app.metrics().await;
    assert!(
        metrics.len() < before + 20_000 && metrics.len() < 200_000,
        "/metrics grew from {before} to {} bytes",
        metrics.len()
    );
    for junk in ["UNKUNK", "nowhere-", "junk-path-"] {
        assert!(!metrics.contains(junk), "a series names {junk}");
    }
    // the refused methods are counted, under bounded labels
    assert!(
        metrics.contains(r#"method="other",route="unmatched",status="501""#),
        "{metrics}"
    );
    assert!(
        metrics.contains(r#"method="GET",route="unmatched",status="404""#),
        "{metrics}"
    );
}

async fn limited(db: TestDb) -> TestApp {
    TestApp::spawn_with(db, |options| {
        options.rate = RatePolicy {
            per_second: 1,
            burst: 3,
        };
    })
    .await
}

/// Sends `n` GETs of `path`; how many were 429 (each with `Retry-After`).
async fn refused_of(app: &TestApp, path: &str, key: Option<&str>, n: usize) -> usize {
    let mut refused = 0;
    for i in 0..n {
        let res = app
            .send(app.request(Method::GET, &format!("{path}{i}"), key))
            .await;
        if res.status == 429 {
            assert_error(&res, 429, "rate_limit_exceeded");
            assert!(res.header("retry-after").is_some(), "{res:?}");
            refused += 1;
        } else {
            assert_eq!(res.status, 404, "{}", res.body);
        }
    }
    refused
}

async fn unmatched_paths_count_against_the_rate_limit(app: TestApp) {
    // anonymous: the address's budget, outside /v1 and inside it
    assert!(refused_of(&app, "/nowhere-", None, 12).await > 0);
    assert!(refused_of(&app, "/v1/nowhere-", None, 12).await > 0);
    // with a key: the key's budget, which its next API request then lacks
    let t = app.tenant().await;
    assert!(refused_of(&app, "/nowhere-", Some(&t.test_key), 12).await > 0);
    let me: Reply = app.get("/v1/accounts/me", &t.test_key).await;
    assert_error(&me, 429, "rate_limit_exceeded");
}

/// Sends `n` requests of `method` to `path`; how many were 429 (each with
/// `Retry-After`), and every other answer's status.
async fn answers_of(app: &TestApp, method: Method, path: &str, n: usize) -> (usize, Vec<u16>) {
    let mut refused = 0;
    let mut others = Vec::new();
    for _ in 0..n {
        let res = app.send(app.request(method.clone(), path, None)).await;
        if res.status == 429 {
            assert!(res.header("retry-after").is_some(), "{path}: {res:?}");
            refused += 1;
        } else {
            others.push(res.status.as_u16());
        }
    }
    (refused, others)
}

async fn every_request_outside_the_api_counts(app: TestApp) {
    let page = "/l/0190c6f1a7b27c3e9f2d4b1a2c3d4e5f";
    // the address's budget (burst 3) spent on 405s of a console route, then
    // every other request outside /v1 is refused: the same budget
    let (refused, _) = answers_of(&app, Method::PUT, "/console/sign-in", 6).await;
    assert!(refused > 0, "405s of a console route are not charged");
    for (method, path) in [
        (Method::PUT, page),
        (Method::DELETE, "/docs"),
        (Method::GET, "/docs"),
        (Method::GET, "/docs/"),
        (Method::GET, "/v1/openapi.json"),
        (Method::GET, "/logos/0190c6f1a7b27c3e9f2d4b1a2c3d4e5f"),
        (Method::GET, "/console/sign-in"),
    ] {
        let (refused, others) = answers_of(&app, method.clone(), path, 3).await;
        assert!(refused >= 2, "{method} {path} not charged: {others:?}");
    }
    // a hosted page's handler charges its own limit (a page, not this budget)
    let (refused, others) = answers_of(&app, Method::GET, page, 3).await;
    assert_eq!((refused, others), (0, vec![404, 404, 404]));
    // health probes have one allowance of their own, of the same size: they
    // answer while the address's budget is spent, and are bounded too
    let (refused, others) = answers_of(&app, Method::GET, "/health", 2).await;
    assert_eq!((refused, others), (0, vec![200, 200]), "/health");
    let (refused, others) = answers_of(&app, Method::GET, "/ready", 6).await;
    assert!(
        others.first() == Some(&200) && refused >= 4,
        "/ready: {others:?}"
    );
    let (refused, _) = answers_of(&app, Method::GET, "/health", 2).await;
    assert!(refused > 0, "/health is not bounded");
}

/// A multipart body: the given parts, each `(name, filename, bytes)`.
fn multipart(parts: &[(&str, Option<&str>, &str)]) -> (String, Vec<u8>) {
    let boundary = "----tonne-junk-7c1d";
    let mut body = Vec::new();
    for (name, filename, value) in parts {
        let file = filename.map_or(String::new(), |f| format!("; filename=\"{f}\""));
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"{file}\r\n\r\n{value}\r\n")
                .as_bytes(),
        );
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

async fn upload(app: &TestApp, key: &str, parts: &[(&str, Option<&str>, &str)]) -> Reply {
    let (content_type, body) = multipart(parts);
    app.send(
        app.request(Method::POST, "/v1/shipments/data-sheets", Some(key))
            .header(reqwest::header::CONTENT_TYPE, content_type)
            .body(body),
    )
    .await
}

async fn upload_filenames_are_cleaned_and_a_repeated_part_is_refused(app: TestApp) {
    let t = app.tenant().await;
    let key = t.test_key.as_str();
    let csv = tonne_wire::data_sheet::TEMPLATE;
    // two `file` parts, or a field twice: 400 naming the part, nothing stored
    let twice = upload(
        &app,
        key,
        &[("file", Some("a.csv"), csv), ("file", Some("b.csv"), csv)],
    )
    .await;
    assert_error(&twice, 400, "validation_error");
    assert!(
        twice.body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("file: "),
        "{}",
        twice.body
    );
    let field_twice = upload(
        &app,
        key,
        &[
            ("calculate_emissions", None, "false"),
            ("calculate_emissions", None, "true"),
            ("file", Some("a.csv"), csv),
        ],
    )
    .await;
    assert_error(&field_twice, 400, "validation_error");
    assert!(
        field_twice.body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("calculate_emissions: "),
        "{}",
        field_twice.body
    );
    let listed = app.get("/v1/shipments/batches", key).await;
    assert_eq!(listed.body["data"], Value::Array(vec![]), "nothing stored");
    // a right-to-left override (shown as `csv.jpg`), a zero-width space and
    // a decomposed é: the name is kept without the first two, composed
    for (sent, kept) in [
        ("\u{202e}gpj.csv", "gpj.csv"),
        ("caf\u{65}\u{301}\u{200b}.csv", "caf\u{e9}.csv"),
    ] {
        let made = upload(&app, key, &[("file", Some(sent), csv)]).await;
        assert_eq!(made.status, 200, "{}", made.body);
        let id = made.body["id"].clone();
        let listed = app.get("/v1/shipments/batches", key).await;
        let batch = listed.body["data"]
            .as_array()
            .and_then(|all| all.iter().find(|b| b["id"] == id))
            .unwrap_or_else(|| panic!("{id} not listed: {}", listed.body));
        assert_eq!(batch["filename"], kept, "{batch}");
    }
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    junk_methods_and_paths_leave_the_metrics_small,
    upload_filenames_are_cleaned_and_a_repeated_part_is_refused,
);

mod limits {
    use super::{
        every_request_outside_the_api_counts, unmatched_paths_count_against_the_rate_limit,
    };
    tonne_test_support::on_both_backends!(
        with crate::security::junk::limited;
        unmatched_paths_count_against_the_rate_limit,
        every_request_outside_the_api_counts,
    );
}
