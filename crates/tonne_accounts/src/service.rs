use std::sync::Arc;

use anyhow::anyhow;
use async_trait::async_trait;
use tonne_kernel::{
    AccountMode, ApiKeyId, Clock, Currency, Cursor, IdGenerator, Money, OrganisationId, Page,
    PageRequest,
};

use crate::errors::{
    AdminError, AuthError, CreateAccountError, ListAccountsError, ReadAccountError,
    UpdateAccountError,
};
use crate::keys::{ApiKeySecret, KeyHash};
use crate::models::ApiKey;
use crate::models::{
    Account, AccountChanges, AccountId, AccountName, AccountScope, BootstrapAccount, Bootstrapped,
    Caller, CreatedKey, NameFilter, NewAccount, Organisation,
};
use crate::ports::{
    AccountQuery, AccountRepository, AccountUpdate, AccountsService, ApiKeyRepository, StoreError,
};

/// The accounts use cases over their driven ports.
///
/// `Service::new` takes the ports in the order of the fields.
#[derive(Clone, derive_more::Constructor)]
pub struct Service {
    accounts: Arc<dyn AccountRepository>,
    keys: Arc<dyn ApiKeyRepository>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
}

impl Service {
    fn new_account(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
        scope: AccountScope,
        new: &NewAccount,
    ) -> Account {
        let now = self.clock.now();
        Account {
            id: AccountId::generate(self.ids.as_ref()),
            organisation_id,
            mode,
            scope,
            sibling_id: None,
            name: new.name.clone(),
            currency: new.currency,
            balance: Money::zero(new.currency),
            balance_outstanding: Money::zero(new.currency),
            logo: None,
            beneficiary: new.beneficiary.clone(),
            bundle_portfolio_id: None,
            created_at: now,
            updated_at: now,
        }
    }

    fn pair(&self, organisation_id: OrganisationId, new: &NewAccount) -> (Account, Account) {
        let mut live = self.new_account(
            organisation_id,
            AccountMode::Live,
            AccountScope::Account,
            new,
        );
        let mut test = self.new_account(
            organisation_id,
            AccountMode::Test,
            AccountScope::Account,
            new,
        );
        live.sibling_id = Some(test.id);
        test.sibling_id = Some(live.id);
        (live, test)
    }

    async fn mint_key(&self, account: &Account) -> Result<CreatedKey, StoreError> {
        let secret = ApiKeySecret::generate(account.mode);
        let key = ApiKey {
            id: ApiKeyId::generate(self.ids.as_ref()),
            organisation_id: account.organisation_id,
            mode: account.mode,
            account_id: account.id,
            account_scope: account.scope,
            hash: KeyHash::of(secret.expose()),
            display_prefix: secret.display_prefix(),
            created_at: self.clock.now(),
            revoked_at: None,
        };
        self.keys.insert(&key).await?;
        Ok(CreatedKey {
            id: key.id,
            account_id: account.id,
            mode: account.mode,
            secret,
        })
    }
}

fn unexpected(e: StoreError) -> anyhow::Error {
    match e {
        StoreError::Unexpected(e) => e,
        other => anyhow!(other),
    }
}

#[async_trait]
impl AccountsService for Service {
    async fn authenticate(
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
            .map_err(unexpected)?
            .filter(|key| key.hash.matches(&hash) && key.revoked_at.is_none())
            .ok_or(AuthError::InvalidKey)?;
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
            .map_err(unexpected)?
            .filter(|a| a.organisation_id == own.organisation_id && a.mode == own.mode)
            .ok_or(AuthError::AccountNotAllowed)?;
        Ok(Caller {
            account_id: account.id,
            scope: account.scope,
            ..own
        })
    }

    async fn me(&self, caller: &Caller) -> Result<Account, ReadAccountError> {
        self.accounts
            .get(caller.account_id)
            .await
            .map_err(unexpected)?
            .ok_or_else(|| anyhow!("acting account {} vanished", caller.account_id).into())
    }

    async fn list_accounts(
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
            .map_err(unexpected)?)
    }

    async fn create_pair(
        &self,
        caller: &Caller,
        new: NewAccount,
    ) -> Result<(Account, Account), CreateAccountError> {
        if caller.mode != AccountMode::Live {
            return Err(CreateAccountError::LiveAccountRequired);
        }
        if caller.scope == AccountScope::ClientAccount {
            return Err(CreateAccountError::ClientAccountKey);
        }
        let (live, test) = self.pair(caller.organisation_id, &new);
        self.accounts
            .insert_pair(&live, &test)
            .await
            .map_err(unexpected)?;
        Ok((live, test))
    }

    async fn create_client(
        &self,
        caller: &Caller,
        new: NewAccount,
    ) -> Result<Account, CreateAccountError> {
        if caller.scope == AccountScope::ClientAccount {
            return Err(CreateAccountError::ClientAccountKey);
        }
        let account = self.new_account(
            caller.organisation_id,
            caller.mode,
            AccountScope::ClientAccount,
            &new,
        );
        self.accounts
            .insert_client(&account)
            .await
            .map_err(unexpected)?;
        Ok(account)
    }

    async fn update_account(
        &self,
        caller: &Caller,
        scope: AccountScope,
        id: &str,
        changes: AccountChanges,
    ) -> Result<Account, UpdateAccountError> {
        if caller.scope == AccountScope::ClientAccount {
            return Err(UpdateAccountError::ClientAccountKey);
        }
        let id: AccountId = id.parse().map_err(|_| UpdateAccountError::NotFound)?;
        let current = self
            .accounts
            .get(id)
            .await
            .map_err(unexpected)?
            .ok_or(UpdateAccountError::NotFound)?;
        let visible = current.organisation_id == caller.organisation_id
            && current.mode == caller.mode
            && current.scope == scope;
        if !visible {
            return Err(UpdateAccountError::IdInvalid);
        }
        let renamed = changes.name != current.name;
        let rename_sibling = match (current.scope, current.mode) {
            (AccountScope::Account, AccountMode::Test) if renamed => {
                return Err(UpdateAccountError::TestAccountNameUpdateDisallowed);
            }
            (AccountScope::Account, AccountMode::Live) if renamed => current.sibling_id,
            _ => None,
        };
        let update = AccountUpdate {
            id,
            changes,
            rename_sibling,
            updated_at: self.clock.now(),
        };
        match self.accounts.update(&update).await {
            Ok(account) => Ok(account),
            Err(StoreError::NotFound) => Err(UpdateAccountError::NotFound),
            Err(e) => Err(unexpected(e).into()),
        }
    }

    async fn bootstrap(&self, organisation_name: &str) -> Result<Bootstrapped, AdminError> {
        let name = AccountName::parse(organisation_name)?;
        let organisation = Organisation {
            id: OrganisationId::generate(self.ids.as_ref()),
            name: name.as_str().to_owned(),
            created_at: self.clock.now(),
        };
        let new = NewAccount {
            name,
            currency: Currency::Gbp,
            beneficiary: None,
        };
        let (live, test) = self.pair(organisation.id, &new);
        self.accounts
            .create_organisation(&organisation, &live, &test)
            .await
            .map_err(unexpected)?;
        let live_key = self.mint_key(&live).await.map_err(unexpected)?;
        let test_key = self.mint_key(&test).await.map_err(unexpected)?;
        Ok(Bootstrapped {
            organisation_id: organisation.id,
            live: BootstrapAccount {
                account_id: live.id,
                api_key: live_key.secret,
            },
            test: BootstrapAccount {
                account_id: test.id,
                api_key: test_key.secret,
            },
        })
    }

    async fn create_key(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
        account_id: Option<AccountId>,
    ) -> Result<CreatedKey, AdminError> {
        self.accounts
            .organisation(organisation_id)
            .await
            .map_err(unexpected)?
            .ok_or(AdminError::OrganisationNotFound)?;
        let account = match account_id {
            Some(id) => self
                .accounts
                .get(id)
                .await
                .map_err(unexpected)?
                .filter(|a| a.organisation_id == organisation_id && a.mode == mode)
                .ok_or(AdminError::AccountNotFound)?,
            None => self
                .accounts
                .first_of_mode(organisation_id, mode)
                .await
                .map_err(unexpected)?
                .ok_or(AdminError::NoAccountForMode)?,
        };
        Ok(self.mint_key(&account).await.map_err(unexpected)?)
    }

    async fn list_keys(&self, organisation_id: OrganisationId) -> Result<Vec<ApiKey>, AdminError> {
        self.accounts
            .organisation(organisation_id)
            .await
            .map_err(unexpected)?
            .ok_or(AdminError::OrganisationNotFound)?;
        Ok(self.keys.list(organisation_id).await.map_err(unexpected)?)
    }

    async fn revoke_key(&self, id: ApiKeyId) -> Result<ApiKey, AdminError> {
        match self.keys.revoke(id, self.clock.now()).await {
            Ok(key) => Ok(key),
            Err(StoreError::NotFound) => Err(AdminError::KeyNotFound),
            Err(e) => Err(unexpected(e).into()),
        }
    }
}

#[cfg(test)]
mod tests;
