//! Creating and changing links, and who may.

use super::*;

#[tokio::test]
async fn create_stores_a_valid_link_with_its_account_currency_and_mode() {
    let stored = Arc::new(Mutex::new(None));
    let seen = stored.clone();
    let mut links = MockOffsetLinkRepository::new();
    links.expect_insert().times(1).returning(move |l, audit| {
        assert!(audit.is_none(), "the API's business writes are not audited");
        *seen.lock().unwrap() = Some(l.clone());
        Ok(())
    });
    let svc = service(links, ordering(), MockCardPayments::new());
    let mut d = draft(vec![bid(1), bid(2)]);
    d.value = Some("12.50".into());
    d.emails = Some(vec!["a@example.org".into(), "A@EXAMPLE.org".into()]);
    d.expires_at = Some(datetime!(2027-01-01 0:00 UTC));
    let details = svc.create(account(), d).await.unwrap();
    let link = stored.lock().unwrap().clone().unwrap();
    assert_eq!(details.link, link);
    assert_eq!(details.bundles.len(), 2);
    assert_eq!(link.currency, Currency::Gbp);
    assert_eq!(link.mode, AccountMode::Test);
    assert_eq!(link.value, Some(Money::from_minor(1_250, Currency::Gbp)));
    assert_eq!(link.emails.len(), 1, "the same mailbox is listed once");
    assert_eq!(link.status(NOW), LinkStatus::Enabled);
}

#[tokio::test]
async fn create_refuses_a_wrong_bundle_count_and_writes_nothing() {
    let svc = service(untouched(), ordering(), MockCardPayments::new());
    let none = svc.create(account(), draft(vec![])).await;
    assert!(matches!(none, Err(LinkError::BundlesSize(_))), "{none:?}");
    let many = svc
        .create(account(), draft((1..=25).map(bid).collect()))
        .await;
    assert!(matches!(many, Err(LinkError::BundlesSize(_))), "{many:?}");
}

#[tokio::test]
async fn create_refuses_unknown_disabled_repeated_and_malformed_bundles() {
    let svc = service(untouched(), ordering(), MockCardPayments::new());
    for bundles in [
        vec![bid(1), bid(99)],
        vec![bid(66)],
        vec![bid(1), bid(1)],
        vec!["nope".to_owned()],
    ] {
        let named = bundles.last().cloned().unwrap();
        match svc.create(account(), draft(bundles)).await {
            Err(LinkError::BundleInvalid(why)) => assert!(why.contains(&named), "{why}"),
            other => panic!("{other:?}"),
        }
    }
}

/// A change to a valid draft.
type Mutation = Box<dyn Fn(&mut LinkDraft)>;

#[tokio::test]
async fn create_refuses_bad_fields() {
    let svc = service(untouched(), ordering(), MockCardPayments::new());
    let cases: Vec<(&str, Mutation)> = vec![
        ("name", Box::new(|d| d.name = "  ".into())),
        ("name", Box::new(|d| d.name = "x".repeat(256))),
        ("expires_at", Box::new(|d| d.expires_at = Some(NOW))),
        (
            "emails",
            Box::new(|d| d.emails = Some(vec!["nobody".into()])),
        ),
        ("value", Box::new(|d| d.value = Some("0".into()))),
        ("value", Box::new(|d| d.value = Some("1.234".into()))),
        ("value", Box::new(|d| d.value = Some("-5".into()))),
    ];
    for (field, change) in cases {
        let mut d = draft(vec![bid(1)]);
        change(&mut d);
        match svc.create(account(), d).await {
            Err(LinkError::Invalid { field: f, .. }) => assert_eq!(f, field),
            other => panic!("{field}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_name_taken_is_a_conflict() {
    let mut links = MockOffsetLinkRepository::new();
    links
        .expect_insert()
        .returning(|_, _| Err(StoreError::Duplicate));
    let svc = service(links, ordering(), MockCardPayments::new());
    let r = svc.create(account(), draft(vec![bid(1)])).await;
    assert!(matches!(r, Err(LinkError::NameTaken(n)) if n == "Campaign"));
}

#[tokio::test]
async fn another_accounts_link_is_not_found() {
    let svc = service(
        holding(stored_link(false)),
        ordering(),
        MockCardPayments::new(),
    );
    let other = AccountId::from_uuid(Uuid::from_u128(10));
    let id = stored_link(false).id.to_string();
    assert!(matches!(
        svc.get(other, &id).await,
        Err(LinkError::NotFound)
    ));
    assert!(matches!(
        svc.analytics(other, &id).await,
        Err(LinkError::NotFound)
    ));
    assert!(matches!(
        svc.get(account(), "junk").await,
        Err(LinkError::NotFound)
    ));
}

#[tokio::test]
async fn require_payment_cannot_change_but_may_be_repeated() {
    let mut links = holding(stored_link(false));
    links.expect_update().times(1).returning(|_, _| Ok(()));
    let svc = service(links, ordering(), MockCardPayments::new());
    let id = stored_link(false).id.to_string();
    let change = |r: bool| LinkChanges {
        name: "Campaign".into(),
        require_payment: Some(r),
        status: Some(LinkStatus::Disabled),
        ..LinkChanges::default()
    };
    let refused = svc.update(account(), &id, change(true)).await;
    assert!(matches!(
        refused,
        Err(LinkError::Invalid {
            field: "require_payment",
            ..
        })
    ));
    let kept = svc.update(account(), &id, change(false)).await.unwrap();
    assert_eq!(kept.link.status(NOW), LinkStatus::Disabled);
    assert_eq!(kept.link.emails.len(), 1, "absent fields keep their value");
}

/// From the console: the link is written with its audit entry, as the person's.
#[tokio::test]
async fn a_person_creates_a_link_with_its_audit_entry() {
    let mut links = MockOffsetLinkRepository::new();
    links
        .expect_insert()
        .times(1)
        .withf(|l, audit| {
            let audit = audit.as_ref().unwrap();
            audit.action == "offset_link.created"
                && audit.actor == Actor::person("ada@example.org")
                && audit.object_id == l.id.to_string()
                && audit.organisation
                    == Some(tonne_kernel::OrganisationId::from_uuid(Uuid::from_u128(7)))
                && audit.after.get("name") == Some("Campaign")
        })
        .returning(|_, _| Ok(()));
    let svc = service(links, ordering(), MockCardPayments::new());
    let made = svc
        .create_as(
            account(),
            draft(vec![bid(1)]),
            &Actor::person("ada@example.org"),
        )
        .await
        .unwrap();
    assert_eq!(made.link.name, "Campaign");
}

/// Switching off then on: each a change with its entry; switching to the
/// state the link is in writes nothing.
#[tokio::test]
async fn a_person_switches_a_link_off_and_the_same_state_again_changes_nothing() {
    let mut links = holding(stored_link(false));
    links
        .expect_update()
        .times(1)
        .withf(|l, audit| {
            let audit = audit.as_ref().unwrap();
            l.switched_off
                && audit.action == "offset_link.disabled"
                && audit.before.get("state") == Some("on")
                && audit.after.get("state") == Some("off")
        })
        .returning(|_, _| Ok(()));
    let svc = service(links, ordering(), MockCardPayments::new());
    let id = stored_link(false).id.to_string();
    let by = Actor::person("ada@example.org");
    let off = svc.switch_as(account(), &id, false, &by).await.unwrap();
    assert!(off.link.switched_off);
    // already on: nothing written (update expected once, above)
    let on = svc.switch_as(account(), &id, true, &by).await.unwrap();
    assert!(!on.link.switched_off);
    // another account's link
    let other = AccountId::from_uuid(Uuid::from_u128(10));
    assert!(matches!(
        svc.switch_as(other, &id, false, &by).await,
        Err(LinkError::NotFound)
    ));
}
