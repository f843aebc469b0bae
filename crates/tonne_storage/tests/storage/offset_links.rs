//! Offset link repository contract tests on SQLite and PostgreSQL.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use time::OffsetDateTime;
use time::macros::{date, datetime};
use tonne_kernel::{
    AccountId, AccountMode, Currency, Cursor, Limit, Mass, MassUnit, Money, PageRequest,
    StoreError, UuidV7Generator,
};
use tonne_links::ports::OffsetLinkRepository as _;
use tonne_links::{
    Claim, ClaimOutcome, Email, LimitReached, LinkLimits, OffsetLink, OffsetLinkId, VisitorHash,
};
use tonne_ordering::{Bundle, Order, OrderStatus};
use tonne_storage::{OffsetLinkStore, OrderStore};
use tonne_test_support::{TestDb, on_both_backends};

use crate::fixtures::{self, bundle_id as bid};

const T0: OffsetDateTime = datetime!(2026-03-04 05:06:07.123456 UTC);

async fn account(t: &TestDb) -> AccountId {
    tonne_test_support::organisation(t.db(), T0).await.1.id
}

async fn catalogue(t: &TestDb) {
    let bundles = (1..=3).map(|n| Bundle::sample(n, 1000)).collect();
    fixtures::import(t, vec![], bundles, T0).await;
}

fn link(account: AccountId, name: &str, at: OffsetDateTime) -> OffsetLink {
    OffsetLink {
        id: OffsetLinkId::generate(&UuidV7Generator),
        account_id: account,
        mode: AccountMode::Test,
        name: name.into(),
        title: Some("Title <b>".into()),
        description: None,
        bundle_ids: vec![bid(3), bid(1)],
        value: Some(Money::from_minor(1250, Currency::Gbp)),
        currency: Currency::Gbp,
        emails: vec![
            Email::parse("a@example.org").unwrap(),
            Email::parse("b@example.org").unwrap(),
        ],
        expires_at: Some(datetime!(2027-01-01 0:00 UTC)),
        use_logo: true,
        require_payment: false,
        switched_off: false,
        // not the defaults: every column round-trips
        limits: LinkLimits {
            order_mass: Mass::from_grams(2_500_000),
            order_value: Money::from_minor(30_000, Currency::Gbp),
            daily_orders: 3,
            daily_mass: Mass::from_grams(5_000_000),
            visitor_daily_orders: 2,
        },
        created_at: at,
        updated_at: at,
    }
}

fn order_through(link: &OffsetLink, tonnes: &str, at: OffsetDateTime) -> Order {
    let quantity = Mass::parse(tonnes, MassUnit::T).unwrap();
    let cost = Money::from_minor(quantity.grams() / 100, Currency::Gbp);
    let price = Money::from_minor(1000, Currency::Gbp);
    let line = fixtures::line(3, quantity, (price, price), cost);
    Order {
        offset_link_id: Some(link.id.to_string()),
        email: Some("a@example.org".into()),
        // stored and read back as given (not the column's default)
        payment_method: tonne_ordering::PaymentMethod::Invoice,
        ..fixtures::order((link.account_id, AccountMode::Test), vec![line], at)
    }
}

/// Places `order` with its event at `T0`.
async fn placed(orders: &OrderStore, order: Order) -> Order {
    fixtures::place(orders, order, T0).await
}

// ---- cases ----

async fn links_round_trip_and_names_are_unique_per_account(t: TestDb) {
    catalogue(&t).await;
    let (a, b) = (account(&t).await, account(&t).await);
    let store = OffsetLinkStore::new(t.db().clone());
    let l = link(a, "Campaign", T0);
    store.insert(&l, None).await.unwrap();
    assert_eq!(
        store.get(l.id).await.unwrap(),
        Some(l.clone()),
        "round trip"
    );
    let same_name = link(a, "Campaign", T0);
    let entry = |l: &OffsetLink, action: &str| {
        tonne_kernel::AuditEntry::new(
            T0,
            tonne_kernel::Actor::person("ada@example.org"),
            action,
            "offset_link",
            l.id,
        )
    };
    assert!(matches!(
        store
            .insert(&same_name, Some(entry(&same_name, "offset_link.created")))
            .await,
        Err(StoreError::Duplicate)
    ));
    // a refused change leaves no entry; an accepted one leaves its own
    let log = tonne_storage::AuditStore::new(t.db().clone());
    let actions = || async {
        use tonne_accounts::audit::AuditRepository as _;
        log.list(
            &tonne_kernel::AuditFilter::default(),
            &tonne_kernel::PageRequest::first(),
        )
        .await
        .unwrap()
        .items
        .into_iter()
        .map(|e| (e.action, e.object_id))
        .collect::<Vec<_>>()
    };
    assert!(actions().await.is_empty());
    assert_eq!(
        store.get(same_name.id).await.unwrap(),
        None,
        "nothing written"
    );
    store.insert(&link(b, "Campaign", T0), None).await.unwrap();

    let mut changed = l.clone();
    changed.bundle_ids = vec![bid(2)];
    changed.emails = vec![];
    changed.value = None;
    changed.expires_at = None;
    changed.switched_off = true;
    store
        .update(&changed, Some(entry(&changed, "offset_link.disabled")))
        .await
        .unwrap();
    assert_eq!(
        actions().await,
        [("offset_link.disabled".to_owned(), l.id.to_string())]
    );
    assert_eq!(store.get(l.id).await.unwrap(), Some(changed.clone()));

    let other = link(a, "Other", T0);
    store.insert(&other, None).await.unwrap();
    let mut clash = other.clone();
    clash.name = "Campaign".into();
    clash.bundle_ids = vec![bid(1)];
    assert!(matches!(
        store.update(&clash, None).await,
        Err(StoreError::Duplicate)
    ));
    assert_eq!(store.get(other.id).await.unwrap(), Some(other), "unchanged");
    let ghost = link(a, "Ghost", T0);
    assert!(matches!(
        store.update(&ghost, None).await,
        Err(StoreError::NotFound)
    ));
}

async fn lists_are_newest_first_per_account_by_keyset(t: TestDb) {
    catalogue(&t).await;
    let (a, b) = (account(&t).await, account(&t).await);
    let store = OffsetLinkStore::new(t.db().clone());
    let mut ids = vec![];
    for i in 0..5i64 {
        let l = link(a, &format!("L{i}"), T0 + time::Duration::seconds(i));
        store.insert(&l, None).await.unwrap();
        ids.push(l.id);
    }
    store.insert(&link(b, "B", T0), None).await.unwrap();
    let page = |after: Option<OffsetLinkId>| PageRequest {
        limit: Limit::new(2).unwrap(),
        after: after.map(|id| Cursor::after(&id)),
    };
    let first = store.list(a, &page(None)).await.unwrap();
    assert_eq!(
        first.items.iter().map(|l| l.id).collect::<Vec<_>>(),
        vec![ids[4], ids[3]]
    );
    assert!(first.has_more);
    let last = store.list(a, &page(Some(ids[1]))).await.unwrap();
    assert_eq!(
        last.items.iter().map(|l| l.id).collect::<Vec<_>>(),
        vec![ids[0]]
    );
    assert!(!last.has_more);
    assert_eq!(
        last.items[0].bundle_ids,
        vec![bid(3), bid(1)],
        "bundle order kept"
    );
    let foreign = store.list(b, &page(Some(ids[1]))).await;
    assert!(
        matches!(foreign, Err(StoreError::NotFound)),
        "a cursor of another account"
    );
}

async fn visitors_count_once_per_day_and_orders_feed_the_analytics(t: TestDb) {
    catalogue(&t).await;
    let a = account(&t).await;
    let store = OffsetLinkStore::new(t.db().clone());
    let l = link(a, "Campaign", T0);
    store.insert(&l, None).await.unwrap();
    let v = |s: &str| VisitorHash::from_stored(s.into());
    for (day, who) in [
        (date!(2026 - 03 - 04), "x"),
        (date!(2026 - 03 - 04), "x"),
        (date!(2026 - 03 - 04), "y"),
        (date!(2026 - 03 - 06), "x"),
    ] {
        store.record_visit(l.id, day, &v(who)).await.unwrap();
    }
    let orders = OrderStore::new(t.db().clone());
    let first = placed(&orders, order_through(&l, "1.5", T0)).await;
    let second = placed(
        &orders,
        order_through(&l, "2", datetime!(2026-03-05 10:00 UTC)),
    )
    .await;
    assert_eq!(store.totals(l.id).await.unwrap(), (3, 2));
    let listed = store.orders(l.id, 10).await.unwrap();
    assert_eq!(
        listed
            .iter()
            .map(|o| o.order_id.clone())
            .collect::<Vec<_>>(),
        vec![second.id.to_string(), first.id.to_string()]
    );
    assert_eq!(listed[0].email, "a@example.org");
    assert_eq!(
        listed[0].bundles,
        vec![(bid(3).to_string(), "Bundle 3".to_owned())]
    );
    assert_eq!(store.orders(l.id, 1).await.unwrap().len(), 1);
    let daily = store.daily(l.id).await.unwrap();
    let figures: Vec<_> = daily
        .iter()
        .map(|d| (d.day, d.visitors, d.orders, d.quantity.to_tonnes_string()))
        .collect();
    assert_eq!(
        figures,
        vec![
            (date!(2026 - 03 - 04), 2, 1, "1.5".to_owned()),
            (date!(2026 - 03 - 05), 0, 1, "2".to_owned()),
            (date!(2026 - 03 - 06), 1, 0, "0".to_owned()),
        ]
    );
}

/// A claim of `tonnes` by `who` on the link's `day` (its own limits).
fn claim_of(l: &OffsetLink, day: time::Date, who: &str, tonnes: &str) -> Claim {
    l.limits.claim(
        l.id,
        day,
        VisitorHash::from_stored(who.into()),
        Mass::parse(tonnes, MassUnit::T).unwrap(),
    )
}

async fn claims_count_within_each_daily_limit_and_are_given_back(t: TestDb) {
    catalogue(&t).await;
    let a = account(&t).await;
    let store = OffsetLinkStore::new(t.db().clone());
    // 3 orders and 5 t a day, 2 orders per visitor a day
    let l = link(a, "Campaign", T0);
    store.insert(&l, None).await.unwrap();
    let day = date!(2026 - 03 - 04);
    let granted = ClaimOutcome::Granted;
    let refused = ClaimOutcome::Refused;
    assert_eq!(
        store.claim(&claim_of(&l, day, "x", "1")).await.unwrap(),
        granted
    );
    assert_eq!(
        store.claim(&claim_of(&l, day, "x", "1")).await.unwrap(),
        granted
    );
    // the visitor's third: refused, and the link's day is not counted for it
    assert_eq!(
        store.claim(&claim_of(&l, day, "x", "1")).await.unwrap(),
        refused(LimitReached::VisitorOrders)
    );
    // 2 t taken: 3.5 more would pass 5 t
    assert_eq!(
        store.claim(&claim_of(&l, day, "y", "3.5")).await.unwrap(),
        refused(LimitReached::DailyMass)
    );
    assert_eq!(
        store.claim(&claim_of(&l, day, "y", "3")).await.unwrap(),
        granted
    );
    assert_eq!(
        store.claim(&claim_of(&l, day, "z", "0.001")).await.unwrap(),
        refused(LimitReached::DailyOrders)
    );
    // an order not placed gives its claim back: room for one more
    store.release(&claim_of(&l, day, "y", "3")).await.unwrap();
    assert_eq!(
        store.claim(&claim_of(&l, day, "z", "2")).await.unwrap(),
        granted
    );
    // the visitor's count was given back too
    store.release(&claim_of(&l, day, "x", "1")).await.unwrap();
    store.release(&claim_of(&l, day, "x", "1")).await.unwrap();
    store.release(&claim_of(&l, day, "x", "1")).await.unwrap();
    assert_eq!(
        store.claim(&claim_of(&l, day, "x", "1")).await.unwrap(),
        granted
    );
    // another day, another link: counted apart
    let next = date!(2026 - 03 - 05);
    assert_eq!(
        store.claim(&claim_of(&l, next, "x", "1")).await.unwrap(),
        granted
    );
    let other = link(a, "Other", T0);
    store.insert(&other, None).await.unwrap();
    assert_eq!(
        store.claim(&claim_of(&other, day, "x", "1")).await.unwrap(),
        granted
    );
}

async fn concurrent_claims_never_pass_a_limit(t: TestDb) {
    catalogue(&t).await;
    let a = account(&t).await;
    let store = OffsetLinkStore::new(t.db().clone());
    let mut l = link(a, "Campaign", T0);
    l.limits.daily_orders = 5;
    l.limits.daily_mass = Mass::from_grams(1_000_000_000);
    l.limits.visitor_daily_orders = 3;
    store.insert(&l, None).await.unwrap();
    let day = date!(2026 - 03 - 04);
    // 16 visitors at once for the link's 5 orders, then 8 claims of one
    // visitor at once (on another day) for its 3
    let race = |claims: Vec<Claim>| {
        let store = store.clone();
        async move {
            let tasks: Vec<_> = claims
                .into_iter()
                .map(|c| {
                    let store = store.clone();
                    tokio::spawn(async move { store.claim(&c).await.unwrap() })
                })
                .collect();
            let mut granted = 0;
            for task in tasks {
                if task.await.unwrap() == ClaimOutcome::Granted {
                    granted += 1;
                }
            }
            granted
        }
    };
    let many: Vec<Claim> = (0..16)
        .map(|i| claim_of(&l, day, &format!("v{i}"), "1"))
        .collect();
    assert_eq!(race(many).await, 5);
    let next = date!(2026 - 03 - 05);
    let one: Vec<Claim> = (0..8).map(|_| claim_of(&l, next, "same", "1")).collect();
    assert_eq!(race(one).await, 3);
}

async fn unconfirmed_orders_are_link_orders_still_received_before_the_cutoff(t: TestDb) {
    catalogue(&t).await;
    let a = account(&t).await;
    let store = OffsetLinkStore::new(t.db().clone());
    let l = link(a, "Campaign", T0);
    store.insert(&l, None).await.unwrap();
    let orders = OrderStore::new(t.db().clone());
    let later = T0 + time::Duration::hours(2);
    let old = placed(&orders, order_through(&l, "1", T0)).await;
    let older = placed(
        &orders,
        order_through(&l, "1", T0 - time::Duration::minutes(1)),
    )
    .await;
    let confirmed = placed(&orders, order_through(&l, "1", T0)).await;
    fixtures::moved(
        &orders,
        confirmed.id,
        OrderStatus::Received,
        fixtures::event(OrderStatus::Placed, T0),
    )
    .await;
    placed(&orders, order_through(&l, "1", later)).await;
    let mut api_order = order_through(&l, "1", T0);
    api_order.offset_link_id = None;
    placed(&orders, api_order).await;

    let cutoff = T0 + time::Duration::hours(1);
    assert_eq!(
        store.unconfirmed_orders(cutoff, 10).await.unwrap(),
        vec![older.id, old.id],
        "oldest first; not the confirmed, the recent or the API's"
    );
    assert_eq!(
        store.unconfirmed_orders(cutoff, 1).await.unwrap(),
        vec![older.id]
    );
}

on_both_backends!(
    claims_count_within_each_daily_limit_and_are_given_back,
    concurrent_claims_never_pass_a_limit,
    unconfirmed_orders_are_link_orders_still_received_before_the_cutoff,
    links_round_trip_and_names_are_unique_per_account,
    lists_are_newest_first_per_account_by_keyset,
    visitors_count_once_per_day_and_orders_feed_the_analytics,
);
