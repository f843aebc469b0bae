//! What the tests share: the server on its own runtime, requests and
//! answers; `checks`, the contract checks and error assertions; `process`,
//! the binary as a process.

use std::sync::Arc;
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::Value;
use tonne::server::{self, ServeOptions};
use tonne_http::rate_limit::RatePolicy;
use tonne_storage::DatabaseUrl;
use tonne_test_support::TestDb;

mod checks;
pub mod process;

pub use checks::*;

/// An HTTP client that follows no redirect (as the tests read them).
pub fn client_without_redirects() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// The JSON answer of a request (to a server other than the tests' own).
pub async fn json_of(req: reqwest::RequestBuilder) -> Value {
    req.send().await.unwrap().json().await.unwrap()
}

/// What each task gave, in order (a task's panic fails the test).
pub async fn results_of<T>(tasks: Vec<tokio::task::JoinHandle<T>>) -> Vec<T> {
    let mut results = Vec::with_capacity(tasks.len());
    for task in tasks {
        results.push(task.await.unwrap());
    }
    results
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
        self.text_at(format!("{}/metrics", self.metrics_base)).await
    }

    /// The text of an unauthenticated GET of a path on this server (pages).
    pub async fn text(&self, path: &str) -> String {
        self.text_at(format!("{}{path}", self.base)).await
    }

    async fn text_at(&self, url: String) -> String {
        let res = self.client.get(url).send().await.unwrap();
        res.text().await.unwrap()
    }

    /// The raw answer of a GET, with `key` when given: for what is not JSON
    /// (PDFs, files, pages, redirects) or where the headers matter.
    pub async fn fetch(&self, path: &str, key: Option<&str>) -> reqwest::Response {
        self.request(Method::GET, path, key).send().await.unwrap()
    }

    pub async fn get(&self, path: &str, key: &str) -> Reply {
        self.send(self.request(Method::GET, path, Some(key))).await
    }

    /// A GET without a key.
    pub async fn get_without_key(&self, path: &str) -> Reply {
        self.send(self.request(Method::GET, path, None)).await
    }

    /// `POST /v1/accounts/client`: a client account of that name and currency.
    pub async fn new_client_account(&self, key: &str, name: &str, currency: &str) -> Reply {
        let body = serde_json::json!({"name": name, "currency": currency});
        self.post("/v1/accounts/client", key, &body).await
    }

    /// `POST /v1/orders/by-mass` of `tonnes` t with `key`.
    pub async fn order_tonnes(&self, key: &str, tonnes: &str) -> Reply {
        let body = serde_json::json!({"mass": {"amount": tonnes, "unit": "t"}});
        self.post("/v1/orders/by-mass", key, &body).await
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

    pub async fn patch(&self, path: &str, key: &str, body: &Value) -> Reply {
        self.send(self.request(Method::PATCH, path, Some(key)).json(body))
            .await
    }

    /// The tenant's live account's external pages made public.
    pub async fn make_pages_public(&self, tenant: &Tenant) {
        let patched = self
            .patch_live_account(
                tenant,
                &serde_json::json!({"external_pages_visibility": "public"}),
            )
            .await;
        assert_eq!(patched.status, 200, "{}", patched.body);
    }

    /// `PATCH /v1/accounts/{id}` of the tenant's live account, with its key.
    pub async fn patch_live_account(&self, tenant: &Tenant, body: &Value) -> Reply {
        let path = format!("/v1/accounts/{}", tenant.live_account);
        self.patch(&path, &tenant.live_key, body).await
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
