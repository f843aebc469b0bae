//! Invoices in the console: a member sees their organisation's and keeps its
//! billing details, never another's; an operator marks one paid (its orders
//! paid too) with a form that acts once, and is told when an invoice cannot
//! be credited.

use tonne_kernel::Actor;
use tonne_ordering::invoices::{Party, Period, TaxRate};
use tonne_test_support::{TestDb, on_both_backends};

use super::{PASSWORD, Visitor, member, operator};
use crate::support::TestApp;

pub(crate) async fn with_seller(db: TestDb) -> TestApp {
    TestApp::spawn_with(db, |o| {
        o.invoice_terms = tonne::InvoiceTerms {
            seller: Party::parse("Tonne Operator Ltd", "1 High Street\nLondon", "GB123", "")
                .unwrap(),
            tax_rate: TaxRate::parse("20").unwrap(),
        };
    })
    .await
}

fn once(html: &str) -> String {
    let at =
        html.find(r#"name="once" value=""#).expect("a once field") + r#"name="once" value=""#.len();
    html[at..at + html[at..].find('"').unwrap()].to_owned()
}

async fn members_read_their_invoices_and_operators_mark_them_paid(app: TestApp) {
    app.demo_catalogue().await;
    let acme = app.tenant().await;
    let rival = app.tenant().await;
    let order = app.order_tonnes(&acme.live_key, "2").await;
    assert_eq!(order.status, 200, "{}", order.body);
    let today = time::OffsetDateTime::now_utc().date();
    let issued = app
        .services
        .invoices
        .issue(
            acme.organisation_id.parse().unwrap(),
            Period::new(today, today).unwrap(),
            &Actor::CommandLine,
        )
        .await
        .unwrap();
    let id = issued.invoices[0].id.to_string();
    member(&app, "ada@acme.example", &acme.organisation_id).await;
    member(&app, "bob@rival.example", &rival.organisation_id).await;
    operator(&app, "op@tonne.example").await;

    let mut ada = Visitor::new(&app);
    ada.sign_in("ada@acme.example", PASSWORD).await;
    let page = ada.get("/console/invoices").await;
    assert_eq!(page.status, 200, "{}", page.html);
    assert!(
        page.html.contains("INV-000001") && page.html.contains("issued, unpaid"),
        "{}",
        page.html
    );
    assert!(
        !page.html.contains("Mark paid"),
        "members do not mark invoices paid"
    );
    let pdf = ada.get(&format!("/console/invoices/{id}/pdf")).await;
    assert_eq!(pdf.status, 200);
    // a member cannot pay an invoice
    let csrf = page.csrf();
    let pay = ada
        .post(
            &format!("/console/invoices/{id}/pay"),
            &[("csrf", csrf.as_str())],
        )
        .await;
    assert_eq!(pay.status, 404);

    // billing details: a bad field is named and nothing saved; a good one is kept
    let bad = ada
        .post(
            "/console/invoices/billing",
            &[
                ("csrf", csrf.as_str()),
                ("name", "Acme GmbH"),
                ("email", "not an email"),
                ("once", &once(&page.html)),
            ],
        )
        .await;
    assert_eq!(bad.status, 400, "{}", bad.html);
    assert!(bad.html.contains("Invoices email"), "{}", bad.html);
    let saved = ada
        .post(
            "/console/invoices/billing",
            &[
                ("csrf", csrf.as_str()),
                ("name", "Acme GmbH"),
                ("address", "Hauptstrasse 2\r\nBerlin"),
                ("tax_id", "DE999"),
                ("email", "ap@acme.example"),
                ("once", &once(&page.html)),
            ],
        )
        .await;
    assert_eq!(saved.status, 303, "{}", saved.html);
    let on_file = app
        .services
        .invoices
        .billing(acme.organisation_id.parse().unwrap())
        .await
        .unwrap();
    assert_eq!(
        on_file.details,
        Some(
            Party::parse(
                "Acme GmbH",
                "Hauptstrasse 2\nBerlin",
                "DE999",
                "ap@acme.example"
            )
            .unwrap()
        )
    );

    // another organisation sees none of it
    let mut bob = Visitor::new(&app);
    bob.sign_in("bob@rival.example", PASSWORD).await;
    let theirs = bob.get("/console/invoices").await;
    assert!(theirs.html.contains("No invoices yet.") && !theirs.html.contains("INV-000001"));
    assert_eq!(
        bob.get(&format!("/console/invoices/{id}/pdf")).await.status,
        404
    );

    // the operator marks it paid, once
    let mut op = Visitor::new(&app);
    op.sign_in("op@tonne.example", PASSWORD).await;
    let list = op.get("/console/invoices").await;
    assert!(list.html.contains("Mark paid"), "{}", list.html);
    let csrf = list.csrf();
    let key = once(&list.html);
    let form = [("csrf", csrf.as_str()), ("once", key.as_str())];
    assert_eq!(
        op.post(&format!("/console/invoices/{id}/pay"), &form[1..])
            .await
            .status,
        403
    );
    assert_eq!(
        op.post(&format!("/console/invoices/{id}/pay"), &form)
            .await
            .status,
        303
    );
    assert_eq!(
        op.post(&format!("/console/invoices/{id}/pay"), &form)
            .await
            .status,
        303,
        "a repeat changes nothing"
    );
    let now = app.services.invoices.invoice(&id, None).await.unwrap();
    assert_eq!(now.status().as_str(), "paid");
    let paid = app
        .get(
            &format!("/v1/orders/{}", order.body["id"].as_str().unwrap()),
            &acme.live_key,
        )
        .await;
    assert_eq!(paid.body["status"], "paid");
    let list = op.get("/console/invoices").await;
    assert!(
        !list.html.contains("Mark paid"),
        "no action on a paid invoice"
    );
    // a stale page's credit form: answered beside the list, nothing changed
    let refused = op
        .post(
            &format!("/console/invoices/{id}/credit"),
            &[("csrf", csrf.as_str())],
        )
        .await;
    assert_eq!(refused.status, 409, "{}", refused.html);
    assert!(
        refused.html.contains("INV-000001 is paid already"),
        "{}",
        refused.html
    );
}

on_both_backends!(
    with crate::console::invoices::with_seller;
    members_read_their_invoices_and_operators_mark_them_paid,
);
