//! Accounts: handles unique per organisation and mode, client idempotency keys,
//! activity, logos, and lookup by handle or idempotency key.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::sync::Arc;

use time::macros::datetime;
use tonne_accounts::ports::{AccountRepository, AccountUpdate, AccountWriteError, StoreError};
use tonne_accounts::{
    Account, AccountActivity, AccountChanges, AccountId, AccountIdempotencyKey, AccountScope,
    ExternalPagesVisibility, Handle,
};
use tonne_kernel::{AccountMode, OrganisationId, UuidV7Generator};
use tonne_storage::AccountStore;
use tonne_test_support::TestDb;

use super::fixtures::{T0, client, handle, pair, png_logo, seeded};

pub(super) async fn handles_are_unique_per_organisation_and_mode(t: TestDb) {
    let repo = AccountStore::new(t.db().clone());
    let (org, live, _) = seeded(&repo).await;
    let (other, _, _) = seeded(&repo).await;
    // NULL handles never collide.
    repo.insert_client(&client(org.id, AccountMode::Live, "A"), None)
        .await
        .unwrap();
    repo.insert_client(&client(org.id, AccountMode::Live, "B"), None)
        .await
        .unwrap();
    let mut first = client(org.id, AccountMode::Live, "C");
    first.handle = handle("acme");
    repo.insert_client(&first, None).await.unwrap();
    assert_eq!(
        repo.get(first.id).await.unwrap().unwrap().handle,
        handle("acme")
    );
    let mut again = client(org.id, AccountMode::Live, "D");
    again.handle = handle("acme");
    assert!(matches!(
        repo.insert_client(&again, None).await,
        Err(AccountWriteError::HandleTaken)
    ));
    assert_eq!(repo.get(again.id).await.unwrap(), None, "nothing written");
    // The other mode and another organisation may use it.
    let mut test_mode = client(org.id, AccountMode::Test, "E");
    test_mode.handle = handle("acme");
    repo.insert_client(&test_mode, None).await.unwrap();
    let mut elsewhere = client(other.id, AccountMode::Live, "F");
    elsewhere.handle = handle("acme");
    repo.insert_client(&elsewhere, None).await.unwrap();
    // A pair whose handle is taken writes neither half.
    let (mut l, mut t2) = pair(org.id, "G");
    l.handle = handle("acme");
    t2.handle = handle("g-test");
    assert!(matches!(
        repo.insert_pair(&l, &t2).await,
        Err(AccountWriteError::HandleTaken)
    ));
    assert_eq!(repo.get(t2.id).await.unwrap(), None);
    // An update to a taken handle changes nothing.
    let result = repo
        .update(&AccountUpdate {
            id: live.id,
            changes: AccountChanges {
                name: live.name.clone(),
                beneficiary: None,
                bundle_portfolio_id: None,
                handle: handle("acme"),
                external_pages_visibility: ExternalPagesVisibility::Public,
            },
            rename_sibling: None,
            updated_at: T0,
        })
        .await;
    assert!(matches!(result, Err(AccountWriteError::HandleTaken)));
    let unchanged = repo.get(live.id).await.unwrap().unwrap();
    assert_eq!(unchanged.handle, None);
    assert_eq!(
        unchanged.external_pages_visibility,
        ExternalPagesVisibility::Hidden
    );
}

pub(super) async fn a_client_idempotency_key_creates_exactly_one_account(t: TestDb) {
    let repo = Arc::new(AccountStore::new(t.db().clone()));
    let (org, _, _) = seeded(&repo).await;
    let key = AccountIdempotencyKey::parse("create-client-1").unwrap();
    let attempts = (0..8).map(|i| {
        let repo = Arc::clone(&repo);
        let mut c = client(org.id, AccountMode::Live, &format!("Client {i}"));
        c.idempotency_key = Some(key.clone());
        tokio::spawn(async move { repo.insert_client(&c, None).await })
    });
    let mut created = 0;
    for attempt in attempts {
        match attempt.await.unwrap() {
            Ok(()) => created += 1,
            Err(AccountWriteError::IdempotencyKeyTaken) => {}
            Err(other) => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(created, 1, "exactly one client account per key");
    // The same key in the other mode is another key.
    let mut test_mode = client(org.id, AccountMode::Test, "T");
    test_mode.idempotency_key = Some(key.clone());
    repo.insert_client(&test_mode, None).await.unwrap();
    let stored = repo.get(test_mode.id).await.unwrap().unwrap();
    assert_eq!(stored.idempotency_key, Some(key));
}

pub(super) async fn activity_counts_and_sums_each_accounts_estimates(t: TestDb) {
    let repo = AccountStore::new(t.db().clone());
    let (org, _, _) = seeded(&repo).await;
    let busy = client(org.id, AccountMode::Live, "Busy");
    let idle = client(org.id, AccountMode::Live, "Idle");
    let other = client(org.id, AccountMode::Live, "Other");
    for c in [&busy, &idle, &other] {
        repo.insert_client(c, None).await.unwrap();
    }
    let rows = [
        ("e1", &busy, Some(1_500_000_i64), "2026-05-01 10:00:00"),
        ("e2", &busy, Some(250_000), "2026-05-03 08:30:00"),
        ("e3", &busy, None, "2026-05-02 00:00:00"),
        ("e4", &other, Some(7), "2026-04-01 00:00:00"),
    ];
    for (id, account, grams, at) in rows {
        let sql = format!(
            "INSERT INTO estimates (id, account_id, kind, mass_grams, request, result, created_at, updated_at)              VALUES ('{id}', '{}', 'transaction', {}, '{{}}', '{{}}', '{at}', '{at}')",
            account.id,
            grams.map_or("NULL".to_owned(), |g| g.to_string()),
        );
        tonne_test_support::execute(t.db(), sql).await;
    }
    let activity = repo.activity(&[busy.id, idle.id]).await.unwrap();
    assert_eq!(
        activity.len(),
        1,
        "only accounts with estimates, only those asked"
    );
    let (id, a) = activity[0];
    assert_eq!(id, busy.id);
    assert_eq!(
        a,
        AccountActivity {
            last_active: Some(datetime!(2026-05-03 08:30:00 UTC)),
            number_of_estimates: 3,
            total_emissions: tonne_kernel::Mass::from_grams(1_750_000),
        }
    );
}

pub(super) async fn logos_round_trip_and_replace_the_previous_one(t: TestDb) {
    let repo = AccountStore::new(t.db().clone());
    let (_, live, _) = seeded(&repo).await;
    let logo = |bytes: Vec<u8>| png_logo(&live, bytes, datetime!(2026-06-01 00:00 UTC));
    let first = logo(vec![1, 2, 3]);
    let updated = repo
        .set_logo(&first, "https://tonne.example/logos/1")
        .await
        .unwrap();
    assert_eq!(
        updated.logo.as_deref(),
        Some("https://tonne.example/logos/1")
    );
    assert_eq!(updated.updated_at, first.created_at);
    assert_eq!(repo.logo(first.id).await.unwrap(), Some(first.clone()));
    let second = logo((0..=255).collect());
    repo.set_logo(&second, "https://tonne.example/logos/2")
        .await
        .unwrap();
    assert_eq!(repo.logo(first.id).await.unwrap(), None, "replaced");
    assert_eq!(
        repo.logo(second.id)
            .await
            .unwrap()
            .unwrap()
            .image
            .bytes
            .len(),
        256
    );
    let mut orphan = logo(vec![9]);
    orphan.account_id = AccountId::generate(&UuidV7Generator);
    assert!(matches!(
        repo.set_logo(&orphan, "x").await,
        Err(StoreError::NotFound)
    ));
    assert_eq!(repo.logo(orphan.id).await.unwrap(), None);

    // deleting clears the account's logo and drops the stored image
    let later = datetime!(2026-06-02 00:00 UTC);
    let cleared = repo.delete_logo(live.id, later).await.unwrap();
    assert_eq!(cleared.logo, None);
    assert_eq!(cleared.updated_at, later);
    assert_eq!(repo.get(live.id).await.unwrap().unwrap().logo, None);
    assert_eq!(repo.logo(second.id).await.unwrap(), None, "deleted");
    // twice: still none (the service does not even ask); an unknown account
    assert_eq!(repo.delete_logo(live.id, later).await.unwrap().logo, None);
    assert!(matches!(
        repo.delete_logo(orphan.account_id, later).await,
        Err(StoreError::NotFound)
    ));
}

/// `by_reference`: the accounts of an organisation and mode with a handle or
/// an idempotency key, either scope, by id; another mode or organisation,
/// or neither name, matches nothing.
pub(super) async fn accounts_are_found_by_handle_or_idempotency_key(t: TestDb) {
    let repo = AccountStore::new(t.db().clone());
    let (org, live, _) = seeded(&repo).await;
    let mut by_handle = client(org.id, AccountMode::Live, "By handle");
    by_handle.handle = Some(Handle::parse("acme-eu").unwrap());
    repo.insert_client(&by_handle, None).await.unwrap();
    let mut by_key = client(org.id, AccountMode::Live, "By key");
    by_key.idempotency_key = Some(AccountIdempotencyKey::parse("client-7").unwrap());
    repo.insert_client(&by_key, None).await.unwrap();
    let handle = |h: &str| Some(Handle::parse(h).unwrap());
    let key = |k: &str| Some(AccountIdempotencyKey::parse(k).unwrap());
    let ids = |found: Vec<Account>| found.into_iter().map(|a| a.id).collect::<Vec<_>>();

    let found = repo
        .by_reference(org.id, AccountMode::Live, handle("acme-eu"), None)
        .await
        .unwrap();
    assert_eq!(ids(found.clone()), vec![by_handle.id]);
    assert_eq!(found[0].scope, AccountScope::ClientAccount);
    assert_eq!(
        ids(repo
            .by_reference(org.id, AccountMode::Live, None, key("client-7"))
            .await
            .unwrap()),
        vec![by_key.id]
    );
    // a handle of one and a key of another: both, by id
    let mut both = vec![by_handle.id, by_key.id];
    both.sort_by_key(ToString::to_string);
    assert_eq!(
        ids(repo
            .by_reference(
                org.id,
                AccountMode::Live,
                handle("acme-eu"),
                key("client-7")
            )
            .await
            .unwrap()),
        both
    );
    // a regular account's handle is found too (the caller tells them apart)
    let mut regular = live.clone();
    regular.handle = handle("main");
    repo.update(&AccountUpdate {
        id: live.id,
        changes: AccountChanges {
            name: live.name.clone(),
            beneficiary: live.beneficiary.clone(),
            bundle_portfolio_id: None,
            handle: regular.handle.clone(),
            external_pages_visibility: live.external_pages_visibility,
        },
        rename_sibling: None,
        updated_at: T0,
    })
    .await
    .unwrap();
    let found = repo
        .by_reference(org.id, AccountMode::Live, handle("main"), None)
        .await
        .unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].scope, AccountScope::Account);
    // nothing elsewhere
    for (o, mode, h, k) in [
        (
            org.id,
            AccountMode::Test,
            handle("acme-eu"),
            key("client-7"),
        ),
        (
            OrganisationId::generate(&UuidV7Generator),
            AccountMode::Live,
            handle("acme-eu"),
            None,
        ),
        (org.id, AccountMode::Live, None, None),
        (org.id, AccountMode::Live, handle("nobody"), key("nothing")),
    ] {
        assert!(repo.by_reference(o, mode, h, k).await.unwrap().is_empty());
    }
}
