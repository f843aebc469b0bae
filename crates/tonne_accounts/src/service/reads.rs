//! Use cases: the caller's own account, and the lists of accounts and client
//! accounts (with their activity) of an organisation.

use anyhow::anyhow;
use tonne_kernel::{AccountMode, Cursor, OrganisationId, Page, PageRequest};

use crate::errors::{AdminError, ListAccountsError, ReadAccountError};
use crate::models::{Account, AccountActivity, AccountId, AccountScope, Caller, NameFilter};
use crate::ports::{AccountQuery, StoreError};

use super::Accounts;

impl Accounts {
    pub(super) async fn me(&self, caller: &Caller) -> Result<Account, ReadAccountError> {
        self.accounts
            .get(caller.account_id)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or_else(|| anyhow!("acting account {} vanished", caller.account_id).into())
    }

    pub(super) async fn client_me(&self, caller: &Caller) -> Result<Account, ReadAccountError> {
        if caller.scope != AccountScope::ClientAccount {
            return Err(ReadAccountError::NotAClientAccount);
        }
        self.me(caller).await
    }

    pub(super) async fn list_accounts(
        &self,
        caller: &Caller,
        scope: AccountScope,
        name: Option<NameFilter>,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Account>, ListAccountsError> {
        if caller.scope == AccountScope::ClientAccount {
            return Err(ListAccountsError::ClientAccountKey);
        }
        let query = AccountQuery {
            organisation_id: caller.organisation_id,
            mode: caller.mode,
            scope,
            name,
        };
        Ok(self
            .accounts
            .list(&query, &page)
            .await
            .map_err(StoreError::unexpected)?)
    }

    pub(super) async fn list_clients(
        &self,
        caller: &Caller,
        name: Option<NameFilter>,
        page: PageRequest<Cursor>,
    ) -> Result<Page<(Account, AccountActivity)>, ListAccountsError> {
        if caller.scope == AccountScope::ClientAccount {
            return Err(ListAccountsError::ClientAccountKey);
        }
        let query = AccountQuery {
            organisation_id: caller.organisation_id,
            mode: caller.mode,
            scope: AccountScope::ClientAccount,
            name,
        };
        Ok(self.clients_with_activity(&query, &page).await?)
    }

    pub(super) async fn clients_of(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
        page: PageRequest<Cursor>,
    ) -> Result<Page<(Account, AccountActivity)>, AdminError> {
        let query = AccountQuery {
            organisation_id,
            mode,
            scope: AccountScope::ClientAccount,
            name: None,
        };
        Ok(self.clients_with_activity(&query, &page).await?)
    }

    /// A page of client accounts, each with its activity.
    pub(super) async fn clients_with_activity(
        &self,
        query: &AccountQuery,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<(Account, AccountActivity)>, anyhow::Error> {
        let accounts = self
            .accounts
            .list(query, page)
            .await
            .map_err(StoreError::unexpected)?;
        let ids: Vec<AccountId> = accounts.items.iter().map(|a| a.id).collect();
        let activity = if ids.is_empty() {
            Vec::new()
        } else {
            self.accounts
                .activity(&ids)
                .await
                .map_err(StoreError::unexpected)?
        };
        Ok(accounts.map(|account| {
            let of_account = activity
                .iter()
                .find(|(id, _)| *id == account.id)
                .map(|(_, a)| *a)
                .unwrap_or_default();
            (account, of_account)
        }))
    }
}
