//! A public link's scarce stock, and a browser on its hosted page.

use reqwest::Method;
use serde_json::json;
use tonne_links::{LimitsDraft, LinkChanges};

use crate::support::{Tenant, TestApp};

/// The demo's scarce bundle (direct air capture: 500 t at 650.00 a tonne).
pub(super) async fn scarce_bundle(app: &TestApp, key: &str) -> String {
    let res = app.get("/v1/bundles?limit=100", key).await;
    res.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["available_quantity"] == "500")
        .map(|b| b["id"].as_str().unwrap().to_owned())
        .expect("the demo catalogue's 500 t bundle")
}

/// The bundle's available tonnes, as the API reads them.
pub(super) async fn stock(app: &TestApp, key: &str, bundle: &str) -> String {
    let res = app.get(&format!("/v1/bundles/{bundle}"), key).await;
    assert_eq!(res.status, 200, "{}", res.body);
    res.body["available_quantity"].as_str().unwrap().to_owned()
}

/// A link offering the bundle over the API (the server's default limits),
/// then, when given, the owner's own limits (the console's path into the domain).
pub(super) async fn link(
    app: &TestApp,
    t: &Tenant,
    key: &str,
    bundle: &str,
    limits: Option<LimitsDraft>,
) -> String {
    let res = app
        .post(
            "/v1/offset-links",
            key,
            &json!({"name": "Public", "bundles": [bundle], "use_logo": false}),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    let id = res.body["id"].as_str().unwrap().to_owned();
    if let Some(limits) = limits {
        let account = if key == t.live_key {
            &t.live_account
        } else {
            &t.test_account
        };
        app.services
            .links
            .update(
                account.parse().unwrap(),
                &id,
                LinkChanges {
                    name: "Public".into(),
                    limits: Some(limits),
                    ..LinkChanges::default()
                },
            )
            .await
            .unwrap();
    }
    id
}

/// A browser on the link's page: its CSRF cookie and the form's token.
pub(super) struct Customer<'a> {
    app: &'a TestApp,
    link: String,
    bundle: String,
    cookie: String,
    csrf: String,
}

pub(super) struct Answer {
    pub(super) status: u16,
    pub(super) retry_after: Option<String>,
    pub(super) html: String,
}

impl<'a> Customer<'a> {
    pub(super) async fn arrive(app: &'a TestApp, link: &str, bundle: &str) -> Self {
        let res = app
            .request(Method::GET, &format!("/l/{link}"), None)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        let set = res.headers()["set-cookie"].to_str().unwrap().to_owned();
        let cookie = set.split(';').next().unwrap().to_owned();
        let html = res.text().await.unwrap();
        let marker = "name=\"csrf\" value=\"";
        let start = html.find(marker).unwrap() + marker.len();
        let csrf = html[start..start + html[start..].find('"').unwrap()].to_owned();
        Self {
            app,
            link: link.to_owned(),
            bundle: bundle.to_owned(),
            cookie,
            csrf,
        }
    }

    /// Submits a step of the form for `tonnes` (`token` on the order step).
    pub(super) async fn submit(&self, step: &str, tonnes: &str, token: &str) -> Answer {
        let form = [
            ("csrf", self.csrf.as_str()),
            ("token", token),
            ("bundle", self.bundle.as_str()),
            ("email", "anyone@example.org"),
            ("amount", tonnes),
            ("unit", "tonnes"),
        ];
        let res = self
            .app
            .request(Method::POST, &format!("/l/{}/{step}", self.link), None)
            .header("Cookie", &self.cookie)
            .form(&form)
            .send()
            .await
            .unwrap();
        Answer {
            status: res.status().as_u16(),
            retry_after: res
                .headers()
                .get("retry-after")
                .map(|v| v.to_str().unwrap().to_owned()),
            html: res.text().await.unwrap(),
        }
    }

    pub(super) async fn order(&self, tonnes: &str, token: &str) -> Answer {
        self.submit("order", tonnes, token).await
    }
}

pub(super) fn order_id(html: &str) -> String {
    let start = html.find("<code>").expect("an order id") + 6;
    html[start..start + html[start..].find("</code>").unwrap()].to_owned()
}
