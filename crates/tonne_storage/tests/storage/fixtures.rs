//! Builders the storage tests share: projects and bundles, a catalogue of them
//! imported, orders and their events, and rows read back by a statement of
//! the test's own on either backend.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use diesel::QueryableByName;
use diesel::pg::Pg;
use diesel::sqlite::Sqlite;
use time::OffsetDateTime;
use tonne_accounts::users::{Role, User, UserId};
use tonne_accounts::{Account, ApiKey, ApiKeySecret};
use tonne_kernel::{
    AccountId, AccountMode, ApiKeyId, Currency, Limit, Mass, MassUnit, Money, PageRequest,
    UuidV7Generator,
};
use tonne_ordering::ports::{Catalogue, CatalogueRepository as _, OrderRepository as _};
use tonne_ordering::{
    Bundle, BundleId, NewEvent, Order, OrderId, OrderKind, OrderStatus, PaymentMethod, Project,
    QuoteLine,
};
use tonne_shipments::{BatchSource, NewBatch, ShipmentBatchId};
use tonne_storage::{CatalogueStore, Conn, OrderStore};
use tonne_test_support::TestDb;
use uuid::Uuid;

// ---- people and keys ----

/// A console user of `email` with `role`, without a password, created at `at`.
pub(crate) fn user(email: &str, role: Role, at: OffsetDateTime) -> User {
    User {
        id: UserId::generate(&UuidV7Generator),
        email: email.parse().unwrap(),
        role,
        password_hash: None,
        created_at: at,
        disabled_at: None,
    }
}

/// An API key of `account` for `secret`, created at `at`, never used.
pub(crate) fn api_key(account: &Account, secret: &ApiKeySecret, at: OffsetDateTime) -> ApiKey {
    ApiKey::issue(ApiKeyId::generate(&UuidV7Generator), account, secret, at)
}

// ---- shipments ----

/// A batch of `rows` of `account`'s ("Acme") uploaded through the API at `at`,
/// without a key, not to be calculated.
pub(crate) fn batch(account: AccountId, rows: Vec<String>, at: OffsetDateTime) -> NewBatch {
    NewBatch {
        id: ShipmentBatchId::generate(&UuidV7Generator),
        account_id: account,
        account_name: "Acme".into(),
        source: BatchSource::Api,
        data_sheet: None,
        idempotency_key: None,
        contact_id: None,
        calculate: false,
        rows,
        created_at: at,
    }
}

// ---- the catalogue ----

/// Project `n`: biochar in Peru, at 0° 0°, of no bundle.
pub(crate) fn project(n: u128) -> Project {
    Project {
        slug: format!("project-{n}"),
        name: format!("Project {n}"),
        description: "d".into(),
        country_name: "Peru".into(),
        country_code: "PER".into(),
        ..Project::sample(n)
    }
}

/// The id of bundle `n`.
pub(crate) fn bundle_id(n: u128) -> BundleId {
    BundleId::from_uuid(Uuid::from_u128(n))
}

/// [`Bundle::sample`] `n` at 10.00 a tonne, with `available_t` tonnes in
/// stock (unlimited without).
pub(crate) fn bundle(n: u128, available_t: Option<&str>) -> Bundle {
    Bundle {
        available: available_t.map(|a| Mass::parse(a, MassUnit::T).unwrap()),
        ..Bundle::sample(n, 1000)
    }
}

/// Imports a catalogue of `projects` and `bundles` (no portfolios, no
/// perimeters) at `at`, and returns the store.
pub(crate) async fn import(
    t: &TestDb,
    projects: Vec<Project>,
    bundles: Vec<Bundle>,
    at: OffsetDateTime,
) -> CatalogueStore {
    let store = CatalogueStore::new(t.db().clone());
    store
        .import(
            &Catalogue {
                projects,
                bundles,
                portfolios: vec![],
                perimeters: vec![],
            },
            at,
            None,
        )
        .await
        .unwrap();
    store
}

/// Projects 1 and 2 and bundle 11 of both, imported at `at`; returns the
/// test account of a new organisation.
pub(crate) async fn bundle_11_of_two_projects(t: &TestDb, at: OffsetDateTime) -> Account {
    let bundle = Bundle {
        project_ids: vec![project(1).id, project(2).id],
        ..Bundle::sample(11, 1000)
    };
    import(t, vec![project(1), project(2)], vec![bundle], at).await;
    let (_, test) = tonne_test_support::organisation(t.db(), at).await;
    test
}

// ---- orders ----

/// A line of `quantity` of bundle `n` ("Bundle n") at `unit_price` (gross
/// `gross_unit_price`), costing `offset_cost`.
pub(crate) fn line(
    n: u128,
    quantity: Mass,
    (unit_price, gross_unit_price): (Money, Money),
    offset_cost: Money,
) -> QuoteLine {
    QuoteLine {
        bundle_id: bundle_id(n),
        bundle_name: format!("Bundle {n}"),
        quantity,
        unit_price,
        gross_unit_price,
        offset_cost,
        insufficient_available_quantity: false,
    }
}

/// A received order in pounds of `(account, mode)` for its `lines`, as much
/// as they add up to and costing what they cost, without commission, paid by
/// card, created at `at`.
pub(crate) fn order(
    (account_id, mode): (AccountId, AccountMode),
    lines: Vec<QuoteLine>,
    at: OffsetDateTime,
) -> Order {
    let quantity = Mass::from_grams(lines.iter().map(|l| l.quantity.grams()).sum());
    let cost = Money::from_minor(
        lines.iter().map(|l| l.offset_cost.minor()).sum(),
        Currency::Gbp,
    );
    Order {
        id: OrderId::from_uuid(Uuid::new_v4()),
        account_id,
        mode,
        idempotency_key: None,
        kind: OrderKind::Quantity,
        status: OrderStatus::Received,
        currency: Currency::Gbp,
        quantity,
        offset_cost: cost,
        commission: Money::from_minor(0, Currency::Gbp),
        total_cost: cost,
        lines,
        requested_quantity: Some(quantity),
        requested_value: None,
        metadata: vec![],
        offset_link_id: None,
        email: None,
        estimate_id: None,
        payment_method: PaymentMethod::Card,
        payment_reference: None,
        held: None,
        projects: vec![],
        created_at: at,
        updated_at: at,
    }
}

/// An invoiced order of `account` for 1.000001 t of bundle 11 ("B"), every
/// price 10.00, created at `at`.
pub(crate) fn order_of_bundle_11(account: &Account, at: OffsetDateTime) -> Order {
    let gbp = Money::from_minor(1000, Currency::Gbp);
    let line = QuoteLine {
        bundle_name: "B".into(),
        ..line(11, Mass::from_grams(1_000_001), (gbp, gbp), gbp)
    };
    Order {
        payment_method: PaymentMethod::Invoice,
        ..order((account.id, account.mode), vec![line], at)
    }
}

/// An order's event: it moves to `status` at `at`.
pub(crate) fn event(status: OrderStatus, at: OffsetDateTime) -> NewEvent {
    NewEvent {
        event_id: Uuid::new_v4(),
        status,
        at,
    }
}

/// Places `order` with its event at `at`.
pub(crate) async fn place(store: &OrderStore, order: Order, at: OffsetDateTime) -> Order {
    store
        .place(&order, event(OrderStatus::Received, at))
        .await
        .unwrap()
}

/// Moves order `id` from `from` by `event`, without allocations.
pub(crate) async fn moved(
    store: &OrderStore,
    id: OrderId,
    from: OrderStatus,
    event: NewEvent,
) -> Order {
    store
        .transition(id, from, event, None, vec![], None)
        .await
        .unwrap()
}

/// Received → placed → paid, no allocations: three events at `at`.
pub(crate) async fn paid(store: &OrderStore, order: Order, at: OffsetDateTime) -> Order {
    let mut order = place(store, order, at).await;
    for to in [OrderStatus::Placed, OrderStatus::Paid] {
        order = moved(store, order.id, order.status, event(to, at)).await;
    }
    order
}

// ---- reading back ----

/// A page of `limit` items after `after`.
pub(crate) fn page<C>(limit: u8, after: Option<C>) -> PageRequest<C> {
    PageRequest {
        limit: Limit::new(limit).unwrap(),
        after,
    }
}

/// A row of the event log.
#[derive(QueryableByName)]
pub(crate) struct EventRow {
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub(crate) event_type: String,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub(crate) sequence: i64,
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub(crate) payload: String,
}

/// The event log's `(event_type, sequence, payload)` of the events `sql`
/// selects.
pub(crate) async fn events(t: &TestDb, sql: &'static str) -> Vec<(String, i64, String)> {
    rows::<EventRow>(t, sql)
        .await
        .into_iter()
        .map(|r| (r.event_type, r.sequence, r.payload))
        .collect()
}

/// The rows a statement of the test's own answers, on either backend.
pub(crate) async fn rows<R>(t: &TestDb, sql: &'static str) -> Vec<R>
where
    R: QueryableByName<Pg> + QueryableByName<Sqlite> + Send + 'static,
{
    t.db()
        .query(move |conn| {
            Box::pin(async move {
                let query = diesel::sql_query(sql);
                match conn {
                    Conn::Pg(c) => diesel_async::RunQueryDsl::load::<R>(query, &mut **c).await,
                    Conn::Sqlite(c) => diesel_async::RunQueryDsl::load::<R>(query, &mut **c).await,
                }
            })
        })
        .await
        .unwrap()
}
