//! Shared helpers of the accounts tests.

use reqwest::Method;

use crate::support::{Reply, TestApp};

pub(super) fn acting_as(
    app: &TestApp,
    method: Method,
    path: &str,
    key: &str,
    id: &str,
) -> reqwest::RequestBuilder {
    app.request(method, path, Some(key))
        .header("Lune-Account", id)
}

/// `GET /v1/accounts/client/me` acting as the client account `id`.
pub(super) async fn client_me(app: &TestApp, key: &str, id: &str) -> Reply {
    let path = "/v1/accounts/client/me";
    app.send(acting_as(app, Method::GET, path, key, id)).await
}
