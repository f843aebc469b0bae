//! `Lune-Version`: absent (the organisation's pinned version, pinned on its first
//! request), explicit, invalid; every response names the version used.

use reqwest::Method;
use serde_json::json;
use tonne_accounts::versions::{ApiVersion, VersionPinRepository as _};
use tonne_kernel::OrganisationId;
use tonne_storage::VersionPinStore;
use tonne_test_support::on_both_backends;

use crate::cli::tonne;
use crate::support::{TestApp, assert_error};

const LATEST: &str = "2024-08-08";

async fn pinned(app: &TestApp, organisation: &str) -> Option<ApiVersion> {
    let org: OrganisationId = organisation.parse().unwrap();
    VersionPinStore::new(app.services.db.clone())
        .pinned(org)
        .await
        .unwrap()
}

async fn the_first_request_pins_the_organisation_and_every_answer_names_the_version(app: TestApp) {
    let t = app.tenant().await;
    assert_eq!(pinned(&app, &t.organisation_id).await, None);
    let me = app.get("/v1/accounts/me", &t.live_key).await;
    assert_eq!(me.status, 200);
    assert_eq!(me.header("lune-version"), Some(LATEST));
    assert_eq!(
        pinned(&app, &t.organisation_id).await,
        Some(ApiVersion::LATEST)
    );
    // The test key's requests use the same organisation's pin.
    let test = app.get("/v1/accounts/me", &t.test_key).await;
    assert_eq!(test.header("lune-version"), Some(LATEST));
    // Errors, unknown routes and public reads name it too.
    let missing = app.get("/v1/no-such-route", &t.live_key).await;
    assert_eq!(missing.status, 404);
    assert_eq!(missing.header("lune-version"), Some(LATEST));
    let wrong_method = app
        .send(app.request(Method::DELETE, "/v1/accounts/me", Some(&t.live_key)))
        .await;
    assert_eq!(wrong_method.status, 405);
    assert_eq!(wrong_method.header("lune-version"), Some(LATEST));
    let unauthenticated = app.get("/v1/accounts/me", "tonne_live_nope").await;
    assert_eq!(unauthenticated.status, 401);
    assert_eq!(unauthenticated.header("lune-version"), Some(LATEST));
    // The CLI shows the pin.
    assert_eq!(
        tonne(
            &["organisations", "api-version", &t.organisation_id],
            &app.database_url
        )
        .trim(),
        LATEST
    );
}

async fn an_explicit_version_is_used_and_named(app: TestApp) {
    let t = app.tenant().await;
    let me = app
        .send(
            app.request(Method::GET, "/v1/accounts/me", Some(&t.live_key))
                .header("Lune-Version", LATEST),
        )
        .await;
    assert_eq!(me.status, 200, "{}", me.body);
    assert_eq!(me.header("lune-version"), Some(LATEST));
    // Pinning still happens on the first request, whatever it asked for.
    assert_eq!(
        pinned(&app, &t.organisation_id).await,
        Some(ApiVersion::LATEST)
    );
    // Setting the pin through the CLI.
    let out = tonne(
        &[
            "organisations",
            "api-version",
            &t.organisation_id,
            "--set",
            LATEST,
        ],
        &app.database_url,
    );
    assert!(out.contains(LATEST), "{out}");
}

async fn an_invalid_version_is_refused_and_nothing_runs(app: TestApp) {
    let t = app.tenant().await;
    let before = app.count_accounts(&t).await;
    for bad in [
        "2023-01-01",
        "2024-08-09",
        "latest",
        "2024-08-08T00:00:00Z",
        "",
        "1",
    ] {
        let res = app
            .send(
                app.request(Method::POST, "/v1/accounts/client", Some(&t.live_key))
                    .header("Lune-Version", bad)
                    .json(&json!({"name": "Client", "currency": "EUR"})),
            )
            .await;
        assert_error(&res, 400, "api_version_invalid");
        assert!(
            res.body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("Lune-Version"),
            "{}",
            res.body
        );
        assert_eq!(res.header("lune-version"), Some(LATEST));
    }
    assert_eq!(app.count_accounts(&t).await, before);
    // Refused before authentication: without a key it is still the version's 400.
    let res = app
        .send(
            app.request(Method::GET, "/v1/accounts/me", None)
                .header("Lune-Version", "2020-02-02"),
        )
        .await;
    assert_error(&res, 400, "api_version_invalid");
    // Nothing was pinned by refused requests.
    assert_eq!(pinned(&app, &t.organisation_id).await, None);
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    the_first_request_pins_the_organisation_and_every_answer_names_the_version,
    an_explicit_version_is_used_and_named,
    an_invalid_version_is_refused_and_nothing_runs,
);
