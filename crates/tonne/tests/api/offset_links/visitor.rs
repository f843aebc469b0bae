//! A browser without JavaScript for the hosted pages, and the pages it reads.

use reqwest::Method;

use crate::support::TestApp;

/// Sends the request with the CSRF cookie, once there is one; a cookie the
/// answer sets is kept, once `check` has looked at its `Set-Cookie`.
pub(crate) async fn send_with_csrf_cookie(
    req: reqwest::RequestBuilder,
    cookie: &mut Option<String>,
    check: impl FnOnce(&str),
) -> reqwest::Response {
    let req = match cookie {
        Some(c) => req.header("Cookie", format!("tonne_csrf={c}")),
        None => req,
    };
    let res = req.send().await.unwrap();
    if let Some(set) = res.headers().get("set-cookie") {
        let set = set.to_str().unwrap();
        check(set);
        let value = set.split(';').next().unwrap().split_once('=').unwrap().1;
        *cookie = Some(value.to_owned());
    }
    res
}

/// The value of the page's field `name` as the HTML has it (entities kept).
pub(crate) fn hidden_field<'h>(html: &'h str, name: &str) -> &'h str {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html
        .find(&marker)
        .unwrap_or_else(|| panic!("no {name} in {html}"))
        + marker.len();
    let end = html[start..].find('"').unwrap() + start;
    &html[start..end]
}

/// A browser without JavaScript: keeps the CSRF cookie, reads hidden fields.
pub(crate) struct Visitor<'a> {
    base: String,
    client: reqwest::Client,
    /// The CSRF cookie's value, once the server set it.
    pub(crate) cookie: Option<String>,
    _app: std::marker::PhantomData<&'a TestApp>,
}

/// A link's first step filled in: the page's CSRF field, a bundle, and the
/// email `a@example.org`.
pub(crate) struct Choice {
    csrf: String,
    bundle: String,
}

impl Choice {
    pub(crate) fn form(&self) -> [(&str, &str); 3] {
        [
            ("csrf", self.csrf.as_str()),
            ("bundle", self.bundle.as_str()),
            ("email", "a@example.org"),
        ]
    }
}

pub(crate) struct Page {
    pub(crate) status: u16,
    pub(crate) html: String,
    /// The page's Content-Security-Policy.
    pub(crate) policy: String,
}

impl Page {
    pub(crate) fn field(&self, name: &str) -> String {
        hidden_field(&self.html, name).to_owned()
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
        let res = send_with_csrf_cookie(req, &mut self.cookie, |set| {
            assert!(
                set.contains("HttpOnly") && set.contains("SameSite=Strict"),
                "{set}"
            );
        })
        .await;
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

    /// Opens the link and chooses `bundle` for `a@example.org`.
    pub(crate) async fn choose(&mut self, id: &str, bundle: &str) -> Choice {
        let csrf = self.open(id).await.field("csrf");
        Choice {
            csrf,
            bundle: bundle.to_owned(),
        }
    }

    /// [`Visitor::choose`], then the quote: the choice and the confirmation
    /// page.
    pub(crate) async fn quote(&mut self, id: &str, bundle: &str) -> (Choice, Page) {
        let chosen = self.choose(id, bundle).await;
        let confirm = self.post(id, "quote", &chosen.form()).await;
        (chosen, confirm)
    }

    pub(crate) async fn post(&mut self, id: &str, step: &str, form: &[(&str, &str)]) -> Page {
        let req = self
            .client
            .request(Method::POST, format!("{}/l/{id}/{step}", self.base))
            .form(form);
        self.send(req).await
    }
}
