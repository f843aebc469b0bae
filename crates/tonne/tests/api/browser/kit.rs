//! What the browser suite shares: chromedriver and a headless Chromium
//! session, screenshots, the accessible-name and axe-core checks, waits.

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

use crate::support::TestApp;
use crate::support::process::free_port;

pub(crate) const CHROMIUM: &str = "/usr/bin/chromium";
pub(crate) const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

pub(crate) fn mandatory() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

pub(crate) fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target")
}

pub(crate) fn axe_source() -> Option<String> {
    let path = std::env::var("TONNE_AXE_JS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| target_dir().join("axe/node_modules/axe-core/axe.min.js"));
    std::fs::read_to_string(path).ok()
}

/// chromedriver on a free port, killed on drop.
pub(crate) struct Driver {
    child: Child,
    pub(crate) url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) async fn driver() -> Option<Driver> {
    if !Path::new(CHROMIUM).exists() || !Path::new(CHROMEDRIVER).exists() {
        assert!(
            !mandatory(),
            "CI=true: the browser suite needs Debian's chromium and chromium-driver ({CHROMIUM}, {CHROMEDRIVER})"
        );
        eprintln!("note: chromium or chromedriver is absent; the browser suite is skipped");
        return None;
    }
    let port = free_port();
    let driver = Driver {
        child: Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
        url: format!("http://127.0.0.1:{port}"),
    };
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Some(driver);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("chromedriver did not listen on {port}");
}

pub(crate) async fn browser(driver: &Driver) -> Client {
    let caps = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": CHROMIUM,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--disable-background-networking", "--window-size=1100,1400"]
        }
    });
    let Value::Object(caps) = caps else {
        unreachable!()
    };
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&driver.url)
        .await
        .expect("a chromium session")
}

pub(crate) async fn screenshot(c: &Client, name: &str) {
    let dir = target_dir().join("browser");
    std::fs::create_dir_all(&dir).unwrap();
    let png = c.screenshot().await.unwrap();
    std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
}

/// Every visible form control has an accessible name (a `<label>`, `aria-label`
/// or `aria-labelledby`; buttons their text), as the browser computes labels.
pub(crate) async fn assert_controls_named(c: &Client) {
    let unnamed = c
        .execute(
            r#"return Array.from(document.querySelectorAll('input, select, textarea, button'))
                .filter(e => e.type !== 'hidden')
                .filter(e => !((e.labels && e.labels.length && Array.from(e.labels).some(l => l.textContent.trim()))
                              || e.getAttribute('aria-label') || e.getAttribute('aria-labelledby')
                              || (e.tagName === 'BUTTON' && e.textContent.trim())))
                .map(e => e.outerHTML);"#,
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(unnamed, json!([]), "controls without an accessible name");
}

/// axe-core over `context` (an axe context; `null`: the whole document)
/// with the WCAG 2 A/AA rules: the violations.
pub(crate) async fn axe_violations(c: &Client, axe: &str, context: Value) -> Value {
    c.execute(axe, vec![]).await.unwrap();
    c.execute_async(
        r#"const done = arguments[arguments.length - 1];
           axe.run(arguments[0] || document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa']}})
              .then(r => done(r.violations.map(v => ({id: v.id, nodes: v.nodes.map(n => n.html)}))))
              .catch(e => done([{id: 'axe-error', nodes: [String(e)]}]));"#,
        vec![context],
    )
    .await
    .unwrap()
}

/// axe-core over the current page: no violations (WCAG 2 A/AA rules).
pub(crate) async fn assert_axe_clean(c: &Client, axe: &str, page: &str) {
    let result = axe_violations(c, axe, Value::Null).await;
    assert_eq!(result, json!([]), "axe-core violations on the {page} page");
}

pub(crate) async fn focus_is_visible(c: &Client, css: &str) -> bool {
    let style = c
        .execute(
            "const e = document.querySelector(arguments[0]); e.focus(); \
             const s = getComputedStyle(e); return [s.outlineStyle, s.outlineWidth];",
            vec![json!(css)],
        )
        .await
        .unwrap();
    style[0] != "none" && style[1] != "0px"
}

/// Waits at most 15 s for an element (a missing page fails instead of hanging).
pub(crate) async fn soon(
    c: &Client,
    locator: Locator<'_>,
) -> Result<fantoccini::elements::Element, fantoccini::error::CmdError> {
    c.wait()
        .at_most(Duration::from_secs(15))
        .for_element(locator)
        .await
}

pub(crate) async fn text(c: &Client) -> String {
    c.find(Locator::Css("main"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

pub(crate) async fn create_link(app: &TestApp, key: &str, body: Value) -> String {
    let res = app.post("/v1/offset-links", key, &body).await;
    assert_eq!(res.status, 200, "{}", res.body);
    res.body["id"].as_str().unwrap().to_owned()
}

/// The window at a phone's width (390 px); how far the page scrolls sideways.
async fn overflow_when_narrow(c: &Client) -> Value {
    c.set_window_size(390, 844).await.unwrap();
    c.execute(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
        vec![],
    )
    .await
    .unwrap()
}

/// No sideways scrolling at a phone's width.
pub(crate) async fn assert_reflows(c: &Client, page: &str) {
    let overflow = overflow_when_narrow(c).await;
    assert_eq!(overflow, json!(0), "{page}: no horizontal scroll at 390 px");
    c.set_window_size(1100, 1400).await.unwrap();
}

/// The window narrowed to a phone's width, where the page does not scroll
/// sideways (the caller widens it again).
pub(crate) async fn assert_narrow_without_sideways_scroll(c: &Client) {
    let overflow = overflow_when_narrow(c).await;
    assert_eq!(overflow, json!(0), "no horizontal scroll at 390 px");
}

/// A browser test's start: chromedriver, and axe-core when installed.
pub(crate) struct Kit {
    driver: Driver,
    axe: Option<String>,
}

/// chromedriver (`None`: the suite is skipped) and axe-core, which `CI=true`
/// requires.
pub(crate) async fn start() -> Option<Kit> {
    let driver = driver().await?;
    let axe = axe_source();
    assert!(
        axe.is_some() || !mandatory(),
        "CI=true: axe-core must be installed in target/axe (.ci/run does it)"
    );
    Some(Kit { driver, axe })
}

impl Kit {
    /// chromedriver with axe-core if it is there, required or not.
    pub(crate) fn lenient(driver: Driver) -> Self {
        Self {
            driver,
            axe: axe_source(),
        }
    }

    pub(crate) fn has_axe(&self) -> bool {
        self.axe.is_some()
    }

    /// A Chromium session on the server at `base`.
    pub(crate) async fn open(&self, base: &str) -> Session<'_> {
        Session {
            c: browser(&self.driver).await,
            axe: self.axe.as_deref(),
            base: base.to_owned(),
        }
    }
}

/// A Chromium session (a [`Client`] by `Deref`) with the page checks and the
/// steps the tests repeat; every step fails the test when it fails.
pub(crate) struct Session<'a> {
    c: Client,
    axe: Option<&'a str>,
    base: String,
}

impl Deref for Session<'_> {
    type Target = Client;

    fn deref(&self) -> &Client {
        &self.c
    }
}

impl Session<'_> {
    /// The page's checks: named controls, axe-core, a screenshot, reflow.
    pub(crate) async fn check(&self, name: &str) {
        assert_controls_named(self).await;
        self.axe(name).await;
        screenshot(self, name).await;
        assert_reflows(self, name).await;
    }

    /// axe-core's script, when it is installed.
    pub(crate) fn axe_source(&self) -> Option<&str> {
        self.axe
    }

    /// axe-core over the page, when it is installed.
    pub(crate) async fn axe(&self, page: &str) {
        if let Some(axe) = self.axe {
            assert_axe_clean(self, axe, page).await;
        }
    }

    /// A screenshot and axe-core, then the same at a phone's width without
    /// sideways scrolling; the window widened again.
    pub(crate) async fn wide_and_narrow(&self, shot: &str, page: &str) {
        screenshot(self, shot).await;
        self.axe(page).await;
        assert_narrow_without_sideways_scroll(self).await;
        screenshot(self, &format!("{shot}-narrow")).await;
        self.axe(&format!("{page} (narrow)")).await;
        self.c.set_window_size(1100, 1400).await.unwrap();
    }

    /// A path on the server.
    pub(crate) async fn visit(&self, path: &str) {
        self.c.goto(&format!("{}{path}", self.base)).await.unwrap();
    }

    pub(crate) async fn click(&self, locator: Locator<'_>) {
        self.c.find(locator).await.unwrap().click().await.unwrap();
    }

    pub(crate) async fn fill(&self, locator: Locator<'_>, keys: &str) {
        self.c
            .find(locator)
            .await
            .unwrap()
            .send_keys(keys)
            .await
            .unwrap();
    }

    /// The element, once it is there (at most 15 s).
    pub(crate) async fn wait(&self, locator: Locator<'_>) -> fantoccini::elements::Element {
        soon(self, locator).await.unwrap()
    }

    /// Presses the button of that text.
    pub(crate) async fn press(&self, button: &str) {
        self.click(Locator::XPath(&format!("//button[text()='{button}']")))
            .await;
    }

    /// A secret shown once: the value of `#secret`, when it is there.
    pub(crate) async fn secret(&self) -> String {
        self.wait(Locator::Id("secret"))
            .await
            .prop("value")
            .await
            .unwrap()
            .unwrap()
    }

    /// The text of the page's `main`.
    pub(crate) async fn text(&self) -> String {
        text(self).await
    }

    /// The sign-in form filled in and sent.
    pub(crate) async fn enter_credentials(&self, email: &str, password: &str) {
        self.fill(Locator::Id("email"), email).await;
        self.fill(Locator::Id("password"), password).await;
        self.press("Sign in").await;
    }

    /// Signs a console user in with the tests' password.
    pub(crate) async fn sign_in(&self, email: &str) {
        self.visit("/console/sign-in").await;
        self.enter_credentials(email, crate::console::PASSWORD)
            .await;
    }

    pub(crate) async fn close(self) {
        self.c.close().await.unwrap();
    }
}
