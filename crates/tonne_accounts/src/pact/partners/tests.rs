//! The partners' rules over mocked ports: URLs are checked and stored
//! without a trailing `/`, a request is answered only when its `source`
//! names a standing partner of the account, another account's partner is
//! neither found nor removed.

use std::sync::Arc;

use mockall::predicate::{always, eq};
use time::macros::datetime;
use uuid::Uuid;

use super::*;
use crate::ports::MockAccountRepository;
use crate::testing::{accounts_knowing, ids, stopped};

const NOW: OffsetDateTime = datetime!(2026-06-01 12:00 UTC);

fn account_id() -> AccountId {
    AccountId::from_uuid(Uuid::from_u128(7))
}

fn partner() -> PactPartner {
    PactPartner {
        id: PactPartnerId::from_uuid(Uuid::from_u128(42)),
        account_id: account_id(),
        url: "https://pcf.example.com".into(),
        token_url: "https://pcf.example.com/auth/token".into(),
        client_id: "tonne".into(),
        created_at: NOW,
        removed_at: None,
    }
}

fn secret() -> PartnerSecret {
    PartnerSecret::new("their-secret".into()).unwrap()
}

fn service(repo: MockPactPartnerRepository, accounts: MockAccountRepository) -> PactPartners {
    let targets = TargetPolicy::default();
    PactPartners::new(
        Arc::new(repo),
        Arc::new(accounts),
        stopped(NOW),
        ids(42),
        targets,
    )
}

fn accounts_with_one() -> MockAccountRepository {
    accounts_knowing(account_id(), NOW)
}

#[tokio::test]
async fn a_partner_is_stored_with_its_default_token_endpoint() {
    let mut repo = MockPactPartnerRepository::new();
    repo.expect_insert()
        .withf(|p, s, max| {
            *p == partner() && s.expose() == "their-secret" && *max == PARTNERS_PER_ACCOUNT
        })
        .times(1)
        .returning(|_, _, _| Ok(Ok(())));
    let s = service(repo, accounts_with_one());
    let added = s
        .add(
            account_id(),
            " https://pcf.example.com/ ",
            None,
            "tonne",
            secret(),
        )
        .await
        .unwrap();
    assert_eq!(added, partner());
    assert_eq!(added.events_url(), "https://pcf.example.com/2/events");
}

#[tokio::test]
async fn bad_urls_and_client_ids_are_refused_before_anything_is_stored() {
    let s = service(
        MockPactPartnerRepository::new(),
        MockAccountRepository::new(),
    );
    for url in [
        "http://pcf.example.com",
        "https://127.0.0.1",
        "https://localhost:8443",
        "ftp://pcf.example.com",
        "https://user:pw@pcf.example.com",
        "https://pcf.example.com/x?y=1",
        "not a url",
    ] {
        let refused = s.add(account_id(), url, None, "tonne", secret()).await;
        assert!(
            matches!(refused, Err(PartnerError::InvalidUrl(_))),
            "{url}: {refused:?}"
        );
    }
    let refused = s
        .add(
            account_id(),
            "https://pcf.example.com",
            Some("http://pcf.example.com/token".into()),
            "tonne",
            secret(),
        )
        .await;
    assert!(matches!(refused, Err(PartnerError::InvalidUrl(_))));
    for id in ["", "a\nb"] {
        let refused = s
            .add(account_id(), "https://pcf.example.com", None, id, secret())
            .await;
        assert!(matches!(refused, Err(PartnerError::InvalidClientId)));
    }
    assert!(PartnerSecret::new(String::new()).is_none());
    assert!(PartnerSecret::new("x".repeat(513)).is_none());
}

#[tokio::test]
async fn the_repository_s_refusals_are_passed_on() {
    let mut repo = MockPactPartnerRepository::new();
    repo.expect_insert()
        .returning(|_, _, _| Ok(Err(PartnerError::Duplicate)));
    let s = service(repo, accounts_with_one());
    let refused = s
        .add(account_id(), "https://pcf.example.com", None, "t", secret())
        .await;
    assert!(matches!(refused, Err(PartnerError::Duplicate)));
}

#[tokio::test]
async fn a_request_from_a_registered_source_is_queued() {
    let mut repo = MockPactPartnerRepository::new();
    repo.expect_find()
        .with(eq(account_id()), eq("https://pcf.example.com"))
        .returning(|_, _| Ok(Some(partner())));
    repo.expect_record()
        .withf(|r, max| {
            r.partner_id == partner().id
                && r.event_id == "e-1"
                && r.product_ids == ["urn:x:1"]
                && r.status == RequestStatus::Waiting
                && *max == WAITING_PER_ACCOUNT
        })
        .times(1)
        .returning(|r, _| Ok(Received::Queued(r.id)));
    let s = service(repo, MockAccountRepository::new());
    let received = s
        .receive(
            account_id(),
            "https://pcf.example.com/",
            "e-1",
            vec!["urn:x:1".into()],
        )
        .await
        .unwrap();
    assert_eq!(
        received,
        Received::Queued(PactRequestId::from_uuid(Uuid::from_u128(42)))
    );
}

#[tokio::test]
async fn a_request_from_anywhere_else_is_never_answered() {
    let mut repo = MockPactPartnerRepository::new();
    repo.expect_find().returning(|_, _| Ok(None));
    repo.expect_record().never();
    let s = service(repo, MockAccountRepository::new());
    for source in [
        "https://elsewhere.example.com",
        "https://169.254.169.254",
        "http://127.0.0.1:9",
        "urn:x",
    ] {
        let received = s
            .receive(account_id(), source, "e-1", vec!["urn:x:1".into()])
            .await
            .unwrap();
        assert_eq!(received, Received::NoPartner, "{source}");
    }
}

#[tokio::test]
async fn another_account_s_partner_is_not_removed() {
    let mut repo = MockPactPartnerRepository::new();
    repo.expect_get().returning(|_| Ok(Some(partner())));
    repo.expect_remove().never();
    let s = service(repo, MockAccountRepository::new());
    let other = AccountId::from_uuid(Uuid::from_u128(8));
    let refused = s.remove(Some(other), partner().id).await;
    assert!(matches!(refused, Err(PartnerError::PartnerNotFound)));
}

#[tokio::test]
async fn the_operator_removes_any_partner() {
    let mut repo = MockPactPartnerRepository::new();
    repo.expect_get().returning(|_| Ok(Some(partner())));
    repo.expect_remove()
        .with(eq(partner().id), always())
        .times(1)
        .returning(|_, at| {
            Ok(Some(PactPartner {
                removed_at: Some(at),
                ..partner()
            }))
        });
    let s = service(repo, MockAccountRepository::new());
    let removed = s.remove(None, partner().id).await.unwrap();
    assert_eq!(removed.removed_at, Some(NOW));
}
