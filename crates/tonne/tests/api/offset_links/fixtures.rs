//! Shared helpers of the offset-link tests: creating links and counting them.

use serde_json::{Value, json};

use crate::support::{TestApp, conforms};

pub(super) async fn create(app: &TestApp, key: &str, body: Value) -> Value {
    let res = app.post("/v1/offset-links", key, &body).await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms("OffsetLink", &res.body);
    res.body
}

/// A link to one bundle at `value`, paid for when ordered; its id.
pub(super) async fn create_paid_link(
    app: &TestApp,
    key: &str,
    name: &str,
    bundle: &str,
    value: &str,
) -> String {
    let body = json!({"name": name, "bundles": [bundle], "value": value, "use_logo": false, "require_payment": true});
    create(app, key, body).await["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

pub(super) async fn link_count(app: &TestApp, key: &str) -> usize {
    let res = app.get("/v1/offset-links?limit=100", key).await;
    res.body["data"].as_array().unwrap().len()
}
