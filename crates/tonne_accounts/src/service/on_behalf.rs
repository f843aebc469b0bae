//! The client account an estimate request is made on behalf of (the
//! contract's `EstimateClientAccountRequest`): found by handle or idempotency
//! key in the caller's organisation and mode, created when there is none.

use crate::errors::CreateAccountError;
use crate::models::{Account, AccountScope, Caller, InvalidField, NewAccount};
use crate::ports::AccountsService;

use super::{Service, unexpected};

impl Service {
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
            Err(taken @ (CreateAccountError::HandleTaken | CreateAccountError::IdempotencyKeyTaken)) => {
                self.named(caller, &new).await?.ok_or(taken)
            }
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
            .map_err(|e| CreateAccountError::Unexpected(unexpected(e)))?;
        match found.as_slice() {
            [] => Ok(None),
            [account] if account.scope != AccountScope::ClientAccount => {
                Err(CreateAccountError::HandleTaken)
            }
            [account] => {
                let handle_differs = new.handle.is_some() && account.handle != new.handle;
                let key_differs = new.idempotency_key.is_some()
                    && account.idempotency_key != new.idempotency_key;
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
