//! Use case: bootstrap an organisation with its live and test accounts and one
//! API key each (the operator).

use tonne_kernel::{Actor, AuditEntry, Currency, OrganisationId, Snapshot};

use crate::errors::AdminError;
use crate::models::{
    AccountName, BootstrapAccount, Bootstrapped, NewAccount, Organisation, OrganisationType,
};
use crate::ports::StoreError;

use super::Accounts;

impl Accounts {
    pub(super) async fn bootstrap(
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
            .map_err(StoreError::unexpected)?;
        let live_key = self
            .mint_key(&live, by)
            .await
            .map_err(StoreError::unexpected)?;
        let test_key = self
            .mint_key(&test, by)
            .await
            .map_err(StoreError::unexpected)?;
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
}
