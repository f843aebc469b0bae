//! The console over HTTP, on both stores, one file per section: sign-in,
//! sessions, CSRF and setup links (`auth`), the operator's orders, catalogue,
//! webhooks and organisations, and what members do and may not see
//! (`members`). Here: the browser-like client and the people the tests sign in as.

mod auth;
mod catalogue;
mod client_accounts;
mod invoices;
mod isolation;
mod limits;
mod members;
mod offset_links;
mod orders;
mod organisations;
mod overview;
mod pact;
mod shipments;
mod test_events;
mod webhooks;

use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::{COOKIE, LOCATION, SET_COOKIE};
use tonne_accounts::users::{NewUser, Password, Role};

use crate::support::{Tenant, TestApp};

pub(crate) const PASSWORD: &str = "correct horse battery";

/// The value of a page's `name` field (the first).
pub(crate) fn field(html: &str, name: &str) -> String {
    html.split(&format!(r#"name="{name}" value=""#))
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap_or_else(|| panic!("no {name} field"))
        .to_owned()
}

/// A console form in test mode: the session's token, the mode, an account,
/// then `rest`.
pub(crate) fn test_mode_form<'a>(
    csrf: &'a str,
    account: &'a str,
    rest: &[(&'a str, &'a str)],
) -> Vec<(&'a str, &'a str)> {
    let mut form = vec![("csrf", csrf), ("mode", "test"), ("account", account)];
    form.extend_from_slice(rest);
    form
}

/// Acme and a rival organisation with a member each (`ada@acme.example`,
/// `bob@rival.example`), and Ada signed in to the console.
pub(crate) async fn ada_of_acme_and_bob_of_rival(app: &TestApp) -> (Tenant, Tenant, Visitor<'_>) {
    let acme = app.tenant().await;
    let rival = app.tenant().await;
    member(app, "ada@acme.example", &acme.organisation_id).await;
    member(app, "bob@rival.example", &rival.organisation_id).await;
    let mut ada = Visitor::new(app);
    ada.sign_in("ada@acme.example", PASSWORD).await;
    (acme, rival, ada)
}

/// A browser-like client: no redirects followed, cookies by hand.
pub(crate) struct Visitor<'a> {
    app: &'a TestApp,
    http: reqwest::Client,
    pub session: Option<String>,
}

pub(crate) struct Page {
    pub status: StatusCode,
    pub location: Option<String>,
    pub set_cookies: Vec<String>,
    pub html: String,
}

impl Page {
    /// The value of the first `name="csrf"` field.
    pub fn csrf(&self) -> String {
        let at = self
            .html
            .find(r#"name="csrf" value=""#)
            .expect("a csrf field");
        let rest = &self.html[at + r#"name="csrf" value=""#.len()..];
        rest[..rest.find('"').unwrap()].to_owned()
    }
}

impl<'a> Visitor<'a> {
    pub fn new(app: &'a TestApp) -> Self {
        Self {
            app,
            http: crate::support::client_without_redirects(),
            session: None,
        }
    }

    async fn answer(res: reqwest::Response) -> Page {
        Page {
            status: res.status(),
            location: res
                .headers()
                .get(LOCATION)
                .map(|v| v.to_str().unwrap().to_owned()),
            set_cookies: res
                .headers()
                .get_all(SET_COOKIE)
                .iter()
                .map(|v| v.to_str().unwrap().to_owned())
                .collect(),
            html: res.text().await.unwrap(),
        }
    }

    fn with_cookies(
        &self,
        req: reqwest::RequestBuilder,
        extra: Option<&str>,
    ) -> reqwest::RequestBuilder {
        let mut cookies: Vec<String> = self
            .session
            .iter()
            .map(|s| format!("tonne_session={s}"))
            .collect();
        cookies.extend(extra.map(str::to_owned));
        if cookies.is_empty() {
            req
        } else {
            req.header(COOKIE, cookies.join("; "))
        }
    }

    pub async fn get(&self, path: &str) -> Page {
        let req = self.http.get(format!("{}{path}", self.app.base));
        Self::answer(self.with_cookies(req, None).send().await.unwrap()).await
    }

    pub async fn post(&self, path: &str, form: &[(&str, &str)]) -> Page {
        let req = self
            .http
            .post(format!("{}{path}", self.app.base))
            .form(form);
        Self::answer(self.with_cookies(req, None).send().await.unwrap()).await
    }

    /// Posts a [`test_mode_form`].
    pub async fn post_test_mode(
        &self,
        path: &str,
        csrf: &str,
        account: &str,
        rest: &[(&str, &str)],
    ) -> Page {
        self.post(path, &test_mode_form(csrf, account, rest)).await
    }

    /// Posts a `multipart/form-data` form (text fields, then one file part),
    /// as a browser sends a form with a file input.
    pub async fn post_file(
        &self,
        path: &str,
        fields: &[(&str, &str)],
        file: (&str, &[u8]),
    ) -> Page {
        let (name, bytes) = file;
        self.post_named_file(
            path,
            fields,
            (name, "catalogue.json", "application/json", bytes),
        )
        .await
    }

    /// [`Visitor::post_file`] with the file's name and type: `(field, filename, type, bytes)`.
    pub async fn post_named_file(
        &self,
        path: &str,
        fields: &[(&str, &str)],
        file: (&str, &str, &str, &[u8]),
    ) -> Page {
        let boundary = "----tonne-test-boundary-7d1f";
        let mut body = Vec::new();
        for (name, value) in fields {
            body.extend_from_slice(
                format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n")
                    .as_bytes(),
            );
        }
        let (name, filename, content_type, bytes) = file;
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{filename}\"\r\nContent-Type: {content_type}\r\n\r\n")
                .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let req = self
            .http
            .post(format!("{}{path}", self.app.base))
            .header(
                reqwest::header::CONTENT_TYPE,
                format!("multipart/form-data; boundary={boundary}"),
            )
            .body(body);
        Self::answer(self.with_cookies(req, None).send().await.unwrap()).await
    }

    /// Signs in through the form; the answer of the POST.
    pub async fn sign_in(&mut self, email: &str, password: &str) -> Page {
        let form = self.get("/console/sign-in").await;
        assert_eq!(form.status, 200);
        let bound = form.set_cookies[0].split(';').next().unwrap().to_owned();
        assert!(
            form.set_cookies[0].contains("SameSite=Strict"),
            "{:?}",
            form.set_cookies
        );
        let csrf = form.csrf();
        let req = self
            .http
            .post(format!("{}/console/sign-in", self.app.base))
            .form(&[
                ("csrf", csrf.as_str()),
                ("email", email),
                ("password", password),
            ]);
        let page = Self::answer(self.with_cookies(req, Some(&bound)).send().await.unwrap()).await;
        if let Some(c) = page
            .set_cookies
            .iter()
            .find(|c| c.starts_with("tonne_session="))
        {
            self.session = Some(c["tonne_session=".len()..c.find(';').unwrap()].to_owned());
        }
        page
    }
}

/// A console user as `tonne users create` makes one: with the tests'
/// password, or else (`None`) the setup token that lets them set one.
async fn create_user(
    app: &TestApp,
    email: &str,
    role: Role,
    password: Option<&str>,
) -> Option<tonne_accounts::users::SetupToken> {
    app.services
        .users
        .create(
            NewUser {
                email: email.parse().unwrap(),
                role,
            },
            password.map(|p| Password::new(p).unwrap()),
            &tonne_kernel::Actor::CommandLine,
        )
        .await
        .unwrap()
        .setup_token
}

pub(crate) async fn operator(app: &TestApp, email: &str) {
    create_user(app, email, Role::Operator, Some(PASSWORD)).await;
}

pub(crate) async fn member(app: &TestApp, email: &str, organisation: &str) {
    let role = Role::Member(organisation.parse().unwrap());
    create_user(app, email, role, Some(PASSWORD)).await;
}

/// A user without a password: the path of their setup link.
pub(crate) async fn setup_path(app: &TestApp, email: &str, role: Role) -> String {
    let token = create_user(app, email, role, None).await.unwrap();
    format!("/console/setup/{}", token.expose())
}

/// The audit entries of one object, newest first (the first page).
pub(crate) async fn audit_of(app: &TestApp, object_id: &str) -> Vec<tonne_kernel::AuditEntry> {
    app.services
        .audit
        .list(
            tonne_kernel::AuditFilter {
                object_id: Some(object_id.to_owned()),
                ..Default::default()
            },
            tonne_kernel::PageRequest::first(),
        )
        .await
        .unwrap()
        .items
}

/// Polls an async condition every 50 ms until it holds (or the test fails).
async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let start = std::time::Instant::now();
    while !check().await {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
