//! Sustainability pages and public shipping analytics.

use super::*;

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
