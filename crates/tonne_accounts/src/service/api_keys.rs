//! Use cases: the operator creates, lists and revokes an organisation's API
//! keys (audited, never showing a secret again).

use tonne_kernel::{AccountMode, Actor, ApiKeyId, AuditEntry, OrganisationId};

use crate::errors::AdminError;
use crate::models::ApiKey;
use crate::models::{AccountId, CreatedKey};
use crate::ports::StoreError;

use super::Accounts;
use super::support::key_snapshot;

impl Accounts {
    pub(super) async fn create_key(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
        account_id: Option<AccountId>,
        by: &Actor,
    ) -> Result<CreatedKey, AdminError> {
        self.accounts
            .organisation(organisation_id)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or(AdminError::OrganisationNotFound)?;
        let account = match account_id {
            Some(id) => self
                .accounts
                .get(id)
                .await
                .map_err(StoreError::unexpected)?
                .filter(|a| a.organisation_id == organisation_id && a.mode == mode)
                .ok_or(AdminError::AccountNotFound)?,
            None => self
                .accounts
                .first_of_mode(organisation_id, mode)
                .await
                .map_err(StoreError::unexpected)?
                .ok_or(AdminError::NoAccountForMode)?,
        };
        Ok(self
            .mint_key(&account, by)
            .await
            .map_err(StoreError::unexpected)?)
    }

    pub(super) async fn list_keys(
        &self,
        organisation_id: OrganisationId,
    ) -> Result<Vec<ApiKey>, AdminError> {
        self.accounts
            .organisation(organisation_id)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or(AdminError::OrganisationNotFound)?;
        Ok(self
            .keys
            .list(organisation_id)
            .await
            .map_err(StoreError::unexpected)?)
    }

    pub(super) async fn revoke_key(&self, id: ApiKeyId, by: &Actor) -> Result<ApiKey, AdminError> {
        let key = self
            .keys
            .get(id)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or(AdminError::KeyNotFound)?;
        if key.revoked_at.is_some() {
            return Ok(key);
        }
        let now = self.clock.now();
        let audit = AuditEntry::new(now, by.clone(), "api_key.revoked", "api_key", id)
            .in_organisation(key.organisation_id)
            .before(key_snapshot(&key))
            .after(key_snapshot(&key).with("revoked at", now));
        match self.keys.revoke(id, now, Some(audit)).await {
            Ok(key) => Ok(key),
            Err(StoreError::NotFound) => Err(AdminError::KeyNotFound),
            Err(e) => Err(e.unexpected().into()),
        }
    }
}
