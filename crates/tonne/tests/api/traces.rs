//! Traces over OTLP/HTTP, run as the real binary against a local receiver that
//! decodes the exported protobuf: the spans' names, parents and attributes, the
//! caller's `traceparent` honoured, and the trace carried through the stored
//! order event to the webhook delivery and its receiver.

use std::collections::HashMap;
use std::io::{BufReader, Read as _, Write as _};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use prost::Message as _;
use serde_json::{Value, json};
use tonne_test_support::TestDb;

use crate::support::process::free_port;
use crate::webhooks::{Behaviour, Receiver};

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN: &str = "00f067aa0ba902b7";

#[derive(Debug, Clone)]
pub(crate) struct Span {
    trace: String,
    id: String,
    parent: String,
    pub name: String,
    pub attributes: HashMap<String, String>,
}

pub(crate) fn spans(receiver: &Receiver) -> Vec<Span> {
    let mut out = Vec::new();
    for request in receiver.received() {
        assert_eq!(request.path, "/v1/traces");
        let decoded = ExportTraceServiceRequest::decode(request.body.as_slice()).unwrap();
        for resource in decoded.resource_spans {
            for scope in resource.scope_spans {
                for span in scope.spans {
                    let attributes = span
                        .attributes
                        .iter()
                        .map(|kv| {
                            let value = match kv.value.as_ref().and_then(|v| v.value.as_ref()) {
                                Some(Any::StringValue(s)) => s.clone(),
                                Some(Any::IntValue(i)) => i.to_string(),
                                Some(Any::BoolValue(b)) => b.to_string(),
                                other => format!("{other:?}"),
                            };
                            (kv.key.clone(), value)
                        })
                        .collect();
                    out.push(Span {
                        trace: hex(&span.trace_id),
                        id: hex(&span.span_id),
                        parent: hex(&span.parent_span_id),
                        name: span.name,
                        attributes,
                    });
                }
            }
        }
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `POST /v1/webhooks` of a webhook to the receiver's `/hook`: the status.
fn post_webhook(addr: &str, key: &str, receiver: &Receiver) -> u16 {
    let body = json!({"url": format!("{}/hook", receiver.base)});
    http(addr, "POST", "/v1/webhooks", key, &[], Some(&body)).0
}

/// One HTTP/1.1 exchange (`Connection: close`): the status and the JSON body.
fn http(
    addr: &str,
    method: &str,
    path: &str,
    key: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> (u16, Value) {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {key}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    write!(stream, "{head}\r\n{body}").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    let json = response
        .split_once("\r\n\r\n")
        .and_then(|(_, b)| serde_json::from_str(b).ok())
        .unwrap_or(Value::Null);
    (status, json)
}

/// Starts `tonne serve` and returns it with its address and test key.
fn serve(database_url: &str, env: &[(&str, String)]) -> (Child, String, String) {
    let (child, addr, key, _) = serve_with_banner(database_url, env);
    (child, addr, key)
}

/// Starts `tonne serve` and returns it with its address, test key and the
/// banner it printed (up to its `Try:` line).
pub(crate) fn serve_with_banner(
    database_url: &str,
    env: &[(&str, String)],
) -> (Child, String, String, String) {
    let mut command = crate::support::process::serve_command(database_url);
    command
        .env_remove("TONNE_OTLP_ENDPOINT")
        .env("TONNE_METRICS_BIND", "127.0.0.1:0")
        .env("TONNE_WEBHOOKS_ALLOW_PRIVATE", "true")
        .env("TONNE_WEBHOOK_POLL_MS", "50")
        .env("TONNE_RATE_LIMIT_BURST", "1000")
        .env("TONNE_SECRETS_KEY", "cd".repeat(32))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command.spawn().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let (addr, key, banner) = crate::support::process::read_banner(&mut stdout);
    (child, addr, key, banner)
}

pub(crate) fn stop(mut child: Child) -> String {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let _ = child.wait();
    let mut logs = String::new();
    if let Some(mut stderr) = child.stderr.take() {
        let _ = stderr.read_to_string(&mut logs);
    }
    logs
}

pub(crate) fn wait_for<T>(what: &str, mut found: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(value) = found() {
            return value;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn a_request_its_store_calls_and_its_webhook_are_one_trace(db: &TestDb) {
    let collector = Receiver::start(Behaviour::Status(200));
    let hooks = Receiver::start(Behaviour::Status(200));
    let (server, addr, key) = serve(
        db.url(),
        &[
            ("TONNE_OTLP_ENDPOINT", collector.base.clone()),
            ("TONNE_OTLP_SERVICE_NAME", "tonne-under-test".into()),
            ("OTEL_BSP_SCHEDULE_DELAY", "100".into()),
        ],
    );

    let status = post_webhook(&addr, &key, &hooks);
    assert_eq!(status, 200);
    let caller = format!("00-{TRACE}-{CALLER_SPAN}-01");
    let (status, order) = http(
        &addr,
        "POST",
        "/v1/orders/by-mass",
        &key,
        &[("traceparent", &caller), ("X-Request-Id", "order-trace-1")],
        Some(&json!({"mass": {"amount": "2", "unit": "t"}})),
    );
    assert_eq!(status, 200, "{order}");
    let (status, _) = http(
        &addr,
        "POST",
        "/v1/estimates/flight",
        &key,
        &[("X-Request-Id", "estimate-trace-1")],
        Some(
            &json!({"route": {"source": {"code": "LHR"}, "destination": {"code": "JFK"}}, "cabin_class": "economy"}),
        ),
    );
    assert_eq!(status, 200);

    // The receiver of the webhook gets the order's trace.
    let delivered = wait_for("the webhook", || {
        hooks.received().into_iter().find(|r| r.path == "/hook")
    });
    let parts: Vec<&str> = delivered.traceparent.split('-').collect();
    assert_eq!(parts.len(), 4, "traceparent {:?}", delivered.traceparent);
    assert_eq!(parts[1], TRACE, "the delivery continues the caller's trace");

    let deadline = Instant::now() + Duration::from_secs(20);
    let all = loop {
        let all = spans(&collector);
        let done = all.iter().any(|s| s.name == "webhook delivery")
            && all.iter().any(|s| s.name == "POST /v1/estimates/flight")
            && all.iter().any(|s| s.name == "POST /v1/orders/by-mass");
        if done {
            break all;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for the spans: {:?}",
            all.iter().map(|s| &s.name).collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let request = all
        .iter()
        .find(|s| s.name == "POST /v1/orders/by-mass")
        .unwrap();
    assert_eq!(request.trace, TRACE);
    assert_eq!(
        request.parent, CALLER_SPAN,
        "the caller's span is the parent"
    );
    assert_eq!(request.attributes["request_id"], "order-trace-1");
    assert_eq!(request.attributes["http.response.status_code"], "200");
    let children: Vec<&Span> = all.iter().filter(|s| s.parent == request.id).collect();
    let names: Vec<&str> = children.iter().map(|s| s.name.as_str()).collect();
    for expected in ["authenticate", "rate_limit"] {
        assert!(
            names.contains(&expected),
            "{expected} under the request: {names:?}"
        );
    }
    let stores: Vec<&&Span> = children
        .iter()
        .filter(|s| s.name.starts_with("store "))
        .collect();
    assert!(
        stores
            .iter()
            .any(|s| s.name == "store OrderStore::place" && s.attributes["db.access"] == "write"),
        "{names:?}"
    );
    let system = if db.url().starts_with("postgres") {
        "postgresql"
    } else {
        "sqlite"
    };
    assert!(stores.iter().all(|s| s.attributes["db.system"] == system));
    // The first request's authentication read the key through the store (the
    // later ones found it in the key cache): the store call is its child.
    let auths: Vec<&Span> = all.iter().filter(|s| s.name == "authenticate").collect();
    assert!(
        all.iter()
            .any(|s| s.name == "store ApiKeyStore::find_by_hash"
                && auths.iter().any(|a| a.id == s.parent)),
        "a key lookup under an authenticate span"
    );

    // The delivery is a child of the span that wrote the event, in the same trace,
    // and the receiver's traceparent names the delivery span.
    let delivery = all
        .iter()
        .find(|s| s.name == "webhook delivery" && s.trace == TRACE)
        .expect("a delivery span in the caller's trace");
    assert_eq!(parts[2], delivery.id);
    assert_eq!(delivery.attributes["http.response.status_code"], "200");
    let writer = all
        .iter()
        .find(|s| s.id == delivery.parent)
        .expect("the event's writer");
    assert_eq!(writer.name, "store OrderStore::place");
    assert_eq!(writer.parent, request.id);

    // An estimate: the engine and the quote under its request, a trace of its own.
    let estimate = all
        .iter()
        .find(|s| s.name == "POST /v1/estimates/flight")
        .unwrap();
    assert_ne!(estimate.trace, TRACE);
    assert!(estimate.parent.is_empty(), "no caller: a root span");
    assert_eq!(estimate.attributes["request_id"], "estimate-trace-1");
    let under: Vec<&str> = all
        .iter()
        .filter(|s| s.parent == estimate.id)
        .map(|s| s.name.as_str())
        .collect();
    assert!(under.contains(&"engine flight"), "{under:?}");
    assert!(under.contains(&"quote by mass"), "{under:?}");
    let engine = all.iter().find(|s| s.name == "engine flight").unwrap();
    assert_eq!(engine.attributes["estimate.kind"], "flight");

    let logs = stop(server);
    assert!(!logs.contains("panicked"), "{logs}");
}

#[test]
fn traces_on_sqlite() {
    a_request_its_store_calls_and_its_webhook_are_one_trace(&TestDb::sqlite());
}

#[test]
fn traces_on_postgres() {
    if let Some(db) = TestDb::postgres() {
        a_request_its_store_calls_and_its_webhook_are_one_trace(&db);
    }
}

/// A collector or a Redis that does not answer is a warning at start; the
/// server serves (without traces, and without rate limits until Redis answers)
/// and sends no `traceparent` to receivers.
#[test]
fn an_unreachable_collector_or_redis_is_a_warning_at_start() {
    let db = TestDb::sqlite();
    let hooks = Receiver::start(Behaviour::Status(200));
    let closed = free_port();
    let (server, addr, key) = serve(
        db.url(),
        &[
            ("TONNE_OTLP_ENDPOINT", format!("http://127.0.0.1:{closed}")),
            (
                "TONNE_REDIS_URL",
                format!("redis://:hunter2@127.0.0.1:{closed}"),
            ),
        ],
    );
    let status = post_webhook(&addr, &key, &hooks);
    assert_eq!(status, 200);
    let (status, _) = http(
        &addr,
        "POST",
        "/v1/orders/by-mass",
        &key,
        &[("traceparent", &format!("00-{TRACE}-{CALLER_SPAN}-01"))],
        Some(&json!({"mass": {"amount": "1", "unit": "t"}})),
    );
    assert_eq!(status, 200);
    let delivered = wait_for("the webhook", || {
        hooks.received().into_iter().find(|r| r.path == "/hook")
    });
    assert_eq!(delivered.traceparent, "", "no traces, no traceparent");
    let logs = stop(server);
    assert!(
        logs.contains(&format!(
            "the OTLP endpoint http://127.0.0.1:{closed} does not answer"
        )),
        "{logs}"
    );
    assert!(
        logs.contains(&format!(
            "Redis at redis://:***@127.0.0.1:{closed} does not answer"
        )),
        "{logs}"
    );
    assert!(!logs.contains("hunter2"), "the password is not logged");
}
