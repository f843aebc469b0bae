//! The configuration file (`--config`, `TONNE_CONFIG`), run as the real binary:
//! its values reach the server, flags and the environment win over it, and a
//! bad file stops the start naming the key, the file and the line.

use std::path::Path;
use std::process::Command;

use crate::support::process::free_port;

fn tonne() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tonne"));
    for var in [
        "DATABASE_URL",
        "TONNE_CONFIG",
        "TONNE_BIND",
        "TONNE_LOG_FORMAT",
        "TONNE_RATE_LIMIT_BURST",
        "TONNE_RATE_LIMIT_PER_SECOND",
        "TONNE_SECRETS_KEY",
    ] {
        command.env_remove(var);
    }
    // tests run side by side: the metrics listener takes any free port
    command.env("TONNE_METRICS_BIND", "127.0.0.1:0");
    command
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// Starts the command, reads its banner up to the listening line, returns the
/// address it listens on, and stops it.
fn listening_address(mut command: Command) -> String {
    let (mut child, addr) = crate::support::process::spawn_listening(&mut command);
    let _ = child.kill();
    let _ = child.wait();
    addr.unwrap_or_else(|line| panic!("no listening line; last read: {line}"))
}

#[test]
fn the_file_configures_the_server_under_flags_and_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("from-file.db");
    let port = free_port();
    let file = write(
        dir.path(),
        "tonne.toml",
        &format!(
            "# a deployment's file\n\
             database_url = \"sqlite://{}\"\n\
             secrets_key = \"{}\"\n\
             \n\
             [server]\n\
             bind = \"127.0.0.1:{port}\"\n\
             no_demo = true\n\
             \n\
             [rate_limit]\n\
             per_second = 40\n\
             burst = 50\n\
             \n\
             [webhook]\n\
             retry_schedule = [5, 60, 600]\n",
            db.display(),
            "ab".repeat(32)
        ),
    );

    // The file alone: its address and database.
    let mut command = tonne();
    command.args(["--config", &file]);
    assert_eq!(listening_address(command), format!("127.0.0.1:{port}"));
    assert!(db.exists(), "the file's database was created");

    // A flag wins over the file (and TONNE_CONFIG names the file as well as --config).
    let mut command = tonne();
    command
        .args(["serve", "--bind", "127.0.0.1:0"])
        .env("TONNE_CONFIG", &file);
    assert_ne!(listening_address(command), format!("127.0.0.1:{port}"));

    // `config show`: each value with its origin, the secret redacted.
    let out = tonne()
        .args(["--config", &file, "config", "show", "--log-format", "json"])
        .env("TONNE_RATE_LIMIT_BURST", "70")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shown = String::from_utf8(out.stdout).unwrap();
    let line_of = |key: &str| {
        shown
            .lines()
            .find(|l| l.starts_with(&format!("{key} = ")))
            .unwrap_or_else(|| panic!("no {key} in:\n{shown}"))
            .to_owned()
    };
    assert_eq!(
        line_of("bind"),
        format!("bind = \"127.0.0.1:{port}\"  # file {file}:6")
    );
    assert_eq!(
        line_of("per_second").as_str(),
        format!("per_second = 40  # file {file}:10")
    );
    assert_eq!(
        line_of("burst"),
        "burst = 70  # environment TONNE_RATE_LIMIT_BURST"
    );
    assert_eq!(
        line_of("log_format"),
        "log_format = \"json\"  # flag --log-format"
    );
    assert_eq!(
        line_of("secrets_key"),
        format!("secrets_key = \"<redacted>\"  # file {file}:3")
    );
    assert_eq!(
        line_of("retry_schedule"),
        format!("retry_schedule = \"5,60,600\"  # file {file}:14")
    );
    assert_eq!(
        line_of("header_timeout_ms"),
        "header_timeout_ms = 5000  # default"
    );
    assert!(!shown.contains(&"ab".repeat(32)), "{shown}");
}

#[test]
fn a_bad_file_stops_the_start_naming_key_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("never.db");
    let cases = [
        (
            "[server]\nbind = \"127.0.0.1:0\"\nworkers = \"many\"\n",
            ":3: `server.workers` = \"many\": invalid value",
        ),
        (
            "[server]\nbnd = \"127.0.0.1:0\"\n",
            ":2: unknown key `server.bnd`",
        ),
        ("[servre]\nbind = \"x\"\n", ":1: unknown section [servre]"),
        (
            "secrets_key = \"too-short\"\n",
            ":1: `secrets_key` = \"too-short\": invalid value",
        ),
        ("[server]\nbind = \"a\"\nbind = \"b\"\n", "duplicate key"),
        ("[server\n", "TOML parse error at line 1"),
        (
            "[webhook]\nretry_schedule = [5, \"soon\"]\n",
            ":2: `webhook.retry_schedule`",
        ),
    ];
    for (i, (text, expected)) in cases.into_iter().enumerate() {
        let file = write(dir.path(), &format!("bad{i}.toml"), text);
        let out = tonne()
            .args(["--config", &file, "serve", "--database-url"])
            .arg(format!("sqlite://{}", db.display()))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{text}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expected), "{text}: {err}");
        assert!(err.contains(&format!("bad{i}.toml")), "{err}");
    }
    let out = tonne()
        .args(["--config", "/nonexistent/tonne.toml", "migrate"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("cannot read the configuration file /nonexistent/tonne.toml")
    );
    assert!(!db.exists(), "nothing was created");
}
