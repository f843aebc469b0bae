//! The acting account of each mode, live/test pairs of sibling accounts, and
//! ids outside the organisation or mode.

use serde_json::{Value, json};

use crate::support::{TestApp, assert_error, conforms};

pub(super) async fn me_answers_the_acting_account_of_each_mode(app: TestApp) {
    let t = app.tenant().await;
    let live = app.get("/v1/accounts/me", &t.live_key).await;
    assert_eq!(live.status, 200);
    conforms("Account", &live.body);
    assert_eq!(live.body["id"], t.live_account.as_str());
    assert_eq!(live.body["type"], "live");
    assert_eq!(live.body["sibling_id"], t.test_account.as_str());
    assert_eq!(live.body["organisation_id"], t.organisation_id.as_str());
    assert_eq!(live.body["balance"], "0.00");
    let test = app.get("/v1/accounts/me", &t.test_key).await;
    conforms("Account", &test.body);
    assert_eq!(test.body["type"], "test");
    assert_eq!(test.body["sibling_id"], t.live_account.as_str());
}

pub(super) async fn creating_a_pair_links_siblings_both_ways_and_lists_them_per_mode(app: TestApp) {
    let t = app.tenant().await;
    let res = app
        .post(
            "/v1/accounts",
            &t.live_key,
            &json!({"name": "Shop", "currency": "EUR", "beneficiary": "Shop Ltd"}),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms("AccountPair", &res.body);
    let (live, test) = (&res.body["live"], &res.body["test"]);
    assert_eq!(live["sibling_id"], test["id"]);
    assert_eq!(test["sibling_id"], live["id"]);
    assert_eq!(
        (live["type"].as_str(), test["type"].as_str()),
        (Some("live"), Some("test"))
    );
    assert_eq!(live["currency"], "EUR");
    assert_eq!(test["beneficiary"], "Shop Ltd");

    let lives = app.get("/v1/accounts?limit=100", &t.live_key).await;
    conforms("PaginatedAccounts", &lives.body);
    let ids: Vec<&str> = lives.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        vec![t.live_account.as_str(), live["id"].as_str().unwrap()]
    );
    let tests = app.get("/v1/accounts?limit=100", &t.test_key).await;
    assert!(
        tests.body["data"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a["type"] == "test")
    );
    assert_eq!(app.count_accounts(&t).await, 4);
}

pub(super) async fn creating_a_pair_needs_a_live_key_and_writes_nothing_otherwise(app: TestApp) {
    let t = app.tenant().await;
    let res = app
        .post(
            "/v1/accounts",
            &t.test_key,
            &json!({"name": "Shop", "currency": "EUR"}),
        )
        .await;
    assert_error(&res, 403, "live_account_required");
    assert_eq!(app.count_accounts(&t).await, 2);
}

pub(super) async fn renaming_a_live_account_renames_its_test_sibling(app: TestApp) {
    let t = app.tenant().await;
    let res = app
        .put(
            &format!("/v1/accounts/{}", t.live_account),
            &t.live_key,
            &json!({"name": "Acme Global", "beneficiary": "Acme plc"}),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms("Account", &res.body);
    assert_eq!(res.body["name"], "Acme Global");
    assert_eq!(res.body["beneficiary"], "Acme plc");
    let sibling = app.get("/v1/accounts/me", &t.test_key).await;
    assert_eq!(sibling.body["name"], "Acme Global");
    assert_eq!(
        sibling.body["beneficiary"],
        Value::Null,
        "only the name follows"
    );

    // Absent beneficiary clears it.
    let cleared = app
        .put(
            &format!("/v1/accounts/{}", t.live_account),
            &t.live_key,
            &json!({"name": "Acme Global"}),
        )
        .await;
    assert_eq!(cleared.body["beneficiary"], Value::Null);
}

pub(super) async fn a_test_account_keeps_its_name_but_other_fields_change(app: TestApp) {
    let t = app.tenant().await;
    let path = format!("/v1/accounts/{}", t.test_account);
    let res = app.put(&path, &t.test_key, &json!({"name": "Other"})).await;
    assert_error(&res, 400, "test_account_name_update_disallowed");
    assert_eq!(
        app.get("/v1/accounts/me", &t.test_key).await.body["name"],
        "Acme"
    );
    let ok = app
        .put(
            &path,
            &t.test_key,
            &json!({"name": "Acme", "beneficiary": "Tester"}),
        )
        .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(ok.body["beneficiary"], "Tester");
}

pub(super) async fn ids_outside_the_organisation_or_mode_are_id_invalid(app: TestApp) {
    let a = app.tenant().await;
    let b = app.tenant().await;
    // Another organisation's or mode's account is answered as an unknown id
    // (no oracle of other tenants' ids); the other kind of the caller's own
    // is `id_invalid`.
    for (path, key, status, code) in [
        (
            format!("/v1/accounts/{}", b.live_account),
            &a.live_key,
            404,
            "not_found",
        ),
        (
            format!("/v1/accounts/{}", a.test_account),
            &a.live_key,
            404,
            "not_found",
        ),
        (
            format!("/v1/accounts/client/{}", a.live_account),
            &a.live_key,
            400,
            "id_invalid",
        ),
    ] {
        let res = app.put(&path, key, &json!({"name": "Hijack"})).await;
        assert_error(&res, status, code);
    }
    // An id that no account has (or that is not an id) is the contract's 404.
    for path in [
        "/v1/accounts/not-an-id".to_owned(),
        "/v1/accounts/ljmkOq7vXd239gAE9WALWQ8ZGVD5ExNz".to_owned(),
        format!("/v1/accounts/client/{}", "0".repeat(32)),
    ] {
        let res = app
            .put(&path, &a.live_key, &json!({"name": "Hijack"}))
            .await;
        assert_error(&res, 404, "not_found");
    }
    assert_eq!(
        app.get("/v1/accounts/me", &b.live_key).await.body["name"],
        "Acme"
    );
    // Another organisation's lists never show A's accounts.
    let listed = app.get("/v1/accounts?limit=100", &b.live_key).await;
    assert_eq!(listed.body["data"].as_array().unwrap().len(), 1);
}
