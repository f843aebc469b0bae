//! The impact domain's storage on SQLite and PostgreSQL: the daily figures the
//! order and estimate stores keep in each change's transaction agree with the
//! raw orders and estimates (and with the migration's backfill), an account's
//! completed orders, sustainability pages and the accounts they speak for.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use rust_decimal::Decimal;
use time::macros::{date, datetime};
use time::{Date, OffsetDateTime};
use tonne_accounts::ports::{AccountRepository as _, AccountUpdate};
use tonne_accounts::{
    Account, AccountChanges, AccountName, AccountScope, EncodedLogo, ExternalPagesVisibility,
    Handle, Logo, LogoFormat, LogoId,
};
use tonne_estimation::estimate::{Estimate, EstimateDetail, EstimateKind, QuoteTerms, Submitted};
use tonne_estimation::explain::Explanation;
use tonne_estimation::ports::{EstimateRepository as _, UpdateOutcome};
use tonne_impact::ports::{Basis, ImpactRepository, PageHolders as _};
use tonne_impact::{
    DateRange, DescriptionFormat, PageHolder, PageSettings, PageStatus, PageWriteError, Section,
    Slug, SustainabilityPage, TitleFormat,
};
use tonne_kernel::{AccountId, AccountMode, Currency, Mass, Money, UuidV7Generator};
use tonne_ordering::ports::{Catalogue, CatalogueRepository as _, OrderRepository as _};
use tonne_ordering::{
    Bundle, BundleId, NewEvent, Order, OrderId, OrderKind, OrderStatus, Project, ProjectAllocation,
    ProjectId, QuoteLine, Registry, allocate_projects,
};
use tonne_storage::{
    AccountStore, CatalogueStore, Conn, DatabaseUrl, EstimateStore, ImpactStore, OrderStore,
};
use tonne_test_support::{TestDb, on_both_backends};
use uuid::Uuid;

const T0: OffsetDateTime = datetime!(2026-03-04 05:06:07.123456 UTC);
const D1_LATE: OffsetDateTime = datetime!(2026-03-04 23:59:59.999999 UTC);
const D2: OffsetDateTime = datetime!(2026-03-05 00:00:00.000001 UTC);
const D3: OffsetDateTime = datetime!(2026-03-07 12:00 UTC);
const D4: OffsetDateTime = datetime!(2026-03-07 13:00 UTC);
const LAST: Date = date!(2026 - 12 - 31);

// ---- catalogue: bundle 11 → projects 1 and 2, bundle 12 → project 3, bundle 13 → none ----

fn project(n: u128) -> Project {
    Project {
        id: ProjectId::from_uuid(Uuid::from_u128(n)),
        slug: format!("project-{n}"),
        name: format!("Project {n}"),
        short_name: format!("P{n}"),
        description: "d".into(),
        project_type: "Biochar".into(),
        registry: Registry::PuroEarth,
        registry_link: None,
        latitude: Decimal::new(-5877, 3),
        longitude: Decimal::new(77612, 3),
        country_name: "Peru".into(),
        country_code: "PER".into(),
        region: None,
        logo: None,
        primary_image: None,
        thumbnail_image: None,
        results: vec![],
        un_sdg: vec![13],
        media: vec![],
        disabled: false,
        disabled_at: None,
        facts: Default::default(),
        bundle_ids: vec![],
    }
}

fn bundle_id(n: u128) -> BundleId {
    BundleId::from_uuid(Uuid::from_u128(n))
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
    CatalogueStore::new(t.db().clone())
        .import(
            &Catalogue {
                projects: vec![project(1), project(2), project(3)],
                bundles: vec![bundle(11), bundle(12), bundle(13)],
                portfolios: vec![],
                perimeters: vec![],
            },
            T0,
            None,
        )
        .await
        .unwrap();
}

// ---- orders ----

/// An order of `(bundle, name, grams)` lines; each line costs a unit per kilogram
/// plus the bundle's number (so that value is not proportional to mass).
fn order(account: &Account, lines: &[(u128, &str, i64)], at: OffsetDateTime) -> Order {
    let money = |minor| Money::from_minor(minor, Currency::Gbp);
    let lines: Vec<QuoteLine> = lines
        .iter()
        .map(|&(n, name, grams)| QuoteLine {
            bundle_id: bundle_id(n),
            bundle_name: name.to_owned(),
            quantity: Mass::from_grams(grams),
            unit_price: money(1000),
            gross_unit_price: money(1000),
            offset_cost: money(grams / 1000 + i64::try_from(n).unwrap()),
            insufficient_available_quantity: false,
        })
        .collect();
    let grams = lines.iter().map(|l| l.quantity.grams()).sum();
    let cost = money(lines.iter().map(|l| l.offset_cost.minor()).sum());
    Order {
        id: OrderId::from_uuid(Uuid::new_v4()),
        account_id: account.id,
        mode: account.mode,
        idempotency_key: None,
        kind: OrderKind::Quantity,
        status: OrderStatus::Received,
        currency: Currency::Gbp,
        quantity: Mass::from_grams(grams),
        offset_cost: cost,
        commission: money(0),
        total_cost: cost,
        lines,
        requested_quantity: Some(Mass::from_grams(grams)),
        requested_value: None,
        metadata: vec![],
        offset_link_id: None,
        email: None,
        estimate_id: None,
        payment_method: tonne_ordering::PaymentMethod::Card,
        payment_reference: None,
        held: None,
        projects: vec![],
        created_at: at,
        updated_at: at,
    }
}

fn event(status: OrderStatus) -> NewEvent {
    NewEvent {
        event_id: Uuid::new_v4(),
        status,
        at: T0,
    }
}

async fn place(store: &OrderStore, order: Order) -> Order {
    store
        .place(&order, event(OrderStatus::Received))
        .await
        .unwrap()
}

async fn step(
    store: &OrderStore,
    order: &Order,
    to: OrderStatus,
    projects: Option<Vec<ProjectAllocation>>,
) -> Order {
    store
        .transition(order.id, order.status, event(to), projects, vec![], None)
        .await
        .unwrap()
}

/// Received → placed → paid.
async fn paid(store: &OrderStore, order: Order) -> Order {
    let order = place(store, order).await;
    let order = step(store, &order, OrderStatus::Placed, None).await;
    step(store, &order, OrderStatus::Paid, None).await
}

/// … → retiring, with the allocation the lifecycle makes.
async fn retiring(store: &OrderStore, order: Order) -> Order {
    let order = paid(store, order).await;
    let projects = allocate_projects(&order, order.updated_at, projects_of);
    step(store, &order, OrderStatus::Retiring, Some(projects)).await
}

/// … → complete, the lifecycle's way (projects on entering retiring).
async fn completed(store: &OrderStore, order: Order) -> Order {
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

struct Accounts {
    live: Account,
    test: Account,
    other: Account,
}

/// Orders of two organisations' live accounts and of a test account, over
/// three days, in every status, with projects allocated and re-allocated.
async fn scenario(t: &TestDb) -> Accounts {
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

// ---- the raw tables, summed directly ----

#[derive(QueryableByName)]
struct RawBundle {
    #[diesel(sql_type = Text)]
    day: String,
    #[diesel(sql_type = Text)]
    bundle_id: String,
    #[diesel(sql_type = BigInt)]
    grams: i64,
    #[diesel(sql_type = BigInt)]
    minor: i64,
}

#[derive(QueryableByName)]
struct RawProject {
    #[diesel(sql_type = Text)]
    project_id: String,
    #[diesel(sql_type = BigInt)]
    grams: i64,
    #[diesel(sql_type = BigInt)]
    minor: i64,
}

#[derive(QueryableByName, Debug, PartialEq, Eq)]
struct RawEstimates {
    #[diesel(sql_type = Text)]
    day: String,
    #[diesel(sql_type = Text)]
    kind: String,
    #[diesel(sql_type = BigInt)]
    n: i64,
    #[diesel(sql_type = BigInt)]
    grams: i64,
}

fn condition(basis: Basis) -> &'static str {
    match basis {
        Basis::Placed => "o.status NOT IN ('cancelled', 'failed')",
        Basis::Completed => "o.status = 'complete'",
    }
}

/// Runs `sql` with three text parameters (`$1`…`$3`, `?` on SQLite).
async fn raw<R>(t: &TestDb, sql: String, params: [String; 3]) -> Vec<R>
where
    R: QueryableByName<diesel::pg::Pg> + QueryableByName<diesel::sqlite::Sqlite> + Send + 'static,
{
    t.db()
        .query(move |conn| {
            Box::pin(async move {
                let [a, b, c] = params;
                match conn {
                    Conn::Pg(conn) => {
                        diesel_async::RunQueryDsl::load(
                            diesel::sql_query(sql)
                                .bind::<Text, _>(a)
                                .bind::<Text, _>(b)
                                .bind::<Text, _>(c),
                            &mut **conn,
                        )
                        .await
                    }
                    Conn::Sqlite(conn) => {
                        let sql = sql.replace("$1", "?").replace("$2", "?").replace("$3", "?");
                        diesel_async::RunQueryDsl::load(
                            diesel::sql_query(sql)
                                .bind::<Text, _>(a)
                                .bind::<Text, _>(b)
                                .bind::<Text, _>(c),
                            &mut **conn,
                        )
                        .await
                    }
                }
            })
        })
        .await
        .unwrap()
}

fn day_param(day: Date) -> String {
    day.to_string()
}

/// (day, bundle, grams, minor) of the account's order lines, by `basis`.
async fn raw_bundles(
    t: &TestDb,
    account: AccountId,
    (from, through): (Date, Date),
    basis: Basis,
) -> Vec<(Date, BundleId, i64, i64)> {
    let sql = format!(
        "SELECT substr(CAST(o.created_at AS TEXT), 1, 10) AS day, l.bundle_id AS bundle_id, \
         CAST(SUM(l.quantity_grams) AS BIGINT) AS grams, \
         CAST(SUM(l.offset_cost_minor) AS BIGINT) AS minor \
         FROM orders o JOIN order_lines l ON l.order_id = o.id \
         WHERE o.account_id = $1 AND substr(CAST(o.created_at AS TEXT), 1, 10) >= $2 \
         AND substr(CAST(o.created_at AS TEXT), 1, 10) <= $3 AND {} \
         GROUP BY substr(CAST(o.created_at AS TEXT), 1, 10), l.bundle_id \
         ORDER BY 1, 2",
        condition(basis)
    );
    let params = [account.to_string(), day_param(from), day_param(through)];
    raw::<RawBundle>(t, sql, params)
        .await
        .into_iter()
        .map(|r| {
            let day = Date::parse(
                &r.day,
                time::macros::format_description!("[year]-[month]-[day]"),
            )
            .unwrap();
            (day, r.bundle_id.parse().unwrap(), r.grams, r.minor)
        })
        .collect()
}

/// (project, grams, minor) of the account's order projects, by `basis`.
async fn raw_projects(
    t: &TestDb,
    account: AccountId,
    (from, through): (Date, Date),
    basis: Basis,
) -> Vec<(ProjectId, i64, i64)> {
    let sql = format!(
        "SELECT p.project_id AS project_id, CAST(SUM(p.quantity_grams) AS BIGINT) AS grams, \
         CAST(SUM(p.offset_cost_minor) AS BIGINT) AS minor \
         FROM orders o JOIN order_projects p ON p.order_id = o.id \
         WHERE o.account_id = $1 AND substr(CAST(o.created_at AS TEXT), 1, 10) >= $2 \
         AND substr(CAST(o.created_at AS TEXT), 1, 10) <= $3 AND {} \
         GROUP BY p.project_id ORDER BY p.project_id",
        condition(basis)
    );
    let params = [account.to_string(), day_param(from), day_param(through)];
    raw::<RawProject>(t, sql, params)
        .await
        .into_iter()
        .map(|r| (r.project_id.parse().unwrap(), r.grams, r.minor))
        .collect()
}

async fn rolled_bundles(
    impact: &ImpactStore,
    account: AccountId,
    from: Option<Date>,
    through: Date,
    basis: Basis,
) -> Vec<(Date, BundleId, i64, i64)> {
    impact
        .bundle_days(account, from, through, basis)
        .await
        .unwrap()
        .into_iter()
        .map(|d| (d.day, d.bundle_id, d.quantity.grams(), d.value_minor))
        .collect()
}

async fn rolled_projects(
    impact: &ImpactStore,
    account: AccountId,
    range: Option<DateRange>,
    basis: Basis,
) -> Vec<(ProjectId, i64, i64)> {
    impact
        .project_sums(account, range, basis)
        .await
        .unwrap()
        .into_iter()
        .map(|p| (p.project_id, p.quantity.grams(), p.value_minor))
        .collect()
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

/// (day, kind, count, grams) of the accounts' estimates, summed.
async fn raw_estimates(
    t: &TestDb,
    accounts: [AccountId; 2],
    (from, through): (Date, Date),
) -> Vec<(Date, String, u64, i64)> {
    let sql = "SELECT substr(CAST(created_at AS TEXT), 1, 10) AS day, kind, \
               CAST(COUNT(*) AS BIGINT) AS n, CAST(COALESCE(SUM(mass_grams), 0) AS BIGINT) AS grams \
               FROM estimates WHERE account_id IN ($1, $2) \
               AND substr(CAST(created_at AS TEXT), 1, 10) >= $3 GROUP BY 1, 2 ORDER BY 1, 2"
        .to_owned();
    let params = [
        accounts[0].to_string(),
        accounts[1].to_string(),
        day_param(from),
    ];
    raw::<RawEstimates>(t, sql, params)
        .await
        .into_iter()
        .map(|r| {
            let day = Date::parse(
                &r.day,
                time::macros::format_description!("[year]-[month]-[day]"),
            )
            .unwrap();
            (day, r.kind, u64::try_from(r.n).unwrap(), r.grams)
        })
        .filter(|(day, ..)| *day <= through)
        .collect()
}

async fn rolled_estimates(
    impact: &ImpactStore,
    accounts: Vec<AccountId>,
    range: DateRange,
) -> Vec<(Date, String, u64, i64)> {
    impact
        .estimate_days(accounts, range)
        .await
        .unwrap()
        .into_iter()
        .map(|e| (e.day, e.kind, e.count, e.mass.grams()))
        .collect()
}

/// Estimates of two accounts of one organisation and of another's, over three days.
async fn estimates(t: &TestDb, accounts: &Accounts) -> Account {
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
async fn client_account(t: &TestDb, of: &Account, handle: Option<&str>) -> Account {
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

// ---- pages ----

fn settings(slug: &str, sections: Vec<Section>) -> PageSettings {
    PageSettings::new(
        PageStatus::Enabled,
        Slug::parse(slug).unwrap(),
        TitleFormat::ByVolume,
        Some(DescriptionFormat::ByEquivalent),
        None,
        sections,
    )
    .unwrap()
}

fn page(account: &Account, settings: PageSettings, at: OffsetDateTime) -> SustainabilityPage {
    SustainabilityPage {
        account_id: account.id,
        organisation_id: account.organisation_id,
        mode: account.mode,
        settings,
        created_at: at,
        updated_at: at,
    }
}

async fn page_count(t: &TestDb) -> i64 {
    use diesel::dsl::sql;
    t.db()
        .query(|conn| {
            Box::pin(async move {
                let count =
                    diesel::select(sql::<BigInt>("(SELECT COUNT(*) FROM sustainability_pages)"));
                match conn {
                    Conn::Pg(c) => diesel_async::RunQueryDsl::get_result(count, &mut **c).await,
                    Conn::Sqlite(c) => diesel_async::RunQueryDsl::get_result(count, &mut **c).await,
                }
            })
        })
        .await
        .unwrap()
}

// ---- cases ----

async fn daily_figures_equal_the_raw_orders_per_account_and_basis(t: TestDb) {
    let accounts = scenario(&t).await;
    let impact = ImpactStore::new(t.db().clone());
    let all = (Date::MIN, LAST);
    let everything = DateRange::new(date!(2026 - 01 - 01), LAST).unwrap();
    let d2 = D2.date();
    for account in [&accounts.live, &accounts.test, &accounts.other] {
        for basis in [Basis::Placed, Basis::Completed] {
            let raw = raw_bundles(&t, account.id, all, basis).await;
            assert!(!raw.is_empty());
            assert_eq!(
                rolled_bundles(&impact, account.id, None, LAST, basis).await,
                raw,
                "{basis:?} of {:?}",
                account.mode
            );
            assert_eq!(
                rolled_bundles(&impact, account.id, Some(d2), d2, basis).await,
                raw_bundles(&t, account.id, (d2, d2), basis).await,
                "one day, {basis:?}"
            );
            let raw = raw_projects(&t, account.id, all, basis).await;
            assert_eq!(
                rolled_projects(&impact, account.id, None, basis).await,
                raw,
                "projects, {basis:?}"
            );
            assert_eq!(
                rolled_projects(&impact, account.id, Some(everything), basis).await,
                raw
            );
            let d3 = D3.date();
            assert_eq!(
                rolled_projects(
                    &impact,
                    account.id,
                    Some(DateRange::new(d3, d3).unwrap()),
                    basis
                )
                .await,
                raw_projects(&t, account.id, (d3, d3), basis).await,
                "projects of one day, {basis:?}"
            );
        }
    }

    // The figures themselves, so that the comparison above is not vacuous.
    let live = accounts.live.id;
    let days = impact
        .bundle_days(live, None, LAST, Basis::Placed)
        .await
        .unwrap();
    let first = &days[0];
    assert_eq!(
        (first.day, first.bundle_id, first.quantity.grams()),
        (T0.date(), bundle_id(11), 3_000_000),
        "the cancelled order is not counted"
    );
    assert_eq!(
        first.bundle_name, "Bundle 11 renamed",
        "the row keeps the newest order's name"
    );
    assert!(
        !days
            .iter()
            .any(|d| d.day == d2 && d.bundle_id == bundle_id(12)),
        "the failed order's day and bundle has nothing placed"
    );
    let grams =
        |days: &[tonne_impact::BundleDay]| -> i64 { days.iter().map(|d| d.quantity.grams()).sum() };
    assert_eq!(grams(&days), 15_500_000);
    let done = impact
        .bundle_days(live, None, LAST, Basis::Completed)
        .await
        .unwrap();
    assert_eq!(
        grams(&done),
        8_800_000,
        "only complete orders, only this account's"
    );
    assert_eq!(
        impact
            .bundle_days(live, Some(D3.date()), LAST, Basis::Completed)
            .await
            .unwrap()
            .iter()
            .map(|d| (d.bundle_id, d.quantity.grams()))
            .collect::<Vec<_>>(),
        vec![(bundle_id(11), 4_300_000), (bundle_id(12), 500_000)]
    );
    let tonnes = |sums: Vec<(ProjectId, i64, i64)>| -> Vec<(ProjectId, i64)> {
        sums.into_iter().map(|(p, g, _)| (p, g)).collect()
    };
    assert_eq!(
        tonnes(rolled_projects(&impact, live, None, Basis::Completed).await),
        vec![
            (project(1).id, 5_650_000),
            (project(2).id, 1_650_000),
            (project(3).id, 1_500_000),
        ],
        "re-allocated orders count their last allocation"
    );
    assert_eq!(
        tonnes(rolled_projects(&impact, live, None, Basis::Placed).await),
        vec![
            (project(1).id, 6_150_000),
            (project(2).id, 2_150_000),
            (project(3).id, 1_500_000),
        ],
        "the retiring order counts; the failed one does not"
    );
    assert_eq!(
        tonnes(rolled_projects(&impact, accounts.other.id, None, Basis::Placed).await),
        vec![(project(1).id, 4_000_000), (project(2).id, 4_000_000)]
    );
    assert!(
        impact
            .bundle_days(
                AccountId::generate(&UuidV7Generator),
                None,
                LAST,
                Basis::Placed
            )
            .await
            .unwrap()
            .is_empty()
    );
}

async fn bundle_and_month_totals_sum_the_daily_figures(t: TestDb) {
    use std::collections::BTreeMap;
    let accounts = scenario(&t).await;
    let impact = ImpactStore::new(t.db().clone());
    for account in [&accounts.live, &accounts.test, &accounts.other] {
        for basis in [Basis::Placed, Basis::Completed] {
            for from in [None, Some(D2.date())] {
                let days = impact
                    .bundle_days(account.id, from, LAST, basis)
                    .await
                    .unwrap();
                // (grams, minor, newest day, its name) per bundle, from the days
                let mut expected: BTreeMap<String, (i64, i64, Date, String)> = BTreeMap::new();
                for d in &days {
                    let e = expected.entry(d.bundle_id.to_string()).or_insert((
                        0,
                        0,
                        d.day,
                        d.bundle_name.clone(),
                    ));
                    e.0 += d.quantity.grams();
                    e.1 += d.value_minor;
                    if d.day >= e.2 {
                        e.2 = d.day;
                        e.3 = d.bundle_name.clone();
                    }
                }
                // whole months answer with the month's first day as the newest
                for e in expected.values_mut() {
                    e.2 = e.2.replace_day(1).unwrap();
                }
                let totals: BTreeMap<String, (i64, i64, Date, String)> = impact
                    .bundle_totals(account.id, from, LAST, basis)
                    .await
                    .unwrap()
                    .into_iter()
                    .map(|t| {
                        (
                            t.bundle_id.to_string(),
                            (
                                t.quantity.grams(),
                                t.value_minor,
                                t.last_day.replace_day(1).unwrap(),
                                t.bundle_name,
                            ),
                        )
                    })
                    .collect();
                assert!(!totals.is_empty() || days.is_empty());
                assert_eq!(totals, expected, "{basis:?} from {from:?}");
            }
            let days = impact
                .bundle_days(account.id, None, LAST, basis)
                .await
                .unwrap();
            let mut expected: BTreeMap<Date, (i64, i64)> = BTreeMap::new();
            for d in &days {
                let e = expected.entry(d.day.replace_day(1).unwrap()).or_default();
                e.0 += d.quantity.grams();
                e.1 += d.value_minor;
            }
            let months: BTreeMap<Date, (i64, i64)> = impact
                .month_totals(account.id, basis)
                .await
                .unwrap()
                .into_iter()
                .map(|m| (m.month, (m.quantity.grams(), m.value_minor)))
                .collect();
            assert_eq!(months, expected, "months, {basis:?}");
        }
    }
    // Whole months come from the monthly rows: March whole, and everything to
    // the end of the year, answer as the days do.
    for account in [&accounts.live, &accounts.test, &accounts.other] {
        for basis in [Basis::Placed, Basis::Completed] {
            let by_days = impact
                .bundle_totals(account.id, None, LAST, basis)
                .await
                .unwrap();
            for (from, through) in [
                (Some(date!(2026 - 03 - 01)), date!(2026 - 03 - 31)),
                (None, date!(2026 - 12 - 31)),
                (Some(date!(2026 - 02 - 15)), date!(2026 - 04 - 15)),
            ] {
                assert_eq!(
                    impact
                        .bundle_totals(account.id, from, through, basis)
                        .await
                        .unwrap()
                        .iter()
                        .map(|t| (t.bundle_id, t.quantity.grams(), t.value_minor))
                        .collect::<Vec<_>>(),
                    by_days
                        .iter()
                        .map(|t| (t.bundle_id, t.quantity.grams(), t.value_minor))
                        .collect::<Vec<_>>(),
                    "{basis:?} {from:?}–{through}"
                );
                let range = DateRange::new(from.unwrap_or(date!(2020 - 01 - 01)), through).unwrap();
                assert_eq!(
                    rolled_projects(&impact, account.id, Some(range), basis).await,
                    rolled_projects(&impact, account.id, None, basis).await,
                    "projects, {basis:?} {range:?}"
                );
            }
        }
    }
    let live = impact
        .bundle_totals(accounts.live.id, None, LAST, Basis::Placed)
        .await
        .unwrap();
    // Bundle 11's first day carries another name ("Bundle 11 renamed"): still
    // one total, under the newest day's name.
    assert_eq!(
        live.iter()
            .map(|t| (t.bundle_name.as_str(), t.quantity.grams()))
            .collect::<Vec<_>>(),
        vec![
            ("Bundle 11", 8_300_000),
            ("Bundle 12", 1_500_000),
            ("Bundle 13", 5_700_000)
        ],
        "{live:?}"
    );
    assert_eq!(
        live.iter().map(|t| t.quantity.grams()).sum::<i64>(),
        15_500_000
    );
}

async fn estimates_are_counted_per_day_and_kind_over_accounts(t: TestDb) {
    let accounts = scenario(&t).await;
    let client = estimates(&t, &accounts).await;
    let impact = ImpactStore::new(t.db().clone());
    let range = DateRange::new(date!(2026 - 03 - 04), date!(2026 - 03 - 06)).unwrap();
    let both = vec![accounts.live.id, client.id];
    let counted = rolled_estimates(&impact, both.clone(), range).await;
    assert_eq!(
        counted,
        vec![
            (date!(2026 - 03 - 04), "company".to_owned(), 1, 5_000),
            (date!(2026 - 03 - 04), "transaction".to_owned(), 3, 4_500),
            (date!(2026 - 03 - 05), "transaction".to_owned(), 1, 2_000),
        ]
    );
    assert_eq!(
        counted,
        raw_estimates(
            &t,
            [accounts.live.id, client.id],
            (range.from(), range.through())
        )
        .await
    );
    let wide = DateRange::new(date!(2026 - 03 - 01), LAST).unwrap();
    assert_eq!(
        rolled_estimates(&impact, both, wide).await,
        raw_estimates(
            &t,
            [accounts.live.id, client.id],
            (wide.from(), wide.through())
        )
        .await
    );
    assert_eq!(
        rolled_estimates(&impact, vec![accounts.other.id], range).await,
        vec![(date!(2026 - 03 - 04), "transaction".to_owned(), 1, 99_999)]
    );
    assert!(rolled_estimates(&impact, vec![], range).await.is_empty());
}

/// What the impact store answers of the scenario's accounts.
async fn answers(impact: &ImpactStore, accounts: &Accounts, client: AccountId) -> Vec<String> {
    let mut out = Vec::new();
    for account in [
        accounts.live.id,
        accounts.test.id,
        accounts.other.id,
        client,
    ] {
        for basis in [Basis::Placed, Basis::Completed] {
            out.push(format!(
                "{:?}",
                impact
                    .bundle_days(account, None, LAST, basis)
                    .await
                    .unwrap()
            ));
            out.push(format!(
                "{:?}",
                impact.project_sums(account, None, basis).await.unwrap()
            ));
            // the monthly rows, which the migration after it backfills
            out.push(format!(
                "{:?} {:?}",
                impact
                    .bundle_totals(account, None, date!(2026 - 12 - 31), basis)
                    .await
                    .unwrap(),
                impact.month_totals(account, basis).await.unwrap()
            ));
        }
    }
    let range = DateRange::new(date!(2026 - 01 - 01), LAST).unwrap();
    out.push(format!(
        "{:?}",
        impact
            .estimate_days(vec![accounts.live.id, client, accounts.other.id], range)
            .await
            .unwrap()
    ));
    out
}

const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");
const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");
const IMPACT_MIGRATION: &str = "20261126000100";

/// Reverts migrations down to and including the impact one, and applies them again.
fn redo_impact<C, D>(conn: &mut C, source: fn() -> EmbeddedMigrations) -> QueryResult<()>
where
    D: diesel::backend::Backend,
    C: MigrationHarness<D>,
{
    let fail = |e: Box<dyn std::error::Error + Send + Sync>| {
        diesel::result::Error::QueryBuilderError(e.to_string().into())
    };
    loop {
        let reverted = conn.revert_last_migration(source()).map_err(fail)?;
        let version: String = reverted
            .to_string()
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        if version == IMPACT_MIGRATION {
            break;
        }
    }
    conn.run_pending_migrations(source()).map_err(fail)?;
    Ok(())
}

async fn the_migration_backfills_what_the_stores_keep(t: TestDb) {
    let accounts = scenario(&t).await;
    let client = estimates(&t, &accounts).await;
    let impact = ImpactStore::new(t.db().clone());
    let kept = answers(&impact, &accounts, client.id).await;
    // On a connection of its own that the migration harness can drive (a
    // thread of its own: diesel-async's wrapper runs a runtime of its own).
    let url = t.db().url().clone();
    std::thread::spawn(move || match url {
        DatabaseUrl::Postgres(url) => {
            type Pg = diesel_async::async_connection_wrapper::AsyncConnectionWrapper<
                diesel_async::AsyncPgConnection,
            >;
            redo_impact(&mut Pg::establish(&url).unwrap(), || POSTGRES_MIGRATIONS)
        }
        DatabaseUrl::Sqlite(path) => redo_impact(
            &mut diesel::SqliteConnection::establish(&path.to_string_lossy()).unwrap(),
            || SQLITE_MIGRATIONS,
        ),
    })
    .join()
    .unwrap()
    .unwrap();
    assert_eq!(answers(&impact, &accounts, client.id).await, kept);
}

async fn completed_orders_are_the_newest_complete_ones_of_the_account(t: TestDb) {
    let accounts = scenario(&t).await;
    let store = OrderStore::new(t.db().clone());
    let live = &accounts.live;
    // two more complete orders, the newest, created at the same instant: the
    // id breaks the tie
    let mut tied = [
        completed(&store, order(live, &[(13, "Bundle 13", 1_000)], D4)).await,
        completed(&store, order(live, &[(13, "Bundle 13", 2_000)], D4)).await,
    ];
    tied.sort_by_key(|o| std::cmp::Reverse(o.id.to_string()));
    let impact = ImpactStore::new(t.db().clone());
    let all = impact.completed_orders(live.id, 50).await.unwrap();
    assert_eq!(all.len(), 6, "the account's complete orders only");
    assert!(all.windows(2).all(|w| w[0].created_at >= w[1].created_at));
    assert_eq!(
        all.iter().map(|o| o.created_at).collect::<Vec<_>>(),
        vec![D4, D4, D3, D3, D3, T0]
    );
    let newest = impact.completed_orders(live.id, 2).await.unwrap();
    assert_eq!(
        newest
            .iter()
            .map(|o| (o.id, o.quantity.grams()))
            .collect::<Vec<_>>(),
        tied.iter()
            .map(|o| (o.id, o.quantity.grams()))
            .collect::<Vec<_>>(),
        "newest first, then by id, at most the limit"
    );
    assert_eq!(all[5].quantity.grams(), 4_000_000);
    assert_eq!(
        impact
            .completed_orders(accounts.other.id, 50)
            .await
            .unwrap()
            .len(),
        1
    );
    assert!(
        impact
            .completed_orders(live.id, 0)
            .await
            .unwrap()
            .is_empty()
    );
}

async fn pages_are_one_per_account_with_a_slug_unique_per_mode(t: TestDb) {
    let (live, test) = tonne_test_support::organisation(t.db(), T0).await;
    let (other, _) = tonne_test_support::organisation(t.db(), T0).await;
    let impact = ImpactStore::new(t.db().clone());
    let first = page(
        &live,
        settings(
            "acme",
            vec![Section::Certificates, Section::BundlesBreakdown],
        ),
        T0,
    );
    impact.save_page(&first, true).await.unwrap();
    assert_eq!(impact.page(live.id).await.unwrap(), Some(first.clone()));
    assert_eq!(
        impact
            .page_by_slug(AccountMode::Live, &Slug::parse("acme").unwrap())
            .await
            .unwrap(),
        Some(first.clone())
    );
    assert_eq!(
        impact
            .page_by_slug(AccountMode::Test, &Slug::parse("acme").unwrap())
            .await
            .unwrap(),
        None
    );

    // A second page for the account: refused, nothing written.
    let second = page(&live, settings("acme-2", vec![]), D2);
    assert!(matches!(
        impact.save_page(&second, true).await,
        Err(PageWriteError::Conflict)
    ));
    // … even when its slug is taken too: the account's page is told first.
    let second = page(&live, settings("acme", vec![]), D2);
    assert!(matches!(
        impact.save_page(&second, true).await,
        Err(PageWriteError::Conflict)
    ));
    assert_eq!(impact.page(live.id).await.unwrap(), Some(first.clone()));
    assert_eq!(page_count(&t).await, 1);

    // The slug in the same mode: taken, nothing written.
    let theirs = page(&other, settings("acme", vec![Section::UnSdg]), D2);
    assert!(matches!(
        impact.save_page(&theirs, true).await,
        Err(PageWriteError::SlugTaken)
    ));
    assert_eq!(impact.page(other.id).await.unwrap(), None);
    assert_eq!(page_count(&t).await, 1);

    // The same slug in the other mode is another page.
    let test_page = page(&test, settings("acme", vec![]), D2);
    impact.save_page(&test_page, true).await.unwrap();
    assert_eq!(
        impact
            .page_by_slug(AccountMode::Test, &Slug::parse("acme").unwrap())
            .await
            .unwrap(),
        Some(test_page.clone()),
        "no sections round-trip as none"
    );

    // An update replaces the settings and the time of change, nothing else.
    let changed = PageSettings::new(
        PageStatus::Disabled,
        Slug::parse("acme.eu").unwrap(),
        TitleFormat::ByPrice,
        Some(DescriptionFormat::ByCustomDescription),
        Some("Ours, <b>as written</b>, with a comma, too".into()),
        vec![
            Section::UnSdg,
            Section::Certificates,
            Section::BundlesBreakdown,
        ],
    )
    .unwrap();
    let update = SustainabilityPage {
        settings: changed.clone(),
        created_at: D3,
        updated_at: D3,
        ..first.clone()
    };
    impact.save_page(&update, false).await.unwrap();
    let stored = impact.page(live.id).await.unwrap().unwrap();
    assert_eq!(stored.settings, changed);
    assert_eq!((stored.created_at, stored.updated_at), (T0, D3));
    assert_eq!(
        impact
            .page_by_slug(AccountMode::Live, &Slug::parse("acme").unwrap())
            .await
            .unwrap(),
        None,
        "the old slug is free"
    );
    assert_eq!(
        impact
            .page_by_slug(AccountMode::Live, &Slug::parse("acme.eu").unwrap())
            .await
            .unwrap()
            .map(|p| p.account_id),
        Some(live.id)
    );

    // Updating a page that does not exist: refused, nothing written.
    assert!(matches!(
        impact.save_page(&theirs, false).await,
        Err(PageWriteError::Conflict)
    ));
    assert_eq!(impact.page(other.id).await.unwrap(), None);

    // The freed slug can be taken; a taken one cannot be updated to.
    impact.save_page(&theirs, true).await.unwrap();
    let onto = SustainabilityPage {
        settings: settings("acme.eu", vec![]),
        ..theirs.clone()
    };
    assert!(matches!(
        impact.save_page(&onto, false).await,
        Err(PageWriteError::SlugTaken)
    ));
    assert_eq!(impact.page(other.id).await.unwrap(), Some(theirs));
    assert_eq!(page_count(&t).await, 3);
}

async fn page_holders_are_accounts_with_their_logo_handle_and_visibility(t: TestDb) {
    let (live, test) = tonne_test_support::organisation(t.db(), T0).await;
    let (other, _) = tonne_test_support::organisation(t.db(), T0).await;
    let accounts = AccountStore::new(t.db().clone());
    accounts
        .update(&AccountUpdate {
            id: live.id,
            changes: AccountChanges {
                name: AccountName::parse("Acme").unwrap(),
                beneficiary: None,
                bundle_portfolio_id: None,
                handle: Some(Handle::parse("acme").unwrap()),
                external_pages_visibility: ExternalPagesVisibility::Public,
            },
            rename_sibling: None,
            updated_at: D2,
        })
        .await
        .unwrap();
    let logo = Logo {
        id: LogoId::generate(&UuidV7Generator),
        account_id: live.id,
        image: EncodedLogo {
            format: LogoFormat::Png,
            bytes: vec![1, 2, 3],
        },
        created_at: D2,
    };
    let url = format!("https://tonne.example/logos/{}", logo.id);
    accounts.set_logo(&logo, &url).await.unwrap();
    let client = client_account(&t, &live, Some("client-1")).await;

    let holder = PageHolder {
        account_id: live.id,
        organisation_id: live.organisation_id,
        mode: AccountMode::Live,
        name: "Acme".into(),
        logo: Some(url),
        currency: Currency::Gbp,
        public: true,
    };
    assert_eq!(
        accounts.holder(live.id).await.unwrap(),
        Some(holder.clone())
    );
    let hidden = accounts.holder(client.id).await.unwrap().unwrap();
    assert_eq!(
        (hidden.name.as_str(), hidden.logo, hidden.public),
        ("Client", None, false)
    );
    assert_eq!(
        accounts
            .holder(AccountId::generate(&UuidV7Generator))
            .await
            .unwrap(),
        None
    );

    let org = live.organisation_id;
    assert_eq!(
        accounts
            .by_handle(org, AccountMode::Live, "acme")
            .await
            .unwrap(),
        Some(holder)
    );
    assert_eq!(
        accounts
            .by_handle(org, AccountMode::Live, "client-1")
            .await
            .unwrap()
            .map(|h| h.account_id),
        Some(client.id)
    );
    assert_eq!(
        accounts
            .by_handle(org, AccountMode::Test, "acme")
            .await
            .unwrap(),
        None,
        "handles are per mode"
    );
    assert_eq!(
        accounts
            .by_handle(other.organisation_id, AccountMode::Live, "acme")
            .await
            .unwrap(),
        None,
        "and per organisation"
    );

    let mut mine = vec![live.id, client.id];
    mine.sort_by_key(ToString::to_string);
    assert_eq!(
        accounts.accounts(org, AccountMode::Live).await.unwrap(),
        mine,
        "client accounts included"
    );
    assert_eq!(
        accounts.accounts(org, AccountMode::Test).await.unwrap(),
        vec![test.id]
    );
}

on_both_backends!(
    daily_figures_equal_the_raw_orders_per_account_and_basis,
    bundle_and_month_totals_sum_the_daily_figures,
    estimates_are_counted_per_day_and_kind_over_accounts,
    the_migration_backfills_what_the_stores_keep,
    completed_orders_are_the_newest_complete_ones_of_the_account,
    pages_are_one_per_account_with_a_slug_unique_per_mode,
    page_holders_are_accounts_with_their_logo_handle_and_visibility,
);
