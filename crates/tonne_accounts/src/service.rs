use std::sync::Arc;

use anyhow::anyhow;
use async_trait::async_trait;
use tonne_kernel::{
    AccountMode, Actor, ApiKeyId, AuditEntry, Clock, Currency, Cursor, IdGenerator, Limit, Money,
    OrganisationId, Page, PageRequest, Snapshot,
};

use crate::errors::{
    AdminError, AuthError, CreateAccountError, ListAccountsError, ReadAccountError,
    UpdateAccountError,
};
use crate::keys::{ApiKeySecret, KeyHash};
use crate::models::ApiKey;
use crate::models::{
    Account, AccountActivity, AccountId, AccountName, AccountPatch, AccountScope, BootstrapAccount,
    Bootstrapped, Caller, CreatedKey, EncodedLogo, LAST_USED_GRANULARITY, Logo, LogoId, NameFilter,
    NewAccount, Organisation, OrganisationType,
};
use crate::ports::{
    AccountQuery, AccountRepository, AccountUpdate, AccountWriteError, AccountsService,
    ApiKeyRepository, StoreError,
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
        organisation: (OrganisationId, OrganisationType),
        mode: AccountMode,
        scope: AccountScope,
        new: &NewAccount,
    ) -> Account {
        let now = self.clock.now();
        let (organisation_id, organisation_type) = organisation;
        Account {
            id: AccountId::generate(self.ids.as_ref()),
            organisation_id,
            mode,
            scope,
            sibling_id: None,
            name: new.name.clone(),
            handle: new.handle.clone(),
            external_pages_visibility: new.external_pages_visibility,
            organisation_type,
            idempotency_key: match scope {
                AccountScope::ClientAccount => new.idempotency_key.clone(),
                AccountScope::Account => None,
            },
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

    fn pair(
        &self,
        organisation: (OrganisationId, OrganisationType),
        new: &NewAccount,
    ) -> (Account, Account) {
        let mut live =
            self.new_account(organisation, AccountMode::Live, AccountScope::Account, new);
        let mut test =
            self.new_account(organisation, AccountMode::Test, AccountScope::Account, new);
        live.sibling_id = Some(test.id);
        test.sibling_id = Some(live.id);
        (live, test)
    }

    async fn mint_key(&self, account: &Account, by: &Actor) -> Result<CreatedKey, StoreError> {
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
            last_used_at: None,
        };
        let audit = AuditEntry::new(
            key.created_at,
            by.clone(),
            "api_key.created",
            "api_key",
            key.id,
        )
        .in_organisation(key.organisation_id)
        .after(key_snapshot(&key));
        self.keys.insert(&key, Some(audit)).await?;
        Ok(CreatedKey {
            id: key.id,
            account_id: account.id,
            mode: account.mode,
            secret,
        })
    }

    /// The caller's organisation and its type (new accounts answer it).
    async fn organisation_of(
        &self,
        caller: &Caller,
    ) -> Result<(OrganisationId, OrganisationType), anyhow::Error> {
        let organisation = self
            .accounts
            .organisation(caller.organisation_id)
            .await
            .map_err(unexpected)?
            .ok_or_else(|| anyhow!("organisation {} vanished", caller.organisation_id))?;
        Ok((organisation.id, organisation.organisation_type))
    }

    /// A page of client accounts, each with its activity.
    async fn clients_with_activity(
        &self,
        query: &AccountQuery,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<(Account, AccountActivity)>, anyhow::Error> {
        let accounts = self.accounts.list(query, page).await.map_err(unexpected)?;
        let ids: Vec<AccountId> = accounts.items.iter().map(|a| a.id).collect();
        let activity = if ids.is_empty() {
            Vec::new()
        } else {
            self.accounts.activity(&ids).await.map_err(unexpected)?
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

    /// The account `id` names, if the caller may edit it through the `scope` endpoint.
    async fn editable(
        &self,
        caller: &Caller,
        scope: AccountScope,
        id: &str,
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
        // Another organisation's or mode's account is answered as if it did
        // not exist (no oracle of other tenants' ids); an account of the
        // caller's own organisation and mode asked for on the other kind's
        // route is a wrong id.
        if current.organisation_id != caller.organisation_id || current.mode != caller.mode {
            return Err(UpdateAccountError::NotFound);
        }
        if current.scope != scope {
            return Err(UpdateAccountError::IdInvalid);
        }
        Ok(current)
    }
}

fn create_error(e: AccountWriteError) -> CreateAccountError {
    match e {
        AccountWriteError::HandleTaken => CreateAccountError::HandleTaken,
        AccountWriteError::IdempotencyKeyTaken => CreateAccountError::IdempotencyKeyTaken,
        AccountWriteError::Store(e) => CreateAccountError::Unexpected(unexpected(e)),
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

    async fn client_me(&self, caller: &Caller) -> Result<Account, ReadAccountError> {
        if caller.scope != AccountScope::ClientAccount {
            return Err(ReadAccountError::NotAClientAccount);
        }
        self.me(caller).await
    }

    async fn list_clients(
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

    async fn clients_of(
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
        let organisation = self
            .accounts
            .organisation(organisation_id)
            .await
            .map_err(unexpected)?
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
        let organisation = self.organisation_of(caller).await?;
        let (live, test) = self.pair(organisation, &new);
        self.accounts
            .insert_pair(&live, &test)
            .await
            .map_err(create_error)?;
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
        let organisation = self.organisation_of(caller).await?;
        let account =
            self.new_account(organisation, caller.mode, AccountScope::ClientAccount, &new);
        self.accounts
            .insert_client(&account, None)
            .await
            .map_err(create_error)?;
        Ok(account)
    }

    async fn update_account(
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
            Err(AccountWriteError::Store(e)) => Err(unexpected(e).into()),
        }
    }

    async fn set_logo(
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
            Err(e) => Err(unexpected(e).into()),
        }
    }

    async fn delete_logo(
        &self,
        caller: &Caller,
        scope: AccountScope,
        id: &str,
    ) -> Result<Account, UpdateAccountError> {
        let current = self.editable(caller, scope, id).await?;
        logos::delete(self.accounts.as_ref(), current, self.clock.now()).await
    }

    async fn logo(&self, id: &str) -> Result<Option<Logo>, ReadAccountError> {
        let Ok(id) = id.parse::<LogoId>() else {
            return Ok(None);
        };
        Ok(self.accounts.logo(id).await.map_err(unexpected)?)
    }

    async fn bootstrap(
        &self,
        organisation_name: &str,
        by: &Actor,
    ) -> Result<Bootstrapped, AdminError> {
        let name = AccountName::parse(organisation_name)?;
        let organisation = Organisation {
            id: OrganisationId::generate(self.ids.as_ref()),
            name: name.as_str().to_owned(),
            organisation_type: OrganisationType::default(),
            created_at: self.clock.now(),
        };
        let new = NewAccount::named(name, Currency::Gbp);
        let (live, test) = self.pair((organisation.id, organisation.organisation_type), &new);
        let audit = AuditEntry::new(
            organisation.created_at,
            by.clone(),
            "organisation.created",
            "organisation",
            organisation.id,
        )
        .in_organisation(organisation.id)
        .after(
            Snapshot::new()
                .with("name", &organisation.name)
                .with("live account", live.id)
                .with("test account", test.id),
        );
        self.accounts
            .create_organisation(&organisation, &live, &test, Some(audit))
            .await
            .map_err(unexpected)?;
        let live_key = self.mint_key(&live, by).await.map_err(unexpected)?;
        let test_key = self.mint_key(&test, by).await.map_err(unexpected)?;
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
        by: &Actor,
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
        Ok(self.mint_key(&account, by).await.map_err(unexpected)?)
    }

    async fn organisations(
        &self,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Organisation>, AdminError> {
        match self.accounts.list_organisations(&page).await {
            Ok(found) => Ok(found),
            Err(StoreError::NotFound) => Err(AdminError::OrganisationNotFound),
            Err(e) => Err(unexpected(e).into()),
        }
    }

    async fn organisation(&self, id: OrganisationId) -> Result<Organisation, AdminError> {
        self.accounts
            .organisation(id)
            .await
            .map_err(unexpected)?
            .ok_or(AdminError::OrganisationNotFound)
    }

    async fn organisation_account(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
        id: &str,
    ) -> Result<Option<Account>, AdminError> {
        let Ok(id) = id.parse::<AccountId>() else {
            return Ok(None);
        };
        let found = self.accounts.get(id).await.map_err(unexpected)?;
        Ok(found.filter(|a| a.organisation_id == organisation_id && a.mode == mode))
    }

    async fn organisation_accounts(
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
                .map_err(unexpected)?;
            all.extend(found.items);
        }
        Ok(all)
    }

    async fn list_keys(&self, organisation_id: OrganisationId) -> Result<Vec<ApiKey>, AdminError> {
        self.accounts
            .organisation(organisation_id)
            .await
            .map_err(unexpected)?
            .ok_or(AdminError::OrganisationNotFound)?;
        Ok(self.keys.list(organisation_id).await.map_err(unexpected)?)
    }

    async fn revoke_key(&self, id: ApiKeyId, by: &Actor) -> Result<ApiKey, AdminError> {
        let key = self
            .keys
            .get(id)
            .await
            .map_err(unexpected)?
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
            Err(e) => Err(unexpected(e).into()),
        }
    }
}

/// What the audit log keeps of a key: never its secret nor its hash.
fn key_snapshot(key: &ApiKey) -> Snapshot {
    Snapshot::new()
        .with("prefix", &key.display_prefix)
        .with("mode", key.mode.as_str())
        .with("account", key.account_id)
}

mod logos;
mod on_behalf;

#[cfg(test)]
mod tests;
