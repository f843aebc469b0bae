//! The operator's organisations: create one, invite a member.

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

on_both_backends!(
    with crate::support::TestApp::spawn;
    an_operator_creates_an_organisation_and_invites_a_member,
);
