//! The 2024 shape of accounts (issue 19): handle, visibility, organisation
//! type; the client `me`; `PATCH` under the sibling rules; idempotency; client
//! lists with estimate activity.

use reqwest::Method;
use serde_json::{Value, json};

use super::fixtures::{acting_as, client_me};
use crate::support::{
    Reply, TestApp, assert_error, assert_error_2024, conforms, first_error_message,
};

pub(super) async fn accounts_carry_handle_visibility_and_organisation_type(app: TestApp) {
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

pub(super) async fn client_me_answers_the_acting_client_account_only(app: TestApp) {
    let t = app.tenant().await;
    let created = app.new_client_account(&t.live_key, "Client", "GBP").await;
    let id = created.body["id"].as_str().unwrap().to_owned();
    let me = client_me(&app, &t.live_key, &id).await;
    assert_eq!(me.status, 200, "{}", me.body);
    conforms("ClientAccount", &me.body);
    assert_eq!(me.body["id"], id.as_str());
    let not_client = app.get("/v1/accounts/client/me", &t.live_key).await;
    assert_error_2024(&not_client, 400, "account_scope_incorrect");
    let no_key = app.get_without_key("/v1/accounts/client/me").await;
    assert_error(&no_key, 401, "unauthorised");
}

pub(super) async fn patch_changes_only_what_it_sends_under_the_sibling_rules(app: TestApp) {
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

    let renamed = app
        .patch(&live, &t.live_key, &json!({"name": "Acme Global"}))
        .await;
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
    let cleared = app.patch(&live,
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
    let refused = app
        .patch(&test, &t.test_key, &json!({"name": "Other"}))
        .await;
    assert_error(&refused, 400, "test_account_name_update_disallowed");
    let ok = app
        .patch(&test, &t.test_key, &json!({"beneficiary": "Tester"}))
        .await;
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
        let res = app.patch(&live, &t.live_key, &bad).await;
        assert_error(&res, 400, "validation_error");
    }
    let after = app.get("/v1/accounts/me", &t.live_key).await;
    assert_eq!(after.body["handle"], "acme");
    assert_eq!(after.body["external_pages_visibility"], "public");

    // Client accounts: PATCH /accounts/client/{id}, never through the other route.
    let client = app.new_client_account(&t.live_key, "C", "GBP").await;
    let cid = client.body["id"].as_str().unwrap();
    let patched = app
        .patch(
            &format!("/v1/accounts/client/{cid}"),
            &t.live_key,
            &json!({"handle": "client-c"}),
        )
        .await;
    assert_eq!(patched.status, 200, "{}", patched.body);
    conforms("ClientAccount", &patched.body);
    assert_eq!(patched.body["handle"], "client-c");
    assert_eq!(patched.body["name"], "C");
    let wrong_kind = app
        .patch(
            &format!("/v1/accounts/{cid}"),
            &t.live_key,
            &json!({"name": "D"}),
        )
        .await;
    assert_error(&wrong_kind, 400, "id_invalid");
    let wrong_kind = app
        .patch(
            &format!("/v1/accounts/client/{}", t.live_account),
            &t.live_key,
            &json!({"name": "D"}),
        )
        .await;
    assert_error(&wrong_kind, 400, "id_invalid");
    // Another organisation's account, an unknown id.
    let b = app.tenant().await;
    let foreign = app
        .patch(
            &format!("/v1/accounts/{}", b.live_account),
            &t.live_key,
            &json!({"name": "X"}),
        )
        .await;
    assert_error(&foreign, 404, "not_found");
    let unknown = app
        .patch(
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

pub(super) async fn a_client_idempotency_key_creates_one_account_even_under_concurrency(
    app: TestApp,
) {
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
    assert!(first_error_message(&pair).contains("idempotency_key"));
    assert_eq!(app.count_accounts(&t).await, 4);
}

pub(super) async fn client_lists_carry_each_accounts_estimate_activity(app: TestApp) {
    let t = app.tenant().await;
    let mut ids = Vec::new();
    for name in ["Busy", "Idle"] {
        let c = app.new_client_account(&t.live_key, name, "EUR").await;
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
