//! A member's PACT credentials in the console: created for an account (the
//! secret shown once, and it buys a token), listed without the secret, the
//! form acting once, revoked (its token then refused), and another
//! organisation's neither shown nor revocable.

use base64::Engine as _;
use tonne_test_support::on_both_backends;

use super::{PASSWORD, Visitor, ada_of_acme_and_bob_of_rival};
use crate::support::TestApp;

/// The value of the read-only field `id` of the created page.
fn shown(html: &str, id: &str) -> String {
    let at = html.find(&format!(r#"id="{id}""#)).expect("the field");
    let rest = &html[at..];
    let v = rest.find("value=\"").unwrap() + "value=\"".len();
    rest[v..v + rest[v..].find('"').unwrap()].to_owned()
}

/// The value of the form's hidden `once` field.
fn once(html: &str) -> String {
    let at =
        html.find(r#"name="once" value=""#).expect("a once field") + r#"name="once" value=""#.len();
    html[at..at + html[at..].find('"').unwrap()].to_owned()
}

async fn token(app: &TestApp, id: &str, secret: &str) -> (u16, String) {
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("{id}:{secret}"));
    let res = app
        .client
        .post(format!("{}/pact/auth/token", app.base))
        .header("Authorization", format!("Basic {basic}"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body("grant_type=client_credentials")
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    let body: serde_json::Value = res.json().await.unwrap();
    (
        status,
        body["access_token"].as_str().unwrap_or_default().to_owned(),
    )
}

async fn a_member_creates_and_revokes_pact_credentials_for_an_account(app: TestApp) {
    let (acme, rival, ada) = ada_of_acme_and_bob_of_rival(&app).await;
    assert!(ada.get("/console/").await.html.contains(">PACT<"));

    let page = ada.get("/console/pact?mode=live").await;
    assert_eq!(page.status, 200, "{}", page.html);
    assert!(page.html.contains("No credentials for this account."));
    let csrf = page.csrf();
    let key = once(&page.html);
    let form = [
        ("csrf", csrf.as_str()),
        ("mode", "live"),
        ("account", acme.live_account.as_str()),
        ("label", "Carrier portal"),
        ("once", key.as_str()),
    ];
    // without the session's token: refused, nothing made
    assert_eq!(ada.post("/console/pact", &form[1..]).await.status, 403);
    let created = ada.post("/console/pact", &form).await;
    assert_eq!(created.status, 200, "{}", created.html);
    let client_id = shown(&created.html, "client_id");
    let secret = shown(&created.html, "secret");
    assert!(secret.starts_with("tonne_pact_"), "{secret}");
    // the same form again makes nothing more
    let again = ada.post("/console/pact", &form).await;
    assert_eq!(again.status, 303);
    let clients = app
        .services
        .pact_clients
        .list(acme.live_account.parse().unwrap())
        .await
        .unwrap();
    assert_eq!(clients.len(), 1);
    assert_eq!(clients[0].label, "Carrier portal");

    let (status, bearer) = token(&app, &client_id, &secret).await;
    assert_eq!(status, 200);
    let listed = ada
        .get(&format!(
            "/console/pact?mode=live&account={}",
            acme.live_account
        ))
        .await;
    assert!(listed.html.contains(&client_id) && listed.html.contains("Carrier portal"));
    assert!(
        !listed.html.contains(&secret),
        "the secret is shown once only"
    );

    // an empty label is refused beside the form
    let key = once(&listed.html);
    let bad = ada
        .post(
            "/console/pact",
            &[
                ("csrf", csrf.as_str()),
                ("mode", "live"),
                ("account", acme.live_account.as_str()),
                ("label", "  "),
                ("once", key.as_str()),
            ],
        )
        .await;
    assert_eq!(bad.status, 400);
    assert!(bad.html.contains("Name the credentials"));

    // Bob sees nothing of Acme's and cannot revoke them
    let mut bob = Visitor::new(&app);
    bob.sign_in("bob@rival.example", PASSWORD).await;
    let bob_page = bob.get("/console/pact?mode=live").await;
    assert!(!bob_page.html.contains(&client_id));
    let other = bob
        .get(&format!(
            "/console/pact?mode=live&account={}",
            acme.live_account
        ))
        .await;
    assert_eq!(other.status, 404);
    let poke = bob
        .post(
            &format!("/console/pact/{client_id}/revoke"),
            &[
                ("csrf", bob_page.csrf().as_str()),
                ("mode", "live"),
                ("account", rival.live_account.as_str()),
            ],
        )
        .await;
    assert_eq!(poke.status, 404);

    // Ada revokes: the token stops at once
    let revoked = ada
        .post(
            &format!("/console/pact/{client_id}/revoke"),
            &[
                ("csrf", csrf.as_str()),
                ("mode", "live"),
                ("account", acme.live_account.as_str()),
            ],
        )
        .await;
    assert_eq!(revoked.status, 303);
    let res = app.fetch("/pact/2/footprints", Some(&bearer)).await;
    assert_eq!(res.status().as_u16(), 401);
    assert!(
        ada.get(&format!(
            "/console/pact?mode=live&account={}",
            acme.live_account
        ))
        .await
        .html
        .contains("revoked")
    );
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    a_member_creates_and_revokes_pact_credentials_for_an_account,
);
