//! Use cases: create a live and test account pair, a client account (the API),
//! and a client account for an organisation (the console, audited).

use anyhow::anyhow;
use tonne_kernel::{AccountMode, Actor, AuditEntry, OrganisationId, Snapshot};

use crate::errors::CreateAccountError;
use crate::models::{Account, AccountScope, Caller, NewAccount};
use crate::ports::StoreError;

use super::Accounts;
use super::support::create_error;

impl Accounts {
    pub(super) async fn create_client_as(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
        new: NewAccount,
        by: &Actor,
    ) -> Result<Account, CreateAccountError> {
        let organisation = self
            .accounts
            .organisation(organisation_id)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or_else(|| anyhow!("organisation {organisation_id} vanished"))?;
        let account = self.new_account(
            (organisation.id, organisation.organisation_type),
            mode,
            AccountScope::ClientAccount,
            &new,
        );
        let audit = AuditEntry::new(
            account.created_at,
            by.clone(),
            "account.created",
            "account",
            account.id,
        )
        .in_organisation(organisation_id)
        .after(
            Snapshot::new()
                .with("name", account.name.as_str())
                .with("mode", mode.as_str())
                .with("scope", "client account")
                .with("currency", account.currency),
        );
        self.accounts
            .insert_client(&account, Some(audit))
            .await
            .map_err(create_error)?;
        Ok(account)
    }

    pub(super) async fn create_pair(
        &self,
        caller: &Caller,
        new: NewAccount,
    ) -> Result<(Account, Account), CreateAccountError> {
        if caller.mode != AccountMode::Live {
            return Err(CreateAccountError::LiveAccountRequired);
        }
        let organisation = self.organisation_for_new(caller).await?;
        let (live, test) = self.pair(organisation, &new);
        self.accounts
            .insert_pair(&live, &test)
            .await
            .map_err(create_error)?;
        Ok((live, test))
    }

    pub(super) async fn create_client(
        &self,
        caller: &Caller,
        new: NewAccount,
    ) -> Result<Account, CreateAccountError> {
        let organisation = self.organisation_for_new(caller).await?;
        let account =
            self.new_account(organisation, caller.mode, AccountScope::ClientAccount, &new);
        self.accounts
            .insert_client(&account, None)
            .await
            .map_err(create_error)?;
        Ok(account)
    }
}
