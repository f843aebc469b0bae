//! Stripe's webhook: a dispute holds its card order, once per event, and an
//! operator releases the hold; wrong, stale and tampered signatures act on
//! nothing.

use serde_json::json;
use tonne_test_support::TestDb;

use super::{WEBHOOK_SECRET, checkout, paid_link, paying_app, stripe_url};
use crate::offset_links::Visitor;
use crate::support::TestApp;

/// `Stripe-Signature` for `body` signed at `t` with `secret`, as Stripe signs.
fn signed(body: &str, t: i64, secret: &str) -> String {
    use hmac::Mac as _;
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{t}.{body}").as_bytes());
    format!("t={t},v1={}", hex::encode(mac.finalize().into_bytes()))
}

async fn deliver(app: &TestApp, body: &str, signature: Option<String>) -> u16 {
    let mut req = app
        .client
        .post(format!("{}/stripe/webhook", app.base))
        .header("content-type", "application/json")
        .body(body.to_owned());
    if let Some(s) = signature {
        req = req.header("Stripe-Signature", s);
    }
    req.send().await.unwrap().status().as_u16()
}

async fn a_disputed_card_payment_holds_its_order_once(db: TestDb) {
    let Some(url) = stripe_url() else { return };
    let app = paying_app(db, &url).await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let bundles = app.bundle_ids(&t.live_key).await;
    let res = paid_link(&app, &t.live_key, &bundles[0], "12.00").await;
    let id = res.body["id"].as_str().unwrap().to_owned();
    let mut v = Visitor::new(&app);
    let chosen = v.choose(&id, &bundles[0]).await;
    let choice = chosen.form();
    let (paid, _) = checkout(&mut v, &id, &choice, &url, "4242424242424242").await;
    assert_eq!(paid.status, 200, "{}", paid.html);
    let order_id = paid.order_id();
    let reference = app
        .services
        .ordering
        .order(&order_id)
        .await
        .unwrap()
        .payment_reference
        .unwrap();

    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    let event = json!({"id": format!("evt_{}", &order_id[..12]), "type": "charge.dispute.created", "created": now,
                       "data": {"object": {"id": "dp_1", "object": "dispute", "payment_intent": reference}}})
    .to_string();
    // unsigned, signed with another secret, or signed too long ago: refused, nothing held
    assert_eq!(deliver(&app, &event, None).await, 400);
    assert_eq!(
        deliver(&app, &event, Some(signed(&event, now, "whsec_other"))).await,
        400
    );
    assert_eq!(
        deliver(
            &app,
            &event,
            Some(signed(&event, now - 600, WEBHOOK_SECRET))
        )
        .await,
        400
    );
    let tampered = event.replace("dp_1", "dp_2");
    assert_eq!(
        deliver(&app, &tampered, Some(signed(&event, now, WEBHOOK_SECRET))).await,
        400
    );
    assert_eq!(
        app.services.ordering.order(&order_id).await.unwrap().held,
        None
    );

    // signed: the order is on hold, and no step but failed/cancelled passes it
    assert_eq!(
        deliver(&app, &event, Some(signed(&event, now, WEBHOOK_SECRET))).await,
        200
    );
    let held = app.services.ordering.order(&order_id).await.unwrap();
    assert_eq!(held.held.as_deref(), Some(tonne_ordering::DISPUTE_HOLD));
    let refused = app
        .services
        .ordering
        .advance(&order_id, None, None, &tonne_kernel::Actor::CommandLine)
        .await;
    assert!(
        matches!(refused, Err(tonne_ordering::TransitionError::OnHold(_))),
        "{refused:?}"
    );
    // the operator's console shows the hold and the card payment
    crate::console::operator(&app, "ops@example.org").await;
    let mut ops = crate::console::Visitor::new(&app);
    ops.sign_in("ops@example.org", crate::console::PASSWORD)
        .await;
    let page = ops.get(&format!("/console/orders/{order_id}")).await;
    assert!(
        page.html.contains("On hold: the card payment is disputed")
            && page.html.contains(&reference),
        "{}",
        page.html
    );
    // the dispute won: the operator releases the hold (audited), and the order moves on
    let release = ops
        .post(
            &format!("/console/orders/{order_id}/advance"),
            &[("csrf", page.csrf().as_str()), ("to", "release_hold")],
        )
        .await;
    assert_eq!(release.status, 303, "{}", release.html);
    assert_eq!(
        app.services.ordering.order(&order_id).await.unwrap().held,
        None
    );
    let audit = crate::console::audit_of(&app, &order_id).await;
    assert!(
        audit.iter().any(|e| e.action == "order.hold_released"),
        "{audit:?}"
    );
    // a second release (a double submit) changes nothing and lands alike
    let again = ops
        .post(
            &format!("/console/orders/{order_id}/advance"),
            &[("csrf", page.csrf().as_str()), ("to", "release_hold")],
        )
        .await;
    assert_eq!(again.status, 303);
    let moved = app
        .services
        .ordering
        .advance(&order_id, None, None, &tonne_kernel::Actor::CommandLine)
        .await
        .unwrap();
    assert_eq!(moved.status.as_str(), "retiring");

    // and says, to the organisation's members, how each mode's pages take cards
    crate::console::member(&app, "ada@example.org", &t.organisation_id).await;
    let mut ada = crate::console::Visitor::new(&app);
    ada.sign_in("ada@example.org", crate::console::PASSWORD)
        .await;
    let links = ada
        .get(&format!(
            "/console/offset-links?mode=live&account={}",
            t.live_account
        ))
        .await;
    assert!(
        links
            .html
            .contains("payments are taken by card through Stripe"),
        "{}",
        links.html
    );

    // delivered again, and twice at once: acts once
    assert_eq!(
        deliver(&app, &event, Some(signed(&event, now, WEBHOOK_SECRET))).await,
        200
    );
    let again = || {
        app.services
            .ordering
            .payment_event(tonne_ordering::PaymentEvent {
                id: "evt_twice".into(),
                kind: "charge.dispute.created".into(),
                disputed_payment: Some(reference.clone()),
            })
    };
    let (a, b) = tokio::join!(again(), again());
    let mut outcomes = [a.unwrap(), b.unwrap()];
    outcomes.sort_by_key(|o| matches!(o, tonne_ordering::PaymentEventApplied::Repeated));
    assert!(
        matches!(
            outcomes[0],
            tonne_ordering::PaymentEventApplied::New { held: Some(_) }
        ) && outcomes[1] == tonne_ordering::PaymentEventApplied::Repeated,
        "{outcomes:?}"
    );
    // an event about something else is acknowledged and recorded
    let other = json!({"id": "evt_other", "type": "payment_intent.succeeded", "created": now,
                       "data": {"object": {"id": reference}}})
    .to_string();
    assert_eq!(
        deliver(&app, &other, Some(signed(&other, now, WEBHOOK_SECRET))).await,
        200
    );
    // the server without a signing secret has no such route
    let plain = TestApp::spawn(TestDb::sqlite()).await;
    assert_eq!(
        deliver(&plain, &other, Some(signed(&other, now, WEBHOOK_SECRET))).await,
        404
    );
}

tonne_test_support::on_both_backends!(a_disputed_card_payment_holds_its_order_once);
