//! PACT with the iLEAP extension (`/pact`): credentials made with the CLI
//! buy a token; the account's calculated shipments are its footprints, each
//! valid against the PACT v2.3 and iLEAP schemas, with a TCE per leg (hubs
//! included) adding up to the shipment's emissions to the gram; pages follow
//! their `Link`; `$filter` works or is refused; another account's
//! shipments are never shown; events are checked; revocation works at once.

use std::collections::HashSet;
use std::sync::OnceLock;

use base64::Engine as _;
use reqwest::Method;
use rust_decimal::Decimal;
use serde_json::{Value, json};
use tonne_test_support::on_both_backends;

use crate::cli::tonne;
use crate::shipments::{dec, good_row, processed, upload_ok};
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

fn hub_row(reference: &str) -> Value {
    json!({
        "shipment_id": reference,
        "target_internal_id": "carrier-3",
        "legs": [
            {"carriage": "pre", "method": {"vehicle_type": "truck", "fuel": "diesel"},
             "distance": {"amount": "250", "unit": "km"},
             "load": {"mass": {"amount": "12", "unit": "t"}}},
            {"carriage": "main", "method": "warehouse_ambient"},
            {"carriage": "on", "method": {"train_type": "electric_freight_train"},
             "distance": {"amount": "300", "unit": "km"}}
        ]
    })
}

pub(crate) async fn token(app: &TestApp, id: &str, secret: &str) -> Reply {
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("{id}:{secret}"));
    app.send(
        app.client
            .post(format!("{}/pact/auth/token", app.base))
            .header("Authorization", format!("Basic {basic}"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body("grant_type=client_credentials"),
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
    app.send(
        app.client
            .post(format!("{}/pact/2/events", app.base))
            .bearer_auth(token)
            .header(
                "Content-Type",
                "application/cloudevents+json; charset=UTF-8",
            )
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

async fn a_client_reads_its_footprints_over_pact(app: TestApp) {
    let t = app.tenant().await;
    let other = app.tenant().await;
    let batch = upload_ok(
        &app,
        &t.live_key,
        vec![
            good_row("PO-1", "2026-03-01T08:00:00Z"),
            hub_row("HUB/1 ü"),
            good_row("PO-2", "2026-03-03T08:00:00Z"),
        ],
        true,
    )
    .await;
    processed(&app, &t.live_key, &batch).await;
    // not calculated: no footprint
    let plain = upload_ok(
        &app,
        &t.live_key,
        vec![good_row("RAW", "2026-03-04T08:00:00Z")],
        false,
    )
    .await;
    processed(&app, &t.live_key, &plain).await;
    let theirs = upload_ok(&app, &other.live_key, vec![hub_row("THEIRS")], true).await;
    processed(&app, &other.live_key, &theirs).await;
    let list = app.get("/v1/shipments?limit=100", &t.live_key).await;
    let shipments: Vec<Value> = list.body["data"].as_array().unwrap().clone();
    let their_list = app.get("/v1/shipments?limit=100", &other.live_key).await;
    let their_id = their_list.body["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();

    let (client_id, secret) = credentials(&app, &t.live_account);
    let res = token(&app, &client_id, &secret).await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert_eq!(res.header("cache-control"), Some("no-store"));
    assert_eq!(res.body["token_type"], "Bearer");
    assert_eq!(res.body["expires_in"], 3600);
    let bearer = res.body["access_token"].as_str().unwrap().to_owned();

    let all = pact_get(&app, "/pact/2/footprints", &bearer).await;
    assert_eq!(all.status, 200, "{}", all.body);
    assert!(all.header("link").is_none(), "one page holds them all");
    let data = all.body["data"].as_array().unwrap();
    assert_eq!(
        data.len(),
        3,
        "the three calculated shipments: {:#}",
        all.body
    );
    for footprint in data {
        valid_footprint(footprint);
        let id = footprint["id"].as_str().unwrap();
        assert_ne!(id.replace('-', ""), their_id, "another account's shipment");
        let shipment = shipments
            .iter()
            .find(|s| s["id"].as_str() == Some(&id.replace('-', "")))
            .unwrap_or_else(|| panic!("no shipment {id}"));
        let ext = &footprint["extensions"][0];
        assert_eq!(
            ext["dataSchema"],
            "https://api.ileap.sine.dev/shipment-footprint.json"
        );
        let tces = ext["data"]["tces"].as_array().unwrap();
        let legs = shipment["legs"].as_array().unwrap();
        assert_eq!(tces.len(), legs.len(), "a TCE per leg, hubs included");
        // to the gram: each TCE is its leg, the TCEs the shipment
        let mut sum = Decimal::ZERO;
        for (tce, leg) in tces.iter().zip(legs) {
            assert_eq!(
                dec(&tce["co2eWTW"]),
                dec(&leg["emissions"]["total_emissions"]),
                "{tce}"
            );
            assert_eq!(dec(&tce["co2eTTW"]), dec(&leg["emissions"]["ttw"]), "{tce}");
            sum += dec(&tce["co2eWTW"]);
        }
        assert_eq!(sum, dec(&shipment["total_emissions"]));
        // the footprint per tonne-kilometre, times the tonne-kilometres
        let pcf = &footprint["pcf"];
        assert_eq!(pcf["declaredUnit"], "ton kilometer");
        let back = dec(&pcf["pCfExcludingBiogenic"]) * dec(&pcf["unitaryProductAmount"]);
        assert!((back - sum).abs() < Decimal::new(1, 3), "{back} vs {sum}");
        assert_eq!(tces[1]["prevTceIds"], json!([tces[0]["tceId"]]));
        if ext["data"]["shipmentId"] == "HUB/1 ü" {
            assert!(
                tces[1]["hocId"].is_string() && tces[1].get("tocId").is_none(),
                "{tces:#?}"
            );
            assert_eq!(
                footprint["productIds"],
                json!([
                    "urn:pathfinder:product:customcode:vendor-assigned:shipment:HUB%2F1%20%C3%BC"
                ])
            );
        } else {
            assert!(tces.iter().all(|t| t["tocId"].is_string()), "{tces:#?}");
        }
        // GetFootprint answers the same
        let one = pact_get(&app, &format!("/pact/2/footprints/{id}"), &bearer).await;
        assert_eq!(one.status, 200, "{}", one.body);
        assert_eq!(&one.body["data"], footprint);
    }

    // pages of one, each with a Link to the next, until none
    let mut seen = HashSet::new();
    let mut next = Some(format!("{}/pact/2/footprints?limit=1", app.base));
    while let Some(url) = next.take() {
        let page = pact_get(&app, &url, &bearer).await;
        assert_eq!(page.status, 200, "{}", page.body);
        for f in page.body["data"].as_array().unwrap() {
            assert!(
                seen.insert(f["id"].as_str().unwrap().to_owned()),
                "twice: {f}"
            );
        }
        next = page.header("link").map(|link| {
            assert!(link.ends_with("; rel=\"next\""), "{link}");
            let url = link
                .trim_start_matches('<')
                .split('>')
                .next()
                .unwrap()
                .to_owned();
            assert!(
                url.starts_with(&format!("{}/pact/2/footprints?", app.base)),
                "{url}"
            );
            url
        });
        assert!(seen.len() <= 3);
    }
    assert_eq!(seen.len(), 3);

    // a page that ends at the last footprint says nothing follows
    let exact = pact_get(&app, "/pact/2/footprints?limit=3", &bearer).await;
    assert_eq!(exact.body["data"].as_array().unwrap().len(), 3);
    assert!(exact.header("link").is_none(), "no Link to an empty page");

    // $filter: by product id, and by creation time
    let wanted = "urn:pathfinder:product:customcode:vendor-assigned:shipment:PO-2";
    let filter = format!("productIds/any(productId:(productId eq '{wanted}'))");
    let res = app
        .send(
            app.client
                .get(format!("{}/pact/2/footprints", app.base))
                .query(&[("$filter", filter.as_str())])
                .bearer_auth(&bearer),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert_eq!(
        res.body["data"].as_array().unwrap().len(),
        1,
        "{}",
        res.body
    );
    assert_eq!(res.body["data"][0]["productIds"][0], wanted);
    let created = data[0]["created"].as_str().unwrap();
    let res = app
        .send(
            app.client
                .get(format!("{}/pact/2/footprints", app.base))
                .query(&[("$filter", format!("created ge '{created}'"))])
                .bearer_auth(&bearer),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert!(
        res.body["data"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["created"].as_str().unwrap() >= created)
    );
    let res = app
        .send(
            app.client
                .get(format!("{}/pact/2/footprints", app.base))
                .query(&[("$filter", "pcf/declaredUnit eq 'liter'")])
                .bearer_auth(&bearer),
        )
        .await;
    pact_error(&res, 400, "BadRequest");
    pact_error(
        &pact_get(&app, "/pact/2/footprints?limit=0", &bearer).await,
        400,
        "BadRequest",
    );

    // unknown, another account's, malformed
    pact_error(
        &pact_get(
            &app,
            "/pact/2/footprints/00000000-0000-0000-0000-000000000000",
            &bearer,
        )
        .await,
        404,
        "NoSuchFootprint",
    );
    let their_uuid = uuid::Uuid::try_parse(&their_id)
        .unwrap()
        .hyphenated()
        .to_string();
    pact_error(
        &pact_get(&app, &format!("/pact/2/footprints/{their_uuid}"), &bearer).await,
        404,
        "NoSuchFootprint",
    );
    pact_error(
        &pact_get(&app, "/pact/2/footprints/x", &bearer).await,
        400,
        "BadRequest",
    );

    // without a token, with one Tonne never issued, with an API key
    for presented in ["", "very-invalid-access-token", t.live_key.as_str()] {
        let res = pact_get(&app, "/pact/2/footprints", presented).await;
        pact_error(&res, 401, "BadRequest");
    }

    // events: checked whole, acknowledged
    let published = |ids: Value| {
        json!({"type": "org.wbcsd.pathfinder.ProductFootprint.Published.v1", "specversion": "1.0",
               "id": "e-1", "source": "https://recipient.example/2/events",
               "time": "2026-03-01T00:00:00Z", "data": {"pfIds": ids}})
    };
    let ok = event(&app, &bearer, published(json!([data[0]["id"]]))).await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    pact_error(
        &event(&app, &bearer, published(json!(["urn:gtin:4712345060507"]))).await,
        400,
        "BadRequest",
    );
    let request = json!({"type": "org.wbcsd.pathfinder.ProductFootprintRequest.Created.v1",
        "specversion": "1.0", "id": "e-2", "source": "https://recipient.example/2/events",
        "time": "2026-03-01T00:00:00Z", "data": {"pf": {"productIds": [wanted]}, "comment": "2026 please"}});
    assert_eq!(event(&app, &bearer, request).await.status, 200);
    let answer = json!({"type": "org.wbcsd.pathfinder.ProductFootprintRequest.Fulfilled.v1",
        "specversion": "1.0", "id": "e-3", "source": "https://x.example", "data": {"requestEventId": "e-2", "pfs": []}});
    pact_error(&event(&app, &bearer, answer).await, 400, "BadRequest");
    pact_error(
        &event(&app, &bearer, json!({"nonsense": true})).await,
        400,
        "BadRequest",
    );
    pact_error(
        &event(&app, "nope", published(json!([data[0]["id"]]))).await,
        401,
        "BadRequest",
    );
    let plain = app
        .send(
            app.client
                .post(format!("{}/pact/2/events", app.base))
                .bearer_auth(&bearer)
                .header("Content-Type", "text/plain")
                .body(published(json!([data[0]["id"]])).to_string()),
        )
        .await;
    pact_error(&plain, 400, "BadRequest");

    // the listing shows the client, never its secret; revoking ends its token at once
    let listed = tonne(
        &[
            "pact",
            "credentials",
            "list",
            "--account",
            &t.live_account,
            "--json",
        ],
        &app.database_url,
    );
    assert!(
        listed.contains(&client_id) && !listed.contains(&secret),
        "{listed}"
    );
    tonne(
        &["pact", "credentials", "revoke", &client_id],
        &app.database_url,
    );
    pact_error(
        &pact_get(&app, "/pact/2/footprints", &bearer).await,
        401,
        "BadRequest",
    );
    let res = token(&app, &client_id, &secret).await;
    assert_eq!(res.status, 401, "{}", res.body);
    assert_eq!(res.body["error"], "invalid_client");
}

async fn token_requests_are_refused_as_oauth_says(app: TestApp) {
    let t = app.tenant().await;
    let (client_id, secret) = credentials(&app, &t.test_account);
    // a wrong secret, an unknown client: 401 invalid_client with a challenge
    let wrong = format!("tonne_pact_{}", "A".repeat(43));
    for (id, s) in [
        (client_id.as_str(), wrong.as_str()),
        ("someone", secret.as_str()),
    ] {
        let res = token(&app, id, s).await;
        assert_eq!(res.status, 401, "{}", res.body);
        assert_eq!(res.body["error"], "invalid_client");
        assert!(res.header("www-authenticate").unwrap().starts_with("Basic"));
    }
    // credentials must match exactly: nothing after them is dropped
    for (id, s) in [
        (client_id.clone(), format!("{secret}&x=y")),
        (format!("{client_id}&zzz"), secret.clone()),
    ] {
        let res = token(&app, &id, &s).await;
        assert_eq!(res.status, 401, "{}", res.body);
    }
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("{client_id}:{secret}"));
    // a body that does not say it is a form is not read as one
    let res = app
        .send(
            app.client
                .post(format!("{}/pact/auth/token", app.base))
                .header("Authorization", format!("Basic {basic}"))
                .header("Content-Type", "text/plain")
                .body("grant_type=client_credentials"),
        )
        .await;
    assert_eq!(res.status, 400, "{}", res.body);
    assert_eq!(res.body["error"], "invalid_request");
    for (body, status, error) in [
        ("", 400, "invalid_request"),
        (
            "grant_type=password&username=a&password=b",
            400,
            "unsupported_grant_type",
        ),
    ] {
        let res = app
            .send(
                app.client
                    .post(format!("{}/pact/auth/token", app.base))
                    .header("Authorization", format!("Basic {basic}"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .body(body),
            )
            .await;
        assert_eq!(res.status, status, "{}", res.body);
        assert_eq!(res.body["error"], error);
    }
    // credentials in the form work as well (RFC 6749, 2.3.1)
    let res = app
        .send(
            app.client
                .post(format!("{}/pact/auth/token", app.base))
                .form(&[
                    ("grant_type", "client_credentials"),
                    ("client_id", client_id.as_str()),
                    ("client_secret", secret.as_str()),
                ]),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    // an account with nothing calculated lists nothing
    let bearer = res.body["access_token"].as_str().unwrap();
    let res = pact_get(&app, "/pact/2/footprints", bearer).await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert_eq!(res.body["data"], json!([]));
    // GET on the token endpoint is not a route of it
    let res = app
        .send(app.request(Method::GET, "/pact/auth/token", None))
        .await;
    assert!(res.status == 404 || res.status == 405, "{}", res.status);
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    a_client_reads_its_footprints_over_pact,
    token_requests_are_refused_as_oauth_says,
);
