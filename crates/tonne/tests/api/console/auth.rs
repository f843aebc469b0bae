//! Sign-in, sessions, CSRF, setup links: what signed-out visitors and members may not reach.

use tonne_accounts::users::Role;
use tonne_test_support::on_both_backends;

use super::{PASSWORD, Visitor, operator, setup_path};
use crate::support::TestApp;

async fn signed_out_visitors_are_sent_to_sign_in_and_wrong_credentials_get_one_answer(
    app: TestApp,
) {
    let v = Visitor::new(&app);
    for path in [
        "/console/",
        "/console/orders",
        "/console/orders/0190c6f1a7b27c3e9f2d4b1a2c3d4e5f",
    ] {
        let page = v.get(path).await;
        assert_eq!(page.status, 303, "{path}");
        assert_eq!(page.location.as_deref(), Some("/console/sign-in"), "{path}");
    }
    let form = v.get("/console/sign-in").await;
    for label in [
        r#"<label for="email">Email</label>"#,
        r#"<label for="password">Password</label>"#,
        ">Sign in</button>",
    ] {
        assert!(form.html.contains(label), "{label}");
    }
    operator(&app, "op@example.org").await;
    let mut v = Visitor::new(&app);
    let wrong = v.sign_in("op@example.org", "wrong horse battery").await;
    let unknown = v.sign_in("nobody@example.org", PASSWORD).await;
    for page in [&wrong, &unknown] {
        assert_eq!(page.status, 401);
        assert!(page.html.contains("The email or password is wrong."));
        assert!(
            page.set_cookies
                .iter()
                .all(|c| !c.starts_with("tonne_session="))
        );
    }
    // A POST without the form's token is refused and signs nobody in.
    let forged = v
        .post(
            "/console/sign-in",
            &[("email", "op@example.org"), ("password", PASSWORD)],
        )
        .await;
    assert_eq!(forged.status, 403);
    assert!(v.session.is_none());

    let ok = v.sign_in("op@example.org", PASSWORD).await;
    assert_eq!(ok.status, 303);
    assert_eq!(ok.location.as_deref(), Some("/console/"));
    let cookie = ok
        .set_cookies
        .iter()
        .find(|c| c.starts_with("tonne_session="))
        .unwrap();
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/console"] {
        assert!(cookie.contains(attribute), "{cookie}");
    }
    let first = v.session.clone().unwrap();
    let overview = v.get("/console/").await;
    assert_eq!(overview.status, 200);
    assert!(overview.html.contains("Signed in as op@example.org"));
    // Every sign-in is a new token.
    v.sign_in("op@example.org", PASSWORD).await;
    assert_ne!(v.session.as_deref(), Some(first.as_str()));

    // Sign-out needs the session's token, then deletes the session server-side.
    let csrf = v.get("/console/").await.csrf();
    assert_eq!(
        v.post("/console/sign-out", &[("csrf", "forged")])
            .await
            .status,
        403
    );
    let out = v.post("/console/sign-out", &[("csrf", &csrf)]).await;
    assert_eq!(out.status, 303);
    assert!(out.set_cookies.iter().any(|c| c.contains("Max-Age=0")));
    assert_eq!(
        v.get("/console/").await.status,
        303,
        "the old cookie opens nothing"
    );

    // Disabling a user ends their sessions at once.
    let mut again = Visitor::new(&app);
    again.sign_in("op@example.org", PASSWORD).await;
    assert_eq!(again.get("/console/").await.status, 200);
    app.services
        .users
        .disable(
            &"op@example.org".parse().unwrap(),
            &tonne_kernel::Actor::CommandLine,
        )
        .await
        .unwrap();
    assert_eq!(again.get("/console/").await.status, 303);
    assert_eq!(again.sign_in("op@example.org", PASSWORD).await.status, 401);
}

async fn a_setup_link_sets_a_password_once_and_members_see_no_operator_page(app: TestApp) {
    let t = app.tenant().await;
    let role = Role::Member(t.organisation_id.parse().unwrap());
    let path = setup_path(&app, "ada@example.org", role).await;
    let v = Visitor::new(&app);
    assert_eq!(v.get(&path).await.status, 200);
    let short = v
        .post(&path, &[("password", "short"), ("confirm", "short")])
        .await;
    assert_eq!(short.status, 400);
    assert!(short.html.contains("at least 12 characters"));
    let differ = v
        .post(
            &path,
            &[("password", PASSWORD), ("confirm", "something else!")],
        )
        .await;
    assert_eq!(differ.status, 400);
    let set = v
        .post(&path, &[("password", PASSWORD), ("confirm", PASSWORD)])
        .await;
    assert_eq!(set.status, 200, "{}", set.html);
    let again = v
        .post(&path, &[("password", PASSWORD), ("confirm", PASSWORD)])
        .await;
    assert_eq!(again.status, 404, "a setup link works once");

    let mut member = Visitor::new(&app);
    assert_eq!(
        member.sign_in("ada@example.org", PASSWORD).await.status,
        303
    );
    let overview = member.get("/console/").await;
    assert_eq!(overview.status, 200);
    // A member's Orders are the organisation's, not the operator's queue.
    let orders = member.get("/console/orders").await;
    assert_eq!(orders.status, 200);
    assert!(orders.html.contains("Orders (live)"));
    assert!(!orders.html.contains("Orders waiting for action"));
    let csrf = overview.csrf();
    let poke = member
        .post(
            "/console/orders/0190c6f1a7b27c3e9f2d4b1a2c3d4e5f/advance",
            &[("csrf", &csrf), ("to", "paid")],
        )
        .await;
    assert_eq!(poke.status, 404);
    assert_eq!(
        member.get("/console/audit").await.status,
        404,
        "the audit log is the operator's"
    );
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    signed_out_visitors_are_sent_to_sign_in_and_wrong_credentials_get_one_answer,
    a_setup_link_sets_a_password_once_and_members_see_no_operator_page,
);
