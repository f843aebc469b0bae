//! The `tonne` binary as a process of its own: set up over a database,
//! served on a random port, killed with SIGKILL.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// The `tonne` binary, with neither `DATABASE_URL` nor `TONNE_CONFIG` from
/// the environment.
pub fn tonne() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tonne"));
    command
        .env_remove("DATABASE_URL")
        .env_remove("TONNE_CONFIG");
    command
}

/// A loopback port nothing listens on now: for a process to bind, or an
/// address that refuses connections.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `tonne serve` over `url` on a random port.
pub fn serve_command(url: &str) -> Command {
    let mut command = tonne();
    command.args(["serve", "--bind", "127.0.0.1:0", "--database-url", url]);
    command
}

/// `tonne migrate` then `tonne bootstrap --json`: the live key.
pub fn bootstrap(url: &str) -> String {
    let migrate = tonne()
        .args(["migrate", "--database-url", url])
        .output()
        .unwrap();
    assert!(migrate.status.success(), "{migrate:?}");
    let boot = tonne()
        .args(["bootstrap", "--json", "--database-url", url])
        .output()
        .unwrap();
    assert!(boot.status.success(), "{boot:?}");
    let keys: Value = serde_json::from_slice(&boot.stdout).unwrap();
    keys["live"]["api_key"].as_str().unwrap().to_owned()
}

/// Reads a starting `tonne serve`'s banner from its stdout, up to its `Try:`
/// line: the address it listens on (host:port), its test key and the banner.
pub fn read_banner(stdout: &mut impl BufRead) -> (String, String, String) {
    let (mut banner, mut line) = (String::new(), String::new());
    while stdout.read_line(&mut line).unwrap() > 0 {
        banner.push_str(&line);
        if line.starts_with("Try:") {
            break;
        }
        line.clear();
    }
    let addr = banner
        .split("listening on http://")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no address in {banner}"))
        .to_owned();
    let key = banner
        .lines()
        .find(|l| l.contains("test key:"))
        .and_then(|l| l.split_whitespace().nth(2))
        .unwrap()
        .to_owned();
    (addr, key, banner)
}

/// Starts `command` (stdout read, stderr dropped) and reads its banner up to
/// the `listening on http://` line: the child, and the address it listens on
/// (host:port) or else the last line read. Its stdout is read on from then
/// on, so that the server never blocks on a full pipe.
pub fn spawn_listening(command: &mut Command) -> (Child, Result<String, String>) {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while stdout.read_line(&mut line).unwrap() > 0 {
        if let Some(rest) = line.split("listening on http://").nth(1) {
            let addr = rest.split_whitespace().next().unwrap().to_owned();
            std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
            return (child, Ok(addr));
        }
        line.clear();
    }
    (child, Err(line))
}

/// [`spawn_listening`] for a server the caller kills: the child and its
/// address; when it prints none, it is stopped and the test fails.
#[allow(clippy::zombie_processes)] // returned to the caller, which waits
pub fn serve(command: &mut Command) -> (Child, String) {
    match spawn_listening(command) {
        (child, Ok(addr)) => (child, addr),
        (mut child, Err(_)) => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the server printed no address");
        }
    }
}

/// `tonne serve` without the demo over `url`, with a generous rate limit and
/// two-second shipment leases; the child and its address (host:port).
pub fn serve_no_demo(url: &str) -> (Child, String) {
    serve(
        serve_command(url)
            .arg("--no-demo")
            .env_remove("TONNE_OTLP_ENDPOINT")
            .env("TONNE_METRICS_BIND", "127.0.0.1:0")
            .env("TONNE_RATE_LIMIT_BURST", "100000")
            .env("TONNE_RATE_LIMIT_PER_SECOND", "100000")
            .env("TONNE_SECRETS_KEY", "cd".repeat(32))
            .env("TONNE_SHIPMENTS_LEASE_SECONDS", "2")
            .env("TONNE_LOG", "warn"),
    )
}

/// SIGKILL (no shutdown, no cleanup), then the child reaped.
pub fn kill9(child: &mut Child) {
    let _ = Command::new("kill")
        .args(["-KILL", &child.id().to_string()])
        .status();
    let _ = child.wait();
}
