//! Shared helpers of the accounts tests.

use reqwest::Method;

use crate::support::TestApp;

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
