//! Client accounts: created, listed, updated, used through `Lune-Account`
//! (only within the organisation and mode); lists paged by cursor.

use reqwest::Method;
use serde_json::{Value, json};

use crate::support::{TestApp, assert_error, conforms};

pub(super) async fn client_accounts_are_created_listed_updated_and_usable_through_lune_account(
    app: TestApp,
) {
    let t = app.tenant().await;
    let created = app
        .new_client_account(&t.test_key, "Merchant_X", "USD")
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

pub(super) async fn lune_account_outside_the_organisation_or_mode_is_forbidden(app: TestApp) {
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

pub(super) async fn lists_page_with_cursors(app: TestApp) {
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
