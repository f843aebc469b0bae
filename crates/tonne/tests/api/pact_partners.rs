//! PACT's asynchronous requests answered: a partner registered with the
//! CLI (its secret from the environment, never the command line) asks for
//! footprints with a `…Request.Created.v1` event; Tonne's job takes a token
//! from the partner's token endpoint with the partner's credentials and
//! posts `…Fulfilled.v1` (the footprints, valid against PACT v2.3 and
//! iLEAP) or `…Rejected.v1` (`NotFound`) to the partner's events endpoint,
//! once per event id, retried while the partner fails. A request from a
//! source no partner registered is acknowledged and never answered.

use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};
use tonne_test_support::on_both_backends;

use crate::pact::{credentials, event, pact_error, token, valid_footprint};
use crate::shipments::{good_row, processed, upload_ok};
use crate::support::TestApp;

const PARTNER_ID: &str = "tonne-at-partner";
const PARTNER_SECRET: &str = "partner's secret";
const PARTNER_TOKEN: &str = "token-from-the-partner";

/// What the fake partner saw and how it behaves.
#[derive(Default)]
struct Seen {
    /// Token requests: (their Basic credentials, their body).
    tokens: Vec<(String, String)>,
    /// Events posted: (Authorization header, Content-Type, body).
    events: Vec<(String, String, Value)>,
    /// Event posts still to refuse with 503.
    refuse: u32,
}

/// A data recipient on loopback: `/auth/token` and `/2/events`, as PACT says.
struct Partner {
    base: String,
    seen: Arc<Mutex<Seen>>,
    handle: actix_web::dev::ServerHandle,
}

impl Partner {
    fn start() -> Self {
        let seen = Arc::new(Mutex::new(Seen::default()));
        let (tx, rx) = std::sync::mpsc::channel();
        let shared = Arc::clone(&seen);
        std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
                let addr = listener.local_addr().unwrap();
                let server = actix_web::HttpServer::new(move || {
                    let seen = Arc::clone(&shared);
                    actix_web::App::new().default_service(actix_web::web::to(
                        move |req: actix_web::HttpRequest, body: actix_web::web::Bytes| {
                            let seen = Arc::clone(&seen);
                            async move { answer(&req, &body, &seen) }
                        },
                    ))
                })
                .listen(listener)
                .unwrap()
                .workers(1)
                .run();
                tx.send((addr, server.handle())).unwrap();
                server.await.unwrap();
            });
        });
        let (addr, handle) = rx.recv().unwrap();
        Self {
            base: format!("http://{addr}"),
            seen,
            handle,
        }
    }

    fn events(&self) -> Vec<(String, String, Value)> {
        self.seen.lock().unwrap().events.clone()
    }

    /// Waits until `n` events arrived (at most 30 s).
    async fn wait_for(&self, n: usize) -> Vec<(String, String, Value)> {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let events = self.events();
            if events.len() >= n || Instant::now() > deadline {
                return events;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for Partner {
    fn drop(&mut self) {
        drop(self.handle.stop(false));
    }
}

fn header(req: &actix_web::HttpRequest, name: &str) -> String {
    req.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

fn answer(
    req: &actix_web::HttpRequest,
    body: &[u8],
    seen: &Mutex<Seen>,
) -> actix_web::HttpResponse {
    use actix_web::HttpResponse;
    let mut seen = seen.lock().unwrap();
    match req.path() {
        "/auth/token" => {
            let basic = header(req, "authorization");
            let given = basic
                .strip_prefix("Basic ")
                .and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok())
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default();
            seen.tokens
                .push((given.clone(), String::from_utf8_lossy(body).into_owned()));
            if given == format!("{PARTNER_ID}:{PARTNER_SECRET}") {
                HttpResponse::Ok()
                    .json(json!({"access_token": PARTNER_TOKEN, "token_type": "bearer"}))
            } else {
                HttpResponse::Unauthorized().json(json!({"error": "invalid_client"}))
            }
        }
        "/2/events" => {
            let auth = header(req, "authorization");
            if auth != format!("Bearer {PARTNER_TOKEN}") {
                return HttpResponse::Unauthorized().finish();
            }
            if seen.refuse > 0 {
                seen.refuse -= 1;
                return HttpResponse::ServiceUnavailable().finish();
            }
            let event: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
            seen.events.push((auth, header(req, "content-type"), event));
            HttpResponse::Ok().finish()
        }
        _ => HttpResponse::NotFound().finish(),
    }
}

/// `tonne pact partners add`, the secret in the environment.
fn add_partner(app: &TestApp, account: &str, url: &str) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_tonne"))
        .args([
            "pact",
            "partners",
            "add",
            "--account",
            account,
            "--url",
            url,
            "--client-id",
            PARTNER_ID,
            "--json",
            "--database-url",
            &app.database_url,
        ])
        .env_remove("DATABASE_URL")
        .env("TONNE_PACT_PARTNER_SECRET", PARTNER_SECRET)
        .env("TONNE_SECRETS_KEY", "ab".repeat(32))
        .env("TONNE_WEBHOOKS_ALLOW_PRIVATE", "true")
        .output()
        .expect("run tonne");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(!stdout.contains(PARTNER_SECRET), "{stdout}");
    serde_json::from_str(&stdout).unwrap()
}

fn request(id: &str, source: &str, product_ids: Value) -> Value {
    json!({
        "specversion": "1.0",
        "id": id,
        "source": source,
        "time": "2026-11-29T10:00:00Z",
        "type": "org.wbcsd.pathfinder.ProductFootprintRequest.Created.v1",
        "data": {"pf": {"productIds": product_ids}, "comment": "Please send PCF data for this year."}
    })
}

fn requests(app: &TestApp, account: &str) -> Vec<Value> {
    let out = crate::cli::tonne(
        &["pact", "requests", "--account", account, "--json"],
        &app.database_url,
    );
    serde_json::from_str::<Value>(&out)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

async fn a_partner_s_requests_are_answered_at_its_events_endpoint(app: TestApp) {
    let t = app.tenant().await;
    let batch = upload_ok(
        &app,
        &t.live_key,
        vec![
            good_row("PO-1", "2026-03-01T08:00:00Z"),
            good_row("PO-2", "2026-03-03T08:00:00Z"),
        ],
        true,
    )
    .await;
    processed(&app, &t.live_key, &batch).await;
    let partner = Partner::start();
    let added = add_partner(&app, &t.live_account, &format!("{}/", partner.base));
    assert_eq!(added["url"], partner.base.as_str());
    assert_eq!(added["token_url"], format!("{}/auth/token", partner.base));
    // the first post of an answer fails: the job tries again
    partner.seen.lock().unwrap().refuse = 1;

    let (client_id, secret) = credentials(&app, &t.live_account);
    let bearer = token(&app, &client_id, &secret).await.body["access_token"]
        .as_str()
        .unwrap()
        .to_owned();
    let footprints = crate::pact::pact_get(&app, "/pact/2/footprints", &bearer).await;
    let wanted = footprints.body["data"][0]["productIds"].clone();
    let wanted_id = footprints.body["data"][0]["id"].clone();

    // asked for an existing product: fulfilled with its footprint
    let run_1_12 = request("run-1/12", &partner.base, wanted.clone());
    let res = event(&app, &bearer, run_1_12.clone()).await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert_eq!(res.body["code"], "Ok");
    // the same event again is answered once
    let res = event(&app, &bearer, run_1_12).await;
    assert_eq!(res.status, 200, "{}", res.body);
    // asked for a product the account has not: rejected
    let res = event(
        &app,
        &bearer,
        request(
            "run-1/14.A",
            &format!("{}/", partner.base),
            json!(["urn:pact:null"]),
        ),
    )
    .await;
    assert_eq!(res.status, 200, "{}", res.body);
    // from a source no partner registered (an address inside the network):
    // acknowledged, never called
    let res = event(
        &app,
        &bearer,
        request("run-1/99", "http://169.254.169.254", wanted.clone()),
    )
    .await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert!(
        res.body["message"]
            .as_str()
            .unwrap()
            .contains("not a partner"),
        "{}",
        res.body
    );

    let events = partner.wait_for(2).await;
    assert_eq!(events.len(), 2, "{events:#?}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(partner.events().len(), 2, "each request answered once");
    let tokens = partner.seen.lock().unwrap().tokens.clone();
    assert!(
        tokens.iter().all(
            |(basic, body)| basic == &format!("{PARTNER_ID}:{PARTNER_SECRET}")
                && body == "grant_type=client_credentials"
        ),
        "{:?}",
        tokens
    );
    let by_request = |id: &str| {
        events
            .iter()
            .find(|(_, _, e)| e["data"]["requestEventId"] == id)
            .unwrap_or_else(|| panic!("no answer to {id}: {events:#?}"))
            .clone()
    };
    let (auth, content_type, fulfilled) = by_request("run-1/12");
    assert_eq!(auth, format!("Bearer {PARTNER_TOKEN}"));
    assert!(content_type.starts_with("application/cloudevents+json"));
    assert_eq!(
        fulfilled["type"],
        "org.wbcsd.pathfinder.ProductFootprintRequest.Fulfilled.v1"
    );
    assert_eq!(fulfilled["specversion"], "1.0");
    assert!(fulfilled["source"].as_str().unwrap().ends_with("/pact"));
    assert!(fulfilled["time"].is_string() && fulfilled["id"].is_string());
    let pfs = fulfilled["data"]["pfs"].as_array().unwrap();
    assert_eq!(pfs.len(), 1, "{fulfilled:#}");
    assert_eq!(pfs[0]["id"], wanted_id);
    assert_eq!(pfs[0]["productIds"], wanted);
    valid_footprint(&pfs[0]);
    let (_, _, rejected) = by_request("run-1/14.A");
    assert_eq!(
        rejected["type"],
        "org.wbcsd.pathfinder.ProductFootprintRequest.Rejected.v1"
    );
    assert_eq!(rejected["data"]["error"]["code"], "NotFound");
    assert!(rejected["data"]["error"]["message"].is_string());

    // the requests as the account's operator sees them
    let deadline = Instant::now() + Duration::from_secs(10);
    let listed = loop {
        let listed = requests(&app, &t.live_account);
        if listed.iter().all(|r| r["status"] != "waiting") || Instant::now() > deadline {
            break listed;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let mut statuses: Vec<&str> = listed
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    statuses.sort_unstable();
    assert_eq!(statuses, ["fulfilled", "rejected"], "{listed:#?}");
    let stored =
        tonne_test_support::count(&app.services.db, "SELECT count(*) AS n FROM pact_requests")
            .await;
    assert_eq!(stored, 2);

    // a malformed request is refused and nothing is stored
    pact_error(
        &event(
            &app,
            &bearer,
            request("run-1/13", &partner.base, json!(["not-a-urn"])),
        )
        .await,
        400,
        "BadRequest",
    );
    assert_eq!(requests(&app, &t.live_account).len(), 2);

    // removed: its next request is no longer answered
    let id = added["id"].as_str().unwrap();
    crate::cli::tonne(&["pact", "partners", "remove", id], &app.database_url);
    let res = event(&app, &bearer, request("run-2/12", &partner.base, wanted)).await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert!(
        res.body["message"]
            .as_str()
            .unwrap()
            .contains("not a partner")
    );
    let listed = crate::cli::tonne(
        &[
            "pact",
            "partners",
            "list",
            "--account",
            &t.live_account,
            "--json",
        ],
        &app.database_url,
    );
    assert_eq!(listed.trim(), "[]");
}

async fn a_partner_that_never_answers_is_given_up(app: TestApp) {
    let t = app.tenant().await;
    // a partner whose token endpoint refuses Tonne's credentials
    let partner = Partner::start();
    let url = partner.base.clone();
    let services = app.services.clone();
    let added = services
        .pact_partners
        .add(
            t.live_account.parse().unwrap(),
            &url,
            None,
            "someone-else",
            tonne_accounts::pact::partners::PartnerSecret::new("wrong".into()).unwrap(),
        )
        .await
        .unwrap();
    let (client_id, secret) = credentials(&app, &t.live_account);
    let bearer = token(&app, &client_id, &secret).await.body["access_token"]
        .as_str()
        .unwrap()
        .to_owned();
    let res = event(&app, &bearer, request("x/1", &url, json!(["urn:x:1"]))).await;
    assert_eq!(res.status, 200, "{}", res.body);
    let deadline = Instant::now() + Duration::from_secs(30);
    let listed = loop {
        let listed = requests(&app, &t.live_account);
        if listed.first().is_some_and(|r| r["status"] == "failed") || Instant::now() > deadline {
            break listed;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(listed[0]["status"], "failed", "{listed:#?}");
    assert!(
        listed[0]["error"].as_str().unwrap().contains("401"),
        "{listed:#?}"
    );
    assert!(partner.events().is_empty());
    assert!(partner.seen.lock().unwrap().tokens.len() >= 2, "retried");
    assert_eq!(added.url, url);
}

async fn spawn_with_quick_retries(db: tonne_test_support::TestDb) -> TestApp {
    TestApp::spawn_with(db, |o| {
        o.job_retry = tonne_jobs::RetryPolicy {
            max_attempts: 3,
            base: time::Duration::milliseconds(100),
            cap: time::Duration::milliseconds(500),
        };
    })
    .await
}

on_both_backends!(
    with crate::pact_partners::spawn_with_quick_retries;
    a_partner_s_requests_are_answered_at_its_events_endpoint,
    a_partner_that_never_answers_is_given_up,
);
