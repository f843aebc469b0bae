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

mod delivery {
    use super::*;

    async fn orders_reach_the_receiver_signed_in_order_filtered_and_by_mode(
        db: tonne_test_support::TestDb,
    ) {
        let app = test_app(db, |_| {}).await;
        app.demo_catalogue().await;
        let rx = Receiver::start(Behaviour::Status(204));
        let t: Tenant = app.tenant().await;
        let client = client_account(&app, &t.test_key, "Client A").await;
        let all = create_webhook(&app, &t.test_key, &format!("{}/all", rx.base), None).await;
        let only_client = create_webhook(
            &app,
            &t.test_key,
            &format!("{}/client", rx.base),
            Some(vec![&client]),
        )
        .await;
        let live = create_webhook(&app, &t.live_key, &format!("{}/live", rx.base), None).await;
        for _ in 0..3 {
            order(&app, &t.test_key, None).await;
        }
        order(&app, &t.test_key, Some(&client)).await;
        // 4 orders × 5 transitions
        wait_for("20 order events at /all", Duration::from_secs(60), || {
            distinct_order_events(&rx.events("/all")) == 20
        })
        .await;
        wait_for("5 order events at /client", Duration::from_secs(30), || {
            distinct_order_events(&rx.events("/client")) == 5
        })
        .await;
        let received = rx.received();
        for r in &received {
            assert_eq!(r.content_type, "application/json");
            assert!(
                r.user_agent.starts_with("Tonne-Webhooks/"),
                "{}",
                r.user_agent
            );
            let body: Value = serde_json::from_slice(&r.body).unwrap();
            conforms_request(&body);
            assert!(body["events"].as_array().unwrap().len() <= 10);
            assert!(
                r.signature
                    .contains(&format!("organisation={}", t.organisation_id))
            );
        }
        verify_all(
            &received
                .iter()
                .filter(|r| r.path == "/all")
                .cloned()
                .collect::<Vec<_>>(),
            all["secret"].as_str().unwrap(),
        );
        verify_all(
            &received
                .iter()
                .filter(|r| r.path == "/client")
                .cloned()
                .collect::<Vec<_>>(),
            only_client["secret"].as_str().unwrap(),
        );
        // gap-free and in order over every event (allocation events included)
        assert_in_order(&rx.events("/all"));
        let counts = order_counts(&rx.events("/all"));
        assert_eq!(counts.get(&t.test_account), Some(&15));
        assert_eq!(counts.get(&client), Some(&5));
        let client_counts = assert_in_order(&rx.events("/client"));
        assert_eq!(client_counts.keys().collect::<Vec<_>>(), vec![&client]);
        assert_eq!(order_counts(&rx.events("/client")).get(&client), Some(&5));
        // each event: the contract's envelope, the order as it was at that transition
        for (_, _, _, e) in rx.events("/all") {
            assert_eq!(e["api_version"], "v1");
            if !is_order_event(&e) {
                continue; // allocation events: their own test (`allocations`)
            }
            let status = e["data"]["order"]["status"].as_str().unwrap();
            let expected = match e["event_type"].as_str().unwrap() {
                "order.completed" => "complete",
                other => other.trim_start_matches("order."),
            };
            assert_eq!(status, expected, "{e}");
        }
        // the live webhook received nothing from test orders
        assert!(rx.events("/live").is_empty());
        let _ = live;
        // attempts are recorded
        let id = all["id"].as_str().unwrap();
        let attempts = app
            .get(
                &format!("/v1/webhooks/{id}/attempts?limit=100"),
                &t.test_key,
            )
            .await;
        assert!(
            attempts.body["data"]
                .as_array()
                .unwrap()
                .iter()
                .all(|a| a["outcome"] == "delivered" && a["status_code"] == 204)
        );
    }

    /// A new webhook starts at each account's latest event: nothing that
    /// happened before it was made reaches it (on SQLite too, whose `$N`
    /// parameters are numbered in order of appearance).
    async fn a_new_webhook_starts_after_the_events_before_it(db: tonne_test_support::TestDb) {
        let app = test_app(db, |_| {}).await;
        app.demo_catalogue().await;
        let rx = Receiver::start(Behaviour::Status(204));
        let t: Tenant = app.tenant().await;
        order(&app, &t.test_key, None).await;
        let before = tonne_test_support::count(
            &app.services.db,
            format!(
                "SELECT last_sequence AS n FROM account_event_sequences WHERE account_id = '{}'",
                t.test_account
            ),
        )
        .await;
        assert!(before >= 1);
        create_webhook(&app, &t.test_key, &format!("{}/late", rx.base), None).await;
        order(&app, &t.test_key, None).await;
        wait_for("the second order's events", Duration::from_secs(60), || {
            distinct_order_events(&rx.events("/late")) >= 5
        })
        .await;
        let early: Vec<u64> = rx
            .events("/late")
            .iter()
            .map(|(_, sequence, _, _)| *sequence)
            .filter(|s| i64::try_from(*s).unwrap_or(i64::MAX) <= before)
            .collect();
        assert!(
            early.is_empty(),
            "events from before the webhook: {early:?}"
        );
    }

    async fn rotation_deletion_and_gone(db: tonne_test_support::TestDb) {
        let app = test_app(db, |_| {}).await;
        app.demo_catalogue().await;
        let rx = Receiver::start(Behaviour::Status(200));
        let t = app.tenant().await;
        let w = create_webhook(&app, &t.test_key, &format!("{}/r", rx.base), None).await;
        let id = w["id"].as_str().unwrap().to_owned();
        let old = w["secret"].as_str().unwrap().to_owned();
        // deliveries flowing during the rotation
        for _ in 0..4 {
            order(&app, &t.test_key, None).await;
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
        let rotated = app
            .put(
                &format!("/v1/webhooks/{id}/rotate-secret"),
                &t.test_key,
                &json!({}),
            )
            .await;
        let new = rotated.body["secret"].as_str().unwrap().to_owned();
        let rotated_at = Instant::now();
        for _ in 0..4 {
            order(&app, &t.test_key, None).await;
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
        wait_for("40 order events", Duration::from_secs(60), || {
            distinct_order_events(&rx.events("/r")) == 40
        })
        .await;
        let now = time::OffsetDateTime::now_utc();
        let tol = time::Duration::minutes(5);
        let mut with_new = 0;
        for r in rx.received() {
            let by_old = tonne_webhooks::verify(&old, &r.signature, &r.body, now, tol).is_ok();
            let by_new = tonne_webhooks::verify(&new, &r.signature, &r.body, now, tol).is_ok();
            assert!(by_old || by_new, "a request signed by neither secret");
            // a request signed before the rotation may still be in flight for a moment;
            // after that, only the new secret signs
            if r.at > rotated_at + Duration::from_millis(500) {
                assert!(
                    by_new && !by_old,
                    "signed with the old secret after the rotation"
                );
            }
            with_new += usize::from(by_new);
        }
        assert!(with_new > 0);
        assert_in_order(&rx.events("/r"));

        // 410 disables the webhook at once
        rx.set(Behaviour::Status(410));
        order(&app, &t.test_key, None).await;
        wait_for(
            "the webhook disabled by 410",
            Duration::from_secs(30),
            || {
                futures_like_block(app.get(&format!("/v1/webhooks/{id}"), &t.test_key))["enabled"]
                    == false
            },
        )
        .await;
        let attempts = app
            .get(&format!("/v1/webhooks/{id}/attempts"), &t.test_key)
            .await;
        let last = &attempts.body["data"][0];
        assert_eq!(
            (last["outcome"].clone(), last["status_code"].clone()),
            (json!("disabled"), json!(410))
        );

        // re-enabled: everything since the last acknowledged event arrives, in order
        rx.set(Behaviour::Status(200));
        let put = app
            .put(
                &format!("/v1/webhooks/{id}"),
                &t.test_key,
                &json!({"url": format!("{}/r", rx.base), "enabled": true}),
            )
            .await;
        assert_eq!(put.body["enabled"], true);
        wait_for("45 order events", Duration::from_secs(60), || {
            distinct_order_events(&rx.events("/r")) == 45
        })
        .await;
        assert_in_order(&rx.events("/r"));

        // delete stops deliveries at once
        assert_eq!(
            app.delete(&format!("/v1/webhooks/{id}"), &t.test_key)
                .await
                .status,
            200
        );
        let before = rx.received().len();
        order(&app, &t.test_key, None).await;
        tokio::time::sleep(Duration::from_secs(2)).await;
        assert_eq!(rx.received().len(), before, "a request after DELETE");
    }

    /// Blocks on a request from inside a sync closure (wait_for's predicate).
    fn futures_like_block(fut: impl std::future::Future<Output = crate::support::Reply>) -> Value {
        tokio::task::block_in_place(|| tokio::runtime::Handle::current().block_on(fut)).body
    }

    async fn exhausted_schedule_disables_then_re_enabling_resumes(db: tonne_test_support::TestDb) {
        let app = test_app(db, |o| {
            if let Some(d) = o.dispatcher.as_mut() {
                d.schedule = tonne_webhooks::RetrySchedule::parse("1,1").unwrap();
            }
        })
        .await;
        app.demo_catalogue().await;
        let rx = Receiver::start(Behaviour::Status(500));
        let t = app.tenant().await;
        let w = create_webhook(&app, &t.test_key, &format!("{}/x", rx.base), None).await;
        let id = w["id"].as_str().unwrap().to_owned();
        order(&app, &t.test_key, None).await;
        wait_for("disabled after 3 attempts", Duration::from_secs(30), || {
            futures_like_block(app.get(&format!("/v1/webhooks/{id}"), &t.test_key))["enabled"]
                == false
        })
        .await;
        let attempts = app
            .get(&format!("/v1/webhooks/{id}/attempts"), &t.test_key)
            .await
            .body;
        let outcomes: Vec<&str> = attempts["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["outcome"].as_str().unwrap())
            .collect();
        assert_eq!(outcomes, vec!["disabled", "failed", "failed"]);
        // while disabled, more events happen; nothing is sent
        order(&app, &t.test_key, None).await;
        tokio::time::sleep(Duration::from_secs(2)).await;
        let sent_while_disabled = rx.received().len();
        assert_eq!(sent_while_disabled, 3);
        rx.set(Behaviour::Status(200));
        app.put(
            &format!("/v1/webhooks/{id}"),
            &t.test_key,
            &json!({"url": format!("{}/x", rx.base), "enabled": true}),
        )
        .await;
        wait_for(
            "all 10 events after re-enabling",
            Duration::from_secs(60),
            || distinct_order_events(&rx.events("/x")) == 10,
        )
        .await;
        assert_in_order(&rx.events("/x"));
        let counts = order_counts(&rx.events("/x"));
        assert_eq!(counts.get(&t.test_account), Some(&10));
        verify_all(&rx.received(), w["secret"].as_str().unwrap());
    }

    /// 400 orders over 20 accounts (2,000 order events) to a receiver that fails
    /// 30 % of requests and holds 5 % past the timeout: every event arrives,
    /// per-account order is never broken, every signature verifies. The orders
    /// are of a one-project bundle, so each brings two allocation events (800
    /// in all, interleaved); the default split over nine projects would bring
    /// 7,200 and hold the run four times as long without testing more.
    async fn chaos_loses_nothing_and_keeps_order(db: tonne_test_support::TestDb) {
        let app = test_app(db, |o| {
            if let Some(d) = o.dispatcher.as_mut() {
                d.timeout = Duration::from_secs(1);
                d.lease = Duration::from_secs(6);
                d.schedule =
                    tonne_webhooks::RetrySchedule::parse(&vec!["0"; 40].join(",")).unwrap();
            }
        })
        .await;
        app.demo_catalogue().await;
        let rx = Receiver::start(Behaviour::Chaos {
            fail: 300,
            hang: 50,
            hang_for: Duration::from_millis(1_500),
        });
        let t = app.tenant().await;
        let w = create_webhook(&app, &t.test_key, &format!("{}/chaos", rx.base), None).await;
        let mut accounts = vec![t.test_account.clone()];
        for i in 1..20 {
            accounts.push(client_account(&app, &t.test_key, &format!("Client {i}")).await);
        }
        let mut tasks = Vec::new();
        let app = Arc::new(app);
        for (i, account) in accounts.iter().enumerate() {
            let (app, key, account) = (Arc::clone(&app), t.test_key.clone(), account.clone());
            let biochar = tonne::catalogue_file::bundle_id("demo-biochar").to_string();
            tasks.push(tokio::spawn(async move {
                for _ in 0..20 {
                    order_of(&app, &key, (i > 0).then_some(account.as_str()), &biochar).await;
                }
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
        wait_for("2,000 order events", Duration::from_secs(110), || {
            distinct_order_events(&rx.events("/chaos")) == 2_000
        })
        .await;
        assert_in_order(&rx.events("/chaos"));
        let counts = order_counts(&rx.events("/chaos"));
        assert_eq!(counts.len(), 20);
        assert!(counts.values().all(|n| *n == 100), "{counts:?}");
        // and the 800 allocation events, each once at least
        let allocation_events: HashSet<String> = rx
            .events("/chaos")
            .into_iter()
            .filter(|e| !is_order_event(&e.3))
            .map(|e| e.2)
            .collect();
        assert_eq!(allocation_events.len(), 800);
        verify_all(&rx.received(), w["secret"].as_str().unwrap());
        let failed = rx.received().len();
        assert!(
            failed > 200,
            "the receiver's failures were exercised ({failed} requests)"
        );
    }

    /// Two dispatchers share the streams; one is killed mid-run (its leases are never
    /// released); the other takes its streams over when the leases expire.
    async fn two_dispatchers_one_killed(db: tonne_test_support::TestDb) {
        let app = test_app(db, |o| o.dispatcher = None).await;
        app.demo_catalogue().await;
        let rx = Receiver::start(Behaviour::Status(200));
        let t = app.tenant().await;
        let w = create_webhook(&app, &t.test_key, &format!("{}/two", rx.base), None).await;
        let mut accounts = vec![t.test_account.clone()];
        for i in 1..10 {
            accounts.push(client_account(&app, &t.test_key, &format!("C{i}")).await);
        }
        let config = tonne_dispatcher::DispatcherConfig {
            poll_interval: Duration::from_millis(20),
            timeout: Duration::from_secs(1),
            lease: Duration::from_secs(6),
            batch_size: 3,
            targets: tonne_webhooks::TargetPolicy {
                allow_private: true,
            },
            ..tonne_dispatcher::DispatcherConfig::default()
        };
        let start = |config: tonne_dispatcher::DispatcherConfig| {
            let registry = prometheus::Registry::new();
            let d = tonne_dispatcher::Dispatcher::new(
                Arc::new(app.services.webhook_store.clone()),
                config,
                tonne_dispatcher::DispatchMetrics::new(&registry).unwrap(),
            )
            .unwrap();
            let (stop, stopped) = tokio::sync::watch::channel(false);
            (stop, tokio::spawn(d.run(stopped)))
        };
        let (_stop_a, a) = start(config.clone());
        let (stop_b, b) = start(config);
        for round in 0..6 {
            for (i, account) in accounts.iter().enumerate() {
                order(&app, &t.test_key, (i > 0).then_some(account.as_str())).await;
            }
            if round == 2 {
                a.abort(); // a crash: no lease is given back
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        wait_for("300 order events", Duration::from_secs(90), || {
            distinct_order_events(&rx.events("/two")) == 300
        })
        .await;
        assert_in_order(&rx.events("/two"));
        let counts = order_counts(&rx.events("/two"));
        assert!(counts.values().all(|n| *n == 30), "{counts:?}");
        // and every allocation's events, new then retired, through the crash
        let (mut new, mut retired) = (HashSet::new(), HashSet::new());
        for (_, _, _, e) in rx.events("/two") {
            let id = e["data"]["allocation"]["id"].as_str().map(str::to_owned);
            match (e["event_type"].as_str().unwrap(), id) {
                ("allocation.new", Some(id)) => {
                    assert!(!retired.contains(&id), "retired before new");
                    new.insert(id);
                }
                ("allocation.retired", Some(id)) => {
                    retired.insert(id);
                }
                _ => {}
            }
        }
        assert!(!new.is_empty());
        assert_eq!(new, retired, "each allocation new, then retired");
        verify_all(&rx.received(), w["secret"].as_str().unwrap());
        let _ = stop_b.send(true);
        let _ = b.await;
    }

    /// Each project's allocation of an order is announced: `allocation.new`
    /// when the order enters `retiring`, `allocation.retired` when its credits
    /// are retired (here, by the test registry, at once), right after the
    /// order's `order.retiring`, in the account's sequence, signed like any
    /// event, and the contract's `OrderAllocation` of the order's projects.
    async fn allocations_follow_their_orders_events_signed_and_in_order(
        db: tonne_test_support::TestDb,
    ) {
        let app = test_app(db, |_| {}).await;
        app.demo_catalogue().await;
        let rx = Receiver::start(Behaviour::Status(200));
        let t = app.tenant().await;
        let w = create_webhook(&app, &t.test_key, &format!("{}/alloc", rx.base), None).await;
        let placed = app
            .post(
                "/v1/orders/by-mass",
                &t.test_key,
                &json!({"mass": {"amount": "0.5", "unit": "t"}}),
            )
            .await;
        assert_eq!(placed.status, 200, "{}", placed.body);
        let order_id = placed.body["id"].as_str().unwrap().to_owned();
        wait_for("the order completed", Duration::from_secs(60), || {
            rx.events("/alloc")
                .iter()
                .any(|e| e.3["event_type"] == "order.completed")
        })
        .await;
        let order = app
            .get(&format!("/v1/orders/{order_id}"), &t.test_key)
            .await
            .body;
        let projects = order["projects"].as_array().unwrap().clone();
        assert!(!projects.is_empty());
        let n = projects.len();

        // first-seen events, in sequence order
        let events = rx.events("/alloc");
        assert_in_order(&events);
        let mut seen = HashSet::new();
        let firsts: Vec<Value> = events
            .into_iter()
            .filter(|e| seen.insert(e.2.clone()))
            .map(|e| e.3)
            .collect();
        let kinds: Vec<&str> = firsts
            .iter()
            .map(|e| e["event_type"].as_str().unwrap())
            .collect();
        let mut expected = vec![
            "order.received",
            "order.placed",
            "order.paid",
            "order.retiring",
        ];
        expected.extend(std::iter::repeat_n("allocation.new", n));
        expected.extend(std::iter::repeat_n("allocation.retired", n));
        expected.push("order.completed");
        assert_eq!(kinds, expected);

        // the allocations are the order's projects, in its order, each with an id
        let new: Vec<&Value> = firsts[4..4 + n]
            .iter()
            .map(|e| &e["data"]["allocation"])
            .collect();
        let retired: Vec<&Value> = firsts[4 + n..4 + 2 * n]
            .iter()
            .map(|e| &e["data"]["allocation"])
            .collect();
        let ids: HashSet<&str> = new.iter().map(|a| a["id"].as_str().unwrap()).collect();
        assert_eq!(ids.len(), n, "one id per allocation");
        for ((a, r), p) in new.iter().zip(&retired).zip(&projects) {
            assert_eq!(a["order_id"], order_id.as_str());
            assert_eq!(a["project_id"], p["project_id"]);
            assert_eq!(a["quantity"], p["quantity"]);
            assert_eq!(a["status"], "new");
            assert_eq!(
                (r["id"].clone(), r["status"].clone()),
                (a["id"].clone(), json!("retired"))
            );
            assert_eq!(
                r["created_at"], a["created_at"],
                "the allocation's time, kept"
            );
            assert!(a["created_at"].as_str().unwrap().ends_with('Z'));
            assert!(a.get("splitFrom").is_none());
        }
        let tonnes: rust_decimal::Decimal = new
            .iter()
            .map(|a| {
                a["quantity"]
                    .as_str()
                    .unwrap()
                    .parse::<rust_decimal::Decimal>()
                    .unwrap()
            })
            .sum();
        assert_eq!(
            tonnes,
            "0.5".parse().unwrap(),
            "the allocations add up to the order"
        );
        for r in rx.received() {
            let body: Value = serde_json::from_slice(&r.body).unwrap();
            conforms_request(&body);
            // and Tonne's own conformance check of receivers' bodies agrees
            let checked = app
                .send(
                    app.request(reqwest::Method::POST, "/v1/WebhookRequest", None)
                        .json(&body),
                )
                .await;
            assert_eq!(checked.status, 200, "{}", checked.body);
        }
        verify_all(&rx.received(), w["secret"].as_str().unwrap());
    }

    tonne_test_support::on_both_backends!(
        orders_reach_the_receiver_signed_in_order_filtered_and_by_mode,
        a_new_webhook_starts_after_the_events_before_it,
        allocations_follow_their_orders_events_signed_and_in_order,
        rotation_deletion_and_gone,
        exhausted_schedule_disables_then_re_enabling_resumes,
        chaos_loses_nothing_and_keeps_order
    );

    /// Several dispatchers are a PostgreSQL feature (SQLite runs exactly one).
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres_two_dispatchers_one_killed() {
        if let Some(db) = tonne_test_support::TestDb::postgres() {
            two_dispatchers_one_killed(db).await;
        }
    }
}

// ---------------------------------------------------------------- event types

/// `event_types` (Tonne's extension): a webhook receives only the types it
/// chose; an organisation pinned before `2024-08-08` receives no allocation
/// events whatever its webhooks chose; a bad list is 400 and writes nothing.
mod event_types {
    use super::*;

    fn types_of(events: &[(String, u64, String, Value)]) -> Vec<String> {
        let mut seen = HashSet::new();
        events
            .iter()
            .filter(|e| seen.insert(e.2.clone()))
            .map(|e| e.3["event_type"].as_str().unwrap().to_owned())
            .collect()
    }

    async fn a_bad_list_is_refused_and_nothing_written(db: tonne_test_support::TestDb) {
        let app = TestApp::spawn(db).await;
        let t = app.tenant().await;
        let created = app
            .post(
                "/v1/webhooks",
                &t.test_key,
                &json!({"url": "http://127.0.0.1:9/hook",
                        "event_types": ["allocation.new", "order.completed", "order.completed"]}),
            )
            .await;
        assert_eq!(created.status, 200, "{}", created.body);
        // deduplicated, in the order Tonne lists the types; the contract's shape otherwise
        assert_eq!(
            created.body["event_types"],
            json!(["order.completed", "allocation.new"])
        );
        conforms_webhook("WebhookFullSecret", &created.body);
        let id = created.body["id"].as_str().unwrap().to_owned();
        let plain = create_webhook(&app, &t.test_key, "http://127.0.0.1:9/plain", None).await;
        assert!(plain.get("event_types").is_none(), "{plain}");
        for (body, field) in [
            (
                json!({"url": "http://127.0.0.1:9/x", "event_types": ["order.completed", "order.shipped"]}),
                "event_types[1]",
            ),
            (
                json!({"url": "http://127.0.0.1:9/x", "event_types": ["webhook.test"]}),
                "event_types[0]",
            ),
            (
                json!({"url": "http://127.0.0.1:9/x", "event_types": []}),
                "event_types",
            ),
            (
                json!({"url": "http://127.0.0.1:9/x", "event_types": null}),
                "event_types",
            ),
            (
                json!({"url": "http://127.0.0.1:9/x", "event_types": "order.paid"}),
                "event_types",
            ),
        ] {
            let res = app.post("/v1/webhooks", &t.test_key, &body).await;
            assert_error(&res, 400, "validation_error");
            let message = res.body["errors"][0]["message"].as_str().unwrap();
            assert!(message.starts_with(field), "{body}: {message}");
        }
        let listed = app.get("/v1/webhooks", &t.test_key).await;
        assert_eq!(listed.body.as_array().unwrap().len(), 2, "nothing written");
        // an update with a bad name changes nothing
        let path = format!("/v1/webhooks/{id}");
        let res = app
            .put(
                &path,
                &t.test_key,
                &json!({"url": "http://127.0.0.1:9/changed", "event_types": ["Order.Paid"]}),
            )
            .await;
        assert_error(&res, 400, "validation_error");
        let read = app.get(&path, &t.test_key).await.body;
        assert_eq!(read["url"], "http://127.0.0.1:9/hook");
        assert_eq!(
            read["event_types"],
            json!(["order.completed", "allocation.new"])
        );
        conforms_webhook("Webhook", &read);
        // absent keeps them, a list replaces them, null is every type again
        let kept = app
            .put(
                &path,
                &t.test_key,
                &json!({"url": "http://127.0.0.1:9/hook"}),
            )
            .await;
        assert_eq!(
            kept.body["event_types"],
            json!(["order.completed", "allocation.new"])
        );
        let replaced = app
            .put(
                &path,
                &t.test_key,
                &json!({"url": "http://127.0.0.1:9/hook", "event_types": ["order.failed"]}),
            )
            .await;
        assert_eq!(replaced.status, 200, "{}", replaced.body);
        assert_eq!(replaced.body["event_types"], json!(["order.failed"]));
        let cleared = app
            .put(
                &path,
                &t.test_key,
                &json!({"url": "http://127.0.0.1:9/hook", "event_types": null}),
            )
            .await;
        assert_eq!(cleared.status, 200, "{}", cleared.body);
        assert!(
            cleared.body.get("event_types").is_none(),
            "{}",
            cleared.body
        );
        let listed = app.get("/v1/webhooks", &t.test_key).await.body;
        assert!(
            listed
                .as_array()
                .unwrap()
                .iter()
                .all(|w| w.get("event_types").is_none())
        );
    }

    /// A webhook choosing `order.completed` and `allocation.retired` receives
    /// those only, signed and in sequence order, beside one receiving every type.
    async fn a_webhook_receives_only_the_types_it_chose(db: tonne_test_support::TestDb) {
        let app = test_app(db, |_| {}).await;
        app.demo_catalogue().await;
        let rx = Receiver::start(Behaviour::Status(200));
        let t = app.tenant().await;
        let chosen = app
            .post(
                "/v1/webhooks",
                &t.test_key,
                &json!({"url": format!("{}/chosen", rx.base),
                        "event_types": ["order.completed", "allocation.retired"]}),
            )
            .await;
        assert_eq!(chosen.status, 200, "{}", chosen.body);
        let all = create_webhook(&app, &t.test_key, &format!("{}/all", rx.base), None).await;
        order(&app, &t.test_key, None).await;
        order(&app, &t.test_key, None).await;
        wait_for("both orders completed", Duration::from_secs(60), || {
            ["/all", "/chosen"].iter().all(|path| {
                types_of(&rx.events(path))
                    .iter()
                    .filter(|t| *t == "order.completed")
                    .count()
                    == 2
            })
        })
        .await;
        let every = types_of(&rx.events("/all"));
        assert!(every.iter().any(|t| t == "allocation.new"), "{every:?}");
        let got = types_of(&rx.events("/chosen"));
        assert!(
            got.iter()
                .all(|t| t == "order.completed" || t == "allocation.retired"),
            "{got:?}"
        );
        assert!(got.iter().any(|t| t == "allocation.retired"), "{got:?}");
        // the same events as the other webhook's of those types, in sequence order
        let sequences = |path: &str| -> Vec<u64> {
            let mut seen = HashSet::new();
            rx.events(path)
                .into_iter()
                .filter(|e| seen.insert(e.2.clone()))
                .filter(|e| {
                    let t = e.3["event_type"].as_str().unwrap();
                    t == "order.completed" || t == "allocation.retired"
                })
                .map(|e| e.1)
                .collect()
        };
        let chosen_sequences = sequences("/chosen");
        assert!(chosen_sequences.is_sorted(), "{chosen_sequences:?}");
        // (the allocation.retired after the last order.completed may still be on its way)
        wait_for("the same events", Duration::from_secs(30), || {
            sequences("/chosen") == sequences("/all")
        })
        .await;
        let chosen_requests: Vec<Received> = rx
            .received()
            .into_iter()
            .filter(|r| r.path == "/chosen")
            .collect();
        verify_all(&chosen_requests, chosen.body["secret"].as_str().unwrap());
        for r in &chosen_requests {
            conforms_request(&serde_json::from_slice(&r.body).unwrap());
        }
        let _ = all;
    }

    /// An organisation whose pinned version predates `2024-08-08` receives no
    /// allocation events, even on a webhook that chose them; its order events
    /// arrive as ever.
    async fn an_organisation_pinned_before_2024_08_08_gets_no_allocation_events(
        db: tonne_test_support::TestDb,
    ) {
        let app = test_app(db, |_| {}).await;
        app.demo_catalogue().await;
        let rx = Receiver::start(Behaviour::Status(200));
        let t = app.tenant().await;
        create_webhook(&app, &t.test_key, &format!("{}/all", rx.base), None).await;
        let chose = app
            .post(
                "/v1/webhooks",
                &t.test_key,
                &json!({"url": format!("{}/chose", rx.base),
                        "event_types": ["allocation.new", "allocation.retired", "order.completed"]}),
            )
            .await;
        assert_eq!(chose.status, 200, "{}", chose.body);
        order(&app, &t.test_key, None).await;
        // The 2023 contract's organisation: no version of this build is earlier
        // than 2024-08-08, so the pin is written as a database holding one
        // would have it (after the last API request, which reads the pin).
        tonne_test_support::execute(
            &app.services.db,
            format!(
                "UPDATE organisation_api_versions SET version = '2023-01-01' WHERE organisation_id = '{}'",
                t.organisation_id
            ),
        )
        .await;
        wait_for("the order completed", Duration::from_secs(60), || {
            ["/all", "/chose"].iter().all(|path| {
                types_of(&rx.events(path))
                    .iter()
                    .any(|t| t == "order.completed")
            })
        })
        .await;
        // the allocation events were written, after the pin changed
        let allocations = tonne_test_support::count(
            &app.services.db,
            format!(
                "SELECT COUNT(*) AS n FROM order_events WHERE account_id = '{}' AND event_type LIKE 'allocation.%'",
                t.test_account
            ),
        )
        .await;
        assert!(allocations >= 2, "{allocations}");
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(
            types_of(&rx.events("/all")),
            vec![
                "order.received",
                "order.placed",
                "order.paid",
                "order.retiring",
                "order.completed"
            ]
        );
        assert_eq!(types_of(&rx.events("/chose")), vec!["order.completed"]);
        for r in rx.received() {
            // each body holds in the 2023 document as a whole
            conforms("WebhookRequest", &serde_json::from_slice(&r.body).unwrap());
        }
    }

    tonne_test_support::on_both_backends!(
        a_bad_list_is_refused_and_nothing_written,
        a_webhook_receives_only_the_types_it_chose,
        an_organisation_pinned_before_2024_08_08_gets_no_allocation_events,
    );
}
