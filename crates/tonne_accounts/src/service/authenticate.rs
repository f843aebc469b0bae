//! Use case: an API key (and the account it acts as) authenticates a request.

use crate::errors::AuthError;
use crate::keys::{ApiKeySecret, KeyHash};
use crate::models::{AccountId, AccountScope, Caller, LAST_USED_GRANULARITY};
use crate::ports::StoreError;

use super::Accounts;

impl Accounts {
    pub(super) async fn authenticate(
        &self,
        presented_key: Option<String>,
        acting_as: Option<String>,
    ) -> Result<Caller, AuthError> {
        let presented = presented_key.ok_or(AuthError::MissingKey)?;
        let presented = presented.as_str();
        // Malformed keys are refused without a storage round trip.
        if ApiKeySecret::mode_of(presented).is_none() {
            return Err(AuthError::InvalidKey);
        }
        let hash = KeyHash::of(presented);
        let key = self
            .keys
            .find_by_hash(&hash)
            .await
            .map_err(StoreError::unexpected)?
            .filter(|key| key.hash.matches(&hash) && key.revoked_at.is_none())
            .ok_or(AuthError::InvalidKey)?;
        let now = self.clock.now();
        if key
            .last_used_at
            .is_none_or(|at| now - at >= LAST_USED_GRANULARITY)
        {
            // Best effort: a request is not refused because its key's last use
            // could not be written (the next one tries again).
            let _ = self.keys.touch(&key, now).await;
        }
        let own = Caller {
            key_id: key.id,
            organisation_id: key.organisation_id,
            mode: key.mode,
            account_id: key.account_id,
            scope: key.account_scope,
        };
        let Some(acting_as) = acting_as else {
            return Ok(own);
        };
        let target: AccountId = acting_as
            .parse()
            .map_err(|_| AuthError::AccountNotAllowed)?;
        if target == own.account_id {
            return Ok(own);
        }
        // A key made for a client account speaks only for that client.
        if own.scope == AccountScope::ClientAccount {
            return Err(AuthError::AccountNotAllowed);
        }
        let account = self
            .accounts
            .get(target)
            .await
            .map_err(StoreError::unexpected)?
            .filter(|a| a.organisation_id == own.organisation_id && a.mode == own.mode)
            .ok_or(AuthError::AccountNotAllowed)?;
        Ok(Caller {
            account_id: account.id,
            scope: account.scope,
            ..own
        })
    }
}
