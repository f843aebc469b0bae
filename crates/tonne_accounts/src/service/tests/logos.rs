//! Account logos.

use super::*;

#[tokio::test]
async fn a_logo_is_stored_under_a_new_id_with_an_absolute_url() {
    let live = account(20, 1, AccountMode::Live, AccountScope::Account);
    let mut accounts = with_current(live.clone());
    let returned = live.clone();
    accounts
        .expect_set_logo()
        .times(1)
        .withf(move |logo, url| {
            logo.account_id == live.id && url == format!("https://tonne.example/logos/{}", logo.id)
        })
        .returning(move |_, url| {
            let mut a = returned.clone();
            a.logo = Some(url.to_owned());
            Ok(a)
        });
    let svc = over_accounts(accounts);
    let account = svc
        .set_logo(
            &caller(AccountMode::Live, AccountScope::Account),
            AccountScope::Account,
            &AccountId::from_uuid(Uuid::from_u128(20)).to_string(),
            png_logo(),
            "https://tonne.example/",
        )
        .await
        .unwrap();
    assert!(
        account
            .logo
            .unwrap()
            .starts_with("https://tonne.example/logos/")
    );
}

#[tokio::test]
async fn a_logo_follows_the_access_rules_of_updates() {
    let other_org = account(20, 2, AccountMode::Live, AccountScope::Account);
    let accounts = with_current(other_org.clone());
    let svc = over_accounts(accounts);
    let id = other_org.id.to_string();
    assert!(matches!(
        svc.set_logo(
            &caller(AccountMode::Live, AccountScope::Account),
            AccountScope::Account,
            &id,
            png_logo(),
            "http://x"
        )
        .await,
        Err(UpdateAccountError::NotFound)
    ));
    assert!(matches!(
        svc.set_logo(
            &caller(AccountMode::Live, AccountScope::ClientAccount),
            AccountScope::Account,
            &id,
            png_logo(),
            "http://x"
        )
        .await,
        Err(UpdateAccountError::ClientAccountKey)
    ));
    assert!(matches!(
        svc.set_logo(
            &caller(AccountMode::Live, AccountScope::Account),
            AccountScope::ClientAccount,
            &id,
            png_logo(),
            "http://x"
        )
        .await,
        Err(UpdateAccountError::NotFound)
    ));
}

#[tokio::test]
async fn a_malformed_logo_id_is_none_without_storage() {
    let svc = over_accounts(MockAccountRepository::new());
    assert_eq!(svc.logo("../../etc/passwd").await.unwrap(), None);
}

#[tokio::test]
async fn deleting_a_logo_clears_it_once_and_a_second_delete_writes_nothing() {
    let mut live = account(20, 1, AccountMode::Live, AccountScope::Account);
    live.logo = Some("https://tonne.example/logos/0190c6f1a7b27c3e9f2d4b1a2c3d4e5f".into());
    let mut accounts = with_current(live.clone());
    let cleared = Account {
        logo: None,
        ..live.clone()
    };
    let id = live.id;
    accounts
        .expect_delete_logo()
        .times(1)
        .withf(move |account, _| *account == id)
        .returning(move |_, _| Ok(cleared.clone()));
    let svc = over_accounts(accounts);
    let caller = caller(AccountMode::Live, AccountScope::Account);
    let done = svc
        .delete_logo(&caller, AccountScope::Account, &id.to_string())
        .await
        .unwrap();
    assert_eq!(done.logo, None);

    // already without a logo: answered as is, the store is not asked
    let mut accounts = with_current(Account {
        logo: None,
        ..live.clone()
    });
    accounts.expect_delete_logo().never();
    let svc = over_accounts(accounts);
    let again = svc
        .delete_logo(&caller, AccountScope::Account, &id.to_string())
        .await
        .unwrap();
    assert_eq!(again.logo, None);
}

#[tokio::test]
async fn deleting_a_logo_follows_the_access_rules_of_updates() {
    let mut other_org = account(20, 2, AccountMode::Live, AccountScope::Account);
    other_org.logo = Some("https://tonne.example/logos/x".into());
    let mut accounts = with_current(other_org.clone());
    accounts.expect_delete_logo().never();
    let svc = over_accounts(accounts);
    let id = other_org.id.to_string();
    let live = caller(AccountMode::Live, AccountScope::Account);
    assert!(matches!(
        svc.delete_logo(&live, AccountScope::Account, &id).await,
        Err(UpdateAccountError::NotFound)
    ));
    assert!(matches!(
        svc.delete_logo(
            &caller(AccountMode::Live, AccountScope::ClientAccount),
            AccountScope::Account,
            &id
        )
        .await,
        Err(UpdateAccountError::ClientAccountKey)
    ));
    assert!(matches!(
        svc.delete_logo(&live, AccountScope::ClientAccount, &id)
            .await,
        Err(UpdateAccountError::NotFound)
    ));
    assert!(matches!(
        svc.delete_logo(&live, AccountScope::Account, "not-an-id")
            .await,
        Err(UpdateAccountError::NotFound)
    ));
}
