//! What a caller may read and change: scopes, lists, patches, client activity.

use super::*;

#[tokio::test]
async fn ids_outside_the_organisation_or_mode_are_not_found_and_the_other_kind_invalid() {
    let who = caller(AccountMode::Live, AccountScope::Account);
    for (target, not_found) in [
        (
            account(20, 2, AccountMode::Live, AccountScope::Account),
            true,
        ),
        (
            account(20, 1, AccountMode::Test, AccountScope::Account),
            true,
        ),
        (
            account(20, 1, AccountMode::Live, AccountScope::ClientAccount),
            false,
        ),
    ] {
        let svc = over_accounts(with_current(target.clone()));
        let answer = svc
            .update_account(
                &who,
                AccountScope::Account,
                &target.id.to_string(),
                changes("Acme"),
            )
            .await;
        if not_found {
            assert!(matches!(answer, Err(UpdateAccountError::NotFound)));
        } else {
            assert!(matches!(answer, Err(UpdateAccountError::IdInvalid)));
        }
    }
    let svc = over_accounts(MockAccountRepository::new());
    assert!(matches!(
        svc.update_account(&who, AccountScope::Account, "../etc", changes("Acme"))
            .await,
        Err(UpdateAccountError::NotFound)
    ));
    let mut nowhere = MockAccountRepository::new();
    nowhere.expect_get().returning(|_| Ok(None));
    let svc_nowhere = over_accounts(nowhere);
    let unknown = AccountId::from_uuid(Uuid::from_u128(77)).to_string();
    assert!(matches!(
        svc_nowhere
            .update_account(&who, AccountScope::Account, &unknown, changes("Acme"))
            .await,
        Err(UpdateAccountError::NotFound)
    ));
    assert!(matches!(
        svc.update_account(
            &caller(AccountMode::Live, AccountScope::ClientAccount),
            AccountScope::Account,
            "x",
            changes("Acme")
        )
        .await,
        Err(UpdateAccountError::ClientAccountKey)
    ));
}

#[tokio::test]
async fn lists_are_confined_to_the_callers_organisation_and_mode() {
    let mut accounts = MockAccountRepository::new();
    accounts
        .expect_list()
        .withf(|q, p| {
            q.organisation_id == org(1)
                && q.mode == AccountMode::Test
                && q.scope == AccountScope::ClientAccount
                && p.limit.get() == 5
        })
        .returning(|_, _| {
            Ok(Page {
                items: vec![],
                has_more: false,
            })
        });
    let svc = over_accounts(accounts);
    let page = PageRequest {
        limit: Limit::new(5).unwrap(),
        after: None,
    };
    svc.list_accounts(
        &caller(AccountMode::Test, AccountScope::Account),
        AccountScope::ClientAccount,
        None,
        page.clone(),
    )
    .await
    .unwrap();
    assert!(matches!(
        svc.list_accounts(
            &caller(AccountMode::Test, AccountScope::ClientAccount),
            AccountScope::Account,
            None,
            page
        )
        .await,
        Err(ListAccountsError::ClientAccountKey)
    ));
}

#[tokio::test]
async fn a_patch_keeps_what_it_does_not_name_and_clears_what_it_nulls() {
    let mut live = account(20, 1, AccountMode::Live, AccountScope::Account);
    live.sibling_id = Some(AccountId::from_uuid(Uuid::from_u128(21)));
    live.beneficiary = Some(crate::Beneficiary::parse("Jane").unwrap());
    live.bundle_portfolio_id = Some(crate::PortfolioId::parse("p1").unwrap());
    live.handle = Some(Handle::parse("old").unwrap());
    let accounts = updating(&live, |u| {
        u.rename_sibling.is_none()
            && u.changes.name.as_str() == "Acme"
            && u.changes.beneficiary.is_none()
            && u.changes.bundle_portfolio_id.as_ref().map(|p| p.as_str()) == Some("p1")
            && u.changes.handle.as_ref().map(Handle::as_str) == Some("new")
            && u.changes.external_pages_visibility == ExternalPagesVisibility::Public
    });
    let svc = over_accounts(accounts);
    let patch = AccountPatch {
        beneficiary: Some(None),
        handle: Some(Handle::parse("new").unwrap()),
        external_pages_visibility: Some(ExternalPagesVisibility::Public),
        ..AccountPatch::default()
    };
    update_as(&svc, AccountMode::Live, &live, patch)
        .await
        .unwrap();
}

#[tokio::test]
async fn a_patch_follows_the_sibling_rules_of_put() {
    let test = account(21, 1, AccountMode::Test, AccountScope::Account);
    let accounts = with_current(test.clone());
    let svc = over_accounts(accounts);
    let rename = AccountPatch {
        name: Some(AccountName::parse("Other").unwrap()),
        ..AccountPatch::default()
    };
    assert!(matches!(
        update_as(&svc, AccountMode::Test, &test, rename).await,
        Err(UpdateAccountError::TestAccountNameUpdateDisallowed)
    ));
    let (live, svc) = renaming_a_live_account_with_a_sibling();
    let patch = AccountPatch {
        name: Some(AccountName::parse("New").unwrap()),
        ..AccountPatch::default()
    };
    update_as(&svc, AccountMode::Live, &live, patch)
        .await
        .unwrap();
}

#[tokio::test]
async fn a_handle_taken_on_update_is_reported_as_such() {
    let live = account(20, 1, AccountMode::Live, AccountScope::Account);
    let mut accounts = with_current(live.clone());
    accounts
        .expect_update()
        .returning(|_| Err(AccountWriteError::HandleTaken));
    let svc = over_accounts(accounts);
    let patch = AccountPatch {
        handle: Some(Handle::parse("taken").unwrap()),
        ..AccountPatch::default()
    };
    assert!(matches!(
        update_as(&svc, AccountMode::Live, &live, patch).await,
        Err(UpdateAccountError::HandleTaken)
    ));
}

#[tokio::test]
async fn client_me_is_for_client_accounts_only() {
    let mut accounts = MockAccountRepository::new();
    let client = account(10, 1, AccountMode::Live, AccountScope::ClientAccount);
    accounts
        .expect_get()
        .times(1)
        .returning(move |_| Ok(Some(client.clone())));
    let svc = over_accounts(accounts);
    assert!(matches!(
        svc.client_me(&caller(AccountMode::Live, AccountScope::Account))
            .await,
        Err(ReadAccountError::NotAClientAccount)
    ));
    let me = svc
        .client_me(&caller(AccountMode::Live, AccountScope::ClientAccount))
        .await
        .unwrap();
    assert_eq!(me.scope, AccountScope::ClientAccount);
}

#[tokio::test]
async fn client_lists_carry_each_accounts_activity_in_one_store_call() {
    let a = account(40, 1, AccountMode::Live, AccountScope::ClientAccount);
    let b = account(41, 1, AccountMode::Live, AccountScope::ClientAccount);
    let (a_id, b_id) = (a.id, b.id);
    let mut accounts = MockAccountRepository::new();
    accounts.expect_list().returning(move |_, _| {
        Ok(Page {
            items: vec![a.clone(), b.clone()],
            has_more: false,
        })
    });
    accounts
        .expect_activity()
        .times(1)
        .withf(move |ids| ids == [a_id, b_id])
        .returning(move |_| {
            Ok(vec![(
                b_id,
                AccountActivity {
                    last_active: Some(datetime!(2026-05-01 10:00 UTC)),
                    number_of_estimates: 3,
                    total_emissions: tonne_kernel::Mass::from_grams(1_500_000),
                },
            )])
        });
    let svc = over_accounts(accounts);
    let page = live_clients(&svc).await;
    assert_eq!(page.items.len(), 2);
    // An account with no estimates: none, zero, zero.
    assert_eq!(page.items[0].1, AccountActivity::default());
    assert_eq!(page.items[1].1.number_of_estimates, 3);
    assert_eq!(page.items[1].1.total_emissions.grams(), 1_500_000);
}

#[tokio::test]
async fn an_empty_client_list_asks_for_no_activity() {
    let mut accounts = MockAccountRepository::new();
    accounts.expect_list().returning(|_, _| {
        Ok(Page {
            items: vec![],
            has_more: false,
        })
    });
    accounts.expect_activity().never();
    let svc = over_accounts(accounts);
    let page = live_clients(&svc).await;
    assert!(page.items.is_empty());
}
