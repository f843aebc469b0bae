//! A browser without JavaScript for the hosted pages, and the pages it reads.

use reqwest::Method;

use crate::support::TestApp;

/// A browser without JavaScript: keeps the CSRF cookie, reads hidden fields.
pub(crate) struct Visitor<'a> {
    base: String,
    client: reqwest::Client,
    /// The CSRF cookie's value, once the server set it.
    pub(crate) cookie: Option<String>,
    _app: std::marker::PhantomData<&'a TestApp>,
}

pub(crate) struct Page {
    pub(crate) status: u16,
    pub(crate) html: String,
    /// The page's Content-Security-Policy.
    pub(crate) policy: String,
}

impl Page {
    pub(crate) fn field(&self, name: &str) -> String {
        let marker = format!("name=\"{name}\" value=\"");
        let start = self
            .html
            .find(&marker)
            .unwrap_or_else(|| panic!("no {name} in {}", self.html))
            + marker.len();
        let end = self.html[start..].find('"').unwrap() + start;
        self.html[start..end].to_owned()
    }

    pub(crate) fn order_id(&self) -> String {
        let start = self.html.find("<code>").expect("an order id") + 6;
        let end = self.html[start..].find("</code>").unwrap() + start;
        self.html[start..end].to_owned()
    }
}

impl<'a> Visitor<'a> {
    pub(crate) fn new(app: &'a TestApp) -> Self {
        Self::at(&app.base)
    }

    /// A visitor of the server at `base` (another process's).
    pub(crate) fn at(base: &str) -> Self {
        Self {
            base: base.to_owned(),
            client: reqwest::Client::new(),
            cookie: None,
            _app: std::marker::PhantomData,
        }
    }

    async fn send(&mut self, req: reqwest::RequestBuilder) -> Page {
        let req = match &self.cookie {
            Some(c) => req.header("Cookie", format!("tonne_csrf={c}")),
            None => req,
        };
        let res = req.send().await.unwrap();
        if let Some(set) = res.headers().get("set-cookie") {
            let set = set.to_str().unwrap();
            assert!(
                set.contains("HttpOnly") && set.contains("SameSite=Strict"),
                "{set}"
            );
            let value = set.split(';').next().unwrap().split_once('=').unwrap().1;
            self.cookie = Some(value.to_owned());
        }
        let status = res.status().as_u16();
        let policy = res
            .headers()
            .get("content-security-policy")
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default();
        if status < 500 {
            assert_eq!(
                res.headers().get("content-type").unwrap(),
                "text/html; charset=utf-8"
            );
        }
        Page {
            status,
            html: res.text().await.unwrap(),
            policy,
        }
    }

    pub(crate) async fn open(&mut self, id: &str) -> Page {
        let req = self
            .client
            .request(Method::GET, format!("{}/l/{id}", self.base));
        self.send(req).await
    }

    pub(crate) async fn post(&mut self, id: &str, step: &str, form: &[(&str, &str)]) -> Page {
        let req = self
            .client
            .request(Method::POST, format!("{}/l/{id}/{step}", self.base))
            .form(form);
        self.send(req).await
    }
}
