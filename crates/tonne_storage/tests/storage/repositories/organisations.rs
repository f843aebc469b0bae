//! Organisations and their account pairs: round trips, a broken pair, keyset
//! lists and pages, and a rename that takes the sibling with it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use time::macros::datetime;
use tonne_accounts::ports::{
    AccountQuery, AccountRepository, AccountUpdate, AccountWriteError, StoreError,
};
use tonne_accounts::{
    AccountChanges, AccountId, AccountName, AccountScope, ExternalPagesVisibility, Handle,
    NameFilter, Organisation, OrganisationType,
};
use tonne_kernel::{AccountMode, Cursor, Limit, OrganisationId, PageRequest, UuidV7Generator};
use tonne_storage::AccountStore;
use tonne_test_support::TestDb;

use super::fixtures::{account, organisation, pair, seeded};

pub(super) async fn organisations_and_pairs_round_trip(t: TestDb) {
    let repo = AccountStore::new(t.db().clone());
    assert!(!repo.any_organisation().await.unwrap());
    let (org, live, test) = seeded(&repo).await;
    assert!(repo.any_organisation().await.unwrap());
    assert_eq!(repo.organisation(org.id).await.unwrap(), Some(org.clone()));
    assert_eq!(repo.get(live.id).await.unwrap(), Some(live.clone()));
    assert_eq!(
        repo.get(test.id).await.unwrap().unwrap().sibling_id,
        Some(live.id)
    );
    assert_eq!(
        repo.first_of_mode(org.id, AccountMode::Test).await.unwrap(),
        Some(test)
    );
    assert_eq!(
        repo.get(AccountId::generate(&UuidV7Generator))
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        repo.organisation(OrganisationId::generate(&UuidV7Generator))
            .await
            .unwrap(),
        None
    );
}

pub(super) async fn a_broken_pair_writes_nothing(t: TestDb) {
    let repo = AccountStore::new(t.db().clone());
    let (org, _, _) = seeded(&repo).await;
    let (live, mut test) = pair(org.id, "Half");
    test.sibling_id = Some(AccountId::generate(&UuidV7Generator)); // points nowhere
    assert!(repo.insert_pair(&live, &test).await.is_err());
    assert_eq!(
        repo.get(live.id).await.unwrap(),
        None,
        "the live half was rolled back"
    );
    assert_eq!(repo.get(test.id).await.unwrap(), None);
    // a duplicate id is reported as such
    let (l2, t2) = pair(org.id, "Dup");
    repo.insert_pair(&l2, &t2).await.unwrap();
    assert!(matches!(
        repo.insert_client(
            &{
                let mut c = l2.clone();
                c.scope = AccountScope::ClientAccount;
                c.sibling_id = None;
                c
            },
            None
        )
        .await,
        Err(AccountWriteError::Store(StoreError::Duplicate))
    ));
}

pub(super) async fn lists_page_by_keyset_within_organisation_mode_and_scope(t: TestDb) {
    let repo = AccountStore::new(t.db().clone());
    let (org, _, _) = seeded(&repo).await;
    let (other_org, _, _) = seeded(&repo).await;
    for i in 0..24 {
        let (l, t) = pair(org.id, &format!("Shop_{i:02}"));
        repo.insert_pair(&l, &t).await.unwrap();
    }
    repo.insert_client(
        &account(
            org.id,
            AccountMode::Live,
            AccountScope::ClientAccount,
            "Client",
        ),
        None,
    )
    .await
    .unwrap();
    let query = AccountQuery {
        organisation_id: org.id,
        mode: AccountMode::Live,
        scope: AccountScope::Account,
        name: None,
    };
    let mut seen = Vec::new();
    let mut after = None;
    let mut pages = Vec::new();
    loop {
        let page = repo
            .list(&query, &crate::fixtures::page(10, after))
            .await
            .unwrap();
        pages.push((page.items.len(), page.has_more));
        after = page.items.last().map(|a| Cursor::after(&a.id));
        seen.extend(page.items.into_iter().map(|a| {
            assert_eq!(
                (a.organisation_id, a.mode, a.scope),
                (org.id, AccountMode::Live, AccountScope::Account)
            );
            a.id
        }));
        if !page.has_more {
            break;
        }
    }
    assert_eq!(pages, vec![(10, true), (10, true), (5, false)]);
    let mut sorted = seen.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(seen, sorted, "ascending, no duplicates");
    assert_eq!(seen.len(), 25);

    let other = AccountQuery {
        organisation_id: other_org.id,
        ..query.clone()
    };
    assert_eq!(
        repo.list(&other, &PageRequest::first())
            .await
            .unwrap()
            .items
            .len(),
        1
    );
    let clients = AccountQuery {
        scope: AccountScope::ClientAccount,
        ..query.clone()
    };
    assert_eq!(
        repo.list(&clients, &PageRequest::first())
            .await
            .unwrap()
            .items
            .len(),
        1
    );

    // case-insensitive substring; `_` is literal, not a wildcard
    let named = |n: &str| AccountQuery {
        name: Some(NameFilter::parse(n).unwrap()),
        ..query.clone()
    };
    let hits = repo
        .list(
            &named("shop_1"),
            &PageRequest {
                limit: Limit::new(100).unwrap(),
                after: None,
            },
        )
        .await
        .unwrap();
    assert_eq!(hits.items.len(), 10);
    let none = repo
        .list(&named("hop1"), &PageRequest::first())
        .await
        .unwrap();
    assert!(none.items.is_empty());
    let acme = repo
        .list(&named("ACM"), &PageRequest::first())
        .await
        .unwrap();
    assert_eq!(acme.items.len(), 1);
}

pub(super) async fn an_update_renames_the_sibling_atomically(t: TestDb) {
    let repo = AccountStore::new(t.db().clone());
    let (_, live, test) = seeded(&repo).await;
    let at = datetime!(2026-05-01 00:00:00.5 UTC);
    let changes = AccountChanges {
        name: AccountName::parse("Renamed").unwrap(),
        beneficiary: None,
        bundle_portfolio_id: None,
        handle: Some(Handle::parse("renamed").unwrap()),
        external_pages_visibility: ExternalPagesVisibility::Public,
    };
    let updated = repo
        .update(&AccountUpdate {
            id: live.id,
            changes: changes.clone(),
            rename_sibling: Some(test.id),
            updated_at: at,
        })
        .await
        .unwrap();
    assert_eq!(updated.name.as_str(), "Renamed");
    assert_eq!(updated.beneficiary, None, "an absent beneficiary clears it");
    assert_eq!(updated.handle.as_ref().map(Handle::as_str), Some("renamed"));
    assert_eq!(
        updated.external_pages_visibility,
        ExternalPagesVisibility::Public
    );
    assert_eq!(updated.organisation_type, OrganisationType::Supplier);
    assert_eq!(updated.updated_at, at);
    assert_eq!(
        repo.get(test.id).await.unwrap().unwrap().name.as_str(),
        "Renamed"
    );
    assert_eq!(
        repo.get(test.id)
            .await
            .unwrap()
            .unwrap()
            .beneficiary
            .unwrap()
            .as_str(),
        "Jane Doe"
    );

    // a sibling that is not there rolls the whole change back
    let failing = AccountChanges {
        name: AccountName::parse("Never").unwrap(),
        ..changes.clone()
    };
    let result = repo
        .update(&AccountUpdate {
            id: live.id,
            changes: failing,
            rename_sibling: Some(AccountId::generate(&UuidV7Generator)),
            updated_at: at,
        })
        .await;
    assert!(result.is_err());
    assert_eq!(
        repo.get(live.id).await.unwrap().unwrap().name.as_str(),
        "Renamed"
    );

    let missing = repo
        .update(&AccountUpdate {
            id: AccountId::generate(&UuidV7Generator),
            changes,
            rename_sibling: None,
            updated_at: at,
        })
        .await;
    assert!(matches!(
        missing,
        Err(AccountWriteError::Store(StoreError::NotFound))
    ));
}

pub(super) async fn organisations_are_listed_oldest_first_by_keyset(t: TestDb) {
    let repo = AccountStore::new(t.db().clone());
    let mut ids = Vec::new();
    for n in 0..3 {
        let org = Organisation {
            name: format!("Org {n}"),
            ..organisation()
        };
        let (live, test) = pair(org.id, "Main");
        repo.create_organisation(&org, &live, &test, None)
            .await
            .unwrap();
        ids.push(org.id);
    }
    let page = |after: Option<OrganisationId>| PageRequest {
        limit: Limit::new(2).unwrap(),
        after: after.map(|id| Cursor::after(&id)),
    };
    let first = repo.list_organisations(&page(None)).await.unwrap();
    assert_eq!(
        first.items.iter().map(|o| o.id).collect::<Vec<_>>(),
        ids[..2]
    );
    assert!(first.has_more);
    let second = repo.list_organisations(&page(Some(ids[1]))).await.unwrap();
    assert_eq!(
        second.items.iter().map(|o| o.id).collect::<Vec<_>>(),
        ids[2..]
    );
    assert!(!second.has_more);
    let unknown = OrganisationId::generate(&UuidV7Generator);
    assert!(matches!(
        repo.list_organisations(&page(Some(unknown))).await,
        Err(StoreError::NotFound)
    ));
}
