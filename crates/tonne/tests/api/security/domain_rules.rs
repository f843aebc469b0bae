//! Rules live in the domain, so every way in keeps them: a registry serial
//! over 200 characters is refused by `tonne orders advance` as by the
//! console, and nothing changes.

use tonne_test_support::on_both_backends;

use crate::support::TestApp;

async fn the_cli_refuses_a_serial_over_200_characters(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let placed = app.order_tonnes(&t.live_key, "1").await;
    let id = placed.body["id"].as_str().unwrap().to_owned();
    let long = "S".repeat(201);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tonne"))
        .args(crate::cli::complete_with_serial(&id, &long))
        .args(["--database-url", &app.database_url])
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    assert!(!out.status.success(), "a 201-character serial was taken");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("at most 200 characters"), "{err}");
    let order = app.get(&format!("/v1/orders/{id}"), &t.live_key).await;
    assert_eq!(order.body["status"], "received", "nothing changed");
    // 200 characters are fine
    crate::cli::tonne(
        &crate::cli::complete_with_serial(&id, &"S".repeat(200)),
        &app.database_url,
    );
    let order = app.get(&format!("/v1/orders/{id}"), &t.live_key).await;
    assert_eq!(order.body["status"], "complete");
}

/// A signed analytics URL lists a link's customers' emails to whoever holds
/// it: the CLI signs one for at most 31 days (the server refuses longer ones
/// too, `PageKey::analytics_allowed`).
#[test]
fn an_analytics_url_is_never_signed_for_years() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tonne"))
        .args([
            "offset-links",
            "analytics-url",
            "0190c6f1a7b27c3e9f2d4b1a2c3d4e5f",
            "--valid-hours",
            "100000",
            "--database-url",
            "sqlite://:memory:",
        ])
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("1..=744"), "{err}");
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    the_cli_refuses_a_serial_over_200_characters,
);
