//! Invoice repository contract tests on SQLite and PostgreSQL: what is
//! invoiced, numbering under concurrency, credit notes, payment, billing
//! details and the `invoice.issued` event.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::collections::BTreeSet;
use std::sync::Arc;

use time::OffsetDateTime;
use time::macros::datetime;
use tonne_accounts::Account;
use tonne_kernel::{
    Actor, AuditEntry, Currency, Limit, Mass, MassUnit, Money, OrganisationId, PageRequest,
};
use tonne_ordering::invoices::{InvoiceBuilder, InvoiceStatus, Party, Period, TaxRate};
use tonne_ordering::ports::{CreditOutcome, InvoiceRepository};
use tonne_ordering::{Bundle, Order, OrderId, OrderStatus, PaymentMethod};
use tonne_storage::{InvoiceStore, OrderStore};
use tonne_test_support::{TestDb, on_both_backends};
use uuid::Uuid;

use crate::fixtures;

const T0: OffsetDateTime = datetime!(2026-10-01 00:00 UTC);

async fn catalogue(t: &TestDb) {
    fixtures::import(t, vec![], vec![Bundle::sample(1, 1000)], T0).await;
}

/// An order of `account`, stored: `minor` offset cost plus a tenth commission.
async fn order(
    t: &TestDb,
    account: &Account,
    minor: i64,
    at: OffsetDateTime,
    paid_by: PaymentMethod,
) -> Order {
    let quantity = Mass::parse("1", MassUnit::T).unwrap();
    let cost = Money::from_minor(minor, Currency::Gbp);
    let commission = Money::from_minor(minor / 10, Currency::Gbp);
    let line = fixtures::line(1, quantity, (cost, cost), cost);
    let o = Order {
        commission,
        total_cost: cost.checked_add(commission).unwrap(),
        payment_method: paid_by,
        ..fixtures::order((account.id, account.mode), vec![line], at)
    };
    fixtures::place(&OrderStore::new(t.db().clone()), o, at).await
}

/// An order of `account` paid by invoice, stored.
async fn invoiced(t: &TestDb, account: &Account, minor: i64, at: OffsetDateTime) -> Order {
    order(t, account, minor, at, PaymentMethod::Invoice).await
}

fn builder(month: &str) -> InvoiceBuilder {
    InvoiceBuilder {
        period: Period::month(month).unwrap(),
        seller: Party::parse("Seller Ltd", "1 Road\nLondon", "GB1", "").unwrap(),
        buyer: Party::named("Buyer"),
        tax_rate: TaxRate::parse("20").unwrap(),
        at: datetime!(2026-11-01 06:00 UTC),
    }
}

fn audit(what: &str) -> AuditEntry {
    AuditEntry::new(T0, Actor::CommandLine, what, "invoice", "x")
}

fn organisation_of(a: &Account) -> OrganisationId {
    a.organisation_id
}

async fn invoice_events(t: &TestDb) -> Vec<serde_json::Value> {
    let sql = "SELECT event_type, sequence, payload FROM order_events WHERE event_type = 'invoice.issued' ORDER BY created_at, sequence";
    fixtures::events(t, sql)
        .await
        .iter()
        .map(|(_, _, payload)| serde_json::from_str(payload).unwrap())
        .collect()
}

// ---- cases ----

async fn an_invoice_holds_the_months_live_invoice_orders_once(t: TestDb) {
    catalogue(&t).await;
    let (live, test) = tonne_test_support::organisation(t.db(), T0).await;
    let store = InvoiceStore::new(t.db().clone());
    let a = invoiced(&t, &live, 1_000, datetime!(2026-10-03 10:00 UTC)).await;
    let b = invoiced(&t, &live, 2_345, datetime!(2026-10-31 23:59 UTC)).await;
    // not invoiced: paid by card, a test order, another month, cancelled
    order(
        &t,
        &live,
        500,
        datetime!(2026-10-05 10:00 UTC),
        PaymentMethod::Card,
    )
    .await;
    invoiced(&t, &test, 500, datetime!(2026-10-05 10:00 UTC)).await;
    invoiced(&t, &live, 500, datetime!(2026-11-01 00:00 UTC)).await;
    let cancelled = invoiced(&t, &live, 500, datetime!(2026-10-06 10:00 UTC)).await;
    let orders = OrderStore::new(t.db().clone());
    let cancel = fixtures::event(OrderStatus::Cancelled, T0);
    fixtures::moved(&orders, cancelled.id, OrderStatus::Received, cancel).await;

    let org = organisation_of(&live);
    assert_eq!(
        store
            .organisations_to_invoice(Period::month("2026-10").unwrap())
            .await
            .unwrap(),
        vec![org]
    );
    let issued = store.issue(org, &builder("2026-10")).await.unwrap();
    assert_eq!(issued.len(), 1);
    let i = &issued[0];
    assert_eq!(i.number, 1);
    assert_eq!(
        i.lines.iter().map(|l| l.order_id).collect::<Vec<_>>(),
        vec![a.id, b.id],
        "oldest first"
    );
    // totals to the cent equal to the orders'
    assert_eq!(
        i.subtotal.minor(),
        a.total_cost.minor() + b.total_cost.minor()
    );
    assert_eq!(i.offset_cost.minor(), 3_345);
    assert_eq!(i.commission.minor(), 100 + 234);
    assert_eq!(i.tax.minor(), 736); // 20 % of 36.79
    assert_eq!(i.total.minor(), 3_679 + 736);
    assert_eq!(
        store.get(i.id).await.unwrap().as_ref(),
        Some(i),
        "round trip"
    );

    // issued once: again finds nothing, writes nothing
    assert!(
        store
            .issue(org, &builder("2026-10"))
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        store
            .organisations_to_invoice(Period::month("2026-10").unwrap())
            .await
            .unwrap()
            .is_empty()
    );
    let events = invoice_events(&t).await;
    assert_eq!(events.len(), 1, "one invoice.issued event");
    assert_eq!(events[0]["invoice"]["number"], "INV-000001");
    assert_eq!(events[0]["invoice"]["total"], "44.15");
    assert_eq!(events[0]["invoice"]["lines"].as_array().unwrap().len(), 2);
}

async fn eight_concurrent_issuers_leave_no_gap_and_no_duplicate(t: TestDb) {
    catalogue(&t).await;
    let mut organisations = Vec::new();
    let mut orders = BTreeSet::new();
    for n in 0..4 {
        let (live, _) = tonne_test_support::organisation(t.db(), T0).await;
        for k in 0..3 {
            let o = invoiced(
                &t,
                &live,
                1_000 + n * 10 + k,
                datetime!(2026-10-10 10:00 UTC),
            )
            .await;
            orders.insert(o.id);
        }
        organisations.push(organisation_of(&live));
    }
    let store = Arc::new(InvoiceStore::new(t.db().clone()));
    // eight issuers: two for each organisation, at once
    let tasks: Vec<_> = (0..8)
        .map(|i| {
            let store = store.clone();
            let org = organisations[i % 4];
            tokio::spawn(async move { store.issue(org, &builder("2026-10")).await.unwrap() })
        })
        .collect();
    let mut issued = Vec::new();
    for task in tasks {
        issued.extend(task.await.unwrap());
    }
    let mut numbers: Vec<u64> = issued.iter().map(|i| i.number).collect();
    numbers.sort_unstable();
    assert_eq!(
        numbers,
        vec![1, 2, 3, 4],
        "one invoice per organisation, numbered 1 to 4"
    );
    let invoiced: Vec<OrderId> = issued
        .iter()
        .flat_map(|i| i.lines.iter().map(|l| l.order_id))
        .collect();
    assert_eq!(invoiced.len(), orders.len(), "no order twice");
    assert_eq!(invoiced.into_iter().collect::<BTreeSet<_>>(), orders);
    let page = store
        .list(
            None,
            &PageRequest {
                limit: Limit::new(10).unwrap(),
                after: None,
            },
        )
        .await
        .unwrap();
    assert_eq!(
        page.items.iter().map(|i| i.number).collect::<Vec<_>>(),
        vec![4, 3, 2, 1]
    );
}

async fn a_credit_note_takes_an_unpaid_invoice_back_and_frees_its_orders(t: TestDb) {
    catalogue(&t).await;
    let (live, _) = tonne_test_support::organisation(t.db(), T0).await;
    let org = organisation_of(&live);
    let store = InvoiceStore::new(t.db().clone());
    let o = invoiced(&t, &live, 1_000, datetime!(2026-10-03 10:00 UTC)).await;
    let invoice = store
        .issue(org, &builder("2026-10"))
        .await
        .unwrap()
        .remove(0);
    let CreditOutcome::Credited(note) = store
        .credit(
            invoice.id,
            datetime!(2026-11-02 0:00 UTC),
            audit("invoice.credited"),
        )
        .await
        .unwrap()
    else {
        panic!("credited")
    };
    assert_eq!(note.number, 2, "the same sequence");
    assert_eq!(note.total.minor(), -invoice.total.minor());
    let now = store.get(invoice.id).await.unwrap().unwrap();
    assert_eq!(now.status(), InvoiceStatus::Credited);
    assert_eq!(now.credited_by, Some(note.id));
    // never twice, and a credit note is not credited
    assert!(matches!(
        store
            .credit(invoice.id, T0, audit("invoice.credited"))
            .await
            .unwrap(),
        CreditOutcome::Refused(_)
    ));
    assert!(matches!(
        store
            .credit(note.id, T0, audit("invoice.credited"))
            .await
            .unwrap(),
        CreditOutcome::Refused(_)
    ));
    assert!(
        store
            .mark_paid(invoice.id, T0, audit("invoice.paid"))
            .await
            .unwrap()
            .is_none()
    );
    // the order may be invoiced again, under the next number
    let again = store
        .issue(org, &builder("2026-10"))
        .await
        .unwrap()
        .remove(0);
    assert_eq!((again.number, again.lines[0].order_id), (3, o.id));
    // paid once; a paid invoice is not credited
    let paid = store
        .mark_paid(again.id, T0, audit("invoice.paid"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(paid.status(), InvoiceStatus::Paid);
    assert!(
        store
            .mark_paid(again.id, T0, audit("invoice.paid"))
            .await
            .unwrap()
            .is_none()
    );
    assert!(matches!(
        store
            .credit(again.id, T0, audit("invoice.credited"))
            .await
            .unwrap(),
        CreditOutcome::Refused(_)
    ));
    assert!(matches!(
        store
            .credit(
                tonne_ordering::invoices::InvoiceId::from_uuid(Uuid::new_v4()),
                T0,
                audit("x")
            )
            .await
            .unwrap(),
        CreditOutcome::NotFound
    ));
}

async fn billing_details_are_kept_per_organisation(t: TestDb) {
    let (live, _) = tonne_test_support::organisation(t.db(), T0).await;
    let org = organisation_of(&live);
    let store = InvoiceStore::new(t.db().clone());
    let on_file = store.billing(org).await.unwrap().unwrap();
    assert_eq!(
        (on_file.organisation_name.as_str(), on_file.details),
        ("O", None)
    );
    let details = Party::parse("Acme Ltd", "1 Road\nLondon", "GB9", "ap@acme.example").unwrap();
    store
        .set_billing(org, details.clone(), audit("organisation.billing_updated"))
        .await
        .unwrap();
    store
        .set_billing(org, details.clone(), audit("organisation.billing_updated"))
        .await
        .unwrap();
    assert_eq!(
        store.billing(org).await.unwrap().unwrap().details,
        Some(details)
    );
    assert_eq!(
        store
            .billing(OrganisationId::from_uuid(Uuid::new_v4()))
            .await
            .unwrap(),
        None
    );
}

on_both_backends!(
    an_invoice_holds_the_months_live_invoice_orders_once,
    eight_concurrent_issuers_leave_no_gap_and_no_duplicate,
    a_credit_note_takes_an_unpaid_invoice_back_and_frees_its_orders,
    billing_details_are_kept_per_organisation,
);
