//! The console over HTTP, on both stores: sessions, CSRF, the operator's queue
//! and an order's actions (each writing its event: the member's webhook
//! receiver gets them signed), setup links, and what members may not see.

use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::{COOKIE, LOCATION, SET_COOKIE};
use serde_json::json;
use tonne_accounts::users::{NewUser, Password, Role};
use tonne_kernel::{Actor, AuditFilter, PageRequest};
use tonne_test_support::on_both_backends;

use crate::support::TestApp;
use crate::webhooks::{Behaviour, Receiver, verify_all, wait_for};

const PASSWORD: &str = "correct horse battery";

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
            http: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap(),
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

pub(crate) async fn operator(app: &TestApp, email: &str) {
    app.services
        .users
        .create(
            NewUser {
                email: email.parse().unwrap(),
                role: Role::Operator,
            },
            Some(Password::new(PASSWORD).unwrap()),
            &tonne_kernel::Actor::CommandLine,
        )
        .await
        .unwrap();
}

async fn signed_out_visitors_are_sent_to_sign_in_and_wrong_credentials_get_one_answer(
    app: TestApp,
) {
    let v = Visitor::new(&app);
    for path in [
        "/console/",
        "/console/orders",
        "/console/orders/0190c6f1a7b27c3e9f2d4b1a2c3d4e5f",
    ] {
        let page = v.get(path).await;
        assert_eq!(page.status, 303, "{path}");
        assert_eq!(page.location.as_deref(), Some("/console/sign-in"), "{path}");
    }
    let form = v.get("/console/sign-in").await;
    for label in [
        r#"<label for="email">Email</label>"#,
        r#"<label for="password">Password</label>"#,
        ">Sign in</button>",
    ] {
        assert!(form.html.contains(label), "{label}");
    }
    operator(&app, "op@example.org").await;
    let mut v = Visitor::new(&app);
    let wrong = v.sign_in("op@example.org", "wrong horse battery").await;
    let unknown = v.sign_in("nobody@example.org", PASSWORD).await;
    for page in [&wrong, &unknown] {
        assert_eq!(page.status, 401);
        assert!(page.html.contains("The email or password is wrong."));
        assert!(
            page.set_cookies
                .iter()
                .all(|c| !c.starts_with("tonne_session="))
        );
    }
    // A POST without the form's token is refused and signs nobody in.
    let forged = v
        .post(
            "/console/sign-in",
            &[("email", "op@example.org"), ("password", PASSWORD)],
        )
        .await;
    assert_eq!(forged.status, 403);
    assert!(v.session.is_none());

    let ok = v.sign_in("op@example.org", PASSWORD).await;
    assert_eq!(ok.status, 303);
    assert_eq!(ok.location.as_deref(), Some("/console/"));
    let cookie = ok
        .set_cookies
        .iter()
        .find(|c| c.starts_with("tonne_session="))
        .unwrap();
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/console"] {
        assert!(cookie.contains(attribute), "{cookie}");
    }
    let first = v.session.clone().unwrap();
    let overview = v.get("/console/").await;
    assert_eq!(overview.status, 200);
    assert!(overview.html.contains("Signed in as op@example.org"));
    // Every sign-in is a new token.
    v.sign_in("op@example.org", PASSWORD).await;
    assert_ne!(v.session.as_deref(), Some(first.as_str()));

    // Sign-out needs the session's token, then deletes the session server-side.
    let csrf = v.get("/console/").await.csrf();
    assert_eq!(
        v.post("/console/sign-out", &[("csrf", "forged")])
            .await
            .status,
        403
    );
    let out = v.post("/console/sign-out", &[("csrf", &csrf)]).await;
    assert_eq!(out.status, 303);
    assert!(out.set_cookies.iter().any(|c| c.contains("Max-Age=0")));
    assert_eq!(
        v.get("/console/").await.status,
        303,
        "the old cookie opens nothing"
    );

    // Disabling a user ends their sessions at once.
    let mut again = Visitor::new(&app);
    again.sign_in("op@example.org", PASSWORD).await;
    assert_eq!(again.get("/console/").await.status, 200);
    app.services
        .users
        .disable(
            &"op@example.org".parse().unwrap(),
            &tonne_kernel::Actor::CommandLine,
        )
        .await
        .unwrap();
    assert_eq!(again.get("/console/").await.status, 303);
    assert_eq!(again.sign_in("op@example.org", PASSWORD).await.status, 401);
}

async fn an_operator_fulfils_a_live_order_and_the_members_webhook_gets_every_event(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let rx = Receiver::start(Behaviour::Status(200));
    let hook = app
        .post(
            "/v1/webhooks",
            &t.live_key,
            &json!({ "url": format!("{}/hook", rx.base) }),
        )
        .await;
    assert_eq!(hook.status, 200, "{}", hook.body);
    let order = app
        .post(
            "/v1/orders/by-mass",
            &t.live_key,
            &json!({ "mass": { "amount": "3", "unit": "t" } }),
        )
        .await;
    assert_eq!(order.status, 200, "{}", order.body);
    let id = order.body["id"].as_str().unwrap().to_owned();

    operator(&app, "op@example.org").await;
    let mut v = Visitor::new(&app);
    v.sign_in("op@example.org", PASSWORD).await;
    let queue = v.get("/console/orders").await;
    assert_eq!(queue.status, 200);
    assert!(queue.html.contains(&format!("/console/orders/{id}")));
    let mine = v
        .get(&format!(
            "/console/orders?organisation={}&status=received",
            t.organisation_id
        ))
        .await;
    assert!(mine.html.contains(&id));
    let other = v.get("/console/orders?status=paid").await;
    assert!(!other.html.contains(&id));
    let bad = v.get("/console/orders?status=complete").await;
    assert_eq!(bad.status, 400);
    assert!(bad.html.contains("choose one of the listed statuses"));

    let page = v.get(&format!("/console/orders/{id}")).await;
    assert_eq!(page.status, 200);
    let csrf = page.csrf();
    let advance = format!("/console/orders/{id}/advance");
    // Without the session's token nothing changes.
    assert_eq!(v.post(&advance, &[("to", "paid")]).await.status, 403);
    assert_eq!(
        v.post(&advance, &[("csrf", "x"), ("to", "paid")])
            .await
            .status,
        403
    );
    let order_path = format!("/v1/orders/{id}");
    let status = || async { app.get(&order_path, &t.live_key).await.body["status"].clone() };
    assert_eq!(status().await, "received");

    for (to, serial) in [
        ("paid", ""),
        ("paid", ""),
        ("retiring", "VCS-9001"),
        ("complete", ""),
    ] {
        let done = v
            .post(&advance, &[("csrf", &csrf), ("to", to), ("serial", serial)])
            .await;
        assert_eq!(done.status, 303, "{to}: {}", done.html);
    }
    let complete = app.get(&format!("/v1/orders/{id}"), &t.live_key).await;
    assert_eq!(complete.body["status"], "complete");
    assert!(
        complete.body["projects"]
            .as_array()
            .is_some_and(|p| !p.is_empty())
    );
    // An action the state machine refuses changes nothing and says why.
    let late = v
        .post(&advance, &[("csrf", &csrf), ("to", "cancelled")])
        .await;
    assert_eq!(late.status, 409);
    assert!(
        late.html
            .contains("Nothing was changed: an order cannot go from complete to cancelled.")
    );
    assert_eq!(status().await, "complete");
    let certificate = app
        .client
        .get(format!("{}/certificates/{id}", app.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        certificate.contains("VCS-9001-1"),
        "the certificate shows the serials"
    );

    // The double "paid" submit acted once: received → placed → paid → retiring → complete.
    wait_for("five order events", Duration::from_secs(30), || {
        rx.events("/hook").len() >= 5
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let kinds: Vec<String> = rx
        .events("/hook")
        .iter()
        .map(|e| e.3["event_type"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        kinds,
        [
            "order.received",
            "order.placed",
            "order.paid",
            "order.retiring",
            "order.completed"
        ],
        "each step's event, once"
    );
    verify_all(&rx.received(), hook.body["secret"].as_str().unwrap());

    // Each step is in the audit log, by the operator, in the organisation, with
    // the status before and after; the refused cancellation is not.
    let log = app
        .services
        .audit
        .list(
            AuditFilter {
                object_id: Some(id.clone()),
                ..AuditFilter::default()
            },
            PageRequest::first(),
        )
        .await
        .unwrap();
    let steps: Vec<(&str, Option<&str>, Option<&str>)> = log
        .items
        .iter()
        .map(|e| {
            assert_eq!(e.actor, Actor::person("op@example.org"));
            assert_eq!(e.organisation, t.organisation_id.parse().ok());
            (
                e.action.as_str(),
                e.before.get("status"),
                e.after.get("status"),
            )
        })
        .collect();
    assert_eq!(
        steps,
        [
            ("order.complete", Some("retiring"), Some("complete")),
            ("order.retiring", Some("paid"), Some("retiring")),
            ("order.paid", Some("placed"), Some("paid")),
            ("order.placed", Some("received"), Some("placed")),
        ]
    );
    let page = v.get(&format!("/console/audit?object={id}")).await;
    assert_eq!(page.status, 200);
    for shown in [
        "order.complete",
        "order.placed",
        "op@example.org",
        "VCS-9001-1",
    ] {
        assert!(page.html.contains(shown), "the audit page shows {shown}");
    }
    assert!(!page.html.contains("order.cancelled"));
    let by_action = v.get("/console/audit?action=order.ret").await;
    assert!(by_action.html.contains("order.retiring"));
    assert!(!by_action.html.contains("order.placed"));
    let bad = v.get("/console/audit?organisation=acme").await;
    assert_eq!(bad.status, 400);
    assert!(bad.html.contains("Organisation: not an organisation id"));
}

async fn a_setup_link_sets_a_password_once_and_members_see_no_operator_page(app: TestApp) {
    let t = app.tenant().await;
    let created = app
        .services
        .users
        .create(
            NewUser {
                email: "ada@example.org".parse().unwrap(),
                role: Role::Member(t.organisation_id.parse().unwrap()),
            },
            None,
            &tonne_kernel::Actor::CommandLine,
        )
        .await
        .unwrap();
    let token = created.setup_token.unwrap();
    let v = Visitor::new(&app);
    let path = format!("/console/setup/{}", token.expose());
    assert_eq!(v.get(&path).await.status, 200);
    let short = v
        .post(&path, &[("password", "short"), ("confirm", "short")])
        .await;
    assert_eq!(short.status, 400);
    assert!(short.html.contains("at least 12 characters"));
    let differ = v
        .post(
            &path,
            &[("password", PASSWORD), ("confirm", "something else!")],
        )
        .await;
    assert_eq!(differ.status, 400);
    let set = v
        .post(&path, &[("password", PASSWORD), ("confirm", PASSWORD)])
        .await;
    assert_eq!(set.status, 200, "{}", set.html);
    let again = v
        .post(&path, &[("password", PASSWORD), ("confirm", PASSWORD)])
        .await;
    assert_eq!(again.status, 404, "a setup link works once");

    let mut member = Visitor::new(&app);
    assert_eq!(
        member.sign_in("ada@example.org", PASSWORD).await.status,
        303
    );
    let overview = member.get("/console/").await;
    assert_eq!(overview.status, 200);
    // A member's Orders are the organisation's, not the operator's queue.
    let orders = member.get("/console/orders").await;
    assert_eq!(orders.status, 200);
    assert!(orders.html.contains("Orders (live)"));
    assert!(!orders.html.contains("Orders waiting for action"));
    let csrf = overview.csrf();
    let poke = member
        .post(
            "/console/orders/0190c6f1a7b27c3e9f2d4b1a2c3d4e5f/advance",
            &[("csrf", &csrf), ("to", "paid")],
        )
        .await;
    assert_eq!(poke.status, 404);
    assert_eq!(
        member.get("/console/audit").await.status,
        404,
        "the audit log is the operator's"
    );
}

/// The id in the first console link to `/console/catalogue/{id}` whose text is `name`.
fn bundle_link(html: &str, name: &str) -> String {
    let end = html
        .find(&format!("\">{name}</a>"))
        .expect("a link to the bundle");
    let start = html[..end].rfind("/console/catalogue/").unwrap() + "/console/catalogue/".len();
    html[start..end].to_owned()
}

async fn an_operator_changes_stock_with_a_reason_and_takes_a_bundle_off_sale(app: TestApp) {
    app.demo_catalogue().await;
    operator(&app, "op@example.org").await;
    let mut v = Visitor::new(&app);
    v.sign_in("op@example.org", PASSWORD).await;
    let list = v.get("/console/catalogue").await;
    assert_eq!(list.status, 200);
    assert!(list.html.contains("Direct Air Capture") && list.html.contains("500 t"));
    let id = bundle_link(&list.html, "Direct Air Capture");
    let here = format!("/console/catalogue/{id}");
    let page = v.get(&here).await;
    assert_eq!(page.status, 200);
    let csrf = page.csrf();
    let stock = format!("{here}/stock");
    let bundle_path = format!("/v1/bundles/{id}");
    let t = app.tenant().await;
    let available =
        || async { app.get(&bundle_path, &t.live_key).await.body["available_quantity"].clone() };
    assert_eq!(available().await, "500");

    // Refused, with the message, and nothing written: no token, a bad
    // quantity, no reason, more than is left.
    assert_eq!(
        v.post(
            &stock,
            &[("direction", "add"), ("quantity", "1"), ("reason", "x")]
        )
        .await
        .status,
        403
    );
    for (form, message) in [
        (
            [
                ("direction", "add"),
                ("quantity", "-3"),
                ("reason", "bought"),
            ],
            "Quantity: a positive number of tonnes",
        ),
        (
            [("direction", "add"), ("quantity", "3"), ("reason", "  ")],
            "Reason: say why the stock changes.",
        ),
        (
            [
                ("direction", "remove"),
                ("quantity", "501"),
                ("reason", "gone"),
            ],
            "Quantity: only 500 t are available; nothing was removed.",
        ),
    ] {
        let mut fields = vec![("csrf", csrf.as_str())];
        fields.extend(form);
        let refused = v.post(&stock, &fields).await;
        assert_eq!(refused.status, 400, "{form:?}");
        assert!(
            refused.html.contains(message),
            "{message}: {}",
            refused.html
        );
        assert!(refused.html.contains("No stock change recorded yet."));
    }
    assert_eq!(available().await, "500");

    for (direction, quantity, reason) in [
        ("add", "250", "bought from the registry"),
        ("remove", "50.5", "sold outside Tonne"),
    ] {
        let done = v
            .post(
                &stock,
                &[
                    ("csrf", &csrf),
                    ("direction", direction),
                    ("quantity", quantity),
                    ("reason", reason),
                ],
            )
            .await;
        assert_eq!(done.status, 303, "{}", done.html);
    }
    assert_eq!(available().await, "699.5");
    let page = v.get(&here).await;
    for shown in [
        "bought from the registry",
        "+250 t",
        "sold outside Tonne",
        "−50.5 t",
        "699.5 t",
        "op@example.org",
    ] {
        assert!(page.html.contains(shown), "the ledger shows {shown}");
    }
    let log = v.get(&format!("/console/audit?object={id}")).await;
    assert!(log.html.contains("bundle.stock_changed") && log.html.contains("750 t"));

    // Off sale: the API stops quoting it; back on sale, it quotes again.
    let state = format!("{here}/state");
    let off = v
        .post(&state, &[("csrf", &csrf), ("enabled", "false")])
        .await;
    assert_eq!(off.status, 303);
    assert_eq!(
        v.post(&state, &[("csrf", &csrf), ("enabled", "false")])
            .await
            .status,
        303,
        "a double submit acts once"
    );
    let quote = json!({ "mass": { "amount": "1", "unit": "t" }, "bundle_selection": [ { "bundle_id": id, "percentage": 100 } ] });
    let refused = app
        .post("/v1/orders/by-mass/quote", &t.live_key, &quote)
        .await;
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(v.get(&here).await.html.contains("Put back on sale"));
    v.post(&state, &[("csrf", &csrf), ("enabled", "true")])
        .await;
    let quoted = app
        .post("/v1/orders/by-mass/quote", &t.live_key, &quote)
        .await;
    assert_eq!(quoted.status, 200, "{}", quoted.body);
    let toggles = v
        .get(&format!("/console/audit?object={id}&action=bundle."))
        .await;
    assert_eq!(toggles.html.matches("bundle.disabled").count(), 1);
    assert_eq!(toggles.html.matches("bundle.enabled").count(), 1);

    // Description and prices: a bad price refuses the whole form (nothing
    // changes); a good one shows in the API at once and in the audit log.
    let edit = format!("{here}/edit");
    let gbp = || async { app.get(&bundle_path, &t.live_key).await.body["unit_price"].clone() };
    let before = gbp().await;
    let prices = |gbp: &'static str| {
        let mut form: Vec<(String, String)> = vec![
            ("csrf".into(), csrf.clone()),
            (
                "description".into(),
                "Removals stored for 1,000 years.".into(),
            ),
        ];
        for code in ["CHF", "DKK", "EUR", "NOK", "PLN", "SEK", "USD"] {
            form.push((format!("price_{code}"), "700.00".into()));
        }
        form.push(("price_GBP".into(), gbp.into()));
        form
    };
    let bad = prices("12.345");
    let bad: Vec<(&str, &str)> = bad.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let refused = v.post(&edit, &bad).await;
    assert_eq!(refused.status, 400);
    assert!(
        refused
            .html
            .contains("Price GBP: at most 2 decimals in GBP."),
        "{}",
        refused.html
    );
    assert!(
        refused.html.contains("12.345"),
        "the form keeps what was typed"
    );
    assert_eq!(gbp().await, before);
    let good = prices("480.00");
    let good: Vec<(&str, &str)> = good.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(v.post(&edit, &good).await.status, 303);
    assert_eq!(gbp().await, "480.00");
    let shown = app.get(&bundle_path, &t.live_key).await;
    assert_eq!(
        shown.body["description"],
        "Removals stored for 1,000 years."
    );
    let edited = v
        .get(&format!("/console/audit?object={id}&action=bundle.edited"))
        .await;
    assert!(edited.html.contains("price GBP") && edited.html.contains("480.00"));

    // Members see none of it.
    member(&app, "ada@example.org", &t.organisation_id).await;
    let mut m = Visitor::new(&app);
    m.sign_in("ada@example.org", PASSWORD).await;
    assert_eq!(m.get("/console/catalogue").await.status, 404);
    assert_eq!(m.get(&here).await.status, 404);
    let member_csrf = m.get("/console/").await.csrf();
    let poke = m
        .post(
            &stock,
            &[
                ("csrf", &member_csrf),
                ("direction", "add"),
                ("quantity", "1"),
                ("reason", "x"),
            ],
        )
        .await;
    assert_eq!(poke.status, 404);
    assert_eq!(available().await, "699.5");
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

async fn an_operator_sees_every_webhooks_health_and_skips_re_enables_and_replays(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let rx = Receiver::start(Behaviour::Status(410));
    let hook = app
        .post(
            "/v1/webhooks",
            &t.live_key,
            &json!({ "url": format!("{}/gone", rx.base) }),
        )
        .await;
    let id = hook.body["id"].as_str().unwrap().to_owned();
    let order = || async {
        let o = app
            .post(
                "/v1/orders/by-mass",
                &t.live_key,
                &json!({ "mass": { "amount": "1", "unit": "t" } }),
            )
            .await;
        assert_eq!(o.status, 200, "{}", o.body);
    };
    order().await;
    let webhook_path = format!("/v1/webhooks/{id}");
    eventually("the webhook disabled by 410", || async {
        app.get(&webhook_path, &t.live_key).await.body["enabled"] == false
    })
    .await;
    order().await; // waits: the webhook is disabled

    operator(&app, "op@example.org").await;
    let mut v = Visitor::new(&app);
    v.sign_in("op@example.org", PASSWORD).await;
    let list = v.get("/console/webhooks").await;
    assert_eq!(list.status, 200);
    assert!(list.html.contains(&format!("/console/webhooks/{id}")));
    assert!(list.html.contains("disabled") && list.html.contains(&t.organisation_id));
    let here = format!("/console/webhooks/{id}");
    let page = v.get(&here).await;
    assert_eq!(page.status, 200);
    for shown in [
        "Re-enable webhook",
        "HTTP 410",
        "Skip undelivered events",
        "Replay events",
    ] {
        assert!(page.html.contains(shown), "the page shows {shown}");
    }
    assert!(!page.html.contains("Oldest undelivered event</dt><dd>none"));
    let csrf = page.csrf();

    // Skip the backlog: everything undelivered is passed over, and said so.
    assert_eq!(v.post(&format!("{here}/skip"), &[]).await.status, 403);
    let skipped = v.post(&format!("{here}/skip"), &[("csrf", &csrf)]).await;
    assert_eq!(skipped.status, 303);
    let location = skipped.location.clone().unwrap();
    assert!(location.contains("skipped="), "{location}");
    let after_skip = v.get(&location).await;
    assert!(after_skip.html.contains("undelivered events were skipped."));
    assert!(
        after_skip
            .html
            .contains("Oldest undelivered event</dt><dd>none")
    );

    // Re-enable, with a receiver that answers: new events arrive.
    rx.set(Behaviour::Status(200));
    let enabled = v.post(&format!("{here}/enable"), &[("csrf", &csrf)]).await;
    assert_eq!(enabled.status, 303);
    assert_eq!(
        app.get(&webhook_path, &t.live_key).await.body["enabled"],
        true
    );
    order().await;
    wait_for(
        "a delivery after re-enabling",
        Duration::from_secs(30),
        || !rx.events("/gone").is_empty(),
    )
    .await;
    eventually("the list to show it healthy", || async {
        v.get("/console/webhooks").await.html.contains("healthy")
    })
    .await;

    // Replay from an hour ago: the skipped events are sent again, in order.
    let delivered = rx.events("/gone").len();
    let since = (time::OffsetDateTime::now_utc() - time::Duration::hours(1))
        .format(&time::macros::format_description!(
            "[year]-[month]-[day]T[hour]:[minute]"
        ))
        .unwrap();
    let replay = v
        .post(
            &format!("{here}/recover"),
            &[("csrf", &csrf), ("since", &since)],
        )
        .await;
    assert_eq!(replay.status, 303);
    assert!(replay.location.as_deref().unwrap().contains("recovered="));
    wait_for("the replayed events", Duration::from_secs(30), || {
        rx.events("/gone").len() > delivered
    })
    .await;
    verify_all(&rx.received(), hook.body["secret"].as_str().unwrap());

    let log = v.get(&format!("/console/audit?object={id}")).await;
    for action in [
        "webhook.backlog_skipped",
        "webhook.enabled",
        "webhook.replayed",
    ] {
        assert!(log.html.contains(action), "the audit log shows {action}");
    }

    // Members cannot skip or re-enable, even their own organisation's webhook.
    member(&app, "ada@example.org", &t.organisation_id).await;
    let mut m = Visitor::new(&app);
    m.sign_in("ada@example.org", PASSWORD).await;
    let member_csrf = m.get("/console/").await.csrf();
    for action in ["skip", "enable"] {
        let poke = m
            .post(&format!("{here}/{action}"), &[("csrf", &member_csrf)])
            .await;
        assert_eq!(poke.status, 404, "{action}");
    }
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    signed_out_visitors_are_sent_to_sign_in_and_wrong_credentials_get_one_answer,
    an_operator_fulfils_a_live_order_and_the_members_webhook_gets_every_event,
    a_setup_link_sets_a_password_once_and_members_see_no_operator_page,
    a_member_manages_keys_and_replays_a_failing_webhook_and_sees_nothing_of_another_organisation,
    an_operator_creates_an_organisation_and_invites_a_member,
    an_operator_changes_stock_with_a_reason_and_takes_a_bundle_off_sale,
    an_operator_sees_every_webhooks_health_and_skips_re_enables_and_replays,
);

pub(crate) async fn member(app: &TestApp, email: &str, organisation: &str) {
    app.services
        .users
        .create(
            NewUser {
                email: email.parse().unwrap(),
                role: Role::Member(organisation.parse().unwrap()),
            },
            Some(Password::new(PASSWORD).unwrap()),
            &tonne_kernel::Actor::CommandLine,
        )
        .await
        .unwrap();
}

/// The value of the read-only `secret` field of the created-key page.
fn shown_secret(html: &str) -> String {
    let at = html.find(r#"id="secret""#).expect("the secret field");
    let rest = &html[at..];
    let v = rest.find("value=\"").unwrap() + "value=\"".len();
    rest[v..v + rest[v..].find('"').unwrap()].to_owned()
}

async fn a_member_manages_keys_and_replays_a_failing_webhook_and_sees_nothing_of_another_organisation(
    app: TestApp,
) {
    app.demo_catalogue().await;
    let acme = app.tenant().await;
    let rival = app.tenant().await;
    member(&app, "ada@acme.example", &acme.organisation_id).await;
    member(&app, "bob@rival.example", &rival.organisation_id).await;
    let mut ada = Visitor::new(&app);
    ada.sign_in("ada@acme.example", PASSWORD).await;
    let overview = ada.get("/console/").await;
    for nav in [">Overview<", ">API keys<", ">Webhooks<"] {
        assert!(overview.html.contains(nav), "{nav}");
    }

    // API keys: create (shown once, works on the API), revoke (then refused).
    let keys = ada.get("/console/keys?mode=test").await;
    assert_eq!(keys.status, 200);
    let csrf = keys.csrf();
    assert_eq!(
        ada.post("/console/keys", &[("mode", "test")]).await.status,
        403
    );
    let created = ada
        .post("/console/keys", &[("csrf", &csrf), ("mode", "test")])
        .await;
    assert_eq!(created.status, 200);
    let secret = shown_secret(&created.html);
    assert!(secret.starts_with("tonne_test_"), "{secret}");
    assert_eq!(app.get("/v1/accounts/me", &secret).await.status, 200);
    let listed = ada.get("/console/keys?mode=test").await;
    assert!(
        !listed.html.contains(&secret),
        "the secret is shown once only"
    );
    let prefix = &secret[..15];
    assert!(listed.html.contains(prefix));
    let key_id = app
        .services
        .accounts
        .list_keys(acme.organisation_id.parse().unwrap())
        .await
        .unwrap()
        .into_iter()
        .find(|k| secret.starts_with(&k.display_prefix))
        .map(|k| k.id.to_string())
        .unwrap();
    // Bob cannot revoke Acme's key (404), Ada can.
    let mut bob = Visitor::new(&app);
    bob.sign_in("bob@rival.example", PASSWORD).await;
    let bob_csrf = bob.get("/console/").await.csrf();
    let poke = bob
        .post(
            &format!("/console/keys/{key_id}/revoke"),
            &[("csrf", &bob_csrf)],
        )
        .await;
    assert_eq!(poke.status, 404);
    assert!(
        !bob.get("/console/keys?mode=test")
            .await
            .html
            .contains(prefix)
    );
    let revoked = ada
        .post(
            &format!("/console/keys/{key_id}/revoke"),
            &[("csrf", &csrf)],
        )
        .await;
    assert_eq!(revoked.status, 303);
    tokio::time::sleep(Duration::from_millis(1_200)).await; // the key cache's TTL in tests
    assert_eq!(app.get("/v1/accounts/me", &secret).await.status, 401);

    // Webhooks: a receiver that fails, its attempts in the log, then fixed and replayed.
    let rx = Receiver::start(Behaviour::Status(500));
    let hook = app
        .post(
            "/v1/webhooks",
            &acme.live_key,
            &json!({ "url": format!("{}/hook", rx.base) }),
        )
        .await;
    let hook_id = hook.body["id"].as_str().unwrap().to_owned();
    let before = time::OffsetDateTime::now_utc() - time::Duration::minutes(1);
    let order = app
        .post(
            "/v1/orders/by-mass",
            &acme.live_key,
            &json!({ "mass": { "amount": "1", "unit": "t" } }),
        )
        .await;
    assert_eq!(order.status, 200);
    wait_for("a failed attempt", Duration::from_secs(30), || {
        !rx.received().is_empty()
    })
    .await;
    // Orders: Ada sees Acme's, read-only; Bob sees none of them.
    let order_id = order.body["id"].as_str().unwrap();
    assert!(ada.get("/console/orders").await.html.contains(order_id));
    let ada_order = ada.get(&format!("/console/orders/{order_id}")).await;
    assert_eq!(ada_order.status, 200);
    assert!(
        !ada_order.html.contains("Mark paid"),
        "members see no actions"
    );
    assert!(!bob.get("/console/orders").await.html.contains(order_id));
    assert_eq!(
        bob.get(&format!("/console/orders/{order_id}")).await.status,
        404
    );
    let list = ada.get("/console/webhooks").await;
    assert!(
        list.html
            .contains(&format!("/console/webhooks/{hook_id}?mode=live"))
    );
    let page_path = format!("/console/webhooks/{hook_id}?mode=live");
    let mut log = ada.get(&page_path).await;
    for _ in 0..50 {
        if log.html.contains("HTTP 500") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        log = ada.get(&page_path).await;
    }
    assert!(
        log.html.contains("HTTP 500"),
        "the failed attempt is in the log"
    );
    assert!(log.html.contains("failed"));
    // Another organisation's member sees none of it.
    assert_eq!(bob.get(&page_path).await.status, 404);
    assert!(!bob.get("/console/webhooks").await.html.contains(&hook_id));

    rx.set(Behaviour::Status(200));
    let csrf = log.csrf();
    let recover = format!("/console/webhooks/{hook_id}/recover");
    let bad = ada
        .post(
            &recover,
            &[("csrf", &csrf), ("mode", "live"), ("since", "soon")],
        )
        .await;
    assert_eq!(bad.status, 400);
    assert!(bad.html.contains("From: give a date and time"));
    let since = before
        .format(time::macros::format_description!(
            "[year]-[month]-[day]T[hour]:[minute]"
        ))
        .unwrap();
    let bob_try = bob
        .post(
            &recover,
            &[("csrf", &bob_csrf), ("mode", "live"), ("since", &since)],
        )
        .await;
    assert_eq!(bob_try.status, 404);
    let replay = ada
        .post(
            &recover,
            &[("csrf", &csrf), ("mode", "live"), ("since", &since)],
        )
        .await;
    assert_eq!(replay.status, 303, "{}", replay.html);
    assert!(replay.location.as_deref().unwrap().contains("recovered="));
    wait_for("a delivery after the fix", Duration::from_secs(30), || {
        rx.received().len() >= 2 && rx.events("/hook").iter().any(|e| e.1 == 1)
    })
    .await;
    verify_all(&rx.received(), hook.body["secret"].as_str().unwrap());
}

/// The value of a read-only field by id on a page.
fn field_value(html: &str, id: &str) -> String {
    let at = html
        .find(&format!(r#"id="{id}""#))
        .unwrap_or_else(|| panic!("no field {id}"));
    let rest = &html[at..];
    let v = rest.find("value=\"").unwrap() + "value=\"".len();
    rest[v..v + rest[v..].find('"').unwrap()].to_owned()
}

async fn an_operator_creates_an_organisation_and_invites_a_member(app: TestApp) {
    operator(&app, "op@example.org").await;
    let mut op = Visitor::new(&app);
    op.sign_in("op@example.org", PASSWORD).await;
    let list = op.get("/console/organisations").await;
    assert_eq!(list.status, 200);
    let csrf = list.csrf();
    let empty = op
        .post("/console/organisations", &[("csrf", &csrf), ("name", "")])
        .await;
    assert_eq!(empty.status, 400);
    assert!(empty.html.contains("Name:"));
    let created = op
        .post(
            "/console/organisations",
            &[("csrf", &csrf), ("name", "Globex")],
        )
        .await;
    assert_eq!(created.status, 200, "{}", created.html);
    let live_key = field_value(&created.html, "live-key");
    let me = app.get("/v1/accounts/me", &live_key).await;
    assert_eq!(me.status, 200, "the key shown once works");
    let org_id = me.body["organisation_id"].as_str().unwrap().to_owned();
    assert!(
        created
            .html
            .contains(&format!("/console/organisations/{org_id}"))
    );
    assert!(
        op.get("/console/organisations")
            .await
            .html
            .contains("Globex")
    );
    let page_path = format!("/console/organisations/{org_id}");
    let page = op.get(&page_path).await;
    assert_eq!(page.status, 200);
    assert!(
        page.html.contains(&live_key[..15]),
        "its keys are listed by prefix"
    );

    let invite = format!("{page_path}/members");
    let bad = op
        .post(&invite, &[("csrf", &csrf), ("email", "not an email")])
        .await;
    assert_eq!(bad.status, 400);
    let invited = op
        .post(&invite, &[("csrf", &csrf), ("email", "eve@globex.example")])
        .await;
    assert_eq!(invited.status, 200, "{}", invited.html);
    let link = field_value(&invited.html, "link");
    let again = op
        .post(&invite, &[("csrf", &csrf), ("email", "eve@globex.example")])
        .await;
    assert_eq!(again.status, 409, "one user per email");
    assert!(
        op.get(&page_path)
            .await
            .html
            .contains("invited (no password yet)")
    );

    // The invited member chooses a password through the link and sees Globex's console.
    let path = &link[link.find("/console/setup/").unwrap()..];
    let v = Visitor::new(&app);
    let set = v
        .post(path, &[("password", PASSWORD), ("confirm", PASSWORD)])
        .await;
    assert_eq!(set.status, 200);
    let mut eve = Visitor::new(&app);
    assert_eq!(
        eve.sign_in("eve@globex.example", PASSWORD).await.status,
        303
    );
    assert_eq!(eve.get("/console/organisations").await.status, 404);
    assert_eq!(eve.get(&page_path).await.status, 404);
    assert!(
        eve.get("/console/keys")
            .await
            .html
            .contains(&live_key[..15])
    );
}
