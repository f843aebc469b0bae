//! Sustainability pages per the contract, as JSON and as HTML; refusals write
//! nothing.

use std::str::FromStr;

use rust_decimal::Decimal;
use serde_json::{Value, json};
use tonne_ordering::OrderStatus;

use super::fixtures::{advance_to, dec, order};
use crate::support::{TestApp, assert_error, assert_error_2024, conforms_2024};

async fn page_count(app: &TestApp) -> i64 {
    tonne_test_support::count(
        &app.services.db,
        "SELECT count(*) AS n FROM sustainability_pages",
    )
    .await
}

pub(super) async fn sustainability_pages_per_contract_and_refusals_write_nothing(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let other = app.tenant().await;
    let body = json!({
        "status": "enabled", "slug": "acme", "title": "by_volume",
        "description": "by_custom_description",
        "custom_description": "We <script>alert(1)</script> offset & report.\n\nSecond <b>paragraph</b>.",
        "sections": ["bundles_breakdown", "certificates"]
    });
    assert_error(
        &app.get("/v1/sustainability-pages/current-account", &t.live_key)
            .await,
        404,
        "not_found",
    );
    let created = app
        .post("/v1/sustainability-pages", &t.live_key, &body)
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    conforms_2024("SustainabilityPage", &created.body);
    assert_eq!(created.body["slug"], "acme");
    assert_eq!(
        created.body["sections"],
        json!(["bundles_breakdown", "certificates"])
    );
    assert_eq!(
        created.body["url"],
        format!("{}/sustainability/live/acme", app.base)
    );
    let current = app
        .get("/v1/sustainability-pages/current-account", &t.live_key)
        .await;
    assert_eq!(current.body, created.body);

    // A second page, a taken slug: 409 with the contract's codes, nothing written.
    let before = page_count(&app).await;
    assert_error_2024(
        &app.post("/v1/sustainability-pages", &t.live_key, &body)
            .await,
        409,
        "sustainability_page_exists",
    );
    assert_error_2024(
        &app.post("/v1/sustainability-pages", &other.live_key, &body)
            .await,
        409,
        "sustainability_page_slug_not_unique",
    );
    assert_error(
        &app.put("/v1/sustainability-pages", &other.live_key, &body)
            .await,
        404,
        "not_found",
    );
    assert_error(
        &app.post(
            "/v1/sustainability-pages",
            &other.live_key,
            &json!({"status": "enabled", "slug": "x", "title": "by_volume", "sections": [], "colour": "red"}),
        )
        .await,
        400,
        "validation_error",
    );
    assert_eq!(page_count(&app).await, before);
    // The same slug in the other mode is another page.
    let test_page = app
        .post("/v1/sustainability-pages", &t.test_key, &body)
        .await;
    assert_eq!(test_page.status, 200, "{}", test_page.body);
    assert_eq!(
        test_page.body["url"],
        format!("{}/sustainability/test/acme", app.base)
    );
    // The other organisation takes another slug, then cannot rename onto ours.
    let theirs = app
        .post(
            "/v1/sustainability-pages",
            &other.live_key,
            &json!({"status": "enabled", "slug": "globex", "title": "by_price", "sections": []}),
        )
        .await;
    assert_eq!(theirs.status, 200, "{}", theirs.body);
    assert_error_2024(
        &app.put(
            "/v1/sustainability-pages",
            &other.live_key,
            &json!({"status": "enabled", "slug": "acme", "title": "by_price", "sections": []}),
        )
        .await,
        409,
        "sustainability_page_slug_not_unique",
    );
    assert_eq!(
        app.get("/v1/sustainability-pages/current-account", &other.live_key)
            .await
            .body["slug"],
        "globex"
    );

    // Hidden until the account's external pages are public.
    let public = "/v1/sustainability-pages/public/live/acme";
    assert_error(&app.get_without_key(public).await, 404, "not_found");
    assert_eq!(
        app.get_without_key("/sustainability/live/acme")
            .await
            .status,
        404
    );
    let patched = app
        .patch_live_account(
            &t,
            &json!({"external_pages_visibility": "public", "handle": "acme-live"}),
        )
        .await;
    assert_eq!(patched.status, 200, "{}", patched.body);

    // Orders: one live complete, one live placed, one test complete. Only the
    // complete live one counts.
    let done = order(&app, &t.live_key, "1.5").await;
    let done = advance_to(
        &app,
        &t.live_key,
        done["id"].as_str().unwrap(),
        OrderStatus::Complete,
    )
    .await;
    order(&app, &t.live_key, "4").await;
    let test_done = order(&app, &t.test_key, "9").await;
    advance_to(
        &app,
        &t.test_key,
        test_done["id"].as_str().unwrap(),
        OrderStatus::Complete,
    )
    .await;

    let res = app.get_without_key(public).await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms_2024("PublicSustainabilityPage", &res.body);
    assert_eq!(
        res.body["title"],
        json!({"format": "by_volume", "quantity": "1.5"})
    );
    assert_eq!(res.body["description"]["format"], "by_custom_description");
    assert_eq!(res.body["account_name"], "Acme");
    assert_eq!(res.body["include_certificates"], true);
    assert_eq!(res.body["un_sdg"], Value::Null, "not chosen");
    let shares = res.body["bundles"].as_array().unwrap();
    let share_sum: Decimal = shares.iter().map(|s| dec(&s["quantity"])).sum();
    assert_eq!(share_sum, Decimal::from_str("1.5").unwrap());
    let percent: f64 = shares
        .iter()
        .map(|s| s["percent_of_total"].as_f64().unwrap())
        .sum();
    assert!((percent - 100.0).abs() < 0.05, "{percent}");
    assert_eq!(res.body["certificates"][0]["order_id"], done["id"]);
    assert_eq!(res.body["certificates"].as_array().unwrap().len(), 1);
    // By organisation and handle: the same page.
    let by_handle = app
        .send(app.request(
            reqwest::Method::GET,
            &format!(
                "/v1/sustainability-pages/public/{}/live/acme-live",
                t.organisation_id
            ),
            None,
        ))
        .await;
    assert_eq!(by_handle.status, 200, "{}", by_handle.body);
    assert_eq!(by_handle.body, res.body);
    for wrong in [
        format!(
            "/v1/sustainability-pages/public/{}/test/acme-live",
            t.organisation_id
        ),
        format!(
            "/v1/sustainability-pages/public/{}/live/acme-live",
            other.organisation_id
        ),
        "/v1/sustainability-pages/public/not-an-id/live/acme-live".to_owned(),
        "/v1/sustainability-pages/public/sandbox/acme".to_owned(),
    ] {
        let res = app.get_without_key(&wrong).await;
        assert_error(&res, 404, "not_found");
    }

    // The HTML page: escaped text, the chart, the certificate link, no test figures.
    let html = app.text("/sustainability/live/acme").await;
    assert!(
        html.contains("Acme has retired 1.5 tonnes of CO₂e"),
        "{html}"
    );
    assert!(html.contains("We &lt;script&gt;alert(1)&lt;/script&gt; offset &amp; report."));
    assert!(html.contains("Second &lt;b&gt;paragraph&lt;/b&gt;."));
    assert!(!html.contains("<script"), "no script at all");
    assert!(html.contains("<svg"), "the chart is drawn on the server");
    assert!(html.contains(&format!("/certificates/{}", done["id"].as_str().unwrap())));
    assert!(
        !html.contains("10.5") && !html.contains(">9<"),
        "no test figures"
    );

    // Settings change what is shown.
    let changed = app
        .put(
            "/v1/sustainability-pages",
            &t.live_key,
            &json!({"status": "enabled", "slug": "acme", "title": "by_price", "description": "by_supported_goals", "sections": ["unsdg"]}),
        )
        .await;
    assert_eq!(changed.status, 200, "{}", changed.body);
    conforms_2024("SustainabilityPage", &changed.body);
    let res = app.get_without_key(public).await;
    conforms_2024("PublicSustainabilityPage", &res.body);
    assert_eq!(res.body["title"]["format"], "by_price");
    assert_eq!(res.body["title"]["currency"], "GBP");
    let offset_cost: Decimal = done["bundles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| dec(&b["offset_cost"]))
        .sum();
    assert_eq!(dec(&res.body["title"]["value"]), offset_cost);
    assert_eq!(res.body["description"]["format"], "by_supported_goals");
    assert_eq!(res.body["bundles"], Value::Null);
    assert_eq!(res.body["include_certificates"], false);
    assert!(res.body.get("certificates").is_none());
    assert!(res.body["un_sdg"].as_array().is_some_and(|g| !g.is_empty()));
    // Disabled: gone from the public.
    let disabled = app
        .put(
            "/v1/sustainability-pages",
            &t.live_key,
            &json!({"status": "disabled", "slug": "acme", "title": "by_price", "sections": []}),
        )
        .await;
    assert_eq!(disabled.status, 200);
    assert_error(&app.get_without_key(public).await, 404, "not_found");
    assert_eq!(
        app.get_without_key("/sustainability/live/acme")
            .await
            .status,
        404
    );
}
