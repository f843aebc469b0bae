//! A member's client accounts: listed per mode, created once per form, audited,
//! and invisible to other organisations.

use tonne_test_support::on_both_backends;

use super::{PASSWORD, Visitor, ada_of_acme_and_bob_of_rival, audit_of};
use crate::support::TestApp;

/// The value of the form's hidden input `name`.
fn hidden(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let at = html.find(&marker).expect("the hidden field") + marker.len();
    html[at..].split('"').next().unwrap().to_owned()
}

async fn a_member_creates_client_accounts_once_each_and_sees_only_their_own(app: TestApp) {
    let (acme, _rival, ada) = ada_of_acme_and_bob_of_rival(&app).await;
    let overview = ada.get("/console/").await;
    assert!(overview.html.contains("href=\"/console/client-accounts\""));
    let list = ada.get("/console/client-accounts?mode=test").await;
    assert_eq!(list.status, 200);
    assert!(list.html.contains("No client account in this mode yet."));
    let csrf = list.csrf();
    let once = hidden(&list.html, "once");
    let clients = || async {
        app.get("/v1/accounts/client", &acme.test_key).await.body["data"]
            .as_array()
            .unwrap()
            .clone()
    };

    // Refused with the problems beside the fields; nothing written.
    let refused = ada
        .post(
            "/console/client-accounts",
            &[
                ("csrf", &csrf),
                ("mode", "test"),
                ("once", &once),
                ("name", "   "),
                ("currency", "XYZ"),
                ("beneficiary", &"b".repeat(300)),
            ],
        )
        .await;
    assert_eq!(refused.status, 400);
    for problem in [
        "Name: give the account a name.",
        "Currency: choose one of the list.",
        "Beneficiary:",
    ] {
        assert!(refused.html.contains(problem), "{problem}");
    }
    assert!(clients().await.is_empty());
    // Without the session's token: 403.
    let forged = ada
        .post(
            "/console/client-accounts",
            &[("mode", "test"), ("name", "Shop A"), ("currency", "EUR")],
        )
        .await;
    assert_eq!(forged.status, 403);
    assert!(clients().await.is_empty());

    // Created, and a second submit of the same form creates nothing.
    let form = [
        ("csrf", csrf.as_str()),
        ("mode", "test"),
        ("once", once.as_str()),
        ("name", "Shop <A>"),
        ("currency", "GBP"),
        ("beneficiary", "Shop A Ltd"),
    ];
    let made = ada.post("/console/client-accounts", &form).await;
    assert_eq!(made.status, 303);
    let location = made.location.clone().unwrap();
    let again = ada.post("/console/client-accounts", &form).await;
    assert_eq!(again.status, 303);
    let stored = clients().await;
    assert_eq!(stored.len(), 1, "{stored:?}");
    assert_eq!(stored[0]["name"], "Shop <A>");
    assert_eq!(stored[0]["currency"], "GBP");
    assert_eq!(stored[0]["beneficiary"], "Shop A Ltd");
    let id = stored[0]["id"].as_str().unwrap().to_owned();
    let shown = ada.get(&location).await;
    assert!(
        shown
            .html
            .contains("Client account <strong>Shop &lt;A&gt;</strong> created.")
    );
    assert!(shown.html.contains(&id));
    assert_ne!(hidden(&shown.html, "once"), once, "a new form, a new key");
    // live mode has none; the test-mode account shows in the estimates chooser
    let live = ada.get("/console/client-accounts?mode=live").await;
    assert!(!live.html.contains(&id));
    let estimates = ada.get("/console/estimates?mode=test").await;
    assert!(estimates.html.contains(&id));

    // Audited as the member's.
    let log = audit_of(&app, &id).await;
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].action, "account.created");
    assert_eq!(
        log[0].actor,
        tonne_kernel::Actor::person("ada@acme.example")
    );

    // Another organisation's member sees none of it.
    let mut bob = Visitor::new(&app);
    bob.sign_in("bob@rival.example", PASSWORD).await;
    let theirs = bob.get("/console/client-accounts?mode=test").await;
    assert_eq!(theirs.status, 200);
    assert!(!theirs.html.contains(&id));
    assert!(theirs.html.contains("No client account in this mode yet."));
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    a_member_creates_client_accounts_once_each_and_sees_only_their_own,
);
