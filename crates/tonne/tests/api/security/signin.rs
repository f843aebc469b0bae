//! Sign-in resists guessing and cannot be used to lock a person out, and the
//! console's forms and cookies hold against other sites (docs/console.md,
//! "Sign-in"). The server trusts `127.0.0.1` as its proxy where a test needs
//! several client addresses, and names them in `X-Forwarded-For`.

use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::{COOKIE, HeaderMap, SET_COOKIE};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tonne_accounts::users::Role;
use tonne_http::rate_limit::RatePolicy;
use tonne_test_support::{TestDb, on_both_backends};

use crate::console::{PASSWORD, Visitor, operator};
use crate::support::TestApp;

const OWNER: &str = "owner@example.org";

/// A server behind a proxy at 127.0.0.1, with a request limit that never
/// gets in the way (the failures' budgets are under test).
async fn behind_proxy(db: TestDb) -> TestApp {
    TestApp::spawn_with(db, |o| {
        o.trusted_proxies = "127.0.0.1".parse().unwrap();
        o.page_rate = generous();
    })
    .await
}

fn generous() -> RatePolicy {
    RatePolicy {
        per_second: 100_000,
        burst: 100_000,
    }
}

struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    html: String,
}

impl Answer {
    fn cookies(&self) -> Vec<&str> {
        self.headers
            .get_all(SET_COOKIE)
            .iter()
            .map(|v| v.to_str().unwrap())
            .collect()
    }
}

/// A browser at one client address (as the proxy names it, if any).
struct Browser<'a> {
    app: &'a TestApp,
    http: reqwest::Client,
    forwarded_for: Option<&'a str>,
}

impl<'a> Browser<'a> {
    fn at(app: &'a TestApp, forwarded_for: Option<&'a str>) -> Self {
        Self {
            app,
            http: crate::support::client_without_redirects(),
            forwarded_for,
        }
    }

    async fn send(&self, req: reqwest::RequestBuilder) -> Answer {
        let req = match self.forwarded_for {
            Some(ip) => req.header("X-Forwarded-For", ip),
            None => req,
        };
        let res = req.send().await.unwrap();
        Answer {
            status: res.status(),
            headers: res.headers().clone(),
            html: res.text().await.unwrap(),
        }
    }

    /// The sign-in form: its cookie (`name=value`) and its token.
    async fn form(&self) -> (String, String) {
        let page = self
            .send(self.http.get(format!("{}/console/sign-in", self.app.base)))
            .await;
        assert_eq!(page.status, 200);
        let cookie = page.cookies()[0].split(';').next().unwrap().to_owned();
        let field = r#"name="csrf" value=""#;
        let at = page.html.find(field).unwrap() + field.len();
        let csrf = page.html[at..at + page.html[at..].find('"').unwrap()].to_owned();
        (cookie, csrf)
    }

    async fn post_sign_in(
        &self,
        cookie: &str,
        csrf: &str,
        email: &str,
        password: &str,
        extra: &[(&str, &str)],
    ) -> Answer {
        let mut req = self
            .http
            .post(format!("{}/console/sign-in", self.app.base))
            .header(COOKIE, cookie)
            .form(&[("csrf", csrf), ("email", email), ("password", password)]);
        for (name, value) in extra {
            req = req.header(*name, *value);
        }
        self.send(req).await
    }

    /// One attempt through a fresh form.
    async fn attempt(&self, email: &str, password: &str) -> Answer {
        let (cookie, csrf) = self.form().await;
        self.post_sign_in(&cookie, &csrf, email, password, &[])
            .await
    }
}

async fn failures_hold_the_guessing_address_and_not_the_owner_elsewhere(db: TestDb) {
    let app = behind_proxy(db).await;
    operator(&app, OWNER).await;
    let attacker = Browser::at(&app, Some("203.0.113.1"));
    for guess in 0..10 {
        let wrong = attacker
            .attempt(OWNER, &format!("guess number {guess:04}"))
            .await;
        assert_eq!(wrong.status, 401, "guess {guess}");
    }
    // the 11th, even with the right password, is refused, with how long to wait
    let held = attacker.attempt(OWNER, PASSWORD).await;
    assert_eq!(held.status, 429);
    assert!(
        held.html.contains("Too many failed sign-ins. Wait "),
        "{}",
        held.html
    );
    let retry: u64 = held.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry > 0 && retry <= 15 * 60, "{retry}");
    assert!(held.cookies().iter().all(|c| !c.contains("tonne_session=")));
    // the owner, from another address, signs in
    let owner = Browser::at(&app, Some("198.51.100.20"));
    let signed_in = owner.attempt(OWNER, PASSWORD).await;
    assert_eq!(signed_in.status, 303, "{}", signed_in.html);
    assert!(
        signed_in
            .cookies()
            .iter()
            .any(|c| c.starts_with("tonne_session="))
    );
    // the attacker's address is held for that email only
    assert_eq!(
        attacker.attempt("other@example.org", PASSWORD).await.status,
        401
    );
}

async fn one_address_spraying_many_emails_is_held(db: TestDb) {
    let app = behind_proxy(db).await;
    operator(&app, OWNER).await;
    let sprayer = Browser::at(&app, Some("2001:db8:7::1"));
    for n in 0..30 {
        let wrong = sprayer
            .attempt(&format!("person{n}@example.org"), PASSWORD)
            .await;
        assert_eq!(wrong.status, 401, "email {n}");
    }
    // another address of the same IPv6 /64, another email: held too
    let neighbour = Browser::at(&app, Some("2001:db8:7::2"));
    let held = neighbour.attempt(OWNER, PASSWORD).await;
    assert_eq!(held.status, 429);
    assert!(held.html.contains("Wait "));
    // elsewhere the owner signs in
    let owner = Browser::at(&app, Some("2001:db8:8::1"));
    assert_eq!(owner.attempt(OWNER, PASSWORD).await.status, 303);
}

async fn forwarded_for_is_ignored_unless_the_peer_is_a_trusted_proxy(db: TestDb) {
    // by default no proxy is trusted: every address a client claims is 127.0.0.1
    let app = TestApp::spawn_with(db, |o| o.page_rate = generous()).await;
    operator(&app, OWNER).await;
    for n in 0..10 {
        let claimed = format!("192.0.2.{}", n + 1);
        let wrong = Browser::at(&app, Some(&claimed))
            .attempt(OWNER, "not the password at all")
            .await;
        assert_eq!(wrong.status, 401);
    }
    let fresh_claim = Browser::at(&app, Some("198.51.100.99"));
    assert_eq!(fresh_claim.attempt(OWNER, PASSWORD).await.status, 429);

    // a proxy that is not the peer is not believed either
    let other = app
        .sibling(|o| {
            o.trusted_proxies = "10.0.0.0/8".parse().unwrap();
            o.page_rate = generous();
        })
        .await;
    let via_other = Browser::at(&other, Some("198.51.100.98"));
    assert_eq!(via_other.attempt(OWNER, PASSWORD).await.status, 429);
    // the failures are shared by every process (one store); from the trusted
    // proxy, the named client is another address and signs in
    let trusted = app
        .sibling(|o| o.trusted_proxies = "127.0.0.0/8".parse().unwrap())
        .await;
    let via_proxy = Browser::at(&trusted, Some("198.51.100.97"));
    assert_eq!(via_proxy.attempt(OWNER, PASSWORD).await.status, 303);
    let unnamed = Browser::at(&trusted, None);
    assert_eq!(unnamed.attempt(OWNER, PASSWORD).await.status, 429);
}

async fn the_sign_in_token_is_signed_and_other_sites_cannot_post(db: TestDb) {
    let app = TestApp::spawn(db).await;
    operator(&app, OWNER).await;
    let browser = Browser::at(&app, None);
    // a double-submit pair the attacker made up (cookie = form) is refused
    let forged = browser
        .post_sign_in(
            "tonne_sign_in=abcdef0123",
            "abcdef0123",
            OWNER,
            PASSWORD,
            &[],
        )
        .await;
    assert_eq!(forged.status, 403);
    // a real token with another browser's cookie too
    let (_, csrf) = browser.form().await;
    let (cookie, _) = browser.form().await;
    let swapped = browser
        .post_sign_in(&cookie, &csrf, OWNER, PASSWORD, &[])
        .await;
    assert_eq!(swapped.status, 403);
    // cross-site posts are refused even with a right token
    let (cookie, csrf) = browser.form().await;
    for header in [
        ("Origin", "https://evil.example"),
        ("Origin", "null"),
        ("Sec-Fetch-Site", "cross-site"),
    ] {
        let refused = browser
            .post_sign_in(&cookie, &csrf, OWNER, PASSWORD, &[header])
            .await;
        assert_eq!(refused.status, 403, "{header:?}");
    }
    // the same origin passes
    let own = app.base.clone();
    let ok = browser
        .post_sign_in(
            &cookie,
            &csrf,
            OWNER,
            PASSWORD,
            &[("Origin", own.as_str()), ("Sec-Fetch-Site", "same-origin")],
        )
        .await;
    assert_eq!(ok.status, 303);
    // and every console POST, signed in, is guarded the same way
    let mut v = Visitor::new(&app);
    assert_eq!(v.sign_in(OWNER, PASSWORD).await.status, 303);
    let csrf = v.get("/console/").await.csrf();
    let session = v.session.clone().unwrap();
    let out = app
        .client
        .post(format!("{}/console/sign-out", app.base))
        .header(COOKIE, format!("tonne_session={session}"))
        .header("Origin", "https://evil.example")
        .form(&[("csrf", csrf.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), 403);
    assert_eq!(v.get("/console/").await.status, 200, "still signed in");
    // no Strict-Transport-Security over http
    let page = browser
        .send(browser.http.get(format!("{}/console/sign-in", app.base)))
        .await;
    assert!(page.headers.get("strict-transport-security").is_none());
}

async fn over_https_cookies_are_host_prefixed_and_transport_is_strict(db: TestDb) {
    let app = TestApp::spawn_with(db, |o| {
        o.public_url = Some("https://console.example.org".into());
    })
    .await;
    operator(&app, OWNER).await;
    let browser = Browser::at(&app, None);
    let page = browser
        .send(browser.http.get(format!("{}/console/sign-in", app.base)))
        .await;
    assert_eq!(
        page.headers["strict-transport-security"],
        "max-age=31536000"
    );
    let cookie = page.cookies()[0].to_owned();
    assert!(cookie.starts_with("__Host-tonne_sign_in="), "{cookie}");
    assert!(
        cookie.contains("; Path=/;") && cookie.contains("Secure"),
        "{cookie}"
    );
    let (pair, csrf) = browser.form().await;
    let signed_in = browser
        .post_sign_in(&pair, &csrf, OWNER, PASSWORD, &[])
        .await;
    assert_eq!(signed_in.status, 303);
    let session = signed_in
        .cookies()
        .into_iter()
        .find(|c| c.starts_with("__Host-tonne_session="))
        .expect("a __Host- session cookie")
        .to_owned();
    assert!(
        session.contains("; Path=/;") && session.contains("Secure"),
        "{session}"
    );
    assert!(!session.contains("Domain"), "{session}");
    let overview = browser
        .send(
            browser
                .http
                .get(format!("{}/console/", app.base))
                .header(COOKIE, session.split(';').next().unwrap()),
        )
        .await;
    assert_eq!(overview.status, 200);
    // every response, the API's too
    let health = browser
        .send(browser.http.get(format!("{}/health", app.base)))
        .await;
    assert!(health.headers.contains_key("strict-transport-security"));
}

/// Sends a request head (no body) on a raw connection and reads the answer's
/// status line; panics if the server waits for the body instead.
async fn head_only(app: &TestApp, head: &str) -> String {
    let addr = app.base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = vec![0_u8; 256];
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut answer))
        .await
        .expect("answered without the body")
        .unwrap();
    String::from_utf8_lossy(&answer[..read])
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned()
}

async fn the_catalogue_upload_checks_the_session_before_the_body(db: TestDb) {
    let app = TestApp::spawn(db).await;
    let host = app.base.trim_start_matches("http://").to_owned();
    let upload = |cookie: &str, length: usize| {
        format!(
            "POST /console/catalogue/import HTTP/1.1\r\nHost: {host}\r\n{cookie}\
             Content-Type: multipart/form-data; boundary=x\r\nContent-Length: {length}\r\n\r\n"
        )
    };
    // no session: sent to sign in, without the server waiting for 1 MB
    let status = head_only(&app, &upload("", 1_000_000)).await;
    assert!(status.starts_with("HTTP/1.1 303"), "{status}");
    // an operator's session, but a body declared larger than the limit: 413 unread
    operator(&app, OWNER).await;
    let mut v = Visitor::new(&app);
    v.sign_in(OWNER, PASSWORD).await;
    let cookie = format!("Cookie: tonne_session={}\r\n", v.session.clone().unwrap());
    let status = head_only(&app, &upload(&cookie, 3 * 1024 * 1024)).await;
    assert!(status.starts_with("HTTP/1.1 413"), "{status}");
}

async fn a_guessable_password_is_refused_at_setup_with_the_reason(db: TestDb) {
    let app = TestApp::spawn(db).await;
    let path = crate::console::setup_path(&app, "new@example.org", Role::Operator).await;
    let v = Visitor::new(&app);
    let short = v
        .post(
            &path,
            &[("password", "password123"), ("confirm", "password123")],
        )
        .await;
    assert_eq!(short.status, 400);
    assert!(
        short
            .html
            .contains("A password has at least 12 characters.")
    );
    for weak in ["password1234", "qwertyuiop123", "iloveyou1234"] {
        let refused = v
            .post(&path, &[("password", weak), ("confirm", weak)])
            .await;
        assert_eq!(refused.status, 400, "{weak}");
        assert!(
            refused
                .html
                .contains("This password is too easy to guess: "),
            "{weak}: {}",
            refused.html
        );
        // the reason is beside the field, and the link still works
        assert!(
            refused
                .html
                .contains(r#"aria-describedby="password-hint password-error""#)
        );
    }
    let chosen = "plinth orbit marrow 41";
    let ok = v
        .post(&path, &[("password", chosen), ("confirm", chosen)])
        .await;
    assert_eq!(ok.status, 200, "{}", ok.html);
}

on_both_backends!(
    failures_hold_the_guessing_address_and_not_the_owner_elsewhere,
    one_address_spraying_many_emails_is_held,
    forwarded_for_is_ignored_unless_the_peer_is_a_trusted_proxy,
    the_sign_in_token_is_signed_and_other_sites_cannot_post,
    over_https_cookies_are_host_prefixed_and_transport_is_strict,
    the_catalogue_upload_checks_the_session_before_the_body,
    a_guessable_password_is_refused_at_setup_with_the_reason,
);
