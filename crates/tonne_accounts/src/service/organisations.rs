//! Use cases: the operator's reads of organisations and their accounts.

use tonne_kernel::{AccountMode, Cursor, Limit, OrganisationId, Page, PageRequest};

use crate::errors::AdminError;
use crate::models::{Account, AccountId, AccountScope, Organisation};
use crate::ports::{AccountQuery, StoreError};

use super::Accounts;

impl Accounts {
    pub(super) async fn organisations(
        &self,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Organisation>, AdminError> {
        match self.accounts.list_organisations(&page).await {
            Ok(found) => Ok(found),
            Err(StoreError::NotFound) => Err(AdminError::OrganisationNotFound),
            Err(e) => Err(e.unexpected().into()),
        }
    }

    pub(super) async fn organisation(
        &self,
        id: OrganisationId,
    ) -> Result<Organisation, AdminError> {
        self.accounts
            .organisation(id)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or(AdminError::OrganisationNotFound)
    }

    pub(super) async fn organisation_account(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
        id: &str,
    ) -> Result<Option<Account>, AdminError> {
        let Ok(id) = id.parse::<AccountId>() else {
            return Ok(None);
        };
        let found = self
            .accounts
            .get(id)
            .await
            .map_err(StoreError::unexpected)?;
        Ok(found.filter(|a| a.organisation_id == organisation_id && a.mode == mode))
    }

    pub(super) async fn organisation_accounts(
        &self,
        id: OrganisationId,
        mode: AccountMode,
    ) -> Result<Vec<Account>, AdminError> {
        let mut all = Vec::new();
        for scope in [AccountScope::Account, AccountScope::ClientAccount] {
            let query = AccountQuery {
                organisation_id: id,
                mode,
                scope,
                name: None,
            };
            let page = PageRequest {
                limit: Limit::new(Limit::MAX).unwrap_or_default(),
                after: None,
            };
            let found = self
                .accounts
                .list(&query, &page)
                .await
                .map_err(StoreError::unexpected)?;
            all.extend(found.items);
        }
        Ok(all)
    }
}
