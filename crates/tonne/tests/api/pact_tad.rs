//! iLEAP's transport activity data (`GET /pact/2/ileap/tad`): a TAD per
//! transport leg whose ends can be named, valid against iLEAP's schema;
//! hubs and legs from or to an unknown place have none; `mode` narrows,
//! pages of one follow their `Link` through a shipment's legs; another
//! account's legs are never shown.

use std::collections::HashSet;
use std::sync::OnceLock;

use serde_json::{Value, json};
use tonne_test_support::on_both_backends;

use crate::pact::{DATA, credentials, pact_error, pact_get, token};
use crate::shipments::{processed, upload_ok};
use crate::support::TestApp;

fn tad_schema() -> &'static jsonschema::Validator {
    static V: OnceLock<jsonschema::Validator> = OnceLock::new();
    V.get_or_init(|| {
        let schema: Value = serde_json::from_str(
            &std::fs::read_to_string(format!("{DATA}/ileap-tad.json")).unwrap(),
        )
        .unwrap();
        jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("iLEAP TAD schema")
    })
}

fn valid_tad(tad: &Value) {
    let errors: Vec<String> = tad_schema()
        .iter_errors(tad)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{tad:#}");
}

/// Five legs: road between two addresses, a warehouse, sea between two
/// ports, air between two airports, rail from a place no table knows.
fn activity_row(reference: &str) -> Value {
    json!({
        "shipment_id": reference,
        "target_internal_id": "carrier-9",
        "legs": [
            {"carriage": "pre", "method": {"vehicle_type": "truck", "fuel": "diesel"},
             "origin": {"city": "Munich", "country_code": "DEU"},
             "destination": {"city": "Hamburg", "country_code": "DEU"},
             "load": {"mass": {"amount": "12", "unit": "t"}},
             "load_factor": "0.8", "empty_run_factor": "0.2",
             "dates": {"atd": "2026-03-01T08:00:00Z"}},
            {"carriage": "main", "method": "warehouse_ambient"},
            {"carriage": "main", "method": {"vessel_type": "container_ship"},
             "origin": {"locode": "NLRTM"}, "destination": {"locode": "CNSHA"},
             "dates": {"atd": "2026-03-04T08:00:00Z"}},
            {"carriage": "main", "method": "plane",
             "origin": {"code": "PVG"}, "destination": {"code": "FRA"},
             "dates": {"atd": "2026-04-02T08:00:00Z"}},
            {"carriage": "on", "method": {"train_type": "electric_freight_train"},
             "origin": {"unknown_code": "SIDING-7"}, "destination": {"lat": 50.11, "lon": 8.68},
             "distance": {"amount": "40", "unit": "km"}}
        ]
    })
}

async fn a_client_reads_transport_activity_data(app: TestApp) {
    let t = app.tenant().await;
    let other = app.tenant().await;
    let batch = upload_ok(
        &app,
        &t.live_key,
        vec![activity_row("ACT-1"), activity_row("ACT-2")],
        true,
    )
    .await;
    processed(&app, &t.live_key, &batch).await;
    let theirs = upload_ok(&app, &other.live_key, vec![activity_row("THEIRS")], true).await;
    processed(&app, &other.live_key, &theirs).await;

    let (client_id, secret) = credentials(&app, &t.live_account);
    let res = token(&app, &client_id, &secret).await;
    let bearer = res.body["access_token"].as_str().unwrap().to_owned();

    let all = pact_get(&app, "/pact/2/ileap/tad", &bearer).await;
    assert_eq!(all.status, 200, "{}", all.body);
    assert!(all.header("link").is_none(), "one page holds them all");
    let data = all.body["data"].as_array().unwrap();
    // road, sea and air of each shipment: the hub is no transport, the
    // rail leg starts at a place no table knows
    assert_eq!(data.len(), 6, "{:#}", all.body);
    for tad in data {
        valid_tad(tad);
        assert_ne!(
            tad["consignmentIds"],
            json!(["THEIRS"]),
            "another account's leg"
        );
    }
    let road = &data[0];
    assert_eq!(road["mode"], "Road");
    assert_eq!(road["origin"]["city"], "Munich");
    assert_eq!(road["origin"]["country"], "DE");
    assert_eq!(road["destination"]["city"], "Hamburg");
    assert_eq!(road["mass"], "12000", "kilograms");
    assert_eq!(road["loadFactor"], "0.8");
    assert_eq!(road["emptyDistanceFactor"], "0.2");
    assert_eq!(road["departureAt"], "2026-03-01T00:00:00Z");
    // arrives when the next dated leg leaves (Tonne is given dates, not times)
    assert_eq!(road["arrivalAt"], "2026-03-04T00:00:00Z");
    assert!(road["distance"]["sfd"].is_string(), "{road}");
    let sea = &data[1];
    assert_eq!(sea["mode"], "Sea");
    assert_eq!(sea["origin"]["locode"], "NLRTM");
    assert_eq!(sea["origin"]["country"], "NL");
    assert_eq!(sea["origin"]["city"], "Rotterdam");
    assert_eq!(sea["destination"]["country"], "CN");
    assert_eq!(sea["destination"]["city"], "Shanghai");
    let air = &data[2];
    assert_eq!(air["mode"], "Air");
    assert_eq!(air["origin"]["iata"], "PVG");
    assert_eq!(air["destination"]["iata"], "FRA");
    assert_eq!(air["destination"]["city"], "Frankfurt am Main");
    assert_eq!(air["destination"]["country"], "DE");
    assert!(air["distance"]["gcd"].is_string(), "{air}");
    let ids: HashSet<&str> = data
        .iter()
        .map(|t| t["activityId"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 6, "activity ids are unique");

    // one mode
    let sea_only = pact_get(&app, "/pact/2/ileap/tad?mode=sea", &bearer).await;
    assert_eq!(sea_only.status, 200, "{}", sea_only.body);
    let modes: Vec<&str> = sea_only.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["mode"].as_str().unwrap())
        .collect();
    assert_eq!(modes, ["Sea", "Sea"]);

    // pages of one walk through each shipment's legs and end
    let mut seen = Vec::new();
    let mut next = Some(format!("{}/pact/2/ileap/tad?limit=1", app.base));
    let mut pages = 0;
    while let Some(url) = next.take() {
        pages += 1;
        assert!(pages < 20, "the pages do not end");
        let page = pact_get(&app, &url, &bearer).await;
        assert_eq!(page.status, 200, "{}", page.body);
        let got = page.body["data"].as_array().unwrap();
        assert!(got.len() <= 1, "{}", page.body);
        seen.extend(
            got.iter()
                .map(|t| t["activityId"].as_str().unwrap().to_owned()),
        );
        next = page.header("link").map(|link| {
            link.trim_start_matches('<')
                .split('>')
                .next()
                .unwrap()
                .to_owned()
        });
    }
    let all_ids: Vec<String> = data
        .iter()
        .map(|t| t["activityId"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(seen, all_ids, "the pages hold every TAD once, in order");

    // a cursor naming another account's shipment reads nothing of it
    let their_list = app.get("/v1/shipments?limit=1", &other.live_key).await;
    let their_id = uuid::Uuid::parse_str(their_list.body["data"][0]["id"].as_str().unwrap())
        .unwrap()
        .hyphenated()
        .to_string();
    let res = pact_get(
        &app,
        &format!("/pact/2/ileap/tad?after={their_id}.0"),
        &bearer,
    )
    .await;
    assert_eq!(res.status, 200, "{}", res.body);
    for tad in res.body["data"].as_array().unwrap() {
        assert_ne!(
            tad["consignmentIds"],
            json!(["THEIRS"]),
            "another account's leg"
        );
    }

    // what the endpoint does not filter on is refused, not ignored
    for query in [
        "origin.city=Munich",
        "limit=0",
        "mode=Bicycle",
        "after=nope",
    ] {
        let res = pact_get(&app, &format!("/pact/2/ileap/tad?{query}"), &bearer).await;
        pact_error(&res, 400, "BadRequest");
    }
    // no token, no data
    let res = app
        .send(app.client.get(format!("{}/pact/2/ileap/tad", app.base)))
        .await;
    pact_error(&res, 401, "BadRequest");
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    a_client_reads_transport_activity_data,
);
