//! Arbitrary requests to the accounts, catalogue, order, quote and estimate
//! routes: never a 5xx, an `Errors` body when refused, nothing written.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use reqwest::Method;
use serde_json::Value;
use tonne_test_support::TestDb;

use super::json_values::json_value;
use crate::support::{Tenant, TestApp, conforms_error};

#[derive(Debug, Clone)]
struct Fuzzed {
    method: Method,
    segments: Vec<String>,
    query: Vec<(String, String)>,
    key: u8,
    lune_account: Option<String>,
    content_type: Option<&'static str>,
    body: Body,
}

#[derive(Debug, Clone)]
enum Body {
    None,
    Json(Value),
    Bytes(Vec<u8>),
}

fn segment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("accounts".to_owned()),
        Just("client".to_owned()),
        Just("me".to_owned()),
        Just("orders".to_owned()),
        Just("by-mass".to_owned()),
        Just("by-value".to_owned()),
        Just("quote".to_owned()),
        Just("bundles".to_owned()),
        Just("projects".to_owned()),
        Just("by-slug".to_owned()),
        Just("estimates".to_owned()),
        Just("electricity".to_owned()),
        Just("flight".to_owned()),
        Just("shipping".to_owned()),
        Just("multi-leg".to_owned()),
        Just("transactions".to_owned()),
        Just("batch".to_owned()),
        Just("company".to_owned()),
        Just("individual".to_owned()),
        Just("passenger-transportation".to_owned()),
        Just("by-estimate".to_owned()),
        Just("OWN_LIVE".to_owned()),
        Just("OWN_TEST".to_owned()),
        Just("OTHER_LIVE".to_owned()),
        "[0-9a-f]{32}",
        "\\PC{0,40}",
    ]
}

fn fuzzed() -> impl Strategy<Value = Fuzzed> {
    let method = prop_oneof![
        Just(Method::GET),
        Just(Method::POST),
        Just(Method::PUT),
        Just(Method::DELETE),
        Just(Method::PATCH)
    ];
    let segments = prop::collection::vec(segment(), 0..4).prop_map(|mut s| {
        s.insert(0, "v1".to_owned());
        s
    });
    let query = prop::collection::vec(
        (
            prop_oneof![
                Just("limit".to_owned()),
                Just("after".to_owned()),
                Just("name".to_owned()),
                "[a-z]{1,6}"
            ],
            prop_oneof![
                "-?[0-9]{0,25}".boxed(),
                "\\PC{0,30}".boxed(),
                "[0-9a-f]{32}".boxed(),
            ],
        ),
        0..4,
    );
    let body = prop_oneof![
        Just(Body::None),
        json_value().prop_map(Body::Json),
        prop::collection::vec(any::<u8>(), 0..200).prop_map(Body::Bytes),
    ];
    let content_type = prop_oneof![
        Just(Some("application/json")),
        Just(None),
        Just(Some("text/plain")),
        Just(Some("application/json; charset=utf-8"))
    ];
    let lune = prop::option::of(prop_oneof![
        Just("OTHER_LIVE".to_owned()),
        Just("OWN_TEST".to_owned()),
        Just("OWN_LIVE".to_owned()),
        "\\PC{0,40}"
    ]);
    (method, segments, query, 0_u8..4, lune, content_type, body).prop_map(
        |(method, segments, query, key, lune_account, content_type, body)| Fuzzed {
            method,
            segments,
            query,
            key,
            lune_account,
            content_type,
            body,
        },
    )
}

fn resolve(token: &str, a: &Tenant, b: &Tenant) -> String {
    match token {
        "OWN_LIVE" => a.live_account.clone(),
        "OWN_TEST" => a.test_account.clone(),
        "OTHER_LIVE" => b.live_account.clone(),
        other => other.to_owned(),
    }
}

async fn exercise(app: &TestApp, a: &Tenant, b: &Tenant, f: &Fuzzed) -> Result<(), TestCaseError> {
    let mut url = reqwest::Url::parse(&app.base).unwrap();
    {
        let mut path = url.path_segments_mut().unwrap();
        for s in &f.segments {
            path.push(&resolve(s, a, b));
        }
    }
    if !f.query.is_empty() {
        let mut pairs = url.query_pairs_mut();
        for (k, v) in &f.query {
            pairs.append_pair(k, v);
        }
    }
    let mut req = app.client.request(f.method.clone(), url.clone());
    match f.key {
        0 => req = req.bearer_auth(&a.live_key),
        1 => req = req.bearer_auth(&a.test_key),
        2 => req = req.bearer_auth("tonne_live_garbage"),
        _ => {}
    }
    if let Some(acting) = &f.lune_account
        && let Ok(value) = reqwest::header::HeaderValue::from_str(&resolve(acting, a, b))
    {
        req = req.header("Lune-Account", value);
    }
    if let Some(ct) = f.content_type {
        req = req.header("Content-Type", ct);
    }
    req = match &f.body {
        Body::None => req,
        Body::Json(v) => req.body(serde_json::to_vec(v).unwrap()),
        Body::Bytes(b) => req.body(b.clone()),
    };
    let before = (app.count_accounts(a).await, app.count_accounts(b).await);
    let rows_before = app.count_estimates_and_orders().await;
    let res = app.send(req).await;
    let after = (app.count_accounts(a).await, app.count_accounts(b).await);
    let rows_after = app.count_estimates_and_orders().await;
    let status = res.status.as_u16();
    prop_assert!(
        status < 500,
        "{} {url} answered {status}: {}",
        f.method,
        res.body
    );
    if status >= 400 {
        prop_assert!(
            res.body["errors"][0]["error_code"].is_string(),
            "{} {url} {status}: not an Errors body: {}",
            f.method,
            res.body
        );
        conforms_error(status, &res.body);
        prop_assert_eq!(
            before,
            after,
            "a refused request wrote something: {} {}",
            f.method,
            url
        );
        prop_assert_eq!(
            rows_before,
            rows_after,
            "a refused request stored an estimate or an order: {} {}",
            f.method,
            url
        );
    }
    prop_assert_eq!(
        before.1,
        after.1,
        "another organisation's accounts changed: {} {}",
        f.method,
        url
    );
    Ok(())
}

pub(super) fn run(db: TestDb, cases: u32) {
    let rt = super::runtime();
    let app = rt.block_on(TestApp::spawn(db));
    let (a, b) = rt.block_on(async {
        app.demo_catalogue().await;
        (app.tenant().await, app.tenant().await)
    });
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&fuzzed(), |f| rt.block_on(exercise(&app, &a, &b, &f)));
    if let Err(e) = result {
        panic!("{e}");
    }
    let health = rt.block_on(app.send(app.request(Method::GET, "/health", None)));
    assert_eq!(health.status, 200, "the server keeps serving");
    drop(app);
}
