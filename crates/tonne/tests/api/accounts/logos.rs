//! Account logos: re-encoded, stored, served, refused when bad, shown on
//! offset links, deleted.

use reqwest::Method;
use serde_json::{Value, json};

use super::fixtures::{acting_as, client_me};
use crate::support::{Reply, TestApp, assert_error, conforms, conforms_2024};
pub(crate) use tonne_http::test_support::images::png;
use tonne_http::test_support::images::{bomb, jpeg};

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

pub(super) async fn logos_are_reencoded_stored_and_served_at_an_absolute_url(app: TestApp) {
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
    let unknown = app.fetch("/logos/nope", None).await;
    assert_eq!(unknown.status(), 404);

    // Client accounts through their own route.
    let client = app.new_client_account(&t.live_key, "C", "GBP").await;
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
    let me = client_me(&app, &t.live_key, &cid).await;
    assert_eq!(me.body["logo"], res.body["url"]);
}

pub(super) async fn bad_logos_are_refused_and_change_nothing(app: TestApp) {
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

pub(super) async fn an_offset_link_with_use_logo_shows_the_uploaded_logo(app: TestApp) {
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
pub(super) async fn logos_are_deleted_once_idempotently_and_only_by_their_organisation(
    app: TestApp,
) {
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
    let client = app.new_client_account(&t.live_key, "C", "GBP").await;
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
    let me = client_me(&app, &t.live_key, &cid).await;
    assert_eq!(me.body["logo"], Value::Null);
}
