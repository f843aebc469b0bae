//! The impact tests' scenario: a catalogue, orders of several accounts over
//! three days in every status, estimates, and client accounts.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use rust_decimal::Decimal;
use time::macros::{date, datetime};
use time::{Date, OffsetDateTime};
use tonne_accounts::ports::AccountRepository as _;
use tonne_accounts::{Account, AccountName, AccountScope, Handle};
use tonne_estimation::estimate::{Estimate, EstimateDetail, EstimateKind, QuoteTerms, Submitted};
use tonne_estimation::explain::Explanation;
use tonne_estimation::ports::{EstimateRepository as _, UpdateOutcome};
use tonne_kernel::{AccountId, Currency, Mass, Money, UuidV7Generator};
use tonne_ordering::ports::OrderRepository as _;
use tonne_ordering::{
    Bundle, BundleId, Order, OrderStatus, Project, ProjectAllocation, QuoteLine, allocate_projects,
};
use tonne_storage::{AccountStore, EstimateStore, OrderStore};
use tonne_test_support::TestDb;

use crate::fixtures;
pub(super) use crate::fixtures::bundle_id;

pub(super) const T0: OffsetDateTime = datetime!(2026-03-04 05:06:07.123456 UTC);

const D1_LATE: OffsetDateTime = datetime!(2026-03-04 23:59:59.999999 UTC);

pub(super) const D2: OffsetDateTime = datetime!(2026-03-05 00:00:00.000001 UTC);

pub(super) const D3: OffsetDateTime = datetime!(2026-03-07 12:00 UTC);

pub(super) const D4: OffsetDateTime = datetime!(2026-03-07 13:00 UTC);

pub(super) const LAST: Date = date!(2026 - 12 - 31);

// ---- catalogue: bundle 11 → projects 1 and 2, bundle 12 → project 3, bundle 13 → none ----

pub(super) fn project(n: u128) -> Project {
    Project {
        latitude: Decimal::new(-5877, 3),
        longitude: Decimal::new(77612, 3),
        un_sdg: vec![13],
        ..fixtures::project(n)
    }
}

fn projects_of(bundle: BundleId) -> Vec<Project> {
    if bundle == bundle_id(11) {
        vec![project(1), project(2)]
    } else if bundle == bundle_id(12) {
        vec![project(3)]
    } else {
        vec![]
    }
}

async fn catalogue(t: &TestDb) {
    let bundle = |n: u128| Bundle {
        project_ids: projects_of(bundle_id(n)).iter().map(|p| p.id).collect(),
        ..Bundle::sample(n, 1000)
    };
    let projects = vec![project(1), project(2), project(3)];
    fixtures::import(t, projects, vec![bundle(11), bundle(12), bundle(13)], T0).await;
}

// ---- orders ----

/// An order of `(bundle, name, grams)` lines; each line costs a unit per kilogram
/// plus the bundle's number (so that value is not proportional to mass).
pub(super) fn order(account: &Account, lines: &[(u128, &str, i64)], at: OffsetDateTime) -> Order {
    let money = |minor| Money::from_minor(minor, Currency::Gbp);
    let lines: Vec<QuoteLine> = lines
        .iter()
        .map(|&(n, name, grams)| {
            let cost = money(grams / 1000 + i64::try_from(n).unwrap());
            let prices = (money(1000), money(1000));
            QuoteLine {
                bundle_name: name.to_owned(),
                ..fixtures::line(n, Mass::from_grams(grams), prices, cost)
            }
        })
        .collect();
    fixtures::order((account.id, account.mode), lines, at)
}

async fn place(store: &OrderStore, order: Order) -> Order {
    fixtures::place(store, order, T0).await
}

async fn step(
    store: &OrderStore,
    order: &Order,
    to: OrderStatus,
    projects: Option<Vec<ProjectAllocation>>,
) -> Order {
    let event = fixtures::event(to, T0);
    store
        .transition(order.id, order.status, event, projects, vec![], None)
        .await
        .unwrap()
}

/// Received → placed → paid.
async fn paid(store: &OrderStore, order: Order) -> Order {
    fixtures::paid(store, order, T0).await
}

/// … → retiring, with the allocation the lifecycle makes.
pub(super) async fn retiring(store: &OrderStore, order: Order) -> Order {
    let order = paid(store, order).await;
    let projects = allocate_projects(&order, order.updated_at, projects_of);
    step(store, &order, OrderStatus::Retiring, Some(projects)).await
}

/// … → complete, the lifecycle's way (projects on entering retiring).
pub(super) async fn completed(store: &OrderStore, order: Order) -> Order {
    let order = retiring(store, order).await;
    step(store, &order, OrderStatus::Complete, None).await
}

/// The whole of an order's lines allocated to project 1.
fn all_to_project_1(order: &Order) -> Vec<ProjectAllocation> {
    let mut one = allocate_projects(order, order.updated_at, projects_of)
        .into_iter()
        .next()
        .unwrap();
    one.project_id = project(1).id;
    one.quantity = order.quantity;
    one.offset_cost = order.offset_cost;
    vec![one]
}

pub(super) struct Accounts {
    pub(super) live: Account,
    pub(super) test: Account,
    pub(super) other: Account,
}

/// Orders of two organisations' live accounts and of a test account, over
/// three days, in every status, with projects allocated and re-allocated.
pub(super) async fn scenario(t: &TestDb) -> Accounts {
    catalogue(t).await;
    let (live, test) = tonne_test_support::organisation(t.db(), T0).await;
    let (other, _) = tonne_test_support::organisation(t.db(), T0).await;
    let store = OrderStore::new(t.db().clone());
    // complete: 3 t of bundle 11 (projects 1, 2), 1 t of bundle 12 (project 3)
    completed(
        &store,
        order(
            &live,
            &[(11, "Bundle 11", 3_000_000), (12, "Bundle 12", 1_000_000)],
            T0,
        ),
    )
    .await;
    // cancelled, later the same day, under the bundle's new name
    let cancelled = place(
        &store,
        order(&live, &[(11, "Bundle 11 renamed", 2_000_000)], D1_LATE),
    )
    .await;
    step(&store, &cancelled, OrderStatus::Cancelled, None).await;
    // retiring: allocated, not complete; bundle 13 has no projects
    retiring(
        &store,
        order(
            &live,
            &[(11, "Bundle 11", 1_000_000), (13, "Bundle 13", 5_000_000)],
            D2,
        ),
    )
    .await;
    // failed after its projects were allocated
    let failing = retiring(&store, order(&live, &[(12, "Bundle 12", 2_000_000)], D2)).await;
    step(&store, &failing, OrderStatus::Failed, None).await;
    // re-allocated (all to project 1) in the transition that completes it
    let moved = retiring(&store, order(&live, &[(11, "Bundle 11", 4_000_000)], D3)).await;
    let again = all_to_project_1(&moved);
    step(&store, &moved, OrderStatus::Complete, Some(again)).await;
    // allocated in the transition that completes it, never retiring
    let direct = paid(&store, order(&live, &[(12, "Bundle 12", 500_000)], D3)).await;
    let projects = allocate_projects(&direct, direct.updated_at, projects_of);
    step(&store, &direct, OrderStatus::Complete, Some(projects)).await;
    // received only
    place(&store, order(&live, &[(13, "Bundle 13", 700_000)], D3)).await;
    // one bundle on two lines of one order (each project twice)
    completed(
        &store,
        order(
            &live,
            &[(11, "Bundle 11", 100_000), (11, "Bundle 11", 200_000)],
            D3,
        ),
    )
    .await;
    // the test account's and another organisation's orders, the same days and bundles
    completed(&store, order(&test, &[(11, "Bundle 11", 9_000_000)], T0)).await;
    completed(&store, order(&other, &[(11, "Bundle 11", 8_000_000)], T0)).await;
    place(&store, order(&other, &[(12, "Bundle 12", 6_000_000)], D2)).await;
    Accounts { live, test, other }
}

// ---- estimates ----

fn estimate(
    account: &Account,
    grams: Option<i64>,
    kind: EstimateKind,
    at: OffsetDateTime,
) -> Estimate {
    Estimate {
        id: tonne_kernel::EstimateId::generate(&UuidV7Generator),
        account_id: account.id,
        kind,
        mass: grams.map(Mass::from_grams),
        detail: EstimateDetail::Transaction {
            search_term_match: None,
        },
        explanation: Explanation {
            parts: vec![],
            notes: vec![],
            factor_set: None,
        },
        quote: QuoteTerms::default(),
        submitted: Submitted::new("{}"),
        annotations: Default::default(),
        order_id: None,
        created_at: at,
        updated_at: at,
    }
}

/// Estimates of two accounts of one organisation and of another's, over three days.
pub(super) async fn estimates(t: &TestDb, accounts: &Accounts) -> Account {
    let client = client_account(t, &accounts.live, None).await;
    let store = EstimateStore::new(t.db().clone());
    let (live, other) = (&accounts.live, &accounts.other);
    let batch = [
        estimate(live, Some(1_000), EstimateKind::Transaction, T0),
        estimate(live, Some(5_000), EstimateKind::Company, T0),
        estimate(live, Some(2_000), EstimateKind::Transaction, D2),
        estimate(live, None, EstimateKind::Transaction, D1_LATE),
        estimate(&client, Some(3_000), EstimateKind::Transaction, T0),
        estimate(&client, Some(4_000), EstimateKind::Company, D3),
        estimate(other, Some(99_999), EstimateKind::Transaction, T0),
    ];
    // Three in one batch (a transaction), the others one at a time (on
    // PostgreSQL one statement each, `counted`): both must count alike.
    store.insert(&batch[..3]).await.unwrap();
    for one in &batch[3..] {
        store.insert(std::slice::from_ref(one)).await.unwrap();
    }
    // a changed mass changes the day's total, not its count
    let changed = Estimate {
        mass: Some(Mass::from_grams(1_500)),
        ..batch[0].clone()
    };
    assert!(matches!(
        store.update(&changed, D3).await.unwrap(),
        UpdateOutcome::Updated { .. }
    ));
    client
}

// ---- accounts ----

/// A client account of `of`'s organisation and mode, with a handle if given.
pub(super) async fn client_account(t: &TestDb, of: &Account, handle: Option<&str>) -> Account {
    let mut client = Account::sample(
        AccountId::generate(&UuidV7Generator),
        of.organisation_id,
        of.mode,
        AccountScope::ClientAccount,
        T0,
    );
    client.name = AccountName::parse("Client").unwrap();
    client.handle = handle.map(|h| Handle::parse(h).unwrap());
    AccountStore::new(t.db().clone())
        .insert_client(&client, None)
        .await
        .unwrap();
    client
}
