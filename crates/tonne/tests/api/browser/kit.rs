//! What the browser suite shares: chromedriver and a headless Chromium
//! session, screenshots, the accessible-name and axe-core checks, waits.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

use crate::support::TestApp;

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
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
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

/// axe-core over the current page: no violations (WCAG 2 A/AA rules).
pub(crate) async fn assert_axe_clean(c: &Client, axe: &str, page: &str) {
    c.execute(axe, vec![]).await.unwrap();
    let result = c
        .execute_async(
            r#"const done = arguments[arguments.length - 1];
               axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa']}})
                  .then(r => done(r.violations.map(v => ({id: v.id, nodes: v.nodes.map(n => n.html)}))))
                  .catch(e => done([{id: 'axe-error', nodes: [String(e)]}]));"#,
            vec![],
        )
        .await
        .unwrap();
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

/// No sideways scrolling at a phone's width.
pub(crate) async fn assert_reflows(c: &Client, page: &str) {
    c.set_window_size(390, 844).await.unwrap();
    let overflow = c
        .execute(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(overflow, json!(0), "{page}: no horizontal scroll at 390 px");
    c.set_window_size(1100, 1400).await.unwrap();
}
