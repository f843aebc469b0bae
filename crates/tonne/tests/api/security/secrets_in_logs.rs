//! No secret in logs or traces: a setup link's token (valid 24 hours, it
//! sets an operator's password) never reaches the request log or a span; both
//! name the route's pattern. A used, expired or made-up link shows "This link
//! no longer works", never the password form. And the first start tells a
//! newcomer where the console is, with the first operator's one-time link.

use std::io::{Read as _, Write as _};

use tonne_test_support::TestDb;

use crate::traces::{serve_with_banner, spans, stop, wait_for};
use crate::webhooks::{Behaviour, Receiver};

/// One HTTP/1.1 GET (`Connection: close`): the status and the body's text.
fn get(addr: &str, path: &str) -> (u16, String) {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, answer)
}

fn a_setup_links_token_stays_out_of_logs_and_traces(db: &TestDb) {
    let collector = Receiver::start(Behaviour::Status(200));
    let (server, addr, _key, banner) = serve_with_banner(
        db.url(),
        &[
            ("TONNE_OTLP_ENDPOINT", collector.base.clone()),
            ("OTEL_BSP_SCHEDULE_DELAY", "100".into()),
            ("TONNE_LOG", "debug".into()),
        ],
    );
    // The first start names the console and the first operator's link.
    assert!(
        banner.contains(&format!("Console: http://{addr}/console/")),
        "{banner}"
    );
    let link = banner
        .lines()
        .map(str::trim)
        .find(|l| l.contains("/console/setup/"))
        .unwrap_or_else(|| panic!("no setup link in {banner}"))
        .to_owned();
    let token = link.rsplit('/').next().unwrap().to_owned();
    assert!(token.len() >= 20, "{link}");
    let path = format!("/console/setup/{token}");

    // The link shows its form; twice, since a GET does not consume it.
    for _ in 0..2 {
        let (status, page) = get(&addr, &path);
        assert_eq!(status, 200, "{page}");
        assert!(page.contains("name=\"password\""), "{page}");
    }
    // A made-up link never shows the form.
    let (status, page) = get(&addr, "/console/setup/made-up-0123456789abcdef");
    assert_eq!(status, 404);
    assert!(page.contains("This link no longer works"), "{page}");
    assert!(!page.contains("name=\"password\""), "{page}");

    let all = wait_for("the setup page's span", || {
        let all = spans(&collector);
        all.iter()
            .any(|s| s.name == "GET /console/setup/{token}")
            .then_some(all)
    });
    let logs = stop(server);
    assert!(
        logs.contains("/console/setup/{token}"),
        "the log names the route: {logs}"
    );
    assert!(!logs.contains(&token), "the token is in the log: {logs}");
    for span in &all {
        assert!(!span.name.contains(&token), "{span:?}");
        for value in span.attributes.values() {
            assert!(!value.contains(&token), "{span:?}");
        }
    }
    let request = all
        .iter()
        .find(|s| s.name == "GET /console/setup/{token}")
        .unwrap();
    assert_eq!(request.attributes["path"], "/console/setup/{token}");
}

#[test]
fn a_setup_links_token_stays_out_of_logs_and_traces_on_sqlite() {
    a_setup_links_token_stays_out_of_logs_and_traces(&TestDb::sqlite());
}

#[test]
fn a_setup_links_token_stays_out_of_logs_and_traces_on_postgres() {
    if let Some(db) = TestDb::postgres() {
        a_setup_links_token_stays_out_of_logs_and_traces(&db);
    }
}
