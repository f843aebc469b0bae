//! The client account an estimate request is made on behalf of (the
//! contract's `EstimateClientAccountRequest`): found by handle or idempotency
//! key in the caller's organisation and mode, created when there is none.

use crate::errors::CreateAccountError;
use crate::models::{Account, AccountScope, Caller, InvalidField, NewAccount};

use super::Accounts;

impl Accounts {
    pub(super) async fn on_behalf(
        &self,
        caller: &Caller,
        new: NewAccount,
    ) -> Result<Account, CreateAccountError> {
        if caller.scope == AccountScope::ClientAccount {
            return Err(CreateAccountError::ClientAccountKey);
        }
        if new.handle.is_none() && new.idempotency_key.is_none() {
            return Err(InvalidField::new(
                "client_account",
                "needs a handle or an idempotency_key to name the client account",
            )
            .into());
        }
        if let Some(found) = self.named(caller, &new).await? {
            return Ok(found);
        }
        match self.create_client(caller, new.clone()).await {
            // a concurrent request created it between the read and the insert
            Err(
                taken @ (CreateAccountError::HandleTaken | CreateAccountError::IdempotencyKeyTaken),
            ) => self.named(caller, &new).await?.ok_or(taken),
            other => other,
        }
    }

    /// The existing client account `new` names, if any; its other fields
    /// (name, currency…) are not compared (the contract: "other properties
    /// are ignored").
    async fn named(
        &self,
        caller: &Caller,
        new: &NewAccount,
    ) -> Result<Option<Account>, CreateAccountError> {
        let found = self
            .accounts
            .by_reference(
                caller.organisation_id,
                caller.mode,
                new.handle.clone(),
                new.idempotency_key.clone(),
            )
            .await
            .map_err(|e| CreateAccountError::Unexpected(e.unexpected()))?;
        match found.as_slice() {
            [] => Ok(None),
            [account] if account.scope != AccountScope::ClientAccount => {
                Err(CreateAccountError::HandleTaken)
            }
            [account] => {
                let handle_differs = new.handle.is_some() && account.handle != new.handle;
                let key_differs =
                    new.idempotency_key.is_some() && account.idempotency_key != new.idempotency_key;
                if handle_differs || key_differs {
                    return Err(InvalidField::new(
                        "client_account",
                        "handle and idempotency_key must both be the existing client account's",
                    )
                    .into());
                }
                Ok(Some(account.clone()))
            }
            _ => Err(InvalidField::new(
                "client_account",
                "handle and idempotency_key name two different accounts",
            )
            .into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use time::macros::datetime;
    use tonne_kernel::{AccountMode, ApiKeyId, Currency, IdGenerator, OrganisationId};
    use uuid::Uuid;

    use super::*;
    use crate::models::{AccountId, AccountIdempotencyKey, AccountName, Handle};
    use crate::ports::{AccountWriteError, MockAccountRepository, MockApiKeyRepository};
    use crate::testing::{stopped, with_organisation};

    struct Ids;
    impl IdGenerator for Ids {
        fn new_uuid(&self) -> Uuid {
            Uuid::from_u128(77)
        }
    }

    fn org() -> OrganisationId {
        OrganisationId::from_uuid(Uuid::from_u128(1))
    }

    fn caller(scope: AccountScope) -> Caller {
        Caller {
            key_id: ApiKeyId::from_uuid(Uuid::from_u128(900)),
            organisation_id: org(),
            mode: AccountMode::Test,
            account_id: AccountId::from_uuid(Uuid::from_u128(10)),
            scope,
        }
    }

    fn service(accounts: MockAccountRepository) -> Accounts {
        let clock = stopped(datetime!(2026-06-01 12:00 UTC));
        let keys = Arc::new(MockApiKeyRepository::new());
        Accounts::new(Arc::new(accounts), keys, clock, Arc::new(Ids))
    }

    fn named(handle: Option<&str>, key: Option<&str>) -> NewAccount {
        let mut new = NewAccount::named(AccountName::parse("Client").unwrap(), Currency::Eur);
        new.handle = handle.map(|h| Handle::parse(h).unwrap());
        new.idempotency_key = key.map(|k| AccountIdempotencyKey::parse(k).unwrap());
        new
    }

    fn client(id: u128, handle: Option<&str>, key: Option<&str>) -> Account {
        let mut a = Account::sample(
            AccountId::from_uuid(Uuid::from_u128(id)),
            org(),
            AccountMode::Test,
            AccountScope::ClientAccount,
            datetime!(2026-01-01 00:00 UTC),
        );
        a.handle = handle.map(|h| Handle::parse(h).unwrap());
        a.idempotency_key = key.map(|k| AccountIdempotencyKey::parse(k).unwrap());
        a
    }

    /// An existing client account is found by handle and key, in the caller's
    /// organisation and mode, and nothing is created.
    #[tokio::test]
    async fn an_existing_client_account_is_found_and_nothing_written() {
        let mut accounts = MockAccountRepository::new();
        accounts
            .expect_by_reference()
            .withf(|o, mode, h, k| {
                *o == org()
                    && *mode == AccountMode::Test
                    && h.as_ref().map(Handle::as_str) == Some("acme")
                    && k.as_ref().map(AccountIdempotencyKey::as_str) == Some("k-1")
            })
            .returning(|_, _, _, _| Ok(vec![client(5, Some("acme"), Some("k-1"))]));
        accounts.expect_insert_client().never();
        let found = service(accounts)
            .on_behalf(
                &caller(AccountScope::Account),
                named(Some("acme"), Some("k-1")),
            )
            .await
            .unwrap();
        assert_eq!(found.id, AccountId::from_uuid(Uuid::from_u128(5)));
    }

    /// None found: created as a client account of the caller's organisation
    /// and mode, with the handle and key sent.
    #[tokio::test]
    async fn a_missing_client_account_is_created() {
        let mut accounts = MockAccountRepository::new();
        accounts
            .expect_by_reference()
            .times(1)
            .returning(|_, _, _, _| Ok(vec![]));
        with_organisation(&mut accounts);
        accounts
            .expect_insert_client()
            .times(1)
            .withf(|a, _| {
                a.scope == AccountScope::ClientAccount
                    && a.mode == AccountMode::Test
                    && a.organisation_id == org()
                    && a.handle.as_ref().map(Handle::as_str) == Some("new-co")
            })
            .returning(|_, _| Ok(()));
        let made = service(accounts)
            .on_behalf(&caller(AccountScope::Account), named(Some("new-co"), None))
            .await
            .unwrap();
        assert_eq!(made.name.as_str(), "Client");
    }

    /// Two requests creating the same account at once: the loser of the
    /// insert reads the winner's account.
    #[tokio::test]
    async fn a_concurrent_creation_reads_the_winners_account() {
        let mut accounts = MockAccountRepository::new();
        let mut reads = 0;
        accounts
            .expect_by_reference()
            .times(2)
            .returning(move |_, _, _, _| {
                reads += 1;
                Ok(if reads == 1 {
                    vec![]
                } else {
                    vec![client(6, None, Some("k-2"))]
                })
            });
        with_organisation(&mut accounts);
        accounts
            .expect_insert_client()
            .returning(|_, _| Err(AccountWriteError::IdempotencyKeyTaken));
        let found = service(accounts)
            .on_behalf(&caller(AccountScope::Account), named(None, Some("k-2")))
            .await
            .unwrap();
        assert_eq!(found.id, AccountId::from_uuid(Uuid::from_u128(6)));
    }

    /// Refusals: a client-account key, no name at all, a handle and a key of
    /// two accounts or not both the found one's, a regular account's handle.
    #[tokio::test]
    async fn inconsistent_or_forbidden_requests_are_refused() {
        let svc = service(MockAccountRepository::new());
        assert!(matches!(
            svc.on_behalf(&caller(AccountScope::ClientAccount), named(Some("a"), None))
                .await,
            Err(CreateAccountError::ClientAccountKey)
        ));
        assert!(matches!(
            svc.on_behalf(&caller(AccountScope::Account), named(None, None))
                .await,
            Err(CreateAccountError::Invalid(f)) if f.field == "client_account"
        ));

        let answer = |found: Vec<Account>| {
            let mut accounts = MockAccountRepository::new();
            accounts
                .expect_by_reference()
                .returning(move |_, _, _, _| Ok(found.clone()));
            accounts.expect_insert_client().never();
            service(accounts)
        };
        let two = answer(vec![
            client(5, Some("acme"), None),
            client(6, None, Some("k-1")),
        ]);
        assert!(matches!(
            two.on_behalf(&caller(AccountScope::Account), named(Some("acme"), Some("k-1")))
                .await,
            Err(CreateAccountError::Invalid(f)) if f.field == "client_account"
        ));
        let other_key = answer(vec![client(5, Some("acme"), Some("k-9"))]);
        assert!(matches!(
            other_key
                .on_behalf(
                    &caller(AccountScope::Account),
                    named(Some("acme"), Some("k-1"))
                )
                .await,
            Err(CreateAccountError::Invalid(_))
        ));
        let mut regular = client(7, Some("acme"), None);
        regular.scope = AccountScope::Account;
        let regular = answer(vec![regular]);
        assert!(matches!(
            regular
                .on_behalf(&caller(AccountScope::Account), named(Some("acme"), None))
                .await,
            Err(CreateAccountError::HandleTaken)
        ));
    }
}
