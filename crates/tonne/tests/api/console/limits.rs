//! Limits per account in the console: operators see every organisation's
//! usage and change one's limits with a form that acts once (audited, and
//! the API keeps to it at once); a member sees their own organisation's
//! only and changes nothing.

use serde_json::json;
use tonne_test_support::on_both_backends;

use super::{PASSWORD, Visitor, audit_of, field, member, operator};
use crate::support::TestApp;

async fn an_operator_sets_an_organisations_limits_once_and_the_api_keeps_to_them(app: TestApp) {
    let t = app.tenant().await;
    let other = app.tenant().await;
    operator(&app, "op@example.org").await;
    let mut op = Visitor::new(&app);
    op.sign_in("op@example.org", PASSWORD).await;
    let all = op.get("/console/limits").await;
    assert_eq!(all.status, 200);
    assert!(
        all.html
            .contains(&format!("/console/limits/{}", t.organisation_id))
    );
    assert!(
        all.html
            .contains(&format!("/console/limits/{}", other.organisation_id))
    );
    assert!(all.html.contains("0 of 20"), "usage against the default");

    let path = format!("/console/limits/{}", t.organisation_id);
    let page = op.get(&path).await;
    assert_eq!(page.status, 200);
    let (csrf, once) = (page.csrf(), field(&page.html, "once"));
    assert_eq!(field(&page.html, "max_pending_batches"), "", "the default");
    // not a number: 400, the form as typed, nothing set
    let bad = op
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("once", &once),
                ("max_pending_batches", "lots"),
            ],
        )
        .await;
    assert_eq!(bad.status, 400);
    assert!(
        bad.html
            .contains("max_pending_batches: give a whole number")
    );
    assert_eq!(field(&bad.html, "max_pending_batches"), "lots");
    // without the session's token: refused
    let forged = op
        .post(&path, &[("csrf", "x"), ("max_pending_batches", "5")])
        .await;
    assert_eq!(forged.status, 403);
    // the same key as the refused form: it was given back
    let saved = op
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("once", &once),
                ("max_pending_batches", "0"),
                ("max_stored_bytes", ""),
            ],
        )
        .await;
    assert_eq!(saved.status, 303, "{}", saved.html);
    // a repeat of that form (a resend) changes nothing
    let repeat = op
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("once", &once),
                ("max_pending_batches", "9"),
            ],
        )
        .await;
    assert_eq!(repeat.status, 303);
    let page = op.get(&path).await;
    assert_eq!(field(&page.html, "max_pending_batches"), "0");
    assert!(page.html.contains("set for this organisation"));
    let audit = audit_of(&app, &t.organisation_id).await;
    assert_eq!(
        audit
            .iter()
            .filter(|e| e.action == "organisation.limits_changed")
            .count(),
        1
    );
    assert_eq!(audit[0].after.get("max_pending_batches"), Some("0"));

    // the API keeps to it at once, for this organisation only
    let rows = json!({"shipments": [{"shipment_id": "S-1", "legs": []}]});
    let res = app.post("/v1/shipments/batches", &t.live_key, &rows).await;
    assert_eq!(res.status, 429, "{}", res.body);
    let res = app
        .post("/v1/shipments/batches", &other.live_key, &rows)
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
}

async fn a_member_sees_their_own_organisations_usage_and_changes_nothing(app: TestApp) {
    let t = app.tenant().await;
    let other = app.tenant().await;
    member(&app, "ann@acme.example", &t.organisation_id).await;
    let mut ann = Visitor::new(&app);
    ann.sign_in("ann@acme.example", PASSWORD).await;
    let rows = json!({"shipments": [{"shipment_id": "S-1", "legs": []}, {"shipment_id": "S-2", "legs": []}]});
    let res = app.post("/v1/shipments/batches", &t.test_key, &rows).await;
    assert_eq!(res.status, 200, "{}", res.body);
    let page = ann.get("/console/limits").await;
    assert_eq!(page.status, 200);
    assert!(
        page.html.contains("2 of 1000000"),
        "the test account's rows"
    );
    assert!(
        page.html.contains("0 of 1000000"),
        "the live account's, apart"
    );
    assert!(!page.html.contains(&other.organisation_id));
    assert!(
        !page
            .html
            .contains("<form method=\"post\" action=\"/console/limits")
    );
    let own = format!("/console/limits/{}", t.organisation_id);
    assert_eq!(ann.get(&own).await.status, 404);
    let csrf = page.csrf();
    let post = ann
        .post(&own, &[("csrf", &csrf), ("max_pending_batches", "999")])
        .await;
    assert_eq!(post.status, 404);
    assert!(
        !audit_of(&app, &t.organisation_id)
            .await
            .iter()
            .any(|e| e.action == "organisation.limits_changed"),
        "nothing changed"
    );
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    an_operator_sets_an_organisations_limits_once_and_the_api_keeps_to_them,
    a_member_sees_their_own_organisations_usage_and_changes_nothing,
);
