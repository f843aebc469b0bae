//! The accounts API, end to end.

use reqwest::Method;
use serde_json::{Value, json};

use crate::support::{Reply, TestApp, assert_error, assert_error_2024, conforms, conforms_2024};
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

// ---- the 2024 shape (issue 19) ----

async fn patch(app: &TestApp, path: &str, key: &str, body: &Value) -> Reply {
    app.send(app.request(Method::PATCH, path, Some(key)).json(body))
        .await
}

fn acting_as(
    app: &TestApp,
    method: Method,
    path: &str,
    key: &str,
    id: &str,
) -> reqwest::RequestBuilder {
    app.request(method, path, Some(key))
        .header("Lune-Account", id)
}

async fn accounts_carry_handle_visibility_and_organisation_type(app: TestApp) {
    let t = app.tenant().await;
    let me = app.get("/v1/accounts/me", &t.live_key).await;
    conforms("Account", &me.body);
    // Defaults: no handle until set, pages hidden, organisations are shippers.
    assert_eq!(me.body["handle"], Value::Null);
    assert_eq!(me.body["external_pages_visibility"], "hidden");
    assert_eq!(me.body["organisation_type"], "shipper");

    let pair = app
        .post(
            "/v1/accounts",
            &t.live_key,
            &json!({"name": "Shop", "currency": "EUR", "handle": "shop-eu", "external_pages_visibility": "public"}),
        )
        .await;
    assert_eq!(pair.status, 200, "{}", pair.body);
    conforms("AccountPair", &pair.body);
    assert_eq!(pair.body["live"]["handle"], "shop-eu");
    assert_eq!(
        pair.body["test"]["handle"], "shop-eu",
        "unique per type: the pair shares it"
    );
    assert_eq!(pair.body["live"]["external_pages_visibility"], "public");

    // A taken handle (same organisation and type) writes nothing.
    let taken = app
        .post(
            "/v1/accounts/client",
            &t.live_key,
            &json!({"name": "Other", "currency": "EUR", "handle": "shop-eu"}),
        )
        .await;
    assert_error_2024(&taken, 400, "handle_not_unique");
    assert_eq!(app.count_accounts(&t).await, 4);
    // Another organisation may use it.
    let b = app.tenant().await;
    let elsewhere = app
        .post(
            "/v1/accounts/client",
            &b.live_key,
            &json!({"name": "Other", "currency": "EUR", "handle": "shop-eu"}),
        )
        .await;
    assert_eq!(elsewhere.status, 200, "{}", elsewhere.body);
    conforms("ClientAccount", &elsewhere.body);
    assert_eq!(elsewhere.body["idempotency_key"], Value::Null);

    for bad in [
        json!({"name": "X", "currency": "EUR", "handle": "Shop EU"}),
        json!({"name": "X", "currency": "EUR", "handle": ""}),
        json!({"name": "X", "currency": "EUR", "handle": null}),
        json!({"name": "X", "currency": "EUR", "external_pages_visibility": "secret"}),
    ] {
        let res = app.post("/v1/accounts/client", &t.live_key, &bad).await;
        assert_error(&res, 400, "validation_error");
    }
    assert_eq!(app.count_accounts(&t).await, 4);

    // PUT sets a handle; an absent handle keeps it (2023 clients never send one).
    let path = format!("/v1/accounts/{}", t.live_account);
    let put = app
        .put(
            &path,
            &t.live_key,
            &json!({"name": "Acme", "handle": "acme"}),
        )
        .await;
    assert_eq!(put.status, 200, "{}", put.body);
    assert_eq!(put.body["handle"], "acme");
    let kept = app.put(&path, &t.live_key, &json!({"name": "Acme"})).await;
    assert_eq!(kept.body["handle"], "acme");
    let clash = app
        .put(
            &path,
            &t.live_key,
            &json!({"name": "Acme", "handle": "shop-eu"}),
        )
        .await;
    assert_error_2024(&clash, 400, "handle_not_unique");
}

async fn client_me_answers_the_acting_client_account_only(app: TestApp) {
    let t = app.tenant().await;
    let created = app
        .post(
            "/v1/accounts/client",
            &t.live_key,
            &json!({"name": "Client", "currency": "GBP"}),
        )
        .await;
    let id = created.body["id"].as_str().unwrap().to_owned();
    let me = app
        .send(acting_as(
            &app,
            Method::GET,
            "/v1/accounts/client/me",
            &t.live_key,
            &id,
        ))
        .await;
    assert_eq!(me.status, 200, "{}", me.body);
    conforms("ClientAccount", &me.body);
    assert_eq!(me.body["id"], id.as_str());
    let not_client = app.get("/v1/accounts/client/me", &t.live_key).await;
    assert_error_2024(&not_client, 400, "account_scope_incorrect");
    let no_key = app
        .send(app.request(Method::GET, "/v1/accounts/client/me", None))
        .await;
    assert_error(&no_key, 401, "unauthorised");
}

async fn patch_changes_only_what_it_sends_under_the_sibling_rules(app: TestApp) {
    let t = app.tenant().await;
    let live = format!("/v1/accounts/{}", t.live_account);
    let set = app
        .put(
            &live,
            &t.live_key,
            &json!({"name": "Acme", "beneficiary": "Acme plc", "bundle_portfolio_id": "p1"}),
        )
        .await;
    assert_eq!(set.status, 200, "{}", set.body);

    let renamed = patch(&app, &live, &t.live_key, &json!({"name": "Acme Global"})).await;
    assert_eq!(renamed.status, 200, "{}", renamed.body);
    conforms("Account", &renamed.body);
    assert_eq!(renamed.body["name"], "Acme Global");
    assert_eq!(renamed.body["beneficiary"], "Acme plc", "absent: kept");
    assert_eq!(renamed.body["bundle_portfolio_id"], "p1");
    assert_eq!(
        app.get("/v1/accounts/me", &t.test_key).await.body["name"],
        "Acme Global",
        "the test sibling follows, as with PUT"
    );
    let cleared = patch(
        &app,
        &live,
        &t.live_key,
        &json!({"beneficiary": null, "bundle_portfolio_id": null, "handle": "acme", "external_pages_visibility": "public"}),
    )
    .await;
    assert_eq!(cleared.status, 200, "{}", cleared.body);
    assert_eq!(cleared.body["beneficiary"], Value::Null);
    assert_eq!(cleared.body["bundle_portfolio_id"], Value::Null);
    assert_eq!(cleared.body["handle"], "acme");
    assert_eq!(cleared.body["external_pages_visibility"], "public");
    assert_eq!(cleared.body["name"], "Acme Global");

    // The test account's name follows its live sibling; other fields change.
    let test = format!("/v1/accounts/{}", t.test_account);
    let refused = patch(&app, &test, &t.test_key, &json!({"name": "Other"})).await;
    assert_error(&refused, 400, "test_account_name_update_disallowed");
    let ok = patch(&app, &test, &t.test_key, &json!({"beneficiary": "Tester"})).await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(ok.body["name"], "Acme Global");

    // null where not allowed, unknown fields, bad values: 400 and nothing written.
    for bad in [
        json!({"name": null}),
        json!({"handle": null}),
        json!({"external_pages_visibility": null}),
        json!({"beneficiary": ""}),
        json!({"colour": "red"}),
        json!({"handle": "Not A Handle"}),
    ] {
        let res = patch(&app, &live, &t.live_key, &bad).await;
        assert_error(&res, 400, "validation_error");
    }
    let after = app.get("/v1/accounts/me", &t.live_key).await;
    assert_eq!(after.body["handle"], "acme");
    assert_eq!(after.body["external_pages_visibility"], "public");

    // Client accounts: PATCH /accounts/client/{id}, never through the other route.
    let client = app
        .post(
            "/v1/accounts/client",
            &t.live_key,
            &json!({"name": "C", "currency": "GBP"}),
        )
        .await;
    let cid = client.body["id"].as_str().unwrap();
    let patched = patch(
        &app,
        &format!("/v1/accounts/client/{cid}"),
        &t.live_key,
        &json!({"handle": "client-c"}),
    )
    .await;
    assert_eq!(patched.status, 200, "{}", patched.body);
    conforms("ClientAccount", &patched.body);
    assert_eq!(patched.body["handle"], "client-c");
    assert_eq!(patched.body["name"], "C");
    let wrong_kind = patch(
        &app,
        &format!("/v1/accounts/{cid}"),
        &t.live_key,
        &json!({"name": "D"}),
    )
    .await;
    assert_error(&wrong_kind, 400, "id_invalid");
    let wrong_kind = patch(
        &app,
        &format!("/v1/accounts/client/{}", t.live_account),
        &t.live_key,
        &json!({"name": "D"}),
    )
    .await;
    assert_error(&wrong_kind, 400, "id_invalid");
    // Another organisation's account, an unknown id.
    let b = app.tenant().await;
    let foreign = patch(
        &app,
        &format!("/v1/accounts/{}", b.live_account),
        &t.live_key,
        &json!({"name": "X"}),
    )
    .await;
    assert_error(&foreign, 404, "not_found");
    let unknown = patch(
        &app,
        "/v1/accounts/0190c6f1a7b27c3e9f2d4b1a2c3d4e5f",
        &t.live_key,
        &json!({"name": "X"}),
    )
    .await;
    assert_error(&unknown, 404, "not_found");
    // A key acting as a client account may not patch.
    let as_client = app
        .send(acting_as(&app, Method::PATCH, &live, &t.live_key, cid).json(&json!({"name": "Z"})))
        .await;
    assert_error(&as_client, 403, "unauthorised");
    assert_eq!(
        app.get("/v1/accounts/me", &b.live_key).await.body["name"],
        "Acme"
    );
}

async fn a_client_idempotency_key_creates_one_account_even_under_concurrency(app: TestApp) {
    let t = app.tenant().await;
    let body = json!({"name": "Once", "currency": "EUR", "idempotency_key": "client-42"});
    let attempts = (0..6).map(|_| app.post("/v1/accounts/client", &t.live_key, &body));
    let replies = futures_util::future::join_all(attempts).await;
    let created: Vec<&Reply> = replies.iter().filter(|r| r.status == 200).collect();
    assert_eq!(created.len(), 1, "exactly one created");
    conforms("ClientAccount", &created[0].body);
    assert_eq!(created[0].body["idempotency_key"], "client-42");
    for refused in replies.iter().filter(|r| r.status != 200) {
        assert_error_2024(refused, 409, "account_idempotency_already_exists");
    }
    assert_eq!(app.count_accounts(&t).await, 3);
    // The test mode has its own keys; an empty key is invalid.
    let other_mode = app.post("/v1/accounts/client", &t.test_key, &body).await;
    assert_eq!(other_mode.status, 200, "{}", other_mode.body);
    let empty = app
        .post(
            "/v1/accounts/client",
            &t.live_key,
            &json!({"name": "E", "currency": "EUR", "idempotency_key": ""}),
        )
        .await;
    assert_error(&empty, 400, "validation_error");
    // A pair takes no idempotency key: for it the field is unknown.
    let pair = app
        .post(
            "/v1/accounts",
            &t.live_key,
            &json!({"name": "P", "currency": "EUR", "idempotency_key": "x"}),
        )
        .await;
    assert_error(&pair, 400, "validation_error");
    assert!(
        pair.body["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("idempotency_key")
    );
    assert_eq!(app.count_accounts(&t).await, 4);
}

async fn client_lists_carry_each_accounts_estimate_activity(app: TestApp) {
    let t = app.tenant().await;
    let mut ids = Vec::new();
    for name in ["Busy", "Idle"] {
        let c = app
            .post(
                "/v1/accounts/client",
                &t.live_key,
                &json!({"name": name, "currency": "EUR"}),
            )
            .await;
        ids.push(c.body["id"].as_str().unwrap().to_owned());
    }
    let before = time::OffsetDateTime::now_utc() - time::Duration::seconds(1);
    let mut tonnes = Vec::new();
    for value in ["100", "250"] {
        let est = app
            .send(
                acting_as(&app, Method::POST, "/v1/estimates/transactions", &t.live_key, &ids[0]).json(
                    &json!({"value": {"value": value, "currency": "EUR"}, "merchant": {"country_code": "GBR", "category_code": "5411"}, "diet": "vegan"}),
                ),
            )
            .await;
        assert_eq!(est.status, 200, "{}", est.body);
        assert_eq!(est.body["mass"]["unit"], "t");
        tonnes.push(
            est.body["mass"]["amount"]
                .as_str()
                .unwrap()
                .parse::<rust_decimal::Decimal>()
                .unwrap(),
        );
    }
    // The parent account's own estimates count for no client.
    let own = app
        .post(
            "/v1/estimates/transactions",
            &t.live_key,
            &json!({"value": {"value": "999", "currency": "EUR"}, "merchant": {"country_code": "GBR", "category_code": "5411"}}),
        )
        .await;
    assert_eq!(own.status, 200, "{}", own.body);
    let listed = app.get("/v1/accounts/client", &t.live_key).await;
    assert_eq!(listed.status, 200);
    conforms("PaginatedClientAccounts", &listed.body);
    let data = listed.body["data"].as_array().unwrap();
    let busy = &data[0];
    assert_eq!(busy["id"], ids[0].as_str());
    assert_eq!(busy["number_of_estimates"], 2);
    let total: rust_decimal::Decimal = busy["total_emissions"].as_str().unwrap().parse().unwrap();
    assert_eq!(total, tonnes.iter().copied().sum::<rust_decimal::Decimal>());
    let last = time::OffsetDateTime::parse(
        busy["last_active_date"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    assert!(last >= before && last <= time::OffsetDateTime::now_utc());
    let idle = &data[1];
    assert_eq!(idle["number_of_estimates"], 0);
    assert_eq!(idle["total_emissions"], "0");
    assert_eq!(idle["last_active_date"], Value::Null);
}

pub(crate) fn png(width: u32, height: u32) -> Vec<u8> {
    let img = image::RgbaImage::from_pixel(width, height, image::Rgba([0, 120, 60, 255]));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

fn jpeg(width: u32, height: u32) -> Vec<u8> {
    let img = image::RgbImage::from_pixel(width, height, image::Rgb([200, 30, 30]));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Jpeg).unwrap();
    out.into_inner()
}

/// A PNG whose header declares `side`×`side` pixels (with correct CRCs) over 1×1 data.
fn bomb(side: u32) -> Vec<u8> {
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = 0xFFFF_FFFF_u32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }
    let mut bytes = png(1, 1);
    bytes.splice(16..20, side.to_be_bytes());
    bytes.splice(20..24, side.to_be_bytes());
    let crc = crc32(&bytes[12..29]).to_be_bytes();
    bytes.splice(29..33, crc);
    bytes
}

fn multipart(field: &str, content_type: &str, bytes: &[u8]) -> (String, Vec<u8>) {
    let boundary = "tonne-test-boundary-7MA4YWxkTrZu0gW";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"logo\"\r\nContent-Type: {content_type}\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// A `multipart/form-data` body with `bytes` as its `logo` part: `(content type, body)`.
pub(crate) fn logo_form(bytes: &[u8]) -> (String, Vec<u8>) {
    multipart("logo", "image/png", bytes)
}

async fn upload(app: &TestApp, path: &str, key: &str, field: &str, bytes: &[u8]) -> Reply {
    let (content_type, body) = multipart(field, "application/octet-stream", bytes);
    app.send(
        app.request(Method::POST, path, Some(key))
            .header("Content-Type", content_type)
            .body(body),
    )
    .await
}

async fn logos_are_reencoded_stored_and_served_at_an_absolute_url(app: TestApp) {
    let t = app.tenant().await;
    let path = format!("/v1/accounts/{}/logo", t.live_account);
    let res = upload(&app, &path, &t.live_key, "logo", &png(32, 16)).await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms_2024("UploadLogoResponse", &res.body);
    let url = res.body["url"].as_str().unwrap().to_owned();
    assert!(url.starts_with(&format!("{}/logos/", app.base)), "{url}");
    let me = app.get("/v1/accounts/me", &t.live_key).await;
    assert_eq!(me.body["logo"], url.as_str());
    conforms("Account", &me.body);
    // Anyone holding the URL may fetch it (no key): the re-encoded image.
    let served = app.client.get(&url).send().await.unwrap();
    assert_eq!(served.status(), 200);
    assert_eq!(served.headers()["content-type"], "image/png");
    assert_eq!(served.headers()["x-content-type-options"], "nosniff");
    let bytes = served.bytes().await.unwrap();
    let decoded = image::load_from_memory(&bytes).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (32, 16));

    // A JPEG stays a JPEG, and replaces the previous logo (whose URL is gone).
    let res = upload(&app, &path, &t.live_key, "logo", &jpeg(8, 8)).await;
    assert_eq!(res.status, 200, "{}", res.body);
    let jpeg_url = res.body["url"].as_str().unwrap().to_owned();
    assert_ne!(jpeg_url, url);
    let served = app.client.get(&jpeg_url).send().await.unwrap();
    assert_eq!(served.headers()["content-type"], "image/jpeg");
    let gone = app.client.get(&url).send().await.unwrap();
    assert_eq!(gone.status(), 404);
    let unknown = app
        .client
        .get(format!("{}/logos/nope", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), 404);

    // Client accounts through their own route.
    let client = app
        .post(
            "/v1/accounts/client",
            &t.live_key,
            &json!({"name": "C", "currency": "GBP"}),
        )
        .await;
    let cid = client.body["id"].as_str().unwrap().to_owned();
    let res = upload(
        &app,
        &format!("/v1/accounts/client/{cid}/logo"),
        &t.live_key,
        "logo",
        &png(4, 4),
    )
    .await;
    assert_eq!(res.status, 200, "{}", res.body);
    let me = app
        .send(acting_as(
            &app,
            Method::GET,
            "/v1/accounts/client/me",
            &t.live_key,
            &cid,
        ))
        .await;
    assert_eq!(me.body["logo"], res.body["url"]);
}

async fn bad_logos_are_refused_and_change_nothing(app: TestApp) {
    let t = app.tenant().await;
    let path = format!("/v1/accounts/{}/logo", t.live_account);
    let whole = png(64, 64);
    let cases: Vec<(Vec<u8>, u16, &str)> = vec![
        (
            b"just a text file".to_vec(),
            400,
            "unsupported_image_format",
        ),
        (
            whole[..whole.len() / 2].to_vec(),
            400,
            "unsupported_image_format",
        ),
        (
            b"GIF89a\x01\x00\x01\x00\x00\x00\x00;".to_vec(),
            400,
            "unsupported_image_format",
        ),
        (Vec::new(), 400, "unsupported_image_format"),
        (bomb(100_000), 400, "validation_error"),
        (png(4097, 1), 400, "validation_error"),
        (vec![0_u8; 1024 * 1024 + 1], 413, "payload_too_large"),
    ];
    for (bytes, status, code) in cases {
        let res = upload(&app, &path, &t.live_key, "logo", &bytes).await;
        assert_error(&res, status, code);
    }
    // Not multipart: 415; a form without `logo`, or with another field: 400.
    let json_body = app.post(&path, &t.live_key, &json!({"logo": "x"})).await;
    assert_error(&json_body, 415, "unsupported_media_type");
    let other_field = upload(&app, &path, &t.live_key, "image", &png(2, 2)).await;
    assert_error(&other_field, 400, "validation_error");
    let (content_type, _) = multipart("logo", "image/png", &[]);
    let empty_form = app
        .send(
            app.request(Method::POST, &path, Some(&t.live_key))
                .header("Content-Type", content_type)
                .body("--tonne-test-boundary-7MA4YWxkTrZu0gW--\r\n"),
        )
        .await;
    assert_error(&empty_form, 400, "validation_error");
    assert_eq!(
        app.get("/v1/accounts/me", &t.live_key).await.body["logo"],
        Value::Null,
        "nothing stored"
    );
    // Isolation: another organisation's account, the wrong kind, a client-account key.
    let b = app.tenant().await;
    let foreign = upload(
        &app,
        &format!("/v1/accounts/{}/logo", b.live_account),
        &t.live_key,
        "logo",
        &png(2, 2),
    )
    .await;
    assert_error(&foreign, 404, "not_found");
    let wrong_kind = upload(
        &app,
        &format!("/v1/accounts/client/{}/logo", t.live_account),
        &t.live_key,
        "logo",
        &png(2, 2),
    )
    .await;
    assert_error(&wrong_kind, 400, "id_invalid");
    let unknown = upload(
        &app,
        "/v1/accounts/0190c6f1a7b27c3e9f2d4b1a2c3d4e5f/logo",
        &t.live_key,
        "logo",
        &png(2, 2),
    )
    .await;
    assert_error(&unknown, 404, "not_found");
    assert_eq!(
        app.get("/v1/accounts/me", &b.live_key).await.body["logo"],
        Value::Null
    );
}

async fn an_offset_link_with_use_logo_shows_the_uploaded_logo(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let uploaded = upload(
        &app,
        &format!("/v1/accounts/{}/logo", t.test_account),
        &t.test_key,
        "logo",
        &png(40, 20),
    )
    .await;
    assert_eq!(uploaded.status, 200, "{}", uploaded.body);
    let url = uploaded.body["url"].as_str().unwrap().to_owned();
    let bundles = app.bundle_ids(&t.test_key).await;
    let link = app
        .post(
            "/v1/offset-links",
            &t.test_key,
            &json!({"name": "With logo", "bundles": [bundles[0]], "use_logo": true}),
        )
        .await;
    assert_eq!(link.status, 200, "{}", link.body);
    assert_eq!(link.body["logo"], url.as_str());
    let page = app
        .client
        .get(link.body["url"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains(&format!("src=\"{url}\"")), "{html}");
    assert!(html.contains("alt=\"Acme logo\""));
    // The page's image is the one Tonne serves.
    let image = app.client.get(&url).send().await.unwrap();
    assert_eq!(image.headers()["content-type"], "image/png");
}

/// `DELETE …/logo` (client 3.9.2's `deleteAccountLogo`, `deleteClientAccountLogo`):
/// the logo is gone (the account's `logo` null, its URL 404), `{}` answered
/// (`UploadLogoResponse` without its optional `url`), a second delete the
/// same; the upload's access rules (another organisation's account: 404).
async fn logos_are_deleted_once_idempotently_and_only_by_their_organisation(app: TestApp) {
    let t = app.tenant().await;
    let other = app.tenant().await;
    let path = format!("/v1/accounts/{}/logo", t.live_account);
    let res = upload(&app, &path, &t.live_key, "logo", &png(8, 8)).await;
    assert_eq!(res.status, 200, "{}", res.body);
    let url = res.body["url"].as_str().unwrap().to_owned();

    // another organisation's key: 404 like an unknown id, and the logo stays
    let res = app.delete(&path, &other.live_key).await;
    assert_error(&res, 404, "not_found");
    let unknown = format!("/v1/accounts/{}/logo", "0".repeat(32));
    assert_error(&app.delete(&unknown, &t.live_key).await, 404, "not_found");
    assert_error(
        &app.delete("/v1/accounts/nope/logo", &t.live_key).await,
        404,
        "not_found",
    );
    // the test key does not reach the live account
    assert_error(&app.delete(&path, &t.test_key).await, 404, "not_found");
    // a regular account on the client route
    let res = app
        .delete(
            &format!("/v1/accounts/client/{}/logo", t.live_account),
            &t.live_key,
        )
        .await;
    assert_error(&res, 400, "id_invalid");
    assert_eq!(app.client.get(&url).send().await.unwrap().status(), 200);

    for _ in 0..2 {
        let res = app.delete(&path, &t.live_key).await;
        assert_eq!(res.status, 200, "{}", res.body);
        assert_eq!(res.body, json!({}));
        conforms_2024("UploadLogoResponse", &res.body);
        let me = app.get("/v1/accounts/me", &t.live_key).await;
        assert_eq!(me.body["logo"], Value::Null);
        conforms("Account", &me.body);
        assert_eq!(app.client.get(&url).send().await.unwrap().status(), 404);
    }

    // client accounts through their own route
    let client = app
        .post(
            "/v1/accounts/client",
            &t.live_key,
            &json!({"name": "C", "currency": "GBP"}),
        )
        .await;
    let cid = client.body["id"].as_str().unwrap().to_owned();
    let client_path = format!("/v1/accounts/client/{cid}/logo");
    let res = upload(&app, &client_path, &t.live_key, "logo", &png(4, 4)).await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert_error(
        &app.delete(&client_path, &other.live_key).await,
        404,
        "not_found",
    );
    // a key acting as the client account may not manage accounts
    let acting = app
        .send(acting_as(
            &app,
            Method::DELETE,
            &client_path,
            &t.live_key,
            &cid,
        ))
        .await;
    assert_error(&acting, 403, "unauthorised");
    let res = app.delete(&client_path, &t.live_key).await;
    assert_eq!((res.status.as_u16(), res.body.clone()), (200, json!({})));
    let me = app
        .send(acting_as(
            &app,
            Method::GET,
            "/v1/accounts/client/me",
            &t.live_key,
            &cid,
        ))
        .await;
    assert_eq!(me.body["logo"], Value::Null);
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    an_offset_link_with_use_logo_shows_the_uploaded_logo,
    accounts_carry_handle_visibility_and_organisation_type,
    client_me_answers_the_acting_client_account_only,
    patch_changes_only_what_it_sends_under_the_sibling_rules,
    a_client_idempotency_key_creates_one_account_even_under_concurrency,
    client_lists_carry_each_accounts_estimate_activity,
    logos_are_reencoded_stored_and_served_at_an_absolute_url,
    bad_logos_are_refused_and_change_nothing,
    logos_are_deleted_once_idempotently_and_only_by_their_organisation,
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
