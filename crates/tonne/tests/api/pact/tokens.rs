//! The token endpoint refuses as OAuth 2.0 says: wrong credentials, a body
//! that is not a form, an unsupported grant.

use serde_json::json;

use super::fixtures::{credentials, pact_get, token, token_request};
use crate::support::TestApp;

pub(super) async fn token_requests_are_refused_as_oauth_says(app: TestApp) {
    let t = app.tenant().await;
    let (client_id, secret) = credentials(&app, &t.test_account);
    // a wrong secret, an unknown client: 401 invalid_client with a challenge
    let wrong = format!("tonne_pact_{}", "A".repeat(43));
    for (id, s) in [
        (client_id.as_str(), wrong.as_str()),
        ("someone", secret.as_str()),
    ] {
        let res = token(&app, id, s).await;
        assert_eq!(res.status, 401, "{}", res.body);
        assert_eq!(res.body["error"], "invalid_client");
        assert!(res.header("www-authenticate").unwrap().starts_with("Basic"));
    }
    // credentials must match exactly: nothing after them is dropped
    for (id, s) in [
        (client_id.clone(), format!("{secret}&x=y")),
        (format!("{client_id}&zzz"), secret.clone()),
    ] {
        let res = token(&app, &id, &s).await;
        assert_eq!(res.status, 401, "{}", res.body);
    }
    // a body that does not say it is a form is not read as one
    let res = token_request(
        &app,
        &client_id,
        &secret,
        "text/plain",
        "grant_type=client_credentials",
    )
    .await;
    assert_eq!(res.status, 400, "{}", res.body);
    assert_eq!(res.body["error"], "invalid_request");
    for (body, status, error) in [
        ("", 400, "invalid_request"),
        (
            "grant_type=password&username=a&password=b",
            400,
            "unsupported_grant_type",
        ),
    ] {
        let res = token_request(
            &app,
            &client_id,
            &secret,
            "application/x-www-form-urlencoded",
            body,
        )
        .await;
        assert_eq!(res.status, status, "{}", res.body);
        assert_eq!(res.body["error"], error);
    }
    // credentials in the form work as well (RFC 6749, 2.3.1)
    let res = app
        .send(
            app.client
                .post(format!("{}/pact/auth/token", app.base))
                .form(&[
                    ("grant_type", "client_credentials"),
                    ("client_id", client_id.as_str()),
                    ("client_secret", secret.as_str()),
                ]),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    // an account with nothing calculated lists nothing
    let bearer = res.body["access_token"].as_str().unwrap();
    let res = pact_get(&app, "/pact/2/footprints", bearer).await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert_eq!(res.body["data"], json!([]));
    // GET on the token endpoint is not a route of it
    let res = app.get_without_key("/pact/auth/token").await;
    assert!(res.status == 404 || res.status == 405, "{}", res.status);
}
