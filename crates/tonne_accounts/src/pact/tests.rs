//! The PACT clients' rules over mocked ports: a secret and a token are
//! checked by hash, a revoked client's credentials and tokens are refused,
//! an expired token is told apart, an account's clients are bounded.

use std::sync::Arc;

use mockall::predicate::always;
use time::macros::datetime;
use uuid::Uuid;

use super::*;
use crate::ports::MockAccountRepository;
use crate::testing::{accounts_knowing, ids, stopped};

const NOW: OffsetDateTime = datetime!(2026-06-01 12:00 UTC);

fn account_id() -> AccountId {
    AccountId::from_uuid(Uuid::from_u128(7))
}

fn client(secret: &ClientSecret, revoked: bool) -> PactClient {
    PactClient {
        id: PactClientId::from_uuid(Uuid::from_u128(42)),
        account_id: account_id(),
        label: "Carrier portal".into(),
        secret_hash: KeyHash::of(secret.expose()),
        created_at: NOW,
        revoked_at: revoked.then_some(NOW),
    }
}

fn service(repo: MockPactClientRepository, accounts: MockAccountRepository) -> PactClients {
    PactClients::new(Arc::new(repo), Arc::new(accounts), stopped(NOW), ids(42))
}

fn accounts_with_one() -> MockAccountRepository {
    accounts_knowing(account_id(), NOW)
}

#[tokio::test]
async fn a_new_client_is_stored_by_its_secrets_hash_only() {
    let mut repo = MockPactClientRepository::new();
    repo.expect_insert()
        .withf(|c, max| c.revoked_at.is_none() && *max == CLIENTS_PER_ACCOUNT)
        .times(1)
        .returning(|_, _| Ok(true));
    let created = service(repo, accounts_with_one())
        .create(account_id(), "  Carrier portal ")
        .await
        .unwrap();
    assert_eq!(created.client.label, "Carrier portal");
    assert!(
        created
            .client
            .secret_hash
            .matches(&KeyHash::of(created.secret.expose()))
    );
    assert!(!format!("{:?}", created).contains(&created.secret.expose()[12..]));
}

#[tokio::test]
async fn a_client_past_the_accounts_bound_or_of_no_account_is_refused() {
    let mut repo = MockPactClientRepository::new();
    repo.expect_insert().returning(|_, _| Ok(false));
    let s = service(repo, accounts_with_one());
    assert!(matches!(
        s.create(account_id(), "x").await,
        Err(ClientError::TooMany)
    ));
    assert!(matches!(
        s.create(account_id(), "").await,
        Err(ClientError::InvalidLabel)
    ));
    assert!(matches!(
        s.create(account_id(), "a\u{7}b").await,
        Err(ClientError::InvalidLabel)
    ));
    let mut none = MockAccountRepository::new();
    none.expect_get().returning(|_| Ok(None));
    let s = service(MockPactClientRepository::new(), none);
    assert!(matches!(
        s.create(account_id(), "x").await,
        Err(ClientError::AccountNotFound)
    ));
}

#[tokio::test]
async fn the_right_secret_buys_a_token_stored_by_hash_with_an_hours_life() {
    let secret = ClientSecret::generate();
    let stored = client(&secret, false);
    let mut repo = MockPactClientRepository::new();
    repo.expect_get()
        .returning(move |_| Ok(Some(stored.clone())));
    repo.expect_insert_token()
        .withf(|_, _, issued, expires, keep| {
            *issued == NOW && *expires == NOW + TOKEN_LIFETIME && *keep == TOKENS_PER_CLIENT
        })
        .times(1)
        .returning(|_, _, _, _, _| Ok(()));
    let issued = service(repo, MockAccountRepository::new())
        .issue_token(
            &PactClientId::from_uuid(Uuid::from_u128(42)).to_string(),
            secret.expose(),
        )
        .await
        .unwrap();
    assert_eq!(issued.expires_in, 3600);
    assert!(AccessToken::well_formed(issued.token.expose()));
}

#[tokio::test]
async fn a_wrong_secret_a_revoked_client_or_an_unknown_id_buy_nothing() {
    let secret = ClientSecret::generate();
    let other = ClientSecret::generate();
    let good = client(&secret, false);
    let revoked = client(&secret, true);
    let mut repo = MockPactClientRepository::new();
    let mut answers = vec![Some(revoked), Some(good.clone())].into_iter();
    repo.expect_get()
        .times(2)
        .returning(move |_| Ok(answers.next().flatten()));
    repo.expect_insert_token().never();
    let s = service(repo, MockAccountRepository::new());
    let id = PactClientId::from_uuid(Uuid::from_u128(42)).to_string();
    // revoked (first answer), then a wrong secret (second)
    assert!(matches!(
        s.issue_token(&id, secret.expose()).await,
        Err(TokenError::InvalidClient)
    ));
    assert!(matches!(
        s.issue_token(&id, other.expose()).await,
        Err(TokenError::InvalidClient)
    ));
    // neither reaches the store
    assert!(matches!(
        s.issue_token("not-an-id", secret.expose()).await,
        Err(TokenError::InvalidClient)
    ));
    assert!(matches!(
        s.issue_token(&id, "tonne_pact_short").await,
        Err(TokenError::InvalidClient)
    ));
}

#[tokio::test]
async fn a_token_names_its_account_until_it_expires() {
    let live = AccessToken::generate();
    let old = AccessToken::generate();
    let live_hash = KeyHash::of(live.expose());
    let mut repo = MockPactClientRepository::new();
    repo.expect_token().with(always()).returning(move |hash| {
        Ok(Some(TokenRecord {
            account_id: account_id(),
            expires_at: if *hash == live_hash {
                NOW + time::Duration::minutes(5)
            } else {
                NOW
            },
        }))
    });
    let s = service(repo, MockAccountRepository::new());
    assert_eq!(s.authenticate(live.expose()).await.unwrap(), account_id());
    assert!(matches!(
        s.authenticate(old.expose()).await,
        Err(TokenAuthError::Expired)
    ));
    assert!(matches!(
        s.authenticate("Bearer nonsense").await,
        Err(TokenAuthError::Invalid)
    ));
}

#[tokio::test]
async fn revoking_another_accounts_client_is_as_unknown() {
    let secret = ClientSecret::generate();
    let stored = client(&secret, false);
    let mut repo = MockPactClientRepository::new();
    repo.expect_get()
        .returning(move |_| Ok(Some(stored.clone())));
    repo.expect_revoke()
        .times(1)
        .returning(|_, at| Ok(Some(client(&ClientSecret::generate(), at == NOW))));
    let s = service(repo, MockAccountRepository::new());
    let id = PactClientId::from_uuid(Uuid::from_u128(42));
    let stranger = AccountId::from_uuid(Uuid::from_u128(8));
    assert!(matches!(
        s.revoke(Some(stranger), id).await,
        Err(ClientError::ClientNotFound)
    ));
    let revoked = s.revoke(Some(account_id()), id).await.unwrap();
    assert!(revoked.revoked_at.is_some());
}
