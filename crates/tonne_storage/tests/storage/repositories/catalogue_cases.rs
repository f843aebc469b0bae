//! The catalogue's contract cases: an import is idempotent and reads back, and
//! an account follows a portfolio until it sets its own selection.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use rust_decimal::Decimal;
use time::macros::datetime;
use tonne_kernel::{Currency, Cursor, Limit, Mass, MassUnit, Money, PageRequest};
use tonne_ordering::ports::{Catalogue, CatalogueRepository, Visibility};
use tonne_ordering::{
    Approach, Bundle, BundleId, BundlePortfolio, BundlePortfolioId, BundlePrice, CarbonPermanence,
    Media, OffsetType, Project, ProjectFacts, ProjectId,
};
use tonne_storage::CatalogueStore;
use tonne_test_support::TestDb;
use uuid::Uuid;

fn project(n: u128, bundles: Vec<BundleId>) -> Project {
    Project {
        latitude: Decimal::new(-5877, 3),
        longitude: Decimal::new(77612, 3),
        region: Some("San Martín".into()),
        results: vec!["one".into()],
        un_sdg: vec![13, 15],
        media: vec![Media {
            kind: "image".into(),
            url: "https://x/y.png".into(),
            attribution_text: None,
            attribution_url: None,
        }],
        bundle_ids: bundles,
        ..crate::fixtures::project(n)
    }
}

fn bundle(n: u128, projects: Vec<ProjectId>, disabled: bool, share: Option<u32>) -> Bundle {
    Bundle {
        id: BundleId::from_uuid(Uuid::from_u128(n)),
        name: format!("Bundle {n}"),
        description: None,
        prices: vec![
            BundlePrice {
                unit_price: Money::from_minor(1218, Currency::Gbp),
            },
            BundlePrice {
                unit_price: Money::from_minor(1400, Currency::Eur),
            },
        ],
        available: Some(Mass::parse("500", MassUnit::T).unwrap()),
        offset_type: Some(OffsetType::CarbonRemoval),
        permanence: CarbonPermanence::LongTerm,
        approach: Some(Approach::Innovative),
        disabled,
        disabled_at: disabled.then_some(datetime!(2026-05-01 00:00 UTC)),
        background_colour: Some("#112233".into()),
        primary_image: None,
        large_image: None,
        primary_image_hires: None,
        small_thumbnail: None,
        default_share: share,
        project_ids: projects,
    }
}

fn catalogue() -> Catalogue {
    let (p1, p2) = (
        ProjectId::from_uuid(Uuid::from_u128(1)),
        ProjectId::from_uuid(Uuid::from_u128(2)),
    );
    let (b1, b2, b3) = (
        BundleId::from_uuid(Uuid::from_u128(11)),
        BundleId::from_uuid(Uuid::from_u128(12)),
        BundleId::from_uuid(Uuid::from_u128(13)),
    );
    let mut first = project(1, vec![b1, b3]);
    first.facts = ProjectFacts {
        crediting_start_date: Some(time::macros::date!(2020 - 01 - 15)),
        crediting_end_date: Some(time::macros::date!(2040 - 01 - 14)),
        registration_date: Some(time::macros::date!(2020 - 05 - 05)),
        protocol: vec!["Verra VCS".into(), "Verra CCB".into()],
        methodology: Some("VM0009".into()),
        durability: Some("100+".into()),
        additional_standards_met: vec!["CCB Gold".into()],
        verifying_body: Some("SCS Global Services".into()),
        risk_of_reversal: Some("Buffer pool".into()),
        risk_of_predicted_emissions: None,
        avg_annual_emission_reductions: Some(Decimal::new(142569, 2)),
    };
    let mut second = bundle(12, vec![p2], false, Some(4000));
    second.permanence = CarbonPermanence::NoStorage;
    second.approach = None;
    second.offset_type = Some(OffsetType::EmissionsReduction);
    Catalogue {
        projects: vec![first, project(2, vec![b2])],
        bundles: vec![
            bundle(11, vec![p1], false, Some(6000)),
            second,
            bundle(13, vec![p1], true, None),
        ],
        portfolios: vec![portfolio()],
        perimeters: vec![],
    }
}

fn portfolio() -> BundlePortfolio {
    BundlePortfolio {
        id: BundlePortfolioId::from_uuid(Uuid::from_u128(21)),
        identifier: "mix".into(),
        label: "A mix".into(),
        selection: vec![
            (BundleId::from_uuid(Uuid::from_u128(12)), 2500),
            (BundleId::from_uuid(Uuid::from_u128(11)), 7500),
        ],
    }
}

pub async fn an_account_follows_a_portfolio_until_it_sets_its_own_selection(t: TestDb) {
    let store = CatalogueStore::new(t.db().clone());
    let at = datetime!(2026-06-01 00:00 UTC);
    store.import(&catalogue(), at, None).await.unwrap();
    let (live, _) = tonne_test_support::organisation(t.db(), at).await;
    let shares = |picked: Vec<(Bundle, u32)>| {
        picked
            .into_iter()
            .map(|(b, s)| (b.id, s))
            .collect::<Vec<_>>()
    };
    assert!(store.account_selection(live.id).await.unwrap().is_empty());
    assert_eq!(store.portfolios().await.unwrap(), vec![portfolio()]);
    let id = portfolio().id;
    assert_eq!(store.portfolio(id).await.unwrap(), Some(portfolio()));
    assert_eq!(
        store
            .portfolio(BundlePortfolioId::from_uuid(Uuid::from_u128(99)))
            .await
            .unwrap(),
        None
    );

    store.set_account_portfolio(live.id, id).await.unwrap();
    assert_eq!(
        shares(store.account_selection(live.id).await.unwrap()),
        portfolio().selection,
        "the portfolio's selection, in its order"
    );
    let accounts = tonne_storage::AccountStore::new(t.db().clone());
    use tonne_accounts::ports::AccountRepository as _;
    let stored = accounts.get(live.id).await.unwrap().unwrap();
    assert_eq!(
        stored.bundle_portfolio_id.map(|p| p.as_str().to_owned()),
        Some(id.to_string())
    );

    let own = vec![(BundleId::from_uuid(Uuid::from_u128(11)), 10_000)];
    store
        .set_account_selection(live.id, &own, None)
        .await
        .unwrap();
    assert_eq!(shares(store.account_selection(live.id).await.unwrap()), own);
    let stored = accounts.get(live.id).await.unwrap().unwrap();
    assert_eq!(stored.bundle_portfolio_id, None, "no longer following");

    // Following again clears the own selection, in the same transaction.
    store.set_account_portfolio(live.id, id).await.unwrap();
    assert_eq!(
        shares(store.account_selection(live.id).await.unwrap()),
        portfolio().selection
    );
    // A re-import updates the portfolio in place.
    let mut changed = catalogue();
    changed.portfolios[0].selection = vec![(BundleId::from_uuid(Uuid::from_u128(12)), 10_000)];
    let summary = store.import(&changed, at, None).await.unwrap();
    assert_eq!(
        (summary.portfolios_created, summary.portfolios_updated),
        (0, 1)
    );
    assert_eq!(
        shares(store.account_selection(live.id).await.unwrap()),
        vec![(BundleId::from_uuid(Uuid::from_u128(12)), 10_000)]
    );
    // An unknown account is NotFound, and nothing is written.
    let ghost = tonne_kernel::AccountId::from_uuid(Uuid::from_u128(404));
    assert!(matches!(
        store.set_account_portfolio(ghost, id).await,
        Err(tonne_kernel::StoreError::NotFound)
    ));
}

pub async fn import_is_idempotent_and_reads_back(t: TestDb) {
    let store = CatalogueStore::new(t.db().clone());
    assert!(store.is_empty().await.unwrap());
    let at = datetime!(2026-06-01 00:00 UTC);
    let first = store.import(&catalogue(), at, None).await.unwrap();
    assert_eq!(
        (
            first.projects_created,
            first.bundles_created,
            first.bundles_updated
        ),
        (2, 3, 0)
    );
    let mut changed = catalogue();
    changed.bundles[0].prices = vec![BundlePrice {
        unit_price: Money::from_minor(999, Currency::Usd),
    }];
    let second = store.import(&changed, at, None).await.unwrap();
    assert_eq!(
        (
            second.projects_created,
            second.projects_updated,
            second.bundles_created,
            second.bundles_updated
        ),
        (0, 2, 0, 3)
    );
    assert!(!store.is_empty().await.unwrap());

    let visible = Visibility {
        disabled_since: None,
    };
    let page = store
        .list_bundles(visible, &PageRequest::first())
        .await
        .unwrap();
    assert_eq!(page.items.len(), 2, "the disabled bundle is hidden");
    let recent = Visibility {
        disabled_since: Some(datetime!(2026-04-01 00:00 UTC)),
    };
    assert_eq!(
        store
            .list_bundles(recent, &PageRequest::first())
            .await
            .unwrap()
            .items
            .len(),
        3
    );
    let old = Visibility {
        disabled_since: Some(datetime!(2026-05-02 00:00 UTC)),
    };
    assert_eq!(
        store
            .list_bundles(old, &PageRequest::first())
            .await
            .unwrap()
            .items
            .len(),
        2
    );

    let one = PageRequest {
        limit: Limit::new(1).unwrap(),
        after: None,
    };
    let p1 = store.list_projects(visible, &one).await.unwrap();
    assert!(p1.has_more);
    let after = PageRequest {
        limit: Limit::new(1).unwrap(),
        after: Some(Cursor::after(&p1.items[0].id)),
    };
    let p2 = store.list_projects(visible, &after).await.unwrap();
    assert!(!p2.has_more);
    assert_ne!(p1.items[0].id, p2.items[0].id);

    let read = store
        .bundles(&[BundleId::from_uuid(Uuid::from_u128(11))])
        .await
        .unwrap();
    assert_eq!(read.len(), 1);
    assert_eq!(read[0], changed.bundles[0], "a bundle round-trips whole");
    let project = store.project_by_slug("project-1").await.unwrap().unwrap();
    assert_eq!(project, changed.projects[0], "a project round-trips whole");
    assert_eq!(
        store
            .project(ProjectId::from_uuid(Uuid::from_u128(99)))
            .await
            .unwrap(),
        None
    );
    let defaults = store.default_selection().await.unwrap();
    assert_eq!(
        defaults.iter().map(|b| b.default_share).collect::<Vec<_>>(),
        vec![Some(6000), Some(4000)]
    );
}
