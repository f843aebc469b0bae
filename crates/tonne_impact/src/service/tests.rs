//! The use cases over mocked ports.

use std::sync::Arc;

use mockall::predicate::eq;
use rust_decimal::Decimal;
use time::macros::{date, datetime};
use tonne_kernel::{AccountId, AccountMode, Currency, Mass, MockClock, OrganisationId, StoreError};
use tonne_ordering::{
    Bundle, BundleId, CarbonPermanence, MockCatalogueRepository, OffsetType, Project, ProjectFacts,
    ProjectId, Registry,
};
use uuid::Uuid;

use super::*;
use crate::analytics::Location;
use crate::errors::PageWriteError;
use crate::pages::{Description, DescriptionFormat, PageStatus, Section, Slug, Title, TitleFormat};
use crate::ports::Basis;
use crate::ports::{
    BundleDay, BundleTotal, EstimateDay, MockImpactRepository, MockPageHolders, MonthTotal,
    ProjectSum,
};

const TODAY: time::OffsetDateTime = datetime!(2026-11-26 12:00 UTC);

fn account() -> AccountId {
    AccountId::from_uuid(Uuid::from_u128(1))
}

fn organisation() -> OrganisationId {
    OrganisationId::from_uuid(Uuid::from_u128(2))
}

fn viewer() -> Viewer {
    Viewer {
        account_id: account(),
        organisation_id: organisation(),
        mode: AccountMode::Live,
        client_account: false,
    }
}

fn holder(public: bool) -> PageHolder {
    PageHolder {
        account_id: account(),
        organisation_id: organisation(),
        mode: AccountMode::Live,
        name: "Acme".into(),
        logo: None,
        currency: Currency::Eur,
        public,
    }
}

fn bundle_id(n: u128) -> BundleId {
    BundleId::from_uuid(Uuid::from_u128(n))
}

fn project(n: u128, country: &str, registry: Registry, sdgs: &[u8]) -> Project {
    Project {
        id: ProjectId::from_uuid(Uuid::from_u128(n)),
        slug: format!("p{n}"),
        name: format!("Project {n}"),
        short_name: format!("P{n}"),
        description: String::new(),
        project_type: "Reforestation".into(),
        registry,
        registry_link: None,
        latitude: Decimal::ZERO,
        longitude: Decimal::ZERO,
        country_name: country.into(),
        country_code: country.into(),
        region: None,
        logo: None,
        primary_image: None,
        thumbnail_image: None,
        results: vec![],
        un_sdg: sdgs.to_vec(),
        media: vec![],
        disabled: false,
        disabled_at: None,
        facts: ProjectFacts::default(),
        bundle_ids: vec![],
    }
}

fn day(d: time::Date, bundle: u128, grams: i64, minor: i64) -> BundleDay {
    BundleDay {
        day: d,
        bundle_id: bundle_id(bundle),
        bundle_name: format!("Bundle {bundle}"),
        quantity: Mass::from_grams(grams),
        value_minor: minor,
    }
}

fn total(last: time::Date, bundle: u128, grams: i64, minor: i64) -> BundleTotal {
    BundleTotal {
        bundle_id: bundle_id(bundle),
        bundle_name: format!("Bundle {bundle}"),
        last_day: last,
        quantity: Mass::from_grams(grams),
        value_minor: minor,
    }
}

fn clock() -> Arc<MockClock> {
    let mut clock = MockClock::new();
    clock.expect_now().return_const(TODAY);
    Arc::new(clock)
}

fn impact(
    repository: MockImpactRepository,
    holders: MockPageHolders,
    catalogue: MockCatalogueRepository,
) -> Impact {
    Impact::new(
        Arc::new(repository),
        Arc::new(holders),
        Arc::new(catalogue),
        clock(),
        Mass::from_grams(500_000),
    )
}

fn holders_with(h: PageHolder) -> MockPageHolders {
    let mut holders = MockPageHolders::new();
    holders
        .expect_holder()
        .returning(move |_| Ok(Some(h.clone())));
    holders
}

#[tokio::test]
async fn a_reversed_range_is_refused_before_any_storage() {
    // No expectation is set: a storage call would panic.
    let impact = impact(
        MockImpactRepository::new(),
        MockPageHolders::new(),
        MockCatalogueRepository::new(),
    );
    let asked = AskedRange {
        from: Some(date!(2026 - 11 - 20)),
        through: Some(date!(2026 - 11 - 10)),
    };
    let err = impact.metrics(viewer(), asked).await.unwrap_err();
    assert!(matches!(
        err,
        AnalyticsError::Range(crate::RangeError::Reversed)
    ));
    let err = impact
        .emission_calculations(
            viewer(),
            AskedRange {
                from: Some(date!(1990 - 01 - 01)),
                through: None,
            },
            Interval::Day,
            false,
        )
        .await
        .unwrap_err();
    assert!(matches!(
        err,
        AnalyticsError::Range(crate::RangeError::TooLong)
    ));
}

#[tokio::test]
async fn cumulative_series_start_from_what_was_ordered_before_the_range() {
    let mut repository = MockImpactRepository::new();
    repository
        .expect_bundle_totals()
        .with(
            eq(account()),
            eq(None),
            eq(date!(2026 - 11 - 09)),
            eq(Basis::Placed),
        )
        .returning(|_, _, _, _| Ok(vec![total(date!(2026 - 11 - 01), 7, 1_500_000, 1_800)]));
    repository
        .expect_bundle_days()
        .with(
            eq(account()),
            eq(Some(date!(2026 - 11 - 10))),
            eq(date!(2026 - 11 - 12)),
            eq(Basis::Placed),
        )
        .returning(|_, _, _, _| {
            Ok(vec![
                day(date!(2026 - 11 - 11), 7, 250_000, 300),
                day(date!(2026 - 11 - 12), 8, 1, 1),
            ])
        });
    let impact = impact(
        repository,
        holders_with(holder(true)),
        MockCatalogueRepository::new(),
    );
    let series = impact
        .cumulative_per_bundle(
            viewer(),
            AskedRange {
                from: Some(date!(2026 - 11 - 10)),
                through: Some(date!(2026 - 11 - 12)),
            },
        )
        .await
        .unwrap();
    assert_eq!(series.len(), 2);
    let seven = &series[0];
    assert_eq!(seven.bundle_name, "Bundle 7");
    let grams: Vec<i64> = seven
        .points
        .iter()
        .map(|p| p.figures.quantity.grams())
        .collect();
    assert_eq!(grams, vec![1_500_000, 1_750_000, 1_750_000]);
    assert_eq!(seven.points[2].figures.value.minor(), 2_100);
    assert_eq!(seven.points[2].figures.value.currency(), Currency::Eur);
    let eight: Vec<i64> = series[1]
        .points
        .iter()
        .map(|p| p.figures.quantity.grams())
        .collect();
    assert_eq!(eight, vec![0, 0, 1]);
}

#[tokio::test]
async fn aggregates_add_up_and_name_what_is_not_yet_allocated() {
    let mut repository = MockImpactRepository::new();
    repository.expect_bundle_totals().returning(|_, _, _, _| {
        Ok(vec![
            total(date!(2026 - 11 - 20), 1, 3_000_000, 6_000),
            total(date!(2026 - 11 - 21), 2, 1_000_000, 5_000),
        ])
    });
    repository.expect_project_sums().returning(|_, _, _| {
        Ok(vec![
            ProjectSum {
                project_id: ProjectId::from_uuid(Uuid::from_u128(11)),
                quantity: Mass::from_grams(2_000_000),
                value_minor: 4_000,
            },
            ProjectSum {
                project_id: ProjectId::from_uuid(Uuid::from_u128(12)),
                quantity: Mass::from_grams(1_000_000),
                value_minor: 5_000,
            },
        ])
    });
    let mut catalogue = MockCatalogueRepository::new();
    catalogue.expect_bundles().returning(|_| {
        let mut forest = Bundle::sample(1, 2_000);
        forest.offset_type = Some(OffsetType::CarbonRemoval);
        forest.permanence = CarbonPermanence::ShortTerm;
        let mut dac = Bundle::sample(2, 50_000);
        dac.offset_type = Some(OffsetType::CarbonRemoval);
        dac.permanence = CarbonPermanence::LongTerm;
        Ok(vec![forest, dac])
    });
    catalogue.expect_projects().returning(|_| {
        Ok(vec![
            project(11, "KEN", Registry::Verra, &[13, 15]),
            project(12, "ISL", Registry::PuroEarth, &[13]),
        ])
    });
    let impact = impact(repository, holders_with(holder(true)), catalogue);
    let a = impact
        .aggregated(viewer(), AskedRange::default())
        .await
        .unwrap();
    let total: i64 = a.bundle.iter().map(|b| b.2.quantity.grams()).sum();
    assert_eq!(total, 4_000_000);
    for list in [
        a.location.iter().map(|l| l.1).collect::<Vec<_>>(),
        a.registry.iter().map(|l| l.1).collect::<Vec<_>>(),
        a.oxford_offsetting_principles
            .iter()
            .map(|l| l.1)
            .collect::<Vec<_>>(),
        a.offset_type.iter().map(|l| l.1).collect::<Vec<_>>(),
    ] {
        assert_eq!(list.iter().map(|f| f.quantity.grams()).sum::<i64>(), total);
        assert_eq!(list.iter().map(|f| f.value.minor()).sum::<i64>(), 11_000);
    }
    let names: Vec<&str> = a.location.iter().map(|l| l.0.as_str()).collect();
    assert_eq!(names, vec!["Africa", "Europe", "Not yet allocated"]);
    let unallocated = a
        .location
        .iter()
        .find(|l| l.0 == Location::NotYetAllocated)
        .unwrap()
        .1;
    assert_eq!(
        (unallocated.quantity.grams(), unallocated.value.minor()),
        (1_000_000, 2_000)
    );
    assert_eq!(
        a.oxford_offsetting_principles
            .iter()
            .map(|o| o.0)
            .collect::<Vec<_>>(),
        vec![4, 5]
    );
}

#[tokio::test]
async fn emission_calculations_fill_empty_months_and_read_the_organisation_only_when_asked() {
    let mut repository = MockImpactRepository::new();
    let others = vec![account(), AccountId::from_uuid(Uuid::from_u128(9))];
    repository
        .expect_estimate_days()
        .with(eq(others.clone()), mockall::predicate::always())
        .returning(|_, _| {
            Ok(vec![
                EstimateDay {
                    day: date!(2026 - 09 - 03),
                    kind: "flight".into(),
                    count: 2,
                    mass: Mass::from_grams(400_000),
                },
                EstimateDay {
                    day: date!(2026 - 11 - 01),
                    kind: "flight".into(),
                    count: 1,
                    mass: Mass::from_grams(100_000),
                },
            ])
        });
    let mut holders = MockPageHolders::new();
    holders
        .expect_accounts()
        .with(eq(organisation()), eq(AccountMode::Live))
        .returning(move |_, _| Ok(others.clone()));
    let impact = impact(repository, holders, MockCatalogueRepository::new());
    let m = impact
        .emission_calculations(
            viewer(),
            AskedRange {
                from: Some(date!(2026 - 08 - 15)),
                through: None,
            },
            Interval::Month,
            true,
        )
        .await
        .unwrap();
    let counts: Vec<(time::Date, u64)> = m.timeseries.iter().map(|p| (p.date, p.count)).collect();
    assert_eq!(
        counts,
        vec![
            (date!(2026 - 08 - 01), 0),
            (date!(2026 - 09 - 01), 2),
            (date!(2026 - 10 - 01), 0),
            (date!(2026 - 11 - 01), 1)
        ]
    );
    assert_eq!(m.by_kind[0].mass.grams(), 500_000);
}

#[tokio::test]
async fn a_client_account_key_reads_only_its_own_estimates_even_with_all_accounts() {
    let mut repository = MockImpactRepository::new();
    repository
        .expect_estimate_days()
        .with(eq(vec![account()]), mockall::predicate::always())
        .returning(|_, _| Ok(vec![]));
    // No `accounts` expectation: asking for the organisation would panic.
    let impact = impact(
        repository,
        MockPageHolders::new(),
        MockCatalogueRepository::new(),
    );
    let viewer = Viewer {
        client_account: true,
        ..viewer()
    };
    let m = impact
        .emission_calculations(viewer, AskedRange::default(), Interval::Day, true)
        .await
        .unwrap();
    assert_eq!(m.timeseries.len(), 31);
}

fn settings(status: PageStatus, sections: Vec<Section>) -> PageSettings {
    PageSettings::new(
        status,
        Slug::parse("acme").unwrap(),
        TitleFormat::ByVolume,
        Some(DescriptionFormat::ByEquivalent),
        None,
        sections,
    )
    .unwrap()
}

fn stored(status: PageStatus, sections: Vec<Section>) -> SustainabilityPage {
    SustainabilityPage {
        account_id: account(),
        organisation_id: organisation(),
        mode: AccountMode::Live,
        settings: settings(status, sections),
        created_at: TODAY,
        updated_at: TODAY,
    }
}

#[tokio::test]
async fn a_second_page_and_a_taken_slug_are_refused_by_name() {
    let mut repository = MockImpactRepository::new();
    repository
        .expect_save_page()
        .times(1)
        .returning(|_, _| Err(PageWriteError::Conflict));
    let impact1 = impact(
        repository,
        MockPageHolders::new(),
        MockCatalogueRepository::new(),
    );
    let err = impact1
        .create_page(viewer(), settings(PageStatus::Enabled, vec![]))
        .await
        .unwrap_err();
    assert!(matches!(err, PageError::Exists));

    let mut repository = MockImpactRepository::new();
    repository
        .expect_page()
        .returning(|_| Ok(Some(stored(PageStatus::Enabled, vec![]))));
    repository
        .expect_save_page()
        .withf(|page, create| !create && page.created_at == TODAY)
        .returning(|_, _| Err(PageWriteError::SlugTaken));
    let impact2 = impact(
        repository,
        MockPageHolders::new(),
        MockCatalogueRepository::new(),
    );
    let err = impact2
        .update_page(viewer(), settings(PageStatus::Disabled, vec![]))
        .await
        .unwrap_err();
    assert!(matches!(err, PageError::SlugTaken));
}

#[tokio::test]
async fn updating_a_page_that_does_not_exist_is_not_found_and_writes_nothing() {
    let mut repository = MockImpactRepository::new();
    repository.expect_page().returning(|_| Ok(None));
    let impact = impact(
        repository,
        MockPageHolders::new(),
        MockCatalogueRepository::new(),
    );
    let err = impact
        .update_page(viewer(), settings(PageStatus::Enabled, vec![]))
        .await
        .unwrap_err();
    assert!(matches!(err, PageError::NotFound));
}

#[tokio::test]
async fn a_disabled_page_or_a_hidden_account_is_not_found() {
    for (status, public) in [(PageStatus::Disabled, true), (PageStatus::Enabled, false)] {
        let mut repository = MockImpactRepository::new();
        repository
            .expect_page_by_slug()
            .returning(move |_, _| Ok(Some(stored(status, vec![]))));
        let impact = impact(
            repository,
            holders_with(holder(public)),
            MockCatalogueRepository::new(),
        );
        let err = impact
            .public_by_slug(AccountMode::Live, "acme")
            .await
            .unwrap_err();
        assert!(matches!(err, PageError::NotFound), "{status:?} {public}");
    }
    // A slug that cannot exist is not looked up.
    let impact = impact(
        MockImpactRepository::new(),
        MockPageHolders::new(),
        MockCatalogueRepository::new(),
    );
    assert!(matches!(
        impact.public_by_slug(AccountMode::Live, "../etc").await,
        Err(PageError::NotFound)
    ));
}

#[tokio::test]
async fn a_public_page_shows_completed_figures_and_only_the_chosen_sections() {
    let mut repository = MockImpactRepository::new();
    repository.expect_page_by_slug().returning(|_, _| {
        Ok(Some(stored(
            PageStatus::Enabled,
            vec![Section::BundlesBreakdown],
        )))
    });
    repository
        .expect_bundle_totals()
        .with(
            eq(account()),
            eq(None),
            eq(date!(2026 - 11 - 26)),
            eq(Basis::Completed),
        )
        .returning(|_, _, _, _| {
            Ok(vec![
                total(date!(2026 - 09 - 03), 1, 1_000_000, 2_000),
                total(date!(2026 - 11 - 03), 2, 2_000_000, 3_000),
            ])
        });
    repository
        .expect_month_totals()
        .with(eq(account()), eq(Basis::Completed))
        .returning(|_, _| {
            Ok(vec![
                MonthTotal {
                    month: date!(2026 - 09 - 01),
                    quantity: Mass::from_grams(1_000_000),
                    value_minor: 2_000,
                },
                MonthTotal {
                    month: date!(2026 - 11 - 01),
                    quantity: Mass::from_grams(2_000_000),
                    value_minor: 3_000,
                },
            ])
        });
    repository
        .expect_project_sums()
        .with(eq(account()), eq(None), eq(Basis::Completed))
        .returning(|_, _, _| {
            Ok(vec![ProjectSum {
                project_id: ProjectId::from_uuid(Uuid::from_u128(11)),
                quantity: Mass::from_grams(3_000_000),
                value_minor: 5_000,
            }])
        });
    let mut catalogue = MockCatalogueRepository::new();
    catalogue
        .expect_projects()
        .returning(|_| Ok(vec![project(11, "KEN", Registry::Verra, &[13, 15])]));
    catalogue
        .expect_bundles()
        .returning(|_| Ok(vec![Bundle::sample(1, 2_000), Bundle::sample(2, 1_500)]));
    // No completed_orders expectation: the certificates section is not chosen.
    let impact = impact(repository, holders_with(holder(true)), catalogue);
    let page = impact
        .public_by_slug(AccountMode::Live, "acme")
        .await
        .unwrap();
    assert_eq!(page.title, Title::ByVolume(Mass::from_grams(3_000_000)));
    // 3 t over 0.5 t per flight.
    assert_eq!(
        page.description,
        Some(Description::ByEquivalent {
            flights_nyc_to_london: 6
        })
    );
    let bundles = page.bundles.unwrap();
    assert_eq!(bundles[0].bundle.name, "Bundle 2");
    assert_eq!(bundles[0].percent_of_total, Decimal::new(6667, 2));
    assert_eq!(bundles[1].percent_of_total, Decimal::new(3333, 2));
    assert!(page.un_sdg.is_none());
    assert!(page.certificates.is_none());
    let months: Vec<(time::Date, i64)> = page
        .series
        .iter()
        .map(|p| (p.date, p.figures.quantity.grams()))
        .collect();
    assert_eq!(
        months,
        vec![
            (date!(2026 - 09 - 01), 1_000_000),
            (date!(2026 - 10 - 01), 1_000_000),
            (date!(2026 - 11 - 01), 3_000_000)
        ]
    );
}

#[tokio::test]
async fn storage_failures_are_not_dressed_as_refusals() {
    let mut repository = MockImpactRepository::new();
    repository
        .expect_page()
        .returning(|_| Err(StoreError::Unexpected(anyhow::anyhow!("disk on fire"))));
    let impact = impact(
        repository,
        MockPageHolders::new(),
        MockCatalogueRepository::new(),
    );
    assert!(matches!(
        impact.current_page(viewer()).await,
        Err(PageError::Store(_))
    ));
}

// ---- public shipping analytics ----

/// Only an account whose external pages are public answers, with the range
/// (30 days to today by default); hidden, unknown and malformed ids are all
/// `NotPublic`, told apart by nothing.
#[tokio::test]
async fn public_shipping_analytics_need_public_external_pages() {
    let asked = AskedRange {
        from: None,
        through: None,
    };
    let public = impact(
        MockImpactRepository::new(),
        holders_with(holder(true)),
        MockCatalogueRepository::new(),
    );
    let (h, range) = public
        .public_shipping(&account().to_string(), asked)
        .await
        .unwrap();
    assert_eq!(h.name, "Acme");
    assert_eq!(
        (range.from(), range.through()),
        (date!(2026 - 10 - 27), date!(2026 - 11 - 26))
    );
    let hidden = impact(
        MockImpactRepository::new(),
        holders_with(holder(false)),
        MockCatalogueRepository::new(),
    );
    assert!(matches!(
        hidden.public_shipping(&account().to_string(), asked).await,
        Err(AnalyticsError::NotPublic)
    ));
    let mut none = MockPageHolders::new();
    none.expect_holder().returning(|_| Ok(None));
    let unknown = impact(
        MockImpactRepository::new(),
        none,
        MockCatalogueRepository::new(),
    );
    assert!(matches!(
        unknown.public_shipping(&account().to_string(), asked).await,
        Err(AnalyticsError::NotPublic)
    ));
    // not an id: refused before any storage (no expectation set)
    let strict = impact(
        MockImpactRepository::new(),
        MockPageHolders::new(),
        MockCatalogueRepository::new(),
    );
    assert!(matches!(
        strict.public_shipping("../etc", asked).await,
        Err(AnalyticsError::NotPublic)
    ));
}
