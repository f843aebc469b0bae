//! Analytics: ranges, cumulative series, aggregates, emission calculations, scopes.

use super::*;

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
