//! [`Accounts`]: the account use cases behind the [`AccountsService`] port, one
//! module each: [`authenticate`], [`reads`], [`create`] (and [`on_behalf`]),
//! [`update`], [`logos`], and the operator's [`bootstrap`], [`organisations`]
//! and [`api_keys`].

use std::sync::Arc;

use async_trait::async_trait;
use tonne_kernel::{
    AccountMode, Actor, ApiKeyId, Clock, Cursor, IdGenerator, OrganisationId, Page, PageRequest,
};

use crate::errors::{
    AdminError, AuthError, CreateAccountError, ListAccountsError, ReadAccountError,
    UpdateAccountError,
};
use crate::models::ApiKey;
use crate::models::{
    Account, AccountActivity, AccountId, AccountPatch, AccountScope, Bootstrapped, Caller,
    CreatedKey, EncodedLogo, Logo, NameFilter, NewAccount, Organisation,
};
use crate::ports::{AccountRepository, AccountsService, ApiKeyRepository};

mod api_keys;
mod authenticate;
mod bootstrap;
mod create;
mod logos;
mod on_behalf;
mod organisations;
mod reads;
mod support;
#[cfg(test)]
mod tests;
mod update;

/// The accounts use cases over their driven ports.
///
/// `Accounts::new` takes the ports in the order of the fields; the binary
/// wires it over the storage adapters:
///
/// ```
/// use std::sync::Arc;
///
/// use tonne_accounts::ports::{AccountRepository, ApiKeyRepository};
/// use tonne_accounts::{Accounts, AccountsService};
/// use tonne_kernel::{SystemClock, UuidV7Generator};
///
/// fn wire(
///     accounts: Arc<dyn AccountRepository>,
///     keys: Arc<dyn ApiKeyRepository>,
/// ) -> Arc<dyn AccountsService> {
///     Arc::new(Accounts::new(accounts, keys, Arc::new(SystemClock), Arc::new(UuidV7Generator)))
/// }
/// # let _ = wire;
/// ```
#[derive(Clone, derive_more::Constructor)]
pub struct Accounts {
    accounts: Arc<dyn AccountRepository>,
    keys: Arc<dyn ApiKeyRepository>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
}

#[async_trait]
impl AccountsService for Accounts {
    async fn authenticate(
        &self,
        presented_key: Option<String>,
        acting_as: Option<String>,
    ) -> Result<Caller, AuthError> {
        self.authenticate(presented_key, acting_as).await
    }

    async fn me(&self, caller: &Caller) -> Result<Account, ReadAccountError> {
        self.me(caller).await
    }

    async fn list_accounts(
        &self,
        caller: &Caller,
        scope: AccountScope,
        name: Option<NameFilter>,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Account>, ListAccountsError> {
        self.list_accounts(caller, scope, name, page).await
    }

    async fn client_me(&self, caller: &Caller) -> Result<Account, ReadAccountError> {
        self.client_me(caller).await
    }

    async fn list_clients(
        &self,
        caller: &Caller,
        name: Option<NameFilter>,
        page: PageRequest<Cursor>,
    ) -> Result<Page<(Account, AccountActivity)>, ListAccountsError> {
        self.list_clients(caller, name, page).await
    }

    async fn clients_of(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
        page: PageRequest<Cursor>,
    ) -> Result<Page<(Account, AccountActivity)>, AdminError> {
        self.clients_of(organisation_id, mode, page).await
    }

    async fn client_on_behalf(
        &self,
        caller: &Caller,
        new: NewAccount,
    ) -> Result<Account, CreateAccountError> {
        self.on_behalf(caller, new).await
    }

    async fn create_client_as(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
        new: NewAccount,
        by: &Actor,
    ) -> Result<Account, CreateAccountError> {
        self.create_client_as(organisation_id, mode, new, by).await
    }

    async fn create_pair(
        &self,
        caller: &Caller,
        new: NewAccount,
    ) -> Result<(Account, Account), CreateAccountError> {
        self.create_pair(caller, new).await
    }

    async fn create_client(
        &self,
        caller: &Caller,
        new: NewAccount,
    ) -> Result<Account, CreateAccountError> {
        self.create_client(caller, new).await
    }

    async fn update_account(
        &self,
        caller: &Caller,
        scope: AccountScope,
        id: &str,
        patch: AccountPatch,
    ) -> Result<Account, UpdateAccountError> {
        self.update_account(caller, scope, id, patch).await
    }

    async fn set_logo(
        &self,
        caller: &Caller,
        scope: AccountScope,
        id: &str,
        image: EncodedLogo,
        public_url: &str,
    ) -> Result<Account, UpdateAccountError> {
        self.set_logo(caller, scope, id, image, public_url).await
    }

    async fn delete_logo(
        &self,
        caller: &Caller,
        scope: AccountScope,
        id: &str,
    ) -> Result<Account, UpdateAccountError> {
        self.delete_logo(caller, scope, id).await
    }

    async fn logo(&self, id: &str) -> Result<Option<Logo>, ReadAccountError> {
        self.logo(id).await
    }

    async fn bootstrap(
        &self,
        organisation_name: &str,
        by: &Actor,
    ) -> Result<Bootstrapped, AdminError> {
        self.bootstrap(organisation_name, by).await
    }

    async fn create_key(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
        account_id: Option<AccountId>,
        by: &Actor,
    ) -> Result<CreatedKey, AdminError> {
        self.create_key(organisation_id, mode, account_id, by).await
    }

    async fn organisations(
        &self,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Organisation>, AdminError> {
        self.organisations(page).await
    }

    async fn organisation(&self, id: OrganisationId) -> Result<Organisation, AdminError> {
        self.organisation(id).await
    }

    async fn organisation_account(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
        id: &str,
    ) -> Result<Option<Account>, AdminError> {
        self.organisation_account(organisation_id, mode, id).await
    }

    async fn organisation_accounts(
        &self,
        id: OrganisationId,
        mode: AccountMode,
    ) -> Result<Vec<Account>, AdminError> {
        self.organisation_accounts(id, mode).await
    }

    async fn list_keys(&self, organisation_id: OrganisationId) -> Result<Vec<ApiKey>, AdminError> {
        self.list_keys(organisation_id).await
    }

    async fn revoke_key(&self, id: ApiKeyId, by: &Actor) -> Result<ApiKey, AdminError> {
        self.revoke_key(id, by).await
    }
}
