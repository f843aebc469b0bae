//! The operator's stock and sale.

use super::*;

#[tokio::test]
async fn a_stock_change_is_one_ledger_row_with_its_reason_and_an_audit_entry() {
    let mut catalogue = MockCatalogueRepository::new();
    catalogue
        .expect_bundles()
        .returning(|_| Ok(vec![stocked(Some(10), false)]));
    catalogue
        .expect_adjust_stock()
        .times(1)
        .withf(|entry, audit| {
            entry.delta_grams == -2_000_000
                && entry.reason == "withdrawn"
                && entry.actor == Actor::person("ops@example.org")
                && audit.action == "bundle.stock_changed"
                && audit.after.get("change") == Some("−2 t")
                && audit.after.get("reason") == Some("withdrawn")
        })
        .returning(|entry, _| {
            Ok(Some(crate::StockEntry {
                available_after: Mass::from_grams(8_000_000),
                ..entry
            }))
        });
    let svc = stock_service(catalogue);
    let done = svc
        .adjust_stock(
            &stocked(None, false).id.to_string(),
            crate::StockChange::parse("remove", "2").unwrap(),
            crate::StockReason::parse(" withdrawn ").unwrap(),
            &Actor::person("ops@example.org"),
        )
        .await
        .unwrap();
    assert_eq!(done.available_after, Mass::from_grams(8_000_000));
}

#[tokio::test]
async fn a_refused_stock_change_says_what_is_left_and_unlimited_bundles_have_no_stock() {
    let id = stocked(None, false).id.to_string();
    let remove = || crate::StockChange::parse("remove", "20").unwrap();
    let reason = || crate::StockReason::parse("sold").unwrap();
    // the guard refused it (another change ran first): the message says what is left
    let mut catalogue = MockCatalogueRepository::new();
    catalogue
        .expect_bundles()
        .returning(|_| Ok(vec![stocked(Some(10), false)]));
    catalogue.expect_adjust_stock().returning(|_, _| Ok(None));
    let err = stock_service(catalogue)
        .adjust_stock(&id, remove(), reason(), &Actor::CommandLine)
        .await;
    assert!(
        matches!(&err, Err(crate::StockError::Insufficient { available }) if available == "10"),
        "{err:?}"
    );
    let mut catalogue = MockCatalogueRepository::new();
    catalogue
        .expect_bundles()
        .returning(|_| Ok(vec![stocked(None, false)]));
    catalogue.expect_adjust_stock().never();
    let err = stock_service(catalogue)
        .adjust_stock(&id, remove(), reason(), &Actor::CommandLine)
        .await;
    assert!(matches!(err, Err(crate::StockError::Unlimited)));
    let mut catalogue = MockCatalogueRepository::new();
    catalogue.expect_bundles().returning(|_| Ok(vec![]));
    let err = stock_service(catalogue)
        .adjust_stock(&id, remove(), reason(), &Actor::CommandLine)
        .await;
    assert!(matches!(err, Err(crate::StockError::NotFound)));
}

#[tokio::test]
async fn taking_a_bundle_off_sale_is_audited_once() {
    let mut catalogue = MockCatalogueRepository::new();
    catalogue
        .expect_bundles()
        .returning(|_| Ok(vec![stocked(Some(1), false)]));
    catalogue
        .expect_set_bundle_disabled()
        .times(1)
        .withf(|_, at, audit| {
            at.is_some()
                && audit.action == "bundle.disabled"
                && audit.before.get("state") == Some("enabled")
                && audit.after.get("state") == Some("disabled")
        })
        .returning(|_, _, _| Ok(()));
    let svc = stock_service(catalogue);
    let id = stocked(None, false).id.to_string();
    let off = svc
        .set_bundle_enabled(&id, false, &Actor::CommandLine)
        .await
        .unwrap();
    assert!(off.disabled);
    // already on sale: enabling changes (and records) nothing
    let on = svc
        .set_bundle_enabled(&id, true, &Actor::CommandLine)
        .await
        .unwrap();
    assert!(!on.disabled);
}

#[tokio::test]
async fn a_bundle_edit_records_only_what_changed_and_refuses_unsold_currencies() {
    let mut catalogue = MockCatalogueRepository::new();
    catalogue.expect_bundles().returning(|_| {
        Ok(vec![Bundle {
            description: Some("Trees.".into()),
            ..stocked(Some(1), false)
        }])
    });
    catalogue
        .expect_update_bundle()
        .times(1)
        .withf(|_, edit, _, audit| {
            edit.description.as_deref() == Some("Trees.")
                && audit.action == "bundle.edited"
                && audit.changed_fields() == ["price GBP"]
                && audit.before.get("price GBP") == Some("10.00")
                && audit.after.get("price GBP") == Some("12.00")
        })
        .returning(|_, _, _, _| Ok(()));
    let svc = stock_service(catalogue);
    let id = stocked(None, false).id.to_string();
    let edit = |gbp: &str| crate::BundleEdit::parse("Trees.", &[(Currency::Gbp, gbp)]).unwrap();
    let edited = svc
        .edit_bundle(&id, edit("12.00"), &Actor::CommandLine)
        .await
        .unwrap();
    assert_eq!(edited.price_in(Currency::Gbp).unwrap().minor(), 1200);
    let unsold = crate::BundleEdit::parse("", &[(Currency::Usd, "5")]).unwrap();
    assert!(matches!(
        svc.edit_bundle(&id, unsold, &Actor::CommandLine).await,
        Err(crate::BundleEditError::Invalid(e)) if e.field == "price USD"
    ));
}
