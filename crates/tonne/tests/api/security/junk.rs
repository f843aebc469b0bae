//! Junk requests cost their sender and leave nothing behind: a method the
//! server does not know is 501 before routing and never becomes a metrics
//! label (60,000-character methods once grew `/metrics` to 153 MB); a path
//! no route matches is rate limited like any other request (600 anonymous
//! 404s in 2 s were all answered); and an upload's file name loses its
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
        let res = app
            .send(app.request(Method::GET, &format!("/junk-path-{i}/x"), None))
            .await;
        assert_error(&res, 404, "not_found");
    }
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
    use super::unmatched_paths_count_against_the_rate_limit;
    tonne_test_support::on_both_backends!(
        with crate::security::junk::limited;
        unmatched_paths_count_against_the_rate_limit,
    );
}
