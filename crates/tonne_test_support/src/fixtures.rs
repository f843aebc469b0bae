//! Rows the repository tests need before the one they test.

use time::OffsetDateTime;
use tonne_accounts::ports::AccountRepository as _;
use tonne_accounts::{Account, AccountScope, Organisation, OrganisationType};
use tonne_kernel::{AccountId, AccountMode, OrganisationId, UuidV7Generator};
use tonne_storage::{AccountStore, Db};

/// Stores a new organisation with its live/test account pair (siblings of each
/// other, [`Account::sample`]s created at `at`) and returns `(live, test)`.
pub async fn organisation(db: &Db, at: OffsetDateTime) -> (Account, Account) {
    let org = Organisation {
        id: OrganisationId::generate(&UuidV7Generator),
        name: "O".into(),
        organisation_type: OrganisationType::Shipper,
        created_at: at,
    };
    let account = |mode| {
        let id = AccountId::generate(&UuidV7Generator);
        Account::sample(id, org.id, mode, AccountScope::Account, at)
    };
    let (mut live, mut test) = (account(AccountMode::Live), account(AccountMode::Test));
    live.sibling_id = Some(test.id);
    test.sibling_id = Some(live.id);
    AccountStore::new(db.clone())
        .create_organisation(&org, &live, &test, None)
        .await
        .expect("storing an organisation");
    (live, test)
}
