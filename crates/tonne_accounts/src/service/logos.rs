//! Use case: removing an account's logo.

use time::OffsetDateTime;

use super::unexpected;
use crate::errors::UpdateAccountError;
use crate::models::Account;
use crate::ports::{AccountRepository, StoreError};

/// Clears `current`'s logo (already checked editable by the caller). An
/// account without one is answered as it is: nothing is written, so a second
/// delete is the first's answer.
pub(super) async fn delete(
    accounts: &dyn AccountRepository,
    current: Account,
    at: OffsetDateTime,
) -> Result<Account, UpdateAccountError> {
    if current.logo.is_none() {
        return Ok(current);
    }
    match accounts.delete_logo(current.id, at).await {
        Ok(account) => Ok(account),
        Err(StoreError::NotFound) => Err(UpdateAccountError::NotFound),
        Err(e) => Err(unexpected(e).into()),
    }
}
