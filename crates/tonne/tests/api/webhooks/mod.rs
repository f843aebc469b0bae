//! Webhooks end to end: the API against the contract, and delivery to a real
//! receiver on loopback — signatures, per-account order, rotation, filters,
//! live/test separation, deletion, 410, exhaustion and re-enabling, chaos, and
//! two dispatchers with one killed (PostgreSQL).

use std::collections::{BTreeMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{Tenant, TestApp, assert_error, conforms, conforms_2024};
use tonne_test_support::on_both_backends;

// ---------------------------------------------------------------- receiver

/// What the receiver answers.
#[derive(Debug, Clone)]
pub enum Behaviour {
    Status(u16),
    /// `fail` per mille answered 500, `hang` per mille held for `hang_for` then 200.
    Chaos {
        fail: u64,
        hang: u64,
        hang_for: Duration,
    },
}

#[derive(Debug, Clone)]
pub struct Received {
    pub path: String,
    pub signature: String,
    pub content_type: String,
    pub user_agent: String,
    pub traceparent: String,
    pub body: Vec<u8>,
    pub at: Instant,
}

/// A webhook receiver on a random loopback port, in its own thread and runtime.
pub struct Receiver {
    pub base: String,
    pub log: Arc<Mutex<Vec<Received>>>,
    behaviour: Arc<Mutex<Behaviour>>,
    handle: actix_web::dev::ServerHandle,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Receiver {
    pub fn start(behaviour: Behaviour) -> Self {
        let log = Arc::new(Mutex::new(Vec::new()));
        let behaviour = Arc::new(Mutex::new(behaviour));
        let (tx, rx) = std::sync::mpsc::channel();
        let (l2, b2) = (Arc::clone(&log), Arc::clone(&behaviour));
        let counter = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let thread = std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
                let addr = listener.local_addr().unwrap();
                let server = actix_web::HttpServer::new(move || {
                    let (log, behaviour, counter) =
                        (Arc::clone(&l2), Arc::clone(&b2), Arc::clone(&counter));
                    actix_web::App::new().default_service(actix_web::web::to(
                        move |req: actix_web::HttpRequest, body: actix_web::web::Bytes| {
                            let (log, behaviour, counter) = (
                                Arc::clone(&log),
                                Arc::clone(&behaviour),
                                Arc::clone(&counter),
                            );
                            async move {
                                let header = |n: &str| {
                                    req.headers()
                                        .get(n)
                                        .and_then(|v| v.to_str().ok())
                                        .unwrap_or_default()
                                        .to_owned()
                                };
                                log.lock().unwrap().push(Received {
                                    path: req.path().to_owned(),
                                    signature: header("Lune-HMAC"),
                                    content_type: header("Content-Type"),
                                    user_agent: header("User-Agent"),
                                    traceparent: header("traceparent"),
                                    body: body.to_vec(),
                                    at: Instant::now(),
                                });
                                let b = behaviour.lock().unwrap().clone();
                                let status = match b {
                                    Behaviour::Status(s) => s,
                                    Behaviour::Chaos {
                                        fail,
                                        hang,
                                        hang_for,
                                    } => {
                                        // a fixed pseudo-random sequence: reproducible runs
                                        let n = counter
                                            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                                        let roll = n.wrapping_mul(2_654_435_761) % 1_000;
                                        if roll < fail {
                                            500
                                        } else if roll < fail + hang {
                                            actix_web::rt::time::sleep(hang_for).await;
                                            200
                                        } else {
                                            200
                                        }
                                    }
                                };
                                actix_web::HttpResponse::build(
                                    actix_web::http::StatusCode::from_u16(status).unwrap(),
                                )
                                .body(format!("receiver answered {status}"))
                            }
                        },
                    ))
                })
                .workers(2)
                .listen(listener)
                .unwrap()
                .disable_signals()
                .shutdown_timeout(1)
                .run();
                tx.send((addr, server.handle())).unwrap();
                let _ = server.await;
            });
        });
        let (addr, handle) = rx.recv().unwrap();
        Self {
            base: format!("http://{addr}"),
            log,
            behaviour,
            handle,
            thread: Some(thread),
        }
    }

    pub fn set(&self, b: Behaviour) {
        *self.behaviour.lock().unwrap() = b;
    }

    pub fn received(&self) -> Vec<Received> {
        self.log.lock().unwrap().clone()
    }

    /// Events of every request at `path`, in arrival order: (account, sequence, event_id, event).
    pub fn events(&self, path: &str) -> Vec<(String, u64, String, Value)> {
        self.received()
            .into_iter()
            .filter(|r| r.path == path)
            .flat_map(|r| {
                let body: Value = serde_json::from_slice(&r.body).unwrap();
                body["events"].as_array().unwrap().clone()
            })
            .map(|e| {
                (
                    e["account_id"].as_str().unwrap().to_owned(),
                    e["sequence"].as_str().unwrap().parse::<u64>().unwrap(),
                    e["event_id"].as_str().unwrap().to_owned(),
                    e,
                )
            })
            .collect()
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        let handle = self.handle.clone();
        let _ =
            std::thread::spawn(move || actix_web::rt::System::new().block_on(handle.stop(false)))
                .join();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

// ---------------------------------------------------------------- helpers

async fn create_webhook(app: &TestApp, key: &str, url: &str, accounts: Option<Vec<&str>>) -> Value {
    let mut body = json!({ "url": url });
    if let Some(ids) = accounts {
        body["account_ids"] = json!(ids);
    }
    let res = app.post("/v1/webhooks", key, &body).await;
    assert_eq!(res.status, 200, "{}", res.body);
    res.body
}

/// The contract's `Url` pattern refuses loopback `http://` (allowed in tests by
/// `TONNE_WEBHOOKS_ALLOW_PRIVATE`): validate everything else of the body.
fn conforms_webhook(schema: &str, body: &Value) {
    let mut b = body.clone();
    b["url"] = json!("https://hooks.example.com/tonne");
    conforms(schema, &b);
}

async fn order(app: &TestApp, key: &str, account: Option<&str>) {
    let mut req = app
        .request(reqwest::Method::POST, "/v1/orders/by-mass", Some(key))
        .json(&json!({"mass": {"amount": "0.5", "unit": "t"}}));
    if let Some(a) = account {
        req = req.header("Lune-Account", a);
    }
    let res = app.send(req).await;
    assert_eq!(res.status, 200, "{}", res.body);
}

/// An order of 0.5 t of one bundle (for the demo's biochar bundle: one
/// project, so one allocation).
async fn order_of(app: &TestApp, key: &str, account: Option<&str>, bundle: &str) {
    let mut req = app
        .request(reqwest::Method::POST, "/v1/orders/by-mass", Some(key))
        .json(&json!({"mass": {"amount": "0.5", "unit": "t"},
                      "bundle_selection": [{"bundle_id": bundle, "percentage": 100}]}));
    if let Some(a) = account {
        req = req.header("Lune-Account", a);
    }
    let res = app.send(req).await;
    assert_eq!(res.status, 200, "{}", res.body);
}

async fn client_account(app: &TestApp, key: &str, name: &str) -> String {
    let res = app
        .post(
            "/v1/accounts/client",
            key,
            &json!({"name": name, "currency": "GBP"}),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    res.body["id"].as_str().unwrap().to_owned()
}

pub(crate) async fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Every event first seen in per-account order (a re-send of earlier events is a
/// duplicate, never a step back), no gaps; returns first-seen events per account.
fn assert_in_order(events: &[(String, u64, String, Value)]) -> BTreeMap<String, u64> {
    let mut next: BTreeMap<String, u64> = BTreeMap::new();
    for (account, seq, _, _) in events {
        let expected = next.entry(account.clone()).or_insert(1);
        if *seq == *expected {
            *expected += 1;
        } else {
            assert!(
                *seq < *expected,
                "account {account}: event {seq} arrived before {expected}"
            );
        }
    }
    next.into_iter().map(|(a, n)| (a, n - 1)).collect()
}

/// The distinct order events (`order.*`) among `events`. Every webhook also
/// receives its orders' allocation events (`allocation.*`, interleaved in the
/// same sequence): counts of order transitions count these.
fn distinct_order_events(events: &[(String, u64, String, Value)]) -> usize {
    events
        .iter()
        .filter(|e| is_order_event(&e.3))
        .map(|e| e.2.clone())
        .collect::<HashSet<_>>()
        .len()
}

fn is_order_event(event: &Value) -> bool {
    event["event_type"]
        .as_str()
        .is_some_and(|t| t.starts_with("order."))
}

/// A delivery's body against the contracts: whole against the 2024 document
/// (the one whose `WebhookEvent` has allocation events), and its order events
/// against both (the 2023 document knows only those).
pub(crate) fn conforms_request(body: &Value) {
    conforms_2024("WebhookRequest", body);
    let orders: Vec<Value> = body["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| is_order_event(e))
        .cloned()
        .collect();
    conforms("WebhookRequest", &json!({ "events": orders }));
}

/// Per account, the distinct order events among `events`.
fn order_counts(events: &[(String, u64, String, Value)]) -> BTreeMap<String, u64> {
    let mut seen: BTreeMap<String, HashSet<String>> = BTreeMap::new();
    for (account, _, id, e) in events {
        if is_order_event(e) {
            seen.entry(account.clone()).or_default().insert(id.clone());
        }
    }
    seen.into_iter()
        .map(|(a, ids)| (a, u64::try_from(ids.len()).unwrap()))
        .collect()
}

pub(crate) fn verify_all(received: &[Received], secret: &str) {
    for r in received {
        tonne_webhooks::verify(
            secret,
            &r.signature,
            &r.body,
            time::OffsetDateTime::now_utc(),
            time::Duration::minutes(5),
        )
        .unwrap_or_else(|e| panic!("{e}: {}", r.signature));
    }
}

async fn test_app(
    db: tonne_test_support::TestDb,
    tweak: impl FnOnce(&mut tonne::server::ServeOptions),
) -> TestApp {
    TestApp::spawn_with(db, |o| {
        o.test_order_step = Duration::from_millis(200);
        tweak(o);
    })
    .await
}

// ---------------------------------------------------------------- the API

async fn crud_follows_the_contract(app: TestApp) {
    let t = app.tenant().await;
    let other = app.tenant().await;
    let created = create_webhook(&app, &t.test_key, "http://127.0.0.1:9/hook", None).await;
    conforms_webhook("WebhookFullSecret", &created);
    let secret = created["secret"].as_str().unwrap();
    assert!(
        secret.starts_with("whsec_") && secret.len() == 49,
        "{secret}"
    );
    assert_eq!(created["account_type"], "test");
    assert_eq!(created["enabled"], true);
    assert!(created.get("account_ids").is_none());
    let id = created["id"].as_str().unwrap();

    let got = app.get(&format!("/v1/webhooks/{id}"), &t.test_key).await;
    assert_eq!(got.status, 200);
    conforms_webhook("Webhook", &got.body);
    assert_eq!(got.body["secret"], &secret[secret.len() - 4..]);

    let list = app.get("/v1/webhooks", &t.test_key).await;
    assert_eq!(list.body.as_array().unwrap().len(), 1);
    // live/test: the live key sees none of the test webhooks
    assert_eq!(app.get("/v1/webhooks", &t.live_key).await.body, json!([]));
    // another organisation: 404
    let res = app
        .get(&format!("/v1/webhooks/{id}"), &other.test_key)
        .await;
    assert_error(&res, 404, "not_found");
    let res = app
        .delete(&format!("/v1/webhooks/{id}"), &other.test_key)
        .await;
    assert_error(&res, 404, "not_found");
    assert_error(
        &app.get("/v1/webhooks/nope", &t.test_key).await,
        404,
        "not_found",
    );

    // update: filter, disable
    let client = client_account(&app, &t.test_key, "Client").await;
    let put = app
        .put(
            &format!("/v1/webhooks/{id}"),
            &t.test_key,
            &json!({"url": "http://127.0.0.1:9/other", "enabled": false, "account_ids": [client]}),
        )
        .await;
    assert_eq!(put.status, 200, "{}", put.body);
    conforms_webhook("Webhook", &put.body);
    assert_eq!(put.body["account_ids"], json!([client]));
    assert_eq!(put.body["enabled"], false);
    // without enabled and account_ids: both kept
    let put = app
        .put(
            &format!("/v1/webhooks/{id}"),
            &t.test_key,
            &json!({"url": "http://127.0.0.1:9/x"}),
        )
        .await;
    assert_eq!(
        (put.body["enabled"].clone(), put.body["account_ids"].clone()),
        (json!(false), json!([client]))
    );
    // the list filter
    let q = app
        .get(&format!("/v1/webhooks?account_id={client}"), &t.test_key)
        .await;
    assert_eq!(q.body.as_array().unwrap().len(), 1);
    let q = app
        .get(
            &format!("/v1/webhooks?account_id={}", t.test_account),
            &t.test_key,
        )
        .await;
    assert_eq!(q.body, json!([]));
    assert_error(
        &app.get(
            &format!("/v1/webhooks?account_id={}", t.live_account),
            &t.test_key,
        )
        .await,
        400,
        "validation_error",
    );

    // rotate: a new full secret; GET shows its last 4
    let rotated = app
        .put(
            &format!("/v1/webhooks/{id}/rotate-secret"),
            &t.test_key,
            &json!({}),
        )
        .await;
    assert_eq!(rotated.status, 200);
    conforms_webhook("WebhookFullSecret", &rotated.body);
    let new_secret = rotated.body["secret"].as_str().unwrap();
    assert_ne!(new_secret, secret);
    assert_eq!(
        app.get(&format!("/v1/webhooks/{id}"), &t.test_key)
            .await
            .body["secret"],
        &new_secret[45..]
    );

    // attempts (none yet)
    let attempts = app
        .get(&format!("/v1/webhooks/{id}/attempts"), &t.test_key)
        .await;
    assert_eq!(attempts.status, 200);
    assert_eq!(attempts.body["data"], json!([]));

    // delete
    assert_eq!(
        app.delete(&format!("/v1/webhooks/{id}"), &t.test_key)
            .await
            .status,
        200
    );
    assert_error(
        &app.get(&format!("/v1/webhooks/{id}"), &t.test_key).await,
        404,
        "not_found",
    );
}

async fn bad_input_is_refused_and_nothing_written(app: TestApp) {
    let t = app.tenant().await;
    let other = app.tenant().await;
    let created = create_webhook(&app, &t.test_key, "http://127.0.0.1:9/hook", None).await;
    let id = created["id"].as_str().unwrap();
    for (body, field) in [
        (json!({}), "url"),
        (json!({"url": 5}), "url"),
        (json!({"url": "not a url"}), "url"),
        (json!({"url": "ftp://127.0.0.1/x"}), "url"),
        (json!({"url": "http://224.0.0.1/x"}), "url"),
        (json!({"url": "http://127.0.0.1:9/x", "extra": 1}), "extra"),
        (
            json!({"url": "http://127.0.0.1:9/x", "account_ids": []}),
            "account_ids",
        ),
        (
            json!({"url": "http://127.0.0.1:9/x", "account_ids": null}),
            "account_ids",
        ),
        (
            json!({"url": "http://127.0.0.1:9/x", "account_ids": ["x"]}),
            "account_ids[0]",
        ),
        (
            json!({"url": "http://127.0.0.1:9/x", "account_ids": [t.live_account]}),
            "account_ids[0]",
        ),
        (
            json!({"url": "http://127.0.0.1:9/x", "account_ids": [other.test_account]}),
            "account_ids[0]",
        ),
    ] {
        let res = app.post("/v1/webhooks", &t.test_key, &body).await;
        assert_error(&res, 400, "validation_error");
        let message = res.body["errors"][0]["message"].as_str().unwrap();
        assert!(message.contains(field), "{body}: {message}");
    }
    for (body, field) in [
        (
            json!({"url": "http://127.0.0.1:9/x", "enabled": null}),
            "enabled",
        ),
        (
            json!({"url": "http://127.0.0.1:9/x", "enabled": "yes"}),
            "enabled",
        ),
        (json!({"enabled": true}), "url"),
    ] {
        let res = app
            .put(&format!("/v1/webhooks/{id}"), &t.test_key, &body)
            .await;
        assert_error(&res, 400, "validation_error");
        assert!(
            res.body["errors"][0]["message"]
                .as_str()
                .unwrap()
                .contains(field),
            "{}",
            res.body
        );
    }
    let res = app
        .send(
            app.request(reqwest::Method::POST, "/v1/webhooks", Some(&t.test_key))
                .body("url=x"),
        )
        .await;
    assert_error(&res, 415, "unsupported_media_type");
    assert_error(
        &app.send(app.request(reqwest::Method::GET, "/v1/webhooks", None))
            .await,
        401,
        "unauthorised",
    );
    // nothing was written, nothing changed
    let list = app.get("/v1/webhooks", &t.test_key).await.body;
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["url"], "http://127.0.0.1:9/hook");
    assert_eq!(list[0]["enabled"], true);

    // the limit: 10 per organisation and mode
    for _ in 1..10 {
        create_webhook(&app, &t.test_key, "http://127.0.0.1:9/hook", None).await;
    }
    let res = app
        .post(
            "/v1/webhooks",
            &t.test_key,
            &json!({"url": "http://127.0.0.1:9/hook"}),
        )
        .await;
    assert_error(&res, 400, "webhook_limit_reached");
    assert_eq!(
        app.get("/v1/webhooks", &t.test_key)
            .await
            .body
            .as_array()
            .unwrap()
            .len(),
        10
    );
    // the other mode has its own bound
    create_webhook(&app, &t.live_key, "http://127.0.0.1:9/hook", None).await;
}

async fn private_targets_are_refused_unless_allowed(app: TestApp) {
    let db = app.services.db.clone();
    drop(db);
    let t = app.tenant().await;
    // the app under test allows private targets; a strict service refuses them
    let strict = tonne_webhooks::Webhooks::new(
        Arc::new(app.services.webhook_store.clone()),
        Arc::new(NoAccounts),
        Arc::new(tonne_dispatcher::SystemResolver {
            timeout: Duration::from_secs(2),
        }),
        tonne_webhooks::Outbound {
            sender: Arc::new(
                tonne_dispatcher::HttpSender::new(Duration::from_secs(2), Default::default())
                    .unwrap(),
            ),
            encoder: Arc::new(tonne_dispatcher::JsonEncoder),
        },
        Arc::new(tonne_kernel::SystemClock),
        Arc::new(tonne_kernel::UuidV7Generator),
        tonne_webhooks::Settings::default(),
    );
    use tonne_webhooks::WebhooksService as _;
    let owner = tonne_webhooks::Owner {
        organisation_id: t.organisation_id.parse().unwrap(),
        mode: tonne_kernel::AccountMode::Test,
    };
    for (url, why) in [
        ("http://127.0.0.1:9000/hook", "https"),
        ("https://127.0.0.1/hook", "loopback"),
        ("https://10.1.2.3/hook", "private"),
        ("https://169.254.169.254/latest", "cloud metadata"),
        ("https://[::1]/hook", "loopback"),
        ("https://localhost/hook", "local host"),
        ("https://user:pw@hooks.example.com/x", "credentials"),
    ] {
        match strict
            .create(
                owner,
                tonne_webhooks::NewWebhook {
                    url: url.into(),
                    account_ids: None,
                    event_types: None,
                },
                &tonne_kernel::Actor::CommandLine,
            )
            .await
        {
            Err(tonne_webhooks::CreateWebhookError::Invalid(f)) => {
                assert!(f.reason.contains(why), "{url}: {}", f.reason)
            }
            other => panic!("{url}: {other:?}"),
        }
    }
    assert_eq!(app.get("/v1/webhooks", &t.test_key).await.body, json!([]));
}

struct NoAccounts;

#[async_trait::async_trait]
impl tonne_webhooks::ports::AccountDirectory for NoAccounts {
    async fn owner_of(
        &self,
        _: tonne_kernel::AccountId,
    ) -> Result<Option<tonne_webhooks::Owner>, tonne_kernel::StoreError> {
        Ok(None)
    }
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    crud_follows_the_contract,
    bad_input_is_refused_and_nothing_written,
    private_targets_are_refused_unless_allowed,
);

// ---------------------------------------------------------------- delivery

mod delivery;

// ---------------------------------------------------------------- event types

mod event_types;
