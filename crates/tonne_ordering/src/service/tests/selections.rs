//! Account selections and portfolios, and the certificate.

use super::*;

#[tokio::test]
async fn an_account_selection_beats_the_catalogue_default() {
    let mut catalogue = MockCatalogueRepository::new();
    catalogue
        .expect_account_selection()
        .returning(|_| Ok(vec![(bundle(7, 1000), 10_000)]));
    let q = service_with(catalogue, MockOrderRepository::new())
        .quote_by_mass(account(), split("1", None))
        .await
        .unwrap();
    assert_eq!(q.lines.len(), 1);
    assert_eq!(
        q.lines[0].bundle_id,
        BundleId::from_uuid(Uuid::from_u128(7))
    );
}

#[tokio::test]
async fn setting_an_account_selection_validates_it_first() {
    let mut catalogue = MockCatalogueRepository::new();
    catalogue
        .expect_bundles()
        .returning(|_| Ok(vec![bundle(1, 1000), bundle(2, 1000)]));
    catalogue
        .expect_set_account_selection()
        .times(1)
        .withf(|_, s, audit| {
            s.iter().map(|(_, share)| *share).collect::<Vec<_>>() == vec![2500, 7500]
                && audit.as_ref().is_some_and(|a| {
                    a.action == "account.selection_set"
                        && a.organisation == Some(organisation())
                        && a.after.get("selection").is_some_and(|v| v.contains("25%"))
                })
        })
        .returning(|_, _, _| Ok(()));
    let svc = service_with(catalogue, MockOrderRepository::new());
    let id = account().to_string();
    let bad = svc
        .set_account_selection(
            &id,
            vec![entry(1, Some("20")), entry(2, Some("75"))],
            &Actor::CommandLine,
        )
        .await;
    assert!(matches!(bad, Err(QuoteError::RatiosInvalid(_))));
    svc.set_account_selection(
        &id,
        vec![entry(1, Some("25")), entry(2, Some("75"))],
        &Actor::CommandLine,
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn a_certificate_is_a_complete_order_with_its_holder_and_catalogue_facts() {
    use crate::catalogue::ProjectId;
    use crate::orders::{ProjectAllocation, ProjectStatus};
    use crate::views::AccountHolder;
    let allocation = |n: u128, serial: Option<&str>| {
        ProjectAllocation::sample(n, serial, time::OffsetDateTime::UNIX_EPOCH)
    };
    let mut complete = stored(OrderStatus::Complete);
    // project 12 has left the catalogue since; project 11's record has no link
    complete.projects = vec![
        allocation(10, Some("PURO-7")),
        allocation(11, None),
        allocation(12, None),
    ];
    let retiring = stored(OrderStatus::Retiring);
    let (complete_id, retiring_id) = (complete.id, retiring.id);
    let mut orders = MockOrderRepository::new();
    orders.expect_get().returning(move |id| {
        Ok(Some(if id == complete_id {
            complete.clone()
        } else {
            retiring.clone()
        }))
    });
    let mut catalogue = MockCatalogueRepository::new();
    catalogue.expect_projects().times(1).returning(|ids| {
        assert_eq!(ids.len(), 3, "one read for every project of the order");
        Ok(vec![
            catalogue_project(11, None),
            catalogue_project(10, Some("https://registry.example/p10")),
        ])
    });
    let mut accounts = MockAccountDirectory::new();
    accounts.expect_holder().times(1).returning(|a| {
        assert_eq!(a, account());
        Ok(Some(AccountHolder {
            organisation_id: organisation(),
            name: "Acme".into(),
            beneficiary: "Acme Foundation".into(),
            logo: Some("https://tonne.example/logos/acme.png".into()),
        }))
    });
    let svc = Ordering::new(
        Arc::new(catalogue),
        Arc::new(orders),
        Arc::new(accounts),
        (fulfilment(), fulfilment()),
        Arc::new(MockClock::new()),
        Settings::default(),
    );
    let c = svc.certificate(&complete_id.to_string()).await.unwrap();
    assert_eq!(c.holder.beneficiary, "Acme Foundation");
    let facts: Vec<_> = c
        .projects
        .iter()
        .map(|p| {
            (
                p.allocation.project_id,
                p.status,
                p.country_name.as_deref(),
                p.registry_link.as_deref(),
            )
        })
        .collect();
    let id = |n| ProjectId::from_uuid(Uuid::from_u128(n));
    assert_eq!(
        facts,
        vec![
            (
                id(10),
                ProjectStatus::Retired,
                Some("Country 10"),
                Some("https://registry.example/p10")
            ),
            (id(11), ProjectStatus::Retired, Some("Country 11"), None),
            (id(12), ProjectStatus::Retired, None, None),
        ],
        "in the order's project order; the order is complete, so all are retired"
    );
    assert!(matches!(
        svc.certificate(&retiring_id.to_string()).await,
        Err(ReadOrderError::NotFound)
    ));
    assert!(matches!(
        svc.certificate("not-an-id").await,
        Err(ReadOrderError::NotFound)
    ));
}

#[tokio::test]
async fn a_request_sets_a_selection_only_when_it_is_whole_and_sellable() {
    let mut catalogue = MockCatalogueRepository::new();
    let mut disabled = bundle(3, 1000);
    disabled.disabled = true;
    catalogue
        .expect_bundles()
        .returning(move |_| Ok(vec![bundle(1, 1000), bundle(2, 1000), disabled.clone()]));
    // Written exactly once: by the one valid request below.
    catalogue
        .expect_set_account_selection()
        .times(1)
        .withf(|_, s, audit| {
            // the API's own setting is the client's data, not an operator's change
            audit.is_none()
                && s.iter().map(|(_, share)| *share).collect::<Vec<_>>() == vec![4000, 6000]
        })
        .returning(|_, _, _| Ok(()));
    let svc = service_with(catalogue, MockOrderRepository::new());
    let empty = svc.set_bundle_selection(account(), vec![]).await;
    assert!(
        matches!(empty, Err(QuoteError::RatiosInvalid(_))),
        "an empty selection does not clear it through the API"
    );
    let not_100 = svc
        .set_bundle_selection(account(), vec![entry(1, Some("40")), entry(2, Some("50"))])
        .await;
    assert!(matches!(not_100, Err(QuoteError::RatiosInvalid(_))));
    let off = svc
        .set_bundle_selection(account(), vec![entry(1, Some("40")), entry(3, Some("60"))])
        .await;
    assert!(matches!(off, Err(QuoteError::BundleInvalid(_))));
    let unknown = svc
        .set_bundle_selection(account(), vec![entry(1, Some("40")), entry(4, Some("60"))])
        .await;
    assert!(matches!(unknown, Err(QuoteError::BundleInvalid(_))));
    let set = svc
        .set_bundle_selection(account(), vec![entry(1, Some("40")), entry(2, Some("60"))])
        .await
        .unwrap();
    assert_eq!(set.iter().map(|(_, s)| *s).sum::<u32>(), 10_000);
}

#[tokio::test]
async fn the_selection_shown_is_the_one_orders_use_as_whole_percentages() {
    // The account's own selection names a bundle disabled since: the rest
    // keep their relative shares, shown as percentages summing to 100.
    let mut catalogue = MockCatalogueRepository::new();
    let mut gone = bundle(2, 1000);
    gone.disabled = true;
    catalogue.expect_account_selection().returning(move |_| {
        Ok(vec![
            (bundle(1, 1000), 2000),
            (gone.clone(), 5000),
            (bundle(3, 1000), 3000),
        ])
    });
    let svc = service_with(catalogue, MockOrderRepository::new());
    let shown = svc.bundle_selection(account()).await.unwrap();
    assert_eq!(
        shown,
        vec![
            (BundleId::from_uuid(Uuid::from_u128(1)), 4000),
            (BundleId::from_uuid(Uuid::from_u128(3)), 6000),
        ]
    );
}

#[tokio::test]
async fn following_a_portfolio_checks_it_exists_and_sells_first() {
    let mut catalogue = MockCatalogueRepository::new();
    catalogue.expect_portfolio().returning(|id| {
        Ok(
            (id == crate::BundlePortfolioId::from_uuid(Uuid::from_u128(21)))
                .then(|| portfolio(21, vec![(1, 5000), (2, 5000)]))
                .or_else(|| {
                    (id == crate::BundlePortfolioId::from_uuid(Uuid::from_u128(22)))
                        .then(|| portfolio(22, vec![(1, 5000), (5, 5000)]))
                }),
        )
    });
    catalogue
        .expect_bundles()
        .returning(|_| Ok(vec![bundle(1, 1000), bundle(2, 1000)]));
    catalogue
        .expect_set_account_portfolio()
        .times(1)
        .withf(|_, id| *id == crate::BundlePortfolioId::from_uuid(Uuid::from_u128(21)))
        .returning(|_, _| Ok(()));
    let svc = service_with(catalogue, MockOrderRepository::new());
    for bad in [
        "nope",
        crate::BundlePortfolioId::from_uuid(Uuid::from_u128(23))
            .to_string()
            .as_str(),
    ] {
        let err = svc.set_bundle_portfolio(account(), bad).await;
        assert!(
            matches!(
                err,
                Err(QuoteError::Invalid {
                    field: "bundle_portfolio_id",
                    ..
                })
            ),
            "{bad}"
        );
    }
    let unsellable = svc
        .set_bundle_portfolio(
            account(),
            &crate::BundlePortfolioId::from_uuid(Uuid::from_u128(22)).to_string(),
        )
        .await;
    assert!(matches!(unsellable, Err(QuoteError::BundleInvalid(_))));
    let followed = svc
        .set_bundle_portfolio(
            account(),
            &crate::BundlePortfolioId::from_uuid(Uuid::from_u128(21)).to_string(),
        )
        .await
        .unwrap();
    assert_eq!(followed.identifier, "portfolio-21");
}
