//! A client reads its footprints over PACT: valid, a TCE per leg adding up
//! to the gram, paged, filtered, never another account's; events checked;
//! revocation at once.

use std::collections::HashSet;

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::fixtures::{credentials, event, event_as, pact_error, pact_get, token, valid_footprint};
use crate::cli::tonne;
use crate::shipments::{dec, good_row, hub_row, processed, upload_ok};
use crate::support::TestApp;

pub(super) async fn a_client_reads_its_footprints_over_pact(app: TestApp) {
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
    let plain = event_as(
        &app,
        &bearer,
        "text/plain",
        published(json!([data[0]["id"]])),
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
