//! The webhooks API against the contract: CRUD, bad input refused with
//! nothing written, private targets refused unless allowed.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

use super::fixtures::{
    client_account, conforms_webhook, create_webhook, post_webhook, rotate_secret,
};
use crate::support::{TestApp, assert_error, first_error_message};

pub(super) async fn crud_follows_the_contract(app: TestApp) {
    let t = app.tenant().await;
    let other = app.tenant().await;
    let created = create_webhook(&app, &t.test_key, "http://127.0.0.1:9/hook", None).await;
    conforms_webhook("WebhookFullSecret", &created);
    let secret = created["secret"].as_str().unwrap();
    assert!(
        secret.starts_with("whsec_") && secret.len() == 49,
        "{secret}"
    );
    assert_eq!(created["account_type"], "test");
    assert_eq!(created["enabled"], true);
    assert!(created.get("account_ids").is_none());
    let id = created["id"].as_str().unwrap();

    let got = app.get(&format!("/v1/webhooks/{id}"), &t.test_key).await;
    assert_eq!(got.status, 200);
    conforms_webhook("Webhook", &got.body);
    assert_eq!(got.body["secret"], &secret[secret.len() - 4..]);

    let list = app.get("/v1/webhooks", &t.test_key).await;
    assert_eq!(list.body.as_array().unwrap().len(), 1);
    // live/test: the live key sees none of the test webhooks
    assert_eq!(app.get("/v1/webhooks", &t.live_key).await.body, json!([]));
    // another organisation: 404
    let res = app
        .get(&format!("/v1/webhooks/{id}"), &other.test_key)
        .await;
    assert_error(&res, 404, "not_found");
    let res = app
        .delete(&format!("/v1/webhooks/{id}"), &other.test_key)
        .await;
    assert_error(&res, 404, "not_found");
    assert_error(
        &app.get("/v1/webhooks/nope", &t.test_key).await,
        404,
        "not_found",
    );

    // update: filter, disable
    let client = client_account(&app, &t.test_key, "Client").await;
    let put = app
        .put(
            &format!("/v1/webhooks/{id}"),
            &t.test_key,
            &json!({"url": "http://127.0.0.1:9/other", "enabled": false, "account_ids": [client]}),
        )
        .await;
    assert_eq!(put.status, 200, "{}", put.body);
    conforms_webhook("Webhook", &put.body);
    assert_eq!(put.body["account_ids"], json!([client]));
    assert_eq!(put.body["enabled"], false);
    // without enabled and account_ids: both kept
    let put = app
        .put(
            &format!("/v1/webhooks/{id}"),
            &t.test_key,
            &json!({"url": "http://127.0.0.1:9/x"}),
        )
        .await;
    assert_eq!(
        (put.body["enabled"].clone(), put.body["account_ids"].clone()),
        (json!(false), json!([client]))
    );
    // the list filter
    let q = app
        .get(&format!("/v1/webhooks?account_id={client}"), &t.test_key)
        .await;
    assert_eq!(q.body.as_array().unwrap().len(), 1);
    let q = app
        .get(
            &format!("/v1/webhooks?account_id={}", t.test_account),
            &t.test_key,
        )
        .await;
    assert_eq!(q.body, json!([]));
    assert_error(
        &app.get(
            &format!("/v1/webhooks?account_id={}", t.live_account),
            &t.test_key,
        )
        .await,
        400,
        "validation_error",
    );

    // rotate: a new full secret; GET shows its last 4
    let rotated = rotate_secret(&app, &t.test_key, id).await;
    assert_eq!(rotated.status, 200);
    conforms_webhook("WebhookFullSecret", &rotated.body);
    let new_secret = rotated.body["secret"].as_str().unwrap();
    assert_ne!(new_secret, secret);
    assert_eq!(
        app.get(&format!("/v1/webhooks/{id}"), &t.test_key)
            .await
            .body["secret"],
        &new_secret[45..]
    );

    // attempts (none yet)
    let attempts = app
        .get(&format!("/v1/webhooks/{id}/attempts"), &t.test_key)
        .await;
    assert_eq!(attempts.status, 200);
    assert_eq!(attempts.body["data"], json!([]));

    // delete
    assert_eq!(
        app.delete(&format!("/v1/webhooks/{id}"), &t.test_key)
            .await
            .status,
        200
    );
    assert_error(
        &app.get(&format!("/v1/webhooks/{id}"), &t.test_key).await,
        404,
        "not_found",
    );
}

pub(super) async fn bad_input_is_refused_and_nothing_written(app: TestApp) {
    let t = app.tenant().await;
    let other = app.tenant().await;
    let created = create_webhook(&app, &t.test_key, "http://127.0.0.1:9/hook", None).await;
    let id = created["id"].as_str().unwrap();
    for (body, field) in [
        (json!({}), "url"),
        (json!({"url": 5}), "url"),
        (json!({"url": "not a url"}), "url"),
        (json!({"url": "ftp://127.0.0.1/x"}), "url"),
        (json!({"url": "http://224.0.0.1/x"}), "url"),
        (json!({"url": "http://127.0.0.1:9/x", "extra": 1}), "extra"),
        (
            json!({"url": "http://127.0.0.1:9/x", "account_ids": []}),
            "account_ids",
        ),
        (
            json!({"url": "http://127.0.0.1:9/x", "account_ids": null}),
            "account_ids",
        ),
        (
            json!({"url": "http://127.0.0.1:9/x", "account_ids": ["x"]}),
            "account_ids[0]",
        ),
        (
            json!({"url": "http://127.0.0.1:9/x", "account_ids": [t.live_account]}),
            "account_ids[0]",
        ),
        (
            json!({"url": "http://127.0.0.1:9/x", "account_ids": [other.test_account]}),
            "account_ids[0]",
        ),
    ] {
        let res = app.post("/v1/webhooks", &t.test_key, &body).await;
        assert_error(&res, 400, "validation_error");
        let message = res.body["errors"][0]["message"].as_str().unwrap();
        assert!(message.contains(field), "{body}: {message}");
    }
    for (body, field) in [
        (
            json!({"url": "http://127.0.0.1:9/x", "enabled": null}),
            "enabled",
        ),
        (
            json!({"url": "http://127.0.0.1:9/x", "enabled": "yes"}),
            "enabled",
        ),
        (json!({"enabled": true}), "url"),
    ] {
        let res = app
            .put(&format!("/v1/webhooks/{id}"), &t.test_key, &body)
            .await;
        assert_error(&res, 400, "validation_error");
        assert!(first_error_message(&res).contains(field), "{}", res.body);
    }
    let res = app
        .send(
            app.request(reqwest::Method::POST, "/v1/webhooks", Some(&t.test_key))
                .body("url=x"),
        )
        .await;
    assert_error(&res, 415, "unsupported_media_type");
    assert_error(
        &app.get_without_key("/v1/webhooks").await,
        401,
        "unauthorised",
    );
    // nothing was written, nothing changed
    let list = app.get("/v1/webhooks", &t.test_key).await.body;
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["url"], "http://127.0.0.1:9/hook");
    assert_eq!(list[0]["enabled"], true);

    // the limit: 10 per organisation and mode
    for _ in 1..10 {
        create_webhook(&app, &t.test_key, "http://127.0.0.1:9/hook", None).await;
    }
    let res = post_webhook(&app, &t.test_key, "http://127.0.0.1:9/hook").await;
    assert_error(&res, 400, "webhook_limit_reached");
    assert_eq!(
        app.get("/v1/webhooks", &t.test_key)
            .await
            .body
            .as_array()
            .unwrap()
            .len(),
        10
    );
    // the other mode has its own bound
    create_webhook(&app, &t.live_key, "http://127.0.0.1:9/hook", None).await;
}

pub(super) async fn private_targets_are_refused_unless_allowed(app: TestApp) {
    let db = app.services.db.clone();
    drop(db);
    let t = app.tenant().await;
    // the app under test allows private targets; a strict service refuses them
    let strict = tonne_webhooks::Webhooks::new(
        Arc::new(app.services.webhook_store.clone()),
        Arc::new(NoAccounts),
        Arc::new(tonne_dispatcher::SystemResolver {
            timeout: Duration::from_secs(2),
        }),
        tonne_webhooks::Outbound {
            sender: Arc::new(
                tonne_dispatcher::HttpSender::new(Duration::from_secs(2), Default::default())
                    .unwrap(),
            ),
            encoder: Arc::new(tonne_dispatcher::JsonEncoder),
        },
        Arc::new(tonne_kernel::SystemClock),
        Arc::new(tonne_kernel::UuidV7Generator),
        tonne_webhooks::Settings::default(),
    );
    use tonne_webhooks::WebhooksService as _;
    let owner = tonne_webhooks::Owner {
        organisation_id: t.organisation_id.parse().unwrap(),
        mode: tonne_kernel::AccountMode::Test,
    };
    for (url, why) in [
        ("http://127.0.0.1:9000/hook", "https"),
        ("https://127.0.0.1/hook", "loopback"),
        ("https://10.1.2.3/hook", "private"),
        ("https://169.254.169.254/latest", "cloud metadata"),
        ("https://[::1]/hook", "loopback"),
        ("https://localhost/hook", "local host"),
        ("https://user:pw@hooks.example.com/x", "credentials"),
    ] {
        match strict
            .create(
                owner,
                tonne_webhooks::NewWebhook {
                    url: url.into(),
                    account_ids: None,
                    event_types: None,
                },
                &tonne_kernel::Actor::CommandLine,
            )
            .await
        {
            Err(tonne_webhooks::CreateWebhookError::Invalid(f)) => {
                assert!(f.reason.contains(why), "{url}: {}", f.reason)
            }
            other => panic!("{url}: {other:?}"),
        }
    }
    assert_eq!(app.get("/v1/webhooks", &t.test_key).await.body, json!([]));
}

struct NoAccounts;

#[async_trait::async_trait]
impl tonne_webhooks::ports::AccountDirectory for NoAccounts {
    async fn owner_of(
        &self,
        _: tonne_kernel::AccountId,
    ) -> Result<Option<tonne_webhooks::Owner>, tonne_kernel::StoreError> {
        Ok(None)
    }
}
