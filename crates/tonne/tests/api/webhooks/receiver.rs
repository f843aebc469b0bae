//! A webhook receiver on a random loopback port: what it answers, and what it
//! received.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

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
