//! The hosted pages in a real browser: headless Debian Chromium driven over
//! WebDriver (chromedriver + fantoccini). A customer picks a bundle, enters an
//! email and an amount, confirms and sees the order; a double submit is one
//! order; a declined test card pays nothing; an expired link shows its page.
//! Every form control has an accessible name, and axe-core (installed by
//! `.ci/run` from npm into `target/axe`) finds no violation.
//!
//! Screenshots of each page are written to `target/browser/` to look at.
//! Without chromium/chromedriver (or axe-core) the suite skips with a note,
//! except under `CI=true`, where it is mandatory.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

use crate::support::TestApp;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

fn mandatory() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target")
}

fn axe_source() -> Option<String> {
    let path = std::env::var("TONNE_AXE_JS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| target_dir().join("axe/node_modules/axe-core/axe.min.js"));
    std::fs::read_to_string(path).ok()
}

/// chromedriver on a free port, killed on drop.
struct Driver {
    child: Child,
    url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn driver() -> Option<Driver> {
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

async fn browser(driver: &Driver) -> Client {
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

async fn screenshot(c: &Client, name: &str) {
    let dir = target_dir().join("browser");
    std::fs::create_dir_all(&dir).unwrap();
    let png = c.screenshot().await.unwrap();
    std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
}

/// Every visible form control has an accessible name (a `<label>`, `aria-label`
/// or `aria-labelledby`; buttons their text), as the browser computes labels.
async fn assert_controls_named(c: &Client) {
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
async fn assert_axe_clean(c: &Client, axe: &str, page: &str) {
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

async fn focus_is_visible(c: &Client, css: &str) -> bool {
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
async fn soon(
    c: &Client,
    locator: Locator<'_>,
) -> Result<fantoccini::elements::Element, fantoccini::error::CmdError> {
    c.wait()
        .at_most(Duration::from_secs(15))
        .for_element(locator)
        .await
}

async fn text(c: &Client) -> String {
    c.find(Locator::Css("main"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

pub async fn create_link(app: &TestApp, key: &str, body: Value) -> String {
    let res = app.post("/v1/offset-links", key, &body).await;
    assert_eq!(res.status, 200, "{}", res.body);
    res.body["id"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_customer_funds_a_bundle_in_a_real_browser() {
    let Some(driver) = driver().await else {
        return;
    };
    let axe = axe_source();
    assert!(
        axe.is_some() || !mandatory(),
        "CI=true: axe-core must be installed in target/axe (.ci/run does it)"
    );
    if axe.is_none() {
        eprintln!(
            "note: axe-core is absent (target/axe); the automated accessibility check is skipped"
        );
    }
    let app = TestApp::spawn(tonne_test_support::TestDb::sqlite()).await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let bundles: Vec<String> = app.get("/v1/bundles?limit=3", &t.test_key).await.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_str().unwrap().to_owned())
        .collect();
    let id = create_link(
        &app,
        &t.test_key,
        json!({"name": "Checkout", "title": "Make your trip carbon neutral",
               "description": "Choose a project and an amount.", "bundles": bundles, "use_logo": false}),
    )
    .await;
    let c = browser(&driver).await;

    // 1. the link's page
    c.goto(&format!("{}/l/{id}", app.base)).await.unwrap();
    assert_eq!(c.title().await.unwrap(), "Make your trip carbon neutral");
    screenshot(&c, "01-offset-link").await;
    assert_controls_named(&c).await;
    assert!(focus_is_visible(&c, "#email").await, "visible focus");
    // responsive: on a phone-sized window the page reflows without sideways scrolling
    c.set_window_size(390, 844).await.unwrap();
    let overflow = c
        .execute(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(overflow, json!(0), "no horizontal scroll at 390 px");
    screenshot(&c, "01-offset-link-narrow").await;
    c.set_window_size(1100, 1400).await.unwrap();
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "offset link").await;
    }
    c.find(Locator::Css(&format!("label[for='bundle-{}']", bundles[1])))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    c.find(Locator::Css("#email"))
        .await
        .unwrap()
        .send_keys("jane@example.org")
        .await
        .unwrap();
    c.find(Locator::Css("#amount"))
        .await
        .unwrap()
        .send_keys("30")
        .await
        .unwrap();
    c.find(Locator::Css("button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();

    // 2. the confirmation step, priced by the ordering code
    soon(&c, Locator::XPath("//h2[text()='Confirm your order']"))
        .await
        .unwrap();
    let confirm = text(&c).await;
    assert!(confirm.contains("GBP 30.00"), "{confirm}");
    screenshot(&c, "02-confirm").await;
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "confirmation").await;
    }

    // 3. the order placed — by a double click on the confirm button (two
    // submissions with the same one-time token): one order
    c.execute(
        "const b = document.querySelector('button[type=submit]'); b.click(); b.click();",
        vec![],
    )
    .await
    .unwrap();
    let code = soon(&c, Locator::Css("dd code")).await.unwrap();
    let order_id = code.text().await.unwrap();
    screenshot(&c, "03-placed").await;
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "order placed").await;
    }
    let orders = app
        .get(&format!("/v1/orders?offset_link_id={id}"), &t.test_key)
        .await;
    let data = orders.body["data"].as_array().unwrap();
    assert_eq!(data.len(), 1, "{}", orders.body);
    assert_eq!(data[0]["id"], order_id.as_str());
    assert_eq!(data[0]["email"], "jane@example.org");
    assert_eq!(data[0]["total_cost"], "30.00");

    // a declined test card pays nothing
    let paid_link = create_link(
        &app,
        &t.test_key,
        json!({"name": "Pay", "bundles": [bundles[0]], "value": "15.00", "use_logo": false, "require_payment": true}),
    )
    .await;
    c.goto(&format!("{}/l/{paid_link}", app.base))
        .await
        .unwrap();
    c.find(Locator::Css("#email"))
        .await
        .unwrap()
        .send_keys("sam@example.org")
        .await
        .unwrap();
    c.find(Locator::Css("button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let card = soon(&c, Locator::Css("#card")).await.unwrap();
    assert_controls_named(&c).await;
    card.send_keys("4000 0000 0000 0002").await.unwrap();
    c.find(Locator::Css("button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let alert = soon(&c, Locator::Css("[role=alert]")).await.unwrap();
    assert!(alert.text().await.unwrap().contains("declined"));
    screenshot(&c, "04-declined").await;
    let none = app
        .get(
            &format!("/v1/orders?offset_link_id={paid_link}"),
            &t.test_key,
        )
        .await;
    assert_eq!(none.body["data"], json!([]), "no order for a declined card");

    // an expired link shows its page, without a form
    let expiring = create_link(
        &app,
        &t.test_key,
        json!({"name": "Soon over", "bundles": [bundles[0]], "use_logo": false,
               "expires_at": (time::OffsetDateTime::now_utc() + time::Duration::seconds(2))
                   .format(&time::format_description::well_known::Rfc3339).unwrap()}),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(2_200)).await;
    c.goto(&format!("{}/l/{expiring}", app.base)).await.unwrap();
    let ended = text(&c).await;
    assert!(ended.contains("has ended"), "{ended}");
    assert!(c.find(Locator::Css("form")).await.is_err(), "no form");
    screenshot(&c, "05-expired").await;
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "expired").await;
    }
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_completed_orders_certificate_page_reads_well_in_a_real_browser() {
    let Some(driver) = driver().await else {
        return;
    };
    let axe = axe_source();
    assert!(
        axe.is_some() || !mandatory(),
        "CI=true: axe-core must be installed in target/axe (.ci/run does it)"
    );
    let app = TestApp::spawn(tonne_test_support::TestDb::sqlite()).await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let order = app
        .post(
            "/v1/orders/by-mass",
            &t.live_key,
            &json!({"mass": {"amount": "12.5", "unit": "t"}}),
        )
        .await;
    let id = order.body["id"].as_str().unwrap().to_owned();
    crate::cli::tonne(
        &[
            "orders",
            "advance",
            &id,
            "--to",
            "complete",
            "--registry-serial",
            "VCS-11825-2026",
        ],
        &app.database_url,
    );
    let done = app
        .send(app.request(
            reqwest::Method::GET,
            &format!("/v1/orders/{id}"),
            Some(&t.live_key),
        ))
        .await;
    let url = done.body["public_certificate_url"]
        .as_str()
        .expect("a complete order has a public certificate")
        .to_owned();
    let c = browser(&driver).await;
    c.goto(&url).await.unwrap();
    assert!(
        c.title()
            .await
            .unwrap()
            .starts_with("Certificate of carbon credit retirement"),
    );
    let shown = text(&c).await;
    for needle in ["Acme", "12.5 tonnes of CO₂e", "VCS-11825-2026-1", "Country"] {
        assert!(shown.contains(needle), "{needle:?} missing: {shown}");
    }
    screenshot(&c, "06-certificate").await;
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "certificate").await;
    }
    // a phone: the table becomes one card per project, no sideways scrolling
    c.set_window_size(390, 844).await.unwrap();
    let overflow = c
        .execute(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(overflow, json!(0), "no horizontal scroll at 390 px");
    screenshot(&c, "06-certificate-narrow").await;
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "certificate (narrow)").await;
    }
    c.set_window_size(1100, 1400).await.unwrap();
    // not complete: the page says so, with 404
    let pending = app
        .post(
            "/v1/orders/by-mass",
            &t.live_key,
            &json!({"mass": {"amount": "1", "unit": "t"}}),
        )
        .await;
    c.goto(&format!(
        "{}/certificates/{}",
        app.base,
        pending.body["id"].as_str().unwrap()
    ))
    .await
    .unwrap();
    assert!(text(&c).await.contains("Certificate not found"));
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "certificate not found").await;
    }
    // the PDF, as saved by a person, for a look
    let pdf = app
        .client
        .get(format!("{}/certificates/{id}.pdf", app.base))
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    std::fs::write(target_dir().join("browser/06-certificate.pdf"), &pdf).unwrap();
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sustainability_page_reads_well_in_a_real_browser() {
    let Some(driver) = driver().await else {
        return;
    };
    let axe = axe_source();
    assert!(
        axe.is_some() || !mandatory(),
        "CI=true: axe-core must be installed in target/axe (.ci/run does it)"
    );
    let app = TestApp::spawn(tonne_test_support::TestDb::sqlite()).await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let patched = app
        .send(
            app.request(
                reqwest::Method::PATCH,
                &format!("/v1/accounts/{}", t.live_account),
                Some(&t.live_key),
            )
            .json(&json!({"external_pages_visibility": "public"})),
        )
        .await;
    assert_eq!(patched.status, 200, "{}", patched.body);
    for tonnes in ["12.5", "3.25"] {
        let order = app
            .post(
                "/v1/orders/by-mass",
                &t.live_key,
                &json!({"mass": {"amount": tonnes, "unit": "t"}}),
            )
            .await;
        let id = order.body["id"].as_str().unwrap().to_owned();
        crate::cli::tonne(
            &["orders", "advance", &id, "--to", "complete"],
            &app.database_url,
        );
    }
    let page = app
        .post(
            "/v1/sustainability-pages",
            &t.live_key,
            &json!({
                "status": "enabled", "slug": "acme", "title": "by_volume",
                "description": "by_custom_description",
                "custom_description": "Every parcel we ship is offset <b>in full</b>.",
                "sections": ["bundles_breakdown", "unsdg", "certificates"]
            }),
        )
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    let url = page.body["url"].as_str().unwrap().to_owned();
    let c = browser(&driver).await;
    c.goto(&url).await.unwrap();
    assert_eq!(c.title().await.unwrap(), "Acme — climate impact");
    let shown = text(&c).await;
    for needle in [
        "Acme has retired 15.75 tonnes of CO₂e",
        "Every parcel we ship is offset <b>in full</b>.",
        "By bundle",
        "By project",
        "UN Sustainable Development Goals",
        "Certificates",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing: {shown}");
    }
    let scripts = c
        .execute("return document.scripts.length;", vec![])
        .await
        .unwrap();
    assert_eq!(scripts, json!(0), "no script on the page");
    screenshot(&c, "07-sustainability").await;
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "sustainability page").await;
    }
    c.set_window_size(390, 844).await.unwrap();
    let overflow = c
        .execute(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(overflow, json!(0), "no horizontal scroll at 390 px");
    screenshot(&c, "07-sustainability-narrow").await;
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "sustainability page (narrow)").await;
    }
    c.set_window_size(1100, 1400).await.unwrap();
    // A certificate link leads to the certificate.
    c.find(fantoccini::Locator::Css("ul.certificates a"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert!(
        text(&c)
            .await
            .contains("Certificate of carbon credit retirement"),
        "the certificate page"
    );
    // Unknown: a page that says so, with 404.
    c.goto(&format!("{}/sustainability/live/nobody", app.base))
        .await
        .unwrap();
    assert!(text(&c).await.contains("Page not found"));
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "sustainability page not found").await;
    }
    c.close().await.unwrap();
}

/// The public logistics page of an account with actual shipments (a truck,
/// a ship and a warehouse): its totals by mode and hub, both charts named,
/// every figure in a table, axe-core clean wide and narrow, no script.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_logistics_page_reads_well_in_a_real_browser() {
    let Some(driver) = driver().await else {
        return;
    };
    let axe = axe_source();
    assert!(
        axe.is_some() || !mandatory(),
        "CI=true: axe-core must be installed in target/axe (.ci/run does it)"
    );
    let app = TestApp::spawn(tonne_test_support::TestDb::sqlite()).await;
    let t = app.tenant().await;
    let patched = app
        .send(
            app.request(
                reqwest::Method::PATCH,
                &format!("/v1/accounts/{}", t.live_account),
                Some(&t.live_key),
            )
            .json(&json!({"external_pages_visibility": "public"})),
        )
        .await;
    assert_eq!(patched.status, 200, "{}", patched.body);
    let multi = app
        .post(
            "/v1/estimates/shipping/multi-leg",
            &t.live_key,
            &json!({"shipment": {"mass": {"amount": "10", "unit": "t"}}, "is_shipment": true,
                "legs": [{"route": {"amount": "100", "unit": "km"}, "method": "diesel_truck"},
                         {"route": {"amount": "1000", "unit": "km"}, "method": {"vessel_type": "container_ship"}},
                         {"method": "warehouse_ambient"}]}),
        )
        .await;
    assert_eq!(multi.status, 200, "{}", multi.body);
    let c = browser(&driver).await;
    c.goto(&format!("{}/logistics/{}", app.base, t.live_account))
        .await
        .unwrap();
    assert_eq!(c.title().await.unwrap(), "Acme — logistics emissions");
    let shown = text(&c).await;
    for needle in [
        "By mode and hub",
        "Month by month",
        "Carbon intensity",
        "hubs",
        "Download these figures (CSV)",
    ] {
        assert!(shown.contains(needle), "{needle:?} missing: {shown}");
    }
    let charts = c
        .execute(
            "return document.querySelectorAll('svg[role=img] > title').length;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(charts, json!(2), "both charts are named");
    let scripts = c
        .execute("return document.scripts.length;", vec![])
        .await
        .unwrap();
    assert_eq!(scripts, json!(0), "no script on the page");
    screenshot(&c, "08-logistics").await;
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "logistics page").await;
    }
    assert_reflows(&c, "logistics page").await;
    c.set_window_size(390, 844).await.unwrap();
    screenshot(&c, "08-logistics-narrow").await;
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "logistics page (narrow)").await;
    }
    c.set_window_size(1100, 1400).await.unwrap();
    c.goto(&format!(
        "{}/logistics/0123456789abcdef0123456789abcdef",
        app.base
    ))
    .await
    .unwrap();
    assert!(text(&c).await.contains("Page not found"));
    c.close().await.unwrap();
}

/// No sideways scrolling at a phone's width.
async fn assert_reflows(c: &Client, page: &str) {
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operator_fulfils_a_live_order_in_the_console_in_a_real_browser() {
    let Some(driver) = driver().await else {
        return;
    };
    let axe = axe_source();
    assert!(
        axe.is_some() || !mandatory(),
        "CI=true: axe-core must be installed in target/axe (.ci/run does it)"
    );
    let app = TestApp::spawn(tonne_test_support::TestDb::sqlite()).await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    // A webhook whose receiver is gone: the operator's webhooks page shows it.
    let rx = crate::webhooks::Receiver::start(crate::webhooks::Behaviour::Status(500));
    let hook = app
        .post(
            "/v1/webhooks",
            &t.live_key,
            &json!({ "url": format!("{}/hook", rx.base) }),
        )
        .await;
    let hook_id = hook.body["id"].as_str().unwrap().to_owned();
    let order = app
        .post(
            "/v1/orders/by-mass",
            &t.live_key,
            &json!({"mass": {"amount": "4", "unit": "t"}}),
        )
        .await;
    let id = order.body["id"].as_str().unwrap().to_owned();
    crate::console::operator(&app, "operator@example.org").await;
    let c = browser(&driver).await;
    let check = |name: &'static str| {
        let (c, axe) = (&c, &axe);
        async move {
            assert_controls_named(c).await;
            if let Some(axe) = axe {
                assert_axe_clean(c, axe, name).await;
            }
            screenshot(c, name).await;
            assert_reflows(c, name).await;
        }
    };

    // Signed out, the console sends a visitor to sign in.
    c.goto(&format!("{}/console/orders", app.base))
        .await
        .unwrap();
    soon(&c, Locator::Css("form[action='/console/sign-in']"))
        .await
        .unwrap();
    check("07-console-sign-in").await;
    c.find(Locator::Id("email"))
        .await
        .unwrap()
        .send_keys("operator@example.org")
        .await
        .unwrap();
    c.find(Locator::Id("password"))
        .await
        .unwrap()
        .send_keys("wrong horse battery")
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Sign in']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Css("p.error")).await.unwrap();
    assert!(text(&c).await.contains("The email or password is wrong."));
    check("08-console-sign-in-refused").await;
    c.find(Locator::Id("password"))
        .await
        .unwrap()
        .send_keys("correct horse battery")
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Sign in']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::LinkText("Orders")).await.unwrap();
    assert!(text(&c).await.contains("Signed in as operator@example.org"));
    check("09-console-overview").await;

    // The queue shows the live order; its page has the actions.
    c.find(Locator::LinkText("Orders"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::LinkText(&id)).await.unwrap();
    check("10-console-orders").await;
    c.find(Locator::LinkText(&id))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::XPath("//button[text()='Mark paid']"))
        .await
        .unwrap();
    check("11-console-order-received").await;
    c.find(Locator::XPath("//button[text()='Mark paid']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("serial")).await.unwrap();
    c.find(Locator::Id("serial"))
        .await
        .unwrap()
        .send_keys("GS-4471-2026")
        .await
        .unwrap();
    check("12-console-order-paid").await;
    c.find(Locator::XPath("//button[text()='Start retirement']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::XPath("//button[text()='Complete']"))
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Complete']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::LinkText("Certificate")).await.unwrap();
    let shown = text(&c).await;
    assert!(shown.contains("GS-4471-2026-1"), "{shown}");
    check("13-console-order-complete").await;
    c.find(Locator::LinkText("Certificate"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Css("table")).await.unwrap();
    assert!(text(&c).await.contains("GS-4471-2026-1"));

    // Organisations: create one (its keys shown once) and invite a member.
    c.goto(&format!("{}/console/organisations", app.base))
        .await
        .unwrap();
    soon(&c, Locator::Id("name")).await.unwrap();
    check("19-console-organisations").await;
    c.find(Locator::Id("name"))
        .await
        .unwrap()
        .send_keys("Initech")
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Create organisation']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("live-key")).await.unwrap();
    check("20-console-organisation-created").await;
    c.find(Locator::LinkText("Go to the organisation"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("email")).await.unwrap();
    check("21-console-organisation").await;
    c.find(Locator::Id("email"))
        .await
        .unwrap()
        .send_keys("milton@initech.example")
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Invite member']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("link")).await.unwrap();
    check("22-console-member-invited").await;
    // An account's default selection, from the organisation's page.
    c.back().await.unwrap();
    soon(&c, Locator::Id("email")).await.unwrap();
    c.find(Locator::XPath(
        "(//a[starts-with(normalize-space(.), 'Change')])[1]",
    ))
    .await
    .unwrap()
    .click()
    .await
    .unwrap();
    soon(&c, Locator::XPath("//button[text()='Save selection']"))
        .await
        .unwrap();
    check("22b-console-account-selection").await;

    // The audit log: what this operator just did, newest first, by the nav.
    c.find(Locator::LinkText("Audit log"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("actor")).await.unwrap();
    let shown = text(&c).await;
    for action in ["user.created", "organisation.created", "order.complete"] {
        assert!(
            shown.contains(action),
            "the audit log shows {action}: {shown}"
        );
    }
    assert!(shown.contains("GS-4471-2026-1"), "the serial, as recorded");
    check("23-console-audit-log").await;
    c.find(Locator::Id("action"))
        .await
        .unwrap()
        .send_keys("order.")
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Filter']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Css("input#action[value='order.']"))
        .await
        .unwrap();
    let filtered = text(&c).await;
    assert!(filtered.contains("order.paid") && !filtered.contains("organisation.created"));

    // The catalogue: add stock with a reason; the ledger shows it.
    c.find(Locator::LinkText("Catalogue"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::LinkText("Direct Air Capture"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("quantity")).await.unwrap();
    check("24-console-bundle").await;
    c.find(Locator::Id("quantity"))
        .await
        .unwrap()
        .send_keys("25")
        .await
        .unwrap();
    c.find(Locator::Id("reason"))
        .await
        .unwrap()
        .send_keys("Bought 25 t from the registry")
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Change stock']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(
        &c,
        Locator::XPath("//td[text()='Bought 25 t from the registry']"),
    )
    .await
    .unwrap();
    check("25-console-bundle-stock-changed").await;
    c.goto(&format!("{}/console/catalogue", app.base))
        .await
        .unwrap();
    soon(&c, Locator::Css("table")).await.unwrap();
    check("26-console-catalogue").await;

    // Webhooks across the installation: health, then one webhook's page.
    crate::webhooks::wait_for("a failed attempt", Duration::from_secs(30), || {
        !rx.received().is_empty()
    })
    .await;
    c.find(Locator::LinkText("Webhooks"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Css("table")).await.unwrap();
    check("27-console-installation-webhooks").await;
    c.goto(&format!("{}/console/webhooks/{hook_id}", app.base))
        .await
        .unwrap();
    soon(
        &c,
        Locator::XPath("//button[text()='Skip undelivered events']"),
    )
    .await
    .unwrap();
    assert!(text(&c).await.contains("HTTP 500"));
    check("28-console-installation-webhook").await;

    // Limits per account: every organisation's usage, and one's form.
    c.goto(&format!("{}/console/limits", app.base))
        .await
        .unwrap();
    soon(&c, Locator::Css("table")).await.unwrap();
    check("29-console-limits").await;
    c.goto(&format!(
        "{}/console/limits/{}",
        app.base, t.organisation_id
    ))
    .await
    .unwrap();
    soon(&c, Locator::Id("max_pending_batches")).await.unwrap();
    check("30-console-organisation-limits").await;

    // Signing out ends the session: the queue asks to sign in again.
    c.goto(&format!("{}/console/", app.base)).await.unwrap();
    c.find(Locator::XPath("//button[text()='Sign out']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Css("form[action='/console/sign-in']"))
        .await
        .unwrap();
    c.goto(&format!("{}/console/orders", app.base))
        .await
        .unwrap();
    soon(&c, Locator::Css("form[action='/console/sign-in']"))
        .await
        .unwrap();
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_creates_a_key_and_replays_a_webhook_in_a_real_browser() {
    let Some(driver) = driver().await else {
        return;
    };
    let axe = axe_source();
    assert!(
        axe.is_some() || !mandatory(),
        "CI=true: axe-core must be installed in target/axe (.ci/run does it)"
    );
    let app = TestApp::spawn(tonne_test_support::TestDb::sqlite()).await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    crate::console::member(&app, "ada@acme.example", &t.organisation_id).await;
    let rx = crate::webhooks::Receiver::start(crate::webhooks::Behaviour::Status(503));
    let hook = app
        .post(
            "/v1/webhooks",
            &t.live_key,
            &json!({ "url": format!("{}/hook", rx.base) }),
        )
        .await;
    let hook_id = hook.body["id"].as_str().unwrap().to_owned();
    app.post(
        "/v1/orders/by-mass",
        &t.live_key,
        &json!({"mass": {"amount": "2", "unit": "t"}}),
    )
    .await;
    let c = browser(&driver).await;
    let check = |name: &'static str| {
        let (c, axe) = (&c, &axe);
        async move {
            assert_controls_named(c).await;
            if let Some(axe) = axe {
                assert_axe_clean(c, axe, name).await;
            }
            screenshot(c, name).await;
            assert_reflows(c, name).await;
        }
    };
    c.goto(&format!("{}/console/sign-in", app.base))
        .await
        .unwrap();
    c.find(Locator::Id("email"))
        .await
        .unwrap()
        .send_keys("ada@acme.example")
        .await
        .unwrap();
    c.find(Locator::Id("password"))
        .await
        .unwrap()
        .send_keys("correct horse battery")
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Sign in']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::LinkText("API keys")).await.unwrap();
    // The organisation's orders, read-only, with the live/test switch.
    c.find(Locator::LinkText("Orders"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Css("table")).await.unwrap();
    assert!(text(&c).await.contains("Orders (live)"));
    check("13b-console-member-orders").await;
    c.find(Locator::LinkText("API keys"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::XPath("//button[text()='Create a live key']"))
        .await
        .unwrap();
    check("14-console-keys").await;
    c.find(Locator::XPath("//button[text()='Create a live key']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let secret = soon(&c, Locator::Id("secret"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    assert!(secret.starts_with("tonne_live_"));
    check("15-console-key-created").await;

    // PACT credentials for the live account: the form, then the secret once.
    c.find(Locator::LinkText("PACT"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("label")).await.unwrap();
    check("15b-console-pact").await;
    c.find(Locator::Id("label"))
        .await
        .unwrap()
        .send_keys("Carrier portal")
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Create credentials']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let pact_secret = soon(&c, Locator::Id("secret"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    assert!(pact_secret.starts_with("tonne_pact_"));
    check("15c-console-pact-created").await;

    // The failing webhook's log, then a replay once the receiver is fixed.
    c.goto(&format!("{}/console/webhooks", app.base))
        .await
        .unwrap();
    soon(&c, Locator::Css("table")).await.unwrap();
    check("16-console-webhooks").await;
    let page = format!("{}/console/webhooks/{hook_id}?mode=live", app.base);
    let mut failed = false;
    for _ in 0..50 {
        c.goto(&page).await.unwrap();
        if text(&c).await.contains("HTTP 503") {
            failed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(failed, "the failed attempt shows in the log");
    check("17-console-webhook-failing").await;
    rx.set(crate::webhooks::Behaviour::Status(200));
    let since = (time::OffsetDateTime::now_utc() - time::Duration::hours(1))
        .format(time::macros::format_description!(
            "[year]-[month]-[day]T[hour]:[minute]"
        ))
        .unwrap();
    c.execute(
        "document.getElementById('since').value = arguments[0];",
        vec![json!(since)],
    )
    .await
    .unwrap();
    c.find(Locator::XPath("//button[text()='Replay events']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Css("p.notice")).await.unwrap();
    assert!(text(&c).await.contains("will be sent again"));
    check("18-console-webhook-replayed").await;

    // A new webhook from the console: its secret shown once.
    c.goto(&format!("{}/console/webhooks?mode=live", app.base))
        .await
        .unwrap();
    soon(&c, Locator::Id("url")).await.unwrap();
    c.find(Locator::Id("url"))
        .await
        .unwrap()
        .send_keys(&format!("{}/second", rx.base))
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Add webhook']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("secret")).await.unwrap();
    check("29-console-webhook-added").await;

    // A test event to the first webhook: the receiver's answer on its page.
    c.goto(&page).await.unwrap();
    c.find(Locator::XPath("//button[text()='Send test event']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("test-result")).await.unwrap();
    assert!(
        text(&c)
            .await
            .contains("The receiver acknowledged the test event: HTTP 200")
    );
    check("34-console-webhook-test-event").await;

    // A client account, created from the console.
    c.goto(&format!("{}/console/client-accounts", app.base))
        .await
        .unwrap();
    soon(&c, Locator::Id("name")).await.unwrap();
    c.find(Locator::Id("name"))
        .await
        .unwrap()
        .send_keys("Corner shop")
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Create client account']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Css("p.notice")).await.unwrap();
    assert!(
        text(&c)
            .await
            .contains("Client account Corner shop created.")
    );
    check("35-console-client-accounts").await;

    // Estimates, and one explained.
    let estimate = app
        .post(
            "/v1/estimates/electricity",
            &t.live_key,
            &json!({"consumption": {"amount": "2", "unit": "MWh"}, "country_code": "GBR"}),
        )
        .await;
    let estimate_id = estimate.body["id"].as_str().unwrap().to_owned();
    c.goto(&format!("{}/console/estimates", app.base))
        .await
        .unwrap();
    soon(&c, Locator::LinkText(&estimate_id)).await.unwrap();
    check("30-console-estimates").await;
    c.find(Locator::LinkText(&estimate_id))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::XPath("//h2[text()='How it was computed']"))
        .await
        .unwrap();
    check("31-console-estimate").await;

    // Offset links, and one link's analytics chart.
    let bundles = app.bundle_ids(&t.live_key).await;
    let link = app
        .post(
            "/v1/offset-links",
            &t.live_key,
            &json!({"name": "Checkout", "bundles": [bundles[0]], "value": "12.50", "use_logo": false, "require_payment": false}),
        )
        .await;
    assert_eq!(link.status, 200, "{}", link.body);
    c.goto(&format!("{}/console/offset-links", app.base))
        .await
        .unwrap();
    soon(&c, Locator::LinkText("Checkout")).await.unwrap();
    check("32-console-offset-links").await;
    c.find(Locator::LinkText("Checkout"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Css("figure.chart svg")).await.unwrap();
    check("33-console-offset-link").await;

    // A new link from the console, with the first bundle, then switched off.
    c.goto(&format!("{}/console/offset-links", app.base))
        .await
        .unwrap();
    soon(&c, Locator::Id("link-name")).await.unwrap();
    c.find(Locator::Id("link-name"))
        .await
        .unwrap()
        .send_keys("Newsletter")
        .await
        .unwrap();
    c.find(Locator::Id(&format!("bundle-{}", bundles[0])))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    check("36-console-offset-link-form").await;
    c.find(Locator::XPath("//button[text()='Create offset link']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::XPath("//button[text()='Switch the link off']"))
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Switch the link off']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::XPath("//button[text()='Switch the link on']"))
        .await
        .unwrap();
    check("37-console-offset-link-switched-off").await;

    // Impact: the account's figures and its sustainability page, linked.
    let page = app
        .post(
            "/v1/sustainability-pages",
            &t.live_key,
            &json!({"status": "enabled", "slug": "console-impact", "title": "by_volume", "sections": ["bundles_breakdown"]}),
        )
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    c.goto(&format!("{}/console/impact", app.base))
        .await
        .unwrap();
    soon(&c, Locator::LinkText("Open the public page"))
        .await
        .unwrap();
    let shown = text(&c).await;
    assert!(shown.contains("console-impact"), "{shown}");
    check("38-console-impact").await;
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_uploads_a_data_sheet_and_reads_its_shipments_in_a_real_browser() {
    let Some(driver) = driver().await else {
        return;
    };
    let axe = axe_source();
    assert!(
        axe.is_some() || !mandatory(),
        "CI=true: axe-core must be installed in target/axe (.ci/run does it)"
    );
    let app = TestApp::spawn(tonne_test_support::TestDb::sqlite()).await;
    let t = app.tenant().await;
    crate::console::member(&app, "ada@acme.example", &t.organisation_id).await;
    let files = tempfile::tempdir().unwrap();
    let bad = files.path().join("bad legs.csv");
    std::fs::write(
        &bad,
        "shipment_id,carriage,mode,train_type,distance_km,colour\nA,main,rail,diesel_freight_train,\"1,5\",red\nA,middle,rail,diesel_freight_train,10,\n",
    )
    .unwrap();
    let good = files.path().join("march legs.csv");
    std::fs::write(&good, tonne_wire::data_sheet::TEMPLATE).unwrap();
    let c = browser(&driver).await;
    let check = |name: &'static str| {
        let (c, axe) = (&c, &axe);
        async move {
            assert_controls_named(c).await;
            if let Some(axe) = axe {
                assert_axe_clean(c, axe, name).await;
            }
            screenshot(c, name).await;
            assert_reflows(c, name).await;
        }
    };
    c.goto(&format!("{}/console/sign-in", app.base))
        .await
        .unwrap();
    c.find(Locator::Id("email"))
        .await
        .unwrap()
        .send_keys("ada@acme.example")
        .await
        .unwrap();
    c.find(Locator::Id("password"))
        .await
        .unwrap()
        .send_keys("correct horse battery")
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Sign in']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::LinkText("Shipments")).await.unwrap();
    c.find(Locator::LinkText("Shipments"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::XPath("//button[text()='Filter']"))
        .await
        .unwrap();
    assert!(text(&c).await.contains("No shipment matches."));
    check("39-console-shipments-empty").await;

    // A data sheet with problems: listed by line and column, nothing uploaded.
    c.find(Locator::LinkText("Batches and data sheets"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("file")).await.unwrap();
    c.find(Locator::Id("file"))
        .await
        .unwrap()
        .send_keys(bad.to_str().unwrap())
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Upload data sheet']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("sheet-problems")).await.unwrap();
    let shown = text(&c).await;
    assert!(
        shown.contains("Line 1, column colour: unknown column"),
        "{shown}"
    );
    assert!(shown.contains("Line 2, column distance_km"), "{shown}");
    assert!(shown.contains("Line 3, column carriage"), "{shown}");
    check("40-console-data-sheet-problems").await;

    // The template: a batch, processed in the background.
    c.find(Locator::Id("file"))
        .await
        .unwrap()
        .send_keys(good.to_str().unwrap())
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Upload data sheet']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::XPath("//h1[text()='Shipment batch']"))
        .await
        .unwrap();
    let batch = c.current_url().await.unwrap();
    let mut processed = false;
    for _ in 0..100 {
        if text(&c).await.contains("Rows stored\n3") {
            processed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        c.goto(batch.as_str()).await.unwrap();
    }
    assert!(processed, "the batch is processed: {}", text(&c).await);
    check("41-console-shipment-batch").await;
    c.find(Locator::LinkText("Back to the batches"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Css("table")).await.unwrap();
    assert!(text(&c).await.contains("march legs.csv"));
    check("42-console-shipment-batches").await;

    // The shipments, filtered, and one shipment's legs.
    c.find(Locator::LinkText("Shipments"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::LinkText("PO-1001")).await.unwrap();
    check("43-console-shipments").await;
    c.find(Locator::LinkText("PO-1001"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::XPath("//h1[text()='Shipment PO-1001']"))
        .await
        .unwrap();
    let shown = text(&c).await;
    assert!(shown.contains("Well-to-wheel (total)"), "{shown}");
    check("44-console-shipment").await;
    c.execute(
        "Array.from(document.querySelectorAll('h2')).find(h => h.textContent === 'Legs').scrollIntoView();",
        vec![],
    )
    .await
    .unwrap();
    screenshot(&c, "45-console-shipment-legs").await;
    c.close().await.unwrap();
}
