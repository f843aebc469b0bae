//! PACT helpers: the schemas a footprint must pass, a shipment through a
//! hub, credentials made with the CLI, and requests with a token.

use std::sync::OnceLock;

use base64::Engine as _;
use serde_json::{Value, json};

use crate::cli::tonne;
use crate::support::{Reply, TestApp};

pub(crate) const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pact");

/// iLEAP's ProductFootprint<ShipmentFootprint> schema and PACT v2.3's
/// ProductFootprint (from its OpenAPI document).
fn validators() -> &'static (jsonschema::Validator, jsonschema::Validator) {
    static V: OnceLock<(jsonschema::Validator, jsonschema::Validator)> = OnceLock::new();
    V.get_or_init(|| {
        let ileap: Value = serde_json::from_str(
            &std::fs::read_to_string(format!("{DATA}/ileap-pcf-shipment-footprint.json")).unwrap(),
        )
        .unwrap();
        let doc: Value = serde_yaml::from_str(
            &std::fs::read_to_string(format!("{DATA}/pact-openapi-v2.3.yaml")).unwrap(),
        )
        .unwrap();
        let pact = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$ref": "#/components/schemas/ProductFootprint",
            "components": doc["components"],
        });
        let options = || jsonschema::options().should_validate_formats(true);
        (
            options().build(&ileap).expect("iLEAP schema"),
            options().build(&pact).expect("PACT schema"),
        )
    })
}

pub(crate) fn valid_footprint(footprint: &Value) {
    let (ileap, pact) = validators();
    let errors: Vec<String> = ileap
        .iter_errors(footprint)
        .chain(pact.iter_errors(footprint))
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{footprint:#}");
}

pub(crate) async fn token(app: &TestApp, id: &str, secret: &str) -> Reply {
    token_request(
        app,
        id,
        secret,
        "application/x-www-form-urlencoded",
        "grant_type=client_credentials",
    )
    .await
}

/// A request to the token endpoint with `id:secret` as Basic credentials and
/// `body` sent as `content_type`.
pub(crate) async fn token_request(
    app: &TestApp,
    id: &str,
    secret: &str,
    content_type: &str,
    body: &'static str,
) -> Reply {
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("{id}:{secret}"));
    app.send(
        app.client
            .post(format!("{}/pact/auth/token", app.base))
            .header("Authorization", format!("Basic {basic}"))
            .header("Content-Type", content_type)
            .body(body),
    )
    .await
}

pub(crate) async fn pact_get(app: &TestApp, url: &str, token: &str) -> Reply {
    let url = if url.starts_with("http") {
        url.to_owned()
    } else {
        format!("{}{url}", app.base)
    };
    app.send(app.client.get(url).bearer_auth(token)).await
}

pub(crate) async fn event(app: &TestApp, token: &str, body: Value) -> Reply {
    event_as(
        app,
        token,
        "application/cloudevents+json; charset=UTF-8",
        body,
    )
    .await
}

/// An event sent to `/pact/2/events` as `content_type`.
pub(crate) async fn event_as(app: &TestApp, token: &str, content_type: &str, body: Value) -> Reply {
    app.send(
        app.client
            .post(format!("{}/pact/2/events", app.base))
            .bearer_auth(token)
            .header("Content-Type", content_type)
            .body(body.to_string()),
    )
    .await
}

pub(crate) fn pact_error(res: &Reply, status: u16, code: &str) {
    assert_eq!(res.status, status, "{}", res.body);
    assert_eq!(res.body["code"], code, "{}", res.body);
    assert!(res.body["message"].is_string(), "{}", res.body);
}

/// `client_id` and `client_secret` from `tonne pact credentials create --json`.
pub(crate) fn credentials(app: &TestApp, account: &str) -> (String, String) {
    let out = tonne(
        &[
            "pact",
            "credentials",
            "create",
            "--account",
            account,
            "--label",
            "Shipper portal",
            "--json",
        ],
        &app.database_url,
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    (
        v["client_id"].as_str().unwrap().to_owned(),
        v["client_secret"].as_str().unwrap().to_owned(),
    )
}
