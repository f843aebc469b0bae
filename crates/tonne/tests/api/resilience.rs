//! Resource limits that hold: a request deadline (slow bodies), a header
//! deadline (slow heads), and connection-pool exhaustion answering 503 with
//! `Retry-After` within the configured wait instead of hanging.

use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;
use tonne_test_support::{TestDb, on_both_backends};

use crate::support::{TestApp, conforms_error};

/// Writes `head` (and nothing more) and reads until the server closes or
/// `patience` passes; returns what came back and how long it took.
async fn send_partial(app: &TestApp, head: &str, patience: Duration) -> (String, Duration) {
    let addr = app.base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let started = Instant::now();
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout(patience, stream.read(&mut buf)).await {
            Ok(Ok(0)) | Err(_) => break,
            Ok(Ok(n)) => {
                answer.extend_from_slice(&buf[..n]);
                // The answer is complete once its body (JSON) is in.
                let text = String::from_utf8_lossy(&answer);
                if text.contains("\r\n\r\n") && text.trim_end().ends_with('}') {
                    break;
                }
            }
            Ok(Err(_)) => break,
        }
    }
    (
        String::from_utf8_lossy(&answer).into_owned(),
        started.elapsed(),
    )
}

fn status_and_body(raw: &str) -> (u16, Value, String) {
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((raw, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = serde_json::from_str(body.trim()).unwrap_or(Value::Null);
    (status, body, head.to_ascii_lowercase())
}

async fn a_body_sent_too_slowly_is_cut_off_with_503(db: TestDb) {
    let app = TestApp::spawn_with(db, |o| o.request_timeout = Duration::from_secs(1)).await;
    let t = app.tenant().await;
    let head = format!(
        "POST /v1/estimates/flight HTTP/1.1\r\nHost: tonne\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{{\"route\":",
        t.live_key
    );
    let (raw, took) = send_partial(&app, &head, Duration::from_secs(10)).await;
    let (status, body, headers) = status_and_body(&raw);
    assert_eq!(status, 503, "{raw}");
    assert_eq!(body["errors"][0]["error_code"], "service_unavailable");
    conforms_error(503, &body);
    assert!(headers.contains("retry-after: 1"), "{headers}");
    assert!(took < Duration::from_secs(5), "answered after {took:?}");
    // Nothing was written.
    assert_eq!(app.count_estimates_and_orders().await, (0, 0));
    // The server still serves.
    assert_eq!(
        app.get("/v1/accounts/me", &t.live_key)
            .await
            .status
            .as_u16(),
        200
    );
}

async fn a_head_sent_too_slowly_is_cut_off(db: TestDb) {
    let app = TestApp::spawn_with(db, |o| o.header_timeout = Duration::from_millis(500)).await;
    let (raw, took) = send_partial(
        &app,
        "GET /v1/accounts/me HTTP/1.1\r\nHost: ton",
        Duration::from_secs(10),
    )
    .await;
    // actix answers 408 and closes, or closes: either way within the deadline's order.
    assert!(
        raw.is_empty() || raw.starts_with("HTTP/1.1 408"),
        "unexpected answer: {raw}"
    );
    assert!(took < Duration::from_secs(4), "held for {took:?}");
}

on_both_backends!(
    a_body_sent_too_slowly_is_cut_off_with_503,
    a_head_sent_too_slowly_is_cut_off,
);

/// PostgreSQL: one pooled connection held by a request stuck behind a table
/// lock; the next request waits the configured 300 ms for a connection and
/// answers 503 with `Retry-After` instead of hanging.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pool_exhaustion_answers_503_within_the_wait() {
    use diesel::Connection as _;
    use diesel::connection::SimpleConnection as _;
    // diesel-async's connection seen as a blocking one, on a thread of its own.
    type PgConnection = diesel_async::async_connection_wrapper::AsyncConnectionWrapper<
        diesel_async::AsyncPgConnection,
    >;

    let Some(db) = TestDb::postgres() else { return };
    let app = TestApp::spawn_with(db, |o| {
        o.pool_size = 1;
        o.pool_timeout = Duration::from_millis(300);
        o.dispatcher = None;
        o.key_cache_ttl = Duration::ZERO;
    })
    .await;
    let t = app.tenant().await;

    // Another client locks the keys table: the next key lookup blocks on it.
    let url = app.database_url.clone();
    let (locked_tx, locked_rx) = std::sync::mpsc::channel();
    let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
    let locker = std::thread::spawn(move || {
        let mut conn = PgConnection::establish(&url).unwrap();
        conn.batch_execute("BEGIN; LOCK TABLE api_keys IN ACCESS EXCLUSIVE MODE;")
            .unwrap();
        locked_tx.send(()).unwrap();
        release_rx.recv().unwrap();
        conn.batch_execute("COMMIT;").unwrap();
    });
    locked_rx.recv().unwrap();

    let holder = {
        let req = app.request(reqwest::Method::GET, "/v1/accounts/me", Some(&t.live_key));
        tokio::spawn(async move { req.send().await.map(|r| r.status().as_u16()) })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;

    let started = Instant::now();
    let res = app.get("/v1/accounts/me", &t.test_key).await;
    let took = started.elapsed();
    assert_eq!(res.status.as_u16(), 503, "{:?}", res.body);
    assert_eq!(res.body["errors"][0]["error_code"], "service_unavailable");
    conforms_error(503, &res.body);
    assert_eq!(res.header("retry-after"), Some("1"));
    assert!(took < Duration::from_secs(3), "answered after {took:?}");

    release_tx.send(()).unwrap();
    locker.join().unwrap();
    assert_eq!(holder.await.unwrap().unwrap(), 200);
    assert_eq!(
        app.get("/v1/accounts/me", &t.test_key)
            .await
            .status
            .as_u16(),
        200
    );
}
