//! What several account use cases share: a new account (or live and test pair)
//! of an organisation, a minted API key, the organisation a caller creates
//! accounts in, an account the caller may edit, and the audit snapshot of a key.

use anyhow::anyhow;
use tonne_kernel::{AccountMode, Actor, ApiKeyId, AuditEntry, Money, OrganisationId, Snapshot};

use crate::errors::{CreateAccountError, UpdateAccountError};
use crate::keys::ApiKeySecret;
use crate::models::ApiKey;
use crate::models::{
    Account, AccountId, AccountScope, Caller, CreatedKey, NewAccount, OrganisationType,
};
use crate::ports::{AccountWriteError, StoreError};

use super::Accounts;

impl Accounts {
    pub(super) fn new_account(
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

    pub(super) fn pair(
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

    pub(super) async fn mint_key(
        &self,
        account: &Account,
        by: &Actor,
    ) -> Result<CreatedKey, StoreError> {
        let secret = ApiKeySecret::generate(account.mode);
        let key = ApiKey::issue(
            ApiKeyId::generate(self.ids.as_ref()),
            account,
            &secret,
            self.clock.now(),
        );
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

    /// The organisation the caller creates accounts in, and its type (new
    /// accounts answer it); a client account's key creates none.
    pub(super) async fn organisation_for_new(
        &self,
        caller: &Caller,
    ) -> Result<(OrganisationId, OrganisationType), CreateAccountError> {
        if caller.scope == AccountScope::ClientAccount {
            return Err(CreateAccountError::ClientAccountKey);
        }
        let organisation = self
            .accounts
            .organisation(caller.organisation_id)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or_else(|| anyhow!("organisation {} vanished", caller.organisation_id))?;
        Ok((organisation.id, organisation.organisation_type))
    }

    /// The account `id` names, if the caller may edit it through the `scope` endpoint.
    pub(super) async fn editable(
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
            .map_err(StoreError::unexpected)?
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

pub(super) fn create_error(e: AccountWriteError) -> CreateAccountError {
    match e {
        AccountWriteError::HandleTaken => CreateAccountError::HandleTaken,
        AccountWriteError::IdempotencyKeyTaken => CreateAccountError::IdempotencyKeyTaken,
        AccountWriteError::Store(e) => CreateAccountError::Unexpected(e.unexpected()),
    }
}

/// What the audit log keeps of a key: never its secret nor its hash.
pub(super) fn key_snapshot(key: &ApiKey) -> Snapshot {
    Snapshot::new()
        .with("prefix", &key.display_prefix)
        .with("mode", key.mode.as_str())
        .with("account", key.account_id)
}
