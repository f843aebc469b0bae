//! Use case: change an account (name, handle, pages, beneficiary); renaming a
//! live account renames its test sibling.

use anyhow::anyhow;
use tonne_kernel::AccountMode;

use crate::errors::UpdateAccountError;
use crate::models::{Account, AccountPatch, AccountScope, Caller};
use crate::ports::{AccountUpdate, AccountWriteError, StoreError};

use super::Accounts;

impl Accounts {
    pub(super) async fn update_account(
        &self,
        caller: &Caller,
        scope: AccountScope,
        id: &str,
        patch: AccountPatch,
    ) -> Result<Account, UpdateAccountError> {
        let current = self.editable(caller, scope, id).await?;
        let changes = patch.apply_to(&current);
        let renamed = changes.name != current.name;
        let rename_sibling = match (current.scope, current.mode) {
            (AccountScope::Account, AccountMode::Test) if renamed => {
                return Err(UpdateAccountError::TestAccountNameUpdateDisallowed);
            }
            (AccountScope::Account, AccountMode::Live) if renamed => current.sibling_id,
            _ => None,
        };
        let update = AccountUpdate {
            id: current.id,
            changes,
            rename_sibling,
            updated_at: self.clock.now(),
        };
        match self.accounts.update(&update).await {
            Ok(account) => Ok(account),
            Err(AccountWriteError::Store(StoreError::NotFound)) => {
                Err(UpdateAccountError::NotFound)
            }
            Err(AccountWriteError::HandleTaken) => Err(UpdateAccountError::HandleTaken),
            Err(AccountWriteError::IdempotencyKeyTaken) => Err(UpdateAccountError::Unexpected(
                anyhow!("an update never sets an idempotency key"),
            )),
            Err(AccountWriteError::Store(e)) => Err(e.unexpected().into()),
        }
    }
}
