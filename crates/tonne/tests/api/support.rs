use std::sync::{Arc, OnceLock};
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::Value;
use tonne::server::{self, ServeOptions};
use tonne_http::rate_limit::RatePolicy;
use tonne_storage::DatabaseUrl;
use tonne_test_support::{Contract, TestDb};

pub fn contract() -> Option<&'static Contract> {
    static CONTRACT: OnceLock<Option<Contract>> = OnceLock::new();
    CONTRACT.get_or_init(Contract::load).as_ref()
}

/// Validates a body against a contract schema when the contract is present.
pub fn conforms(schema: &str, body: &Value) {
    if let Some(contract) = contract() {
        contract.assert_valid(schema, body);
    }
}

/// Validates against the 2024 document only: for schemas the 2023 one lacks
/// (`UploadLogoResponse`, `PaginatedAnyShippingEmissionEstimates`, …) and answers
/// that echo a request field only the 2024 document has (`metadata`, …).
pub fn conforms_2024(schema: &str, body: &Value) {
    if let Some(Err(e)) =
        contract().map(|c| c.validate_in(tonne_test_support::Edition::Dec2024, schema, body))
    {
        panic!("response violates the 2024 contract: {}", e.0);
    }
}

/// An error whose code the 2023 enum predates: the status, the code, the 2024
/// shape (`error` repeated in `errors`), and the 2024 `ErrorResponse` schema
/// when its enum lists the code (`account_idempotency_already_exists` comes
/// from 3.9.2's models).
pub fn assert_error_2024(res: &Reply, status: u16, code: &str) {
    assert_eq!(res.status.as_u16(), status, "body: {}", res.body);
    assert_eq!(
        res.body["errors"][0]["error_code"], code,
        "body: {}",
        res.body
    );
    assert!(
        res.body["errors"][0]["message"].is_string(),
        "body: {}",
        res.body
    );
    assert_eq!(
        res.body["error"], res.body["errors"][0],
        "body: {}",
        res.body
    );
    assert_eq!(res.body["errors"].as_array().map(Vec::len), Some(1));
    let listed = contract()
        .and_then(|c| c.document_of(tonne_test_support::Edition::Dec2024))
        .and_then(|d| d.pointer("/components/schemas/Error/properties/error_code/enum"))
        .and_then(Value::as_array)
        .is_some_and(|codes| codes.iter().any(|c| c == code));
    if listed {
        conforms_2024("ErrorResponse", &res.body);
    }
}

/// A transaction estimate's `request` echo spells the merchant's search term as
/// the client did: `fuzzy_search_term` (2023; the 2024 merchant schemas forbid
/// any other property) or `search_term` (2024; the 2023 schema does not know it).
/// No echo can please both, so the answer is checked as is against the
/// document of the spelling used, and against the other document with the echo
/// respelled — everything else must hold in both (docs/API.md).
pub fn conforms_transaction(body: &Value) {
    use tonne_test_support::Edition;
    let Some(contract) = contract() else {
        return;
    };
    let merchant = &body["request"]["merchant"];
    let (own, other, from, to) = if merchant.get("fuzzy_search_term").is_some() {
        (
            Edition::Jan2023,
            Edition::Dec2024,
            "fuzzy_search_term",
            "search_term",
        )
    } else if merchant.get("search_term").is_some() {
        (
            Edition::Dec2024,
            Edition::Jan2023,
            "search_term",
            "fuzzy_search_term",
        )
    } else {
        return conforms("TransactionEmissionEstimate", body);
    };
    let schema = "TransactionEmissionEstimate";
    if let Err(e) = contract.validate_in(own, schema, body) {
        panic!("response violates the contract: {}", e.0);
    }
    let mut respelled = body.clone();
    if let Some(m) = respelled["request"]["merchant"].as_object_mut()
        && let Some(term) = m.remove(from)
    {
        m.insert(to.to_owned(), term);
    }
    if let Err(e) = contract.validate_in(other, schema, &respelled) {
        panic!("response violates the contract: {}", e.0);
    }
}

/// Checks an error body. Every status carries the 2024 `ErrorResponse` shape:
/// `error`, and the same element alone in `errors`. For the statuses whose
/// contract response carries the schema (400, 401, 403, 409) the schemas of both
/// documents, error-code enums included; for the others (404 of unknown routes,
/// 405, 413, 415, 429, 503) the same shape with Tonne's own codes, which the
/// enums do not list.
pub fn conforms_error(status: u16, body: &Value) {
    let errors = body["errors"]
        .as_array()
        .unwrap_or_else(|| panic!("not an Errors body: {body}"));
    assert_eq!(errors.len(), 1, "{body}");
    assert!(
        errors[0]["error_code"].is_string() && errors[0]["message"].is_string(),
        "{body}"
    );
    assert_eq!(
        body["error"], errors[0],
        "`error` repeats `errors[0]`: {body}"
    );
    if matches!(status, 400 | 401 | 403 | 409) {
        conforms("Errors", body);
    }
}

/// Asserts an error answer: the status, the contract's `Errors` shape, and the code.
pub fn assert_error(res: &Reply, status: u16, code: &str) {
    assert_eq!(res.status.as_u16(), status, "body: {}", res.body);
    conforms_error(status, &res.body);
    assert_eq!(
        res.body["errors"][0]["error_code"], code,
        "body: {}",
        res.body
    );
}

/// A response: status, headers and JSON body (Null when not JSON).
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

/// An organisation made by `bootstrap`: one live and one test account, a key each.
#[derive(Debug, Clone)]
pub struct Tenant {
    pub organisation_id: String,
    pub live_account: String,
    pub live_key: String,
    pub test_account: String,
    pub test_key: String,
}

/// The server, running on its own thread and runtime, over an isolated database.
pub struct TestApp {
    pub base: String,
    /// The metrics listener's base URL (`/metrics` is not on `base`).
    pub metrics_base: String,
    pub client: reqwest::Client,
    pub services: tonne::Services,
    pub database_url: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
    _db: Arc<TestDb>,
}

impl TestApp {
    /// Defaults for tests: a generous rate limit, a 1 s key cache, no demo organisation.
    pub async fn spawn(db: TestDb) -> Self {
        Self::spawn_with(db, |_| {}).await
    }

    pub async fn spawn_with(db: TestDb, tweak: impl FnOnce(&mut ServeOptions)) -> Self {
        Self::spawn_on(Arc::new(db), tweak).await
    }

    /// Another server process over this one's database (it keeps the database
    /// alive as long as it runs).
    pub async fn sibling(&self, tweak: impl FnOnce(&mut ServeOptions)) -> Self {
        Self::spawn_on(Arc::clone(&self._db), tweak).await
    }

    async fn spawn_on(db: Arc<TestDb>, tweak: impl FnOnce(&mut ServeOptions)) -> Self {
        let database_url = db.url().to_owned();
        let mut options = ServeOptions::new(DatabaseUrl::parse(&database_url).unwrap());
        options.bind = "127.0.0.1:0".into();
        options.rate = RatePolicy {
            per_second: 100_000,
            burst: 100_000,
        };
        options.key_cache_ttl = Duration::from_secs(1);
        options.pool_size = 4;
        options.workers = Some(2);
        options.shutdown_timeout = Duration::from_secs(1);
        options.create_demo = false;
        options.metrics_bind = Some("127.0.0.1:0".into());
        // Webhooks: loopback receivers (unsafe outside tests), a fixed key (PostgreSQL has
        // no key file), a quick dispatcher.
        options.webhooks.allow_private = true;
        options.webhooks.secrets_key = Some("ab".repeat(32));
        options.dispatcher = Some(tonne_dispatcher::DispatcherConfig {
            poll_interval: Duration::from_millis(20),
            timeout: Duration::from_secs(2),
            lease: Duration::from_secs(7),
            targets: tonne_webhooks::TargetPolicy {
                allow_private: true,
            },
            ..tonne_dispatcher::DispatcherConfig::default()
        });
        tweak(&mut options);
        let (ready_tx, ready_rx) = tokio::sync::oneshot::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let running = server::start(options).await.expect("server starts");
                let handle = running.handle.clone();
                let _ =
                    ready_tx.send((running.addr, running.metrics_addr, running.services.clone()));
                let server = tokio::spawn(running.server);
                let _ = stop_rx.await;
                if let Some(stop) = &running.dispatcher_stop {
                    let _ = stop.send(true);
                }
                let _ = running.shipments_stop.send(true);
                handle.stop(true).await;
                let _ = server.await;
                if let Some(task) = running.dispatcher_task {
                    task.abort();
                }
            });
        });
        let (addr, metrics_addr, services) = ready_rx.await.expect("server thread started");
        Self {
            base: format!("http://{addr}"),
            metrics_base: metrics_addr.map_or_else(String::new, |a| format!("http://{a}")),
            client: reqwest::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .unwrap(),
            services,
            database_url,
            stop: Some(stop_tx),
            thread: Some(thread),
            _db: db,
        }
    }

    /// Imports the shipped demo catalogue.
    pub async fn demo_catalogue(&self) {
        let catalogue = tonne::catalogue_file::parse(
            tonne::catalogue_file::DEMO,
            time::OffsetDateTime::now_utc(),
        )
        .unwrap();
        self.services
            .ordering
            .import_catalogue(catalogue, &tonne_kernel::Actor::CommandLine)
            .await
            .unwrap();
    }

    /// A new organisation with its pair and keys.
    pub async fn tenant(&self) -> Tenant {
        let out = self
            .services
            .accounts
            .bootstrap("Acme", &tonne_kernel::Actor::CommandLine)
            .await
            .unwrap();
        Tenant {
            organisation_id: out.organisation_id.to_string(),
            live_account: out.live.account_id.to_string(),
            live_key: out.live.api_key.expose().to_owned(),
            test_account: out.test.account_id.to_string(),
            test_key: out.test.api_key.expose().to_owned(),
        }
    }

    pub fn request(
        &self,
        method: Method,
        path: &str,
        key: Option<&str>,
    ) -> reqwest::RequestBuilder {
        let mut req = self.client.request(method, format!("{}{path}", self.base));
        if let Some(key) = key {
            req = req.bearer_auth(key);
        }
        req
    }

    pub async fn send(&self, req: reqwest::RequestBuilder) -> Reply {
        let res = req.send().await.expect("request sent");
        let status = res.status();
        let headers = res.headers().clone();
        let bytes = res.bytes().await.unwrap_or_default();
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Reply {
            status,
            headers,
            body,
        }
    }

    /// The Prometheus text of this server's metrics listener.
    pub async fn metrics(&self) -> String {
        self.client
            .get(format!("{}/metrics", self.metrics_base))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    }

    /// The text of an unauthenticated GET of a path on this server (pages).
    pub async fn text(&self, path: &str) -> String {
        self.client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    }

    pub async fn get(&self, path: &str, key: &str) -> Reply {
        self.send(self.request(Method::GET, path, Some(key))).await
    }

    /// The ids of the catalogue's first 100 bundles.
    pub async fn bundle_ids(&self, key: &str) -> Vec<String> {
        let res = self.get("/v1/bundles?limit=100", key).await;
        res.body["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["id"].as_str().unwrap().to_owned())
            .collect()
    }

    pub async fn post(&self, path: &str, key: &str, body: &Value) -> Reply {
        self.send(self.request(Method::POST, path, Some(key)).json(body))
            .await
    }

    pub async fn delete(&self, path: &str, key: &str) -> Reply {
        self.send(self.request(Method::DELETE, path, Some(key)))
            .await
    }

    pub async fn put(&self, path: &str, key: &str, body: &Value) -> Reply {
        self.send(self.request(Method::PUT, path, Some(key)).json(body))
            .await
    }

    /// Every account row of every organisation, to prove nothing was written.
    pub async fn count_accounts(&self, tenant: &Tenant) -> usize {
        use tonne_accounts::AccountScope;
        use tonne_accounts::ports::{AccountQuery, AccountRepository as _};
        use tonne_kernel::{AccountMode, Cursor, Limit, PageRequest};
        let store = tonne_storage::AccountStore::new(self.services.db.clone());
        let mut total = 0;
        for mode in [AccountMode::Live, AccountMode::Test] {
            for scope in [AccountScope::Account, AccountScope::ClientAccount] {
                let query = AccountQuery {
                    organisation_id: tenant.organisation_id.parse().unwrap(),
                    mode,
                    scope,
                    name: None,
                };
                let mut after = None;
                loop {
                    let page = store
                        .list(
                            &query,
                            &PageRequest {
                                limit: Limit::new(100).unwrap(),
                                after,
                            },
                        )
                        .await
                        .unwrap();
                    total += page.items.len();
                    after = page.items.last().map(|a| Cursor::after(&a.id));
                    if !page.has_more {
                        break;
                    }
                }
            }
        }
        total
    }

    /// Stored estimates and orders of every account (rows), to prove a refused request wrote nothing.
    pub async fn count_estimates_and_orders(&self) -> (i64, i64) {
        let db = &self.services.db;
        (
            tonne_test_support::count(db, "SELECT count(*) AS n FROM estimates").await,
            tonne_test_support::count(db, "SELECT count(*) AS n FROM orders").await,
        )
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
