//! The operator's organisations: create one, invite a member.

use serde_json::json;
use tonne_test_support::on_both_backends;

use super::{PASSWORD, Visitor, operator};
use crate::support::TestApp;

/// The value of a read-only field by id on a page.
fn field_value(html: &str, id: &str) -> String {
    let at = html
        .find(&format!(r#"id="{id}""#))
        .unwrap_or_else(|| panic!("no field {id}"));
    let rest = &html[at..];
    let v = rest.find("value=\"").unwrap() + "value=\"".len();
    rest[v..v + rest[v..].find('"').unwrap()].to_owned()
}

async fn an_operator_creates_an_organisation_and_invites_a_member(app: TestApp) {
    operator(&app, "op@example.org").await;
    let mut op = Visitor::new(&app);
    op.sign_in("op@example.org", PASSWORD).await;
    let list = op.get("/console/organisations").await;
    assert_eq!(list.status, 200);
    let csrf = list.csrf();
    let empty = op
        .post("/console/organisations", &[("csrf", &csrf), ("name", "")])
        .await;
    assert_eq!(empty.status, 400);
    assert!(empty.html.contains("Name:"));
    let created = op
        .post(
            "/console/organisations",
            &[("csrf", &csrf), ("name", "Globex")],
        )
        .await;
    assert_eq!(created.status, 200, "{}", created.html);
    let live_key = field_value(&created.html, "live-key");
    let me = app.get("/v1/accounts/me", &live_key).await;
    assert_eq!(me.status, 200, "the key shown once works");
    let org_id = me.body["organisation_id"].as_str().unwrap().to_owned();
    assert!(
        created
            .html
            .contains(&format!("/console/organisations/{org_id}"))
    );
    assert!(
        op.get("/console/organisations")
            .await
            .html
            .contains("Globex")
    );
    let page_path = format!("/console/organisations/{org_id}");
    let page = op.get(&page_path).await;
    assert_eq!(page.status, 200);
    assert!(
        page.html.contains(&live_key[..15]),
        "its keys are listed by prefix"
    );

    let invite = format!("{page_path}/members");
    let bad = op
        .post(&invite, &[("csrf", &csrf), ("email", "not an email")])
        .await;
    assert_eq!(bad.status, 400);
    let invited = op
        .post(&invite, &[("csrf", &csrf), ("email", "eve@globex.example")])
        .await;
    assert_eq!(invited.status, 200, "{}", invited.html);
    let link = field_value(&invited.html, "link");
    let again = op
        .post(&invite, &[("csrf", &csrf), ("email", "eve@globex.example")])
        .await;
    assert_eq!(again.status, 409, "one user per email");
    assert!(
        op.get(&page_path)
            .await
            .html
            .contains("invited (no password yet)")
    );

    // The invited member chooses a password through the link and sees Globex's console.
    let path = &link[link.find("/console/setup/").unwrap()..];
    let v = Visitor::new(&app);
    let set = v
        .post(path, &[("password", PASSWORD), ("confirm", PASSWORD)])
        .await;
    assert_eq!(set.status, 200);
    let mut eve = Visitor::new(&app);
    assert_eq!(
        eve.sign_in("eve@globex.example", PASSWORD).await.status,
        303
    );
    assert_eq!(eve.get("/console/organisations").await.status, 404);
    assert_eq!(eve.get(&page_path).await.status, 404);
    assert!(
        eve.get("/console/keys")
            .await
            .html
            .contains(&live_key[..15])
    );
}

async fn an_operator_sees_an_organisations_accounts_and_sets_a_default_selection(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let client = app
        .post(
            "/v1/accounts/client",
            &t.live_key,
            &json!({"name": "Merchant Y", "currency": "GBP"}),
        )
        .await;
    assert_eq!(client.status, 200, "{}", client.body);
    operator(&app, "op@example.org").await;
    let mut v = Visitor::new(&app);
    v.sign_in("op@example.org", PASSWORD).await;
    let org = &t.organisation_id;
    let page = v.get(&format!("/console/organisations/{org}")).await;
    assert_eq!(page.status, 200);
    assert!(page.html.contains("Merchant Y") && page.html.contains("client account"));
    assert!(page.html.contains(&t.live_account) && page.html.contains(&t.test_account));

    let live = t.live_account.clone();
    let here = format!("/console/organisations/{org}/accounts/{live}");
    let form = v.get(&here).await;
    assert_eq!(form.status, 200);
    let csrf = form.csrf();
    let bundles = app.bundle_ids(&t.live_key).await;
    let (a, b) = (
        format!("share_{}", bundles[0]),
        format!("share_{}", bundles[1]),
    );
    // 60 + 30 is not 100: refused, nothing set, the form as typed.
    let refused = v
        .post(
            &here,
            &[("csrf", &csrf), (a.as_str(), "60"), (b.as_str(), "30")],
        )
        .await;
    assert_eq!(refused.status, 400, "{}", refused.html);
    assert!(refused.html.contains("value=\"30\""));
    let account: tonne_kernel::AccountId = live.parse().unwrap();
    let before = app
        .services
        .ordering
        .bundle_selection(account)
        .await
        .unwrap();
    let saved = v
        .post(
            &here,
            &[("csrf", &csrf), (a.as_str(), "60"), (b.as_str(), "40")],
        )
        .await;
    assert_eq!(saved.status, 303, "{}", saved.html);
    let now = app
        .services
        .ordering
        .bundle_selection(account)
        .await
        .unwrap();
    assert_ne!(now, before);
    let shares: Vec<u32> = now.iter().map(|(_, s)| *s).collect();
    assert_eq!(shares.iter().sum::<u32>(), 10_000);
    assert!(shares.contains(&6000) && shares.contains(&4000));
    let log = v.get(&format!("/console/audit?object={live}")).await;
    assert!(log.html.contains("account.selection_set") && log.html.contains("60%"));
    // Back to the default.
    let reset = v.post(&here, &[("csrf", &csrf), ("default", "true")]).await;
    assert_eq!(reset.status, 303);
    assert_eq!(
        app.services
            .ordering
            .bundle_selection(account)
            .await
            .unwrap(),
        before
    );
    // An account of another organisation, named under this one: 404.
    let other = app.tenant().await;
    let wrong = format!(
        "/console/organisations/{org}/accounts/{}",
        other.live_account
    );
    assert_eq!(v.get(&wrong).await.status, 404);
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    an_operator_creates_an_organisation_and_invites_a_member,
    an_operator_sees_an_organisations_accounts_and_sets_a_default_selection,
);
