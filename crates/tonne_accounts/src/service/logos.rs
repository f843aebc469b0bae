//! Use cases: an account's logo — set, remove, and serve it.

use crate::errors::{ReadAccountError, UpdateAccountError};
use crate::models::{Account, AccountScope, Caller, EncodedLogo, Logo, LogoId};
use crate::ports::{AccountRepository, StoreError};

use super::Accounts;
use time::OffsetDateTime;

impl Accounts {
    pub(super) async fn set_logo(
        &self,
        caller: &Caller,
        scope: AccountScope,
        id: &str,
        image: EncodedLogo,
        public_url: &str,
    ) -> Result<Account, UpdateAccountError> {
        let current = self.editable(caller, scope, id).await?;
        let logo = Logo {
            id: LogoId::generate(self.ids.as_ref()),
            account_id: current.id,
            image,
            created_at: self.clock.now(),
        };
        let url = format!("{}/logos/{}", public_url.trim_end_matches('/'), logo.id);
        match self.accounts.set_logo(&logo, &url).await {
            Ok(account) => Ok(account),
            Err(StoreError::NotFound) => Err(UpdateAccountError::NotFound),
            Err(e) => Err(e.unexpected().into()),
        }
    }

    pub(super) async fn delete_logo(
        &self,
        caller: &Caller,
        scope: AccountScope,
        id: &str,
    ) -> Result<Account, UpdateAccountError> {
        let current = self.editable(caller, scope, id).await?;
        delete(self.accounts.as_ref(), current, self.clock.now()).await
    }

    pub(super) async fn logo(&self, id: &str) -> Result<Option<Logo>, ReadAccountError> {
        let Ok(id) = id.parse::<LogoId>() else {
            return Ok(None);
        };
        Ok(self
            .accounts
            .logo(id)
            .await
            .map_err(StoreError::unexpected)?)
    }
}

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
        Err(e) => Err(e.unexpected().into()),
    }
}
