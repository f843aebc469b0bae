//! What the other domains need to know about accounts, answered from the
//! accounts table: ordering's `AccountDirectory` (currency, certificate
//! holder), the links domain's (a profile for the hosted pages), the
//! webhooks domain's (an account's owner) and the impact domain's
//! `PageHolders` (whose sustainability page it is).

use async_trait::async_trait;
use tonne_accounts::ports::AccountRepository as _;
use tonne_accounts::{Account, ExternalPagesVisibility};
use tonne_kernel::{AccountId, AccountMode, Currency, OrganisationId, StoreError};

use crate::AccountStore;

#[async_trait]
impl tonne_ordering::ports::AccountDirectory for AccountStore {
    async fn currency(&self, account: AccountId) -> Result<Option<Currency>, StoreError> {
        Ok(self.get(account).await?.map(|a| a.currency))
    }

    async fn holder(
        &self,
        account: AccountId,
    ) -> Result<Option<tonne_ordering::AccountHolder>, StoreError> {
        Ok(self.get(account).await?.map(|a| {
            let name = a.name.as_str().to_owned();
            tonne_ordering::AccountHolder {
                organisation_id: a.organisation_id,
                beneficiary: a
                    .beneficiary
                    .map_or_else(|| name.clone(), |b| b.as_str().to_owned()),
                name,
                logo: a.logo,
            }
        }))
    }
}

#[async_trait]
impl tonne_links::ports::AccountDirectory for AccountStore {
    async fn profile(
        &self,
        account: AccountId,
    ) -> Result<Option<tonne_links::AccountProfile>, StoreError> {
        Ok(self
            .get(account)
            .await?
            .map(|a| tonne_links::AccountProfile {
                organisation_id: a.organisation_id,
                name: a.name.as_str().to_owned(),
                logo: a.logo,
                currency: a.currency,
                mode: a.mode,
            }))
    }
}

#[async_trait]
impl tonne_webhooks::ports::AccountDirectory for AccountStore {
    async fn owner_of(
        &self,
        account: AccountId,
    ) -> Result<Option<tonne_webhooks::Owner>, StoreError> {
        Ok(self.get(account).await?.map(|a| tonne_webhooks::Owner {
            organisation_id: a.organisation_id,
            mode: a.mode,
        }))
    }
}

/// What a public sustainability page shows of its account.
fn page_holder(a: Account) -> tonne_impact::PageHolder {
    tonne_impact::PageHolder {
        account_id: a.id,
        organisation_id: a.organisation_id,
        mode: a.mode,
        name: a.name.as_str().to_owned(),
        logo: a.logo,
        currency: a.currency,
        public: a.external_pages_visibility == ExternalPagesVisibility::Public,
    }
}

#[async_trait]
impl tonne_impact::ports::PageHolders for AccountStore {
    async fn holder(
        &self,
        account: AccountId,
    ) -> Result<Option<tonne_impact::PageHolder>, StoreError> {
        Ok(self.get(account).await?.map(page_holder))
    }

    async fn by_handle(
        &self,
        organisation: OrganisationId,
        mode: AccountMode,
        handle: &str,
    ) -> Result<Option<tonne_impact::PageHolder>, StoreError> {
        Ok(self
            .account_by_handle(organisation, mode, handle)
            .await?
            .map(page_holder))
    }

    async fn accounts(
        &self,
        organisation: OrganisationId,
        mode: AccountMode,
    ) -> Result<Vec<AccountId>, StoreError> {
        self.ids_of(organisation, mode).await
    }
}
