//! The admin CLI, run as the real binary.

use std::process::Command;

use serde_json::Value;
use tonne_test_support::TestDb;

/// Runs `tonne ARGS --database-url URL` and returns its stdout; panics on failure.
pub fn tonne(args: &[&str], database_url: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tonne"))
        .args(args)
        .args(["--database-url", database_url])
        .env_remove("DATABASE_URL")
        .output()
        .expect("run tonne");
    assert!(
        out.status.success(),
        "tonne {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn tonne_fails(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tonne"))
        .args(args)
        .env_remove("DATABASE_URL")
        .output()
        .expect("run tonne");
    assert!(!out.status.success(), "tonne {args:?} should fail");
    String::from_utf8(out.stderr).unwrap()
}

fn bootstrap_twice_gives_two_tenants_and_keys_can_be_managed(db: &TestDb) {
    let url = db.url();
    tonne(&["migrate"], url);
    let first: Value = serde_json::from_str(&tonne(&["bootstrap", "--json"], url)).unwrap();
    let second: Value = serde_json::from_str(&tonne(&["bootstrap", "--json"], url)).unwrap();
    assert_ne!(first["organisation_id"], second["organisation_id"]);
    assert!(
        first["live"]["api_key"]
            .as_str()
            .unwrap()
            .starts_with("tonne_live_")
    );
    assert!(
        first["test"]["api_key"]
            .as_str()
            .unwrap()
            .starts_with("tonne_test_")
    );
    assert!(first["live"]["account_id"].is_string() && first["test"]["account_id"].is_string());

    let org = first["organisation_id"].as_str().unwrap();
    let created: Value = serde_json::from_str(&tonne(
        &[
            "keys",
            "create",
            "--organisation",
            org,
            "--mode",
            "test",
            "--json",
        ],
        url,
    ))
    .unwrap();
    assert_eq!(created["account_id"], first["test"]["account_id"]);
    let listed: Value = serde_json::from_str(&tonne(
        &["keys", "list", "--organisation", org, "--json"],
        url,
    ))
    .unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 3);
    let listed_text = tonne(&["keys", "list", "--organisation", org], url);
    assert!(
        !listed_text.contains(created["api_key"].as_str().unwrap()),
        "secrets are never listed"
    );
    let revoked = tonne(&["keys", "revoke", created["id"].as_str().unwrap()], url);
    assert!(revoked.contains("revoked"));
    let listed: Value = serde_json::from_str(&tonne(
        &["keys", "list", "--organisation", org, "--json"],
        url,
    ))
    .unwrap();
    assert_eq!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .filter(|k| k["revoked"] == true)
            .count(),
        1
    );

    // A key pinned to another organisation's account is refused.
    let other_account = second["live"]["account_id"].as_str().unwrap();
    let err = tonne_fails(&[
        "keys",
        "create",
        "--organisation",
        org,
        "--mode",
        "live",
        "--account",
        other_account,
        "--database-url",
        url,
    ]);
    assert!(err.contains("account not found"), "{err}");
}

#[test]
fn cli_on_sqlite() {
    bootstrap_twice_gives_two_tenants_and_keys_can_be_managed(&TestDb::sqlite());
}

#[test]
fn cli_on_postgres() {
    if let Some(db) = TestDb::postgres() {
        bootstrap_twice_gives_two_tenants_and_keys_can_be_managed(&db);
    }
}

#[test]
fn bad_database_urls_fail_at_start_naming_the_cause() {
    let err = tonne_fails(&["migrate", "--database-url", "mysql://localhost/x"]);
    assert!(
        err.contains("unsupported database URL scheme `mysql`"),
        "{err}"
    );
    let err = tonne_fails(&[
        "migrate",
        "--database-url",
        "postgres://nobody@127.0.0.1:1/none",
    ]);
    assert!(
        err.contains("cannot connect to postgres://nobody@127.0.0.1:1/none"),
        "{err}"
    );
    let err = tonne_fails(&["migrate", "--database-url", "/nonexistent-dir/x/tonne.db"]);
    assert!(
        err.contains("cannot connect to sqlite:///nonexistent-dir/x/tonne.db"),
        "{err}"
    );
}

#[test]
fn every_command_has_help() {
    for args in [
        vec!["--help"],
        vec!["serve", "--help"],
        vec!["migrate", "--help"],
        vec!["bootstrap", "--help"],
        vec!["keys", "--help"],
        vec!["keys", "create", "--help"],
        vec!["keys", "list", "--help"],
        vec!["keys", "revoke", "--help"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_tonne"))
            .args(&args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("Usage"),
            "{args:?}"
        );
    }
}
