//! The accounts API, end to end.

use reqwest::Method;
use serde_json::{Value, json};

use crate::support::{TestApp, assert_error, conforms};
use tonne_test_support::on_both_backends;

async fn me_answers_the_acting_account_of_each_mode(app: TestApp) {
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

async fn creating_a_pair_links_siblings_both_ways_and_lists_them_per_mode(app: TestApp) {
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

async fn creating_a_pair_needs_a_live_key_and_writes_nothing_otherwise(app: TestApp) {
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

async fn renaming_a_live_account_renames_its_test_sibling(app: TestApp) {
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

async fn a_test_account_keeps_its_name_but_other_fields_change(app: TestApp) {
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

async fn ids_outside_the_organisation_or_mode_are_id_invalid(app: TestApp) {
    let a = app.tenant().await;
    let b = app.tenant().await;
    for (path, key) in [
        (format!("/v1/accounts/{}", b.live_account), &a.live_key),
        (format!("/v1/accounts/{}", a.test_account), &a.live_key),
        (
            format!("/v1/accounts/client/{}", a.live_account),
            &a.live_key,
        ),
    ] {
        let res = app.put(&path, key, &json!({"name": "Hijack"})).await;
        assert_error(&res, 400, "id_invalid");
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

async fn client_accounts_are_created_listed_updated_and_usable_through_lune_account(app: TestApp) {
    let t = app.tenant().await;
    let created = app
        .post(
            "/v1/accounts/client",
            &t.test_key,
            &json!({"name": "Merchant_X", "currency": "USD"}),
        )
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    conforms("ClientAccount", &created.body);
    assert_eq!(created.body["type"], "test");
    assert_eq!(created.body["scope"], "client_account");
    let id = created.body["id"].as_str().unwrap().to_owned();

    let listed = app
        .get("/v1/accounts/client?name=merchant_x", &t.test_key)
        .await;
    conforms("PaginatedClientAccounts", &listed.body);
    assert_eq!(listed.body["data"][0]["id"], id.as_str());
    assert!(
        app.get("/v1/accounts/client", &t.live_key).await.body["data"]
            .as_array()
            .unwrap()
            .is_empty()
    );

    let updated = app
        .put(
            &format!("/v1/accounts/client/{id}"),
            &t.test_key,
            &json!({"name": "Merchant Y"}),
        )
        .await;
    assert_eq!(updated.status, 200, "{}", updated.body);
    conforms("ClientAccount", &updated.body);
    assert_eq!(updated.body["name"], "Merchant Y");

    let acting = app
        .send(
            app.request(Method::GET, "/v1/accounts/me", Some(&t.test_key))
                .header("Lune-Account", &id),
        )
        .await;
    assert_eq!(acting.status, 200);
    conforms("ClientAccount", &acting.body);
    assert_eq!(acting.body["id"], id.as_str());
    // Acting as a client account, the key may not create accounts.
    let refused = app
        .send(
            app.request(Method::POST, "/v1/accounts/client", Some(&t.test_key))
                .header("Lune-Account", &id)
                .json(&json!({"name": "Sub", "currency": "USD"})),
        )
        .await;
    assert_error(&refused, 403, "unauthorised");
    assert_eq!(app.count_accounts(&t).await, 3);
}

async fn lune_account_outside_the_organisation_or_mode_is_forbidden(app: TestApp) {
    let a = app.tenant().await;
    let b = app.tenant().await;
    for (key, target) in [
        (&a.test_key, &a.live_account),
        (&a.live_key, &b.live_account),
        (&a.live_key, &"garbage".to_owned()),
    ] {
        let res = app
            .send(
                app.request(Method::GET, "/v1/accounts/me", Some(key))
                    .header("Lune-Account", target.as_str()),
            )
            .await;
        assert_error(&res, 403, "unauthorised");
    }
    let own = app
        .send(
            app.request(Method::GET, "/v1/accounts/me", Some(&a.live_key))
                .header("Lune-Account", a.live_account.as_str()),
        )
        .await;
    assert_eq!(own.status, 200);
}

async fn lists_page_with_cursors(app: TestApp) {
    let t = app.tenant().await;
    for i in 0..12 {
        let res = app
            .post(
                "/v1/accounts/client",
                &t.live_key,
                &json!({"name": format!("Client {i}"), "currency": "GBP"}),
            )
            .await;
        assert_eq!(res.status, 200);
    }
    let mut after: Option<String> = None;
    let mut sizes = Vec::new();
    let mut seen = Vec::new();
    loop {
        let path = match &after {
            Some(c) => format!("/v1/accounts/client?limit=5&after={c}"),
            None => "/v1/accounts/client?limit=5".to_owned(),
        };
        let page = app.get(&path, &t.live_key).await;
        conforms("PaginatedClientAccounts", &page.body);
        let data = page.body["data"].as_array().unwrap();
        sizes.push(data.len());
        seen.extend(data.iter().map(|a| a["name"].as_str().unwrap().to_owned()));
        if page.body["has_more"] == false {
            assert_eq!(page.body["next_cursor"], Value::Null);
            break;
        }
        assert_eq!(page.body["next_cursor"], data.last().unwrap()["id"]);
        after = page.body["next_cursor"].as_str().map(str::to_owned);
    }
    assert_eq!(sizes, vec![5, 5, 2]);
    assert_eq!(
        seen,
        (0..12).map(|i| format!("Client {i}")).collect::<Vec<_>>(),
        "creation order"
    );

    for bad in ["0", "101", "-1", "1e2", "99999999999999999999", "", "ten"] {
        let res = app
            .get(&format!("/v1/accounts/client?limit={bad}"), &t.live_key)
            .await;
        assert_error(&res, 400, "pagination_limit_invalid");
    }
    for bad in [
        "garbage",
        "%00",
        "'%20OR%201=1--",
        "0vE213P96LbXNap56NAqVoM7knOedQg4x",
    ] {
        let res = app
            .get(&format!("/v1/accounts?after={bad}"), &t.live_key)
            .await;
        assert_error(&res, 400, "validation_error");
    }
    // A well-formed position that no item has is still a position.
    let lune_shaped = app
        .get(
            "/v1/accounts/client?after=0vE213P96LbXNap56NAqVoM7knOedQg4",
            &t.live_key,
        )
        .await;
    assert_eq!(lune_shaped.status, 200);
    let res = app.get("/v1/accounts?name=a%25", &t.live_key).await;
    assert_error(&res, 400, "validation_error");
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    me_answers_the_acting_account_of_each_mode,
    creating_a_pair_links_siblings_both_ways_and_lists_them_per_mode,
    creating_a_pair_needs_a_live_key_and_writes_nothing_otherwise,
    renaming_a_live_account_renames_its_test_sibling,
    a_test_account_keeps_its_name_but_other_fields_change,
    ids_outside_the_organisation_or_mode_are_id_invalid,
    client_accounts_are_created_listed_updated_and_usable_through_lune_account,
    lune_account_outside_the_organisation_or_mode_is_forbidden,
    lists_page_with_cursors,
);
