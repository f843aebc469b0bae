//! Bundles and projects: listed with a key, single items public, the 2024
//! fields, and not-found and unauthorised answers.

use serde_json::{Value, json};

use crate::support::{TestApp, assert_error, conforms};

pub(super) async fn the_catalogue_is_listed_and_readable_with_and_without_a_key(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let first = app.get("/v1/bundles?limit=3", &t.live_key).await;
    assert_eq!(first.status, 200, "{}", first.body);
    conforms("PaginatedBundles", &first.body);
    assert_eq!(first.body["has_more"], true);
    let rest = app
        .get(
            &format!(
                "/v1/bundles?limit=100&after={}",
                first.body["next_cursor"].as_str().unwrap()
            ),
            &t.live_key,
        )
        .await;
    assert_eq!(
        first.body["data"].as_array().unwrap().len() + rest.body["data"].as_array().unwrap().len(),
        7
    );
    assert_eq!(
        first.body["data"][0]["currency"], "GBP",
        "the account's currency"
    );

    let projects = app.get("/v1/projects?limit=100", &t.live_key).await;
    conforms("PaginatedProjects", &projects.body);
    assert_eq!(projects.body["data"].as_array().unwrap().len(), 12);

    // Single items are public: no key, no 401.
    let id = first.body["data"][0]["id"].as_str().unwrap().to_owned();
    let bundle = app.get_without_key(&format!("/v1/bundles/{id}")).await;
    assert_eq!(bundle.status, 200);
    conforms("Bundle", &bundle.body);
    assert!(!bundle.body["projects"].as_array().unwrap().is_empty());
    let in_eur = app
        .get_without_key(&format!("/v1/bundles/{id}?currency=EUR"))
        .await;
    assert_eq!(in_eur.body["currency"], "EUR");
    let project = app
        .get_without_key("/v1/projects/by-slug/exomad-green")
        .await;
    assert_eq!(project.status, 200);
    conforms("Project", &project.body);
    assert_eq!(project.body["registry_name"], "Puro.earth");
    assert_eq!(project.body["bundles"][0]["name"], "Biochar");
    let by_id = app
        .get_without_key(&format!(
            "/v1/projects/{}",
            project.body["id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(by_id.body["slug"], "exomad-green");

    // The 2024 fields carry the catalogue's facts, null where it has none.
    let reserves = app
        .get_without_key("/v1/projects/by-slug/18-reserves")
        .await;
    assert_eq!(reserves.status, 200, "{}", reserves.body);
    conforms("Project", &reserves.body);
    assert_eq!(reserves.body["crediting_start_date"], "2020-01-15");
    assert_eq!(reserves.body["crediting_end_date"], "2040-01-14");
    assert_eq!(reserves.body["verifying_body"], "SCS Global Services");
    assert_eq!(reserves.body["protocol"], json!(["ACR Standard"]));
    assert_eq!(
        reserves.body["registry_link"],
        "https://acr2.apx.com/mymodule/reg/prjView.asp?id1=586"
    );
    assert_eq!(reserves.body["country_code"], "USA");
    assert_eq!(reserves.body["impact_summary"], Value::Null);
    assert_eq!(reserves.body["bundles"][0]["name"], "Forest Protection");
    let delta = app
        .get_without_key("/v1/projects/by-slug/delta-blue-carbon")
        .await;
    assert_eq!(delta.body["methodology"], "VM0033");
    assert_eq!(delta.body["avg_annual_emission_reductions"], "2366666.67");
    let mammoth = app
        .get_without_key("/v1/projects/by-slug/climeworks-mammoth")
        .await;
    for unknown in [
        "methodology",
        "protocol",
        "crediting_start_date",
        "verifying_body",
    ] {
        assert_eq!(mammoth.body[unknown], Value::Null, "{unknown}");
    }
    let all = app.get("/v1/bundles?limit=100", &t.live_key).await;
    conforms("PaginatedBundles", &all.body);
    for b in all.body["data"].as_array().unwrap() {
        assert!(
            ["long_term", "short_term"].contains(&b["carbon_permanence"].as_str().unwrap()),
            "{b}"
        );
        assert!(
            ["traditional", "innovative"].contains(&b["approach"].as_str().unwrap()),
            "{b}"
        );
    }
    // An invalid key on a public route is ignored, not a 401.
    let with_bad_key = app
        .get(&format!("/v1/bundles/{id}"), "tonne_live_nope")
        .await;
    assert_eq!(with_bad_key.status, 200);

    for path in [
        "/v1/bundles/nope",
        "/v1/projects/00000000000000000000000000000000",
        "/v1/projects/by-slug/nope",
    ] {
        assert_error(&app.get_without_key(path).await, 404, "not_found");
    }
    assert_error(
        &app.get_without_key("/v1/bundles").await,
        401,
        "unauthorised",
    );
    assert_error(
        &app.get("/v1/bundles?recently_disabled=maybe", &t.live_key)
            .await,
        400,
        "validation_error",
    );
}
