//! The repository tests' builders: organisations, account pairs and clients,
//! handles, API keys and logos.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use time::OffsetDateTime;
use time::macros::datetime;
use tonne_accounts::ports::AccountRepository;
use tonne_accounts::{
    Account, AccountId, AccountName, AccountScope, ApiKey, ApiKeySecret, Beneficiary, EncodedLogo,
    ExternalPagesVisibility, Handle, Logo, LogoFormat, LogoId, Organisation, OrganisationType,
};
use tonne_kernel::{AccountMode, Currency, Money, OrganisationId, UuidV7Generator};
use tonne_storage::AccountStore;

pub(super) const T0: OffsetDateTime = datetime!(2026-03-04 05:06:07.123456 UTC);

pub(super) fn organisation() -> Organisation {
    Organisation {
        id: OrganisationId::generate(&UuidV7Generator),
        name: "Org".into(),
        organisation_type: OrganisationType::Supplier,
        created_at: T0,
    }
}

pub(super) fn account(
    org: OrganisationId,
    mode: AccountMode,
    scope: AccountScope,
    name: &str,
) -> Account {
    Account {
        id: AccountId::generate(&UuidV7Generator),
        organisation_id: org,
        mode,
        scope,
        sibling_id: None,
        name: AccountName::parse(name).unwrap(),
        handle: None,
        external_pages_visibility: ExternalPagesVisibility::Hidden,
        organisation_type: OrganisationType::Supplier,
        idempotency_key: None,
        currency: Currency::Sek,
        balance: Money::from_minor(2350, Currency::Sek),
        balance_outstanding: Money::from_minor(-13250, Currency::Sek),
        logo: None,
        beneficiary: Some(Beneficiary::parse("Jane Doe").unwrap()),
        bundle_portfolio_id: None,
        created_at: T0,
        updated_at: T0,
    }
}

pub(super) fn pair(org: OrganisationId, name: &str) -> (Account, Account) {
    let mut live = account(org, AccountMode::Live, AccountScope::Account, name);
    let mut test = account(org, AccountMode::Test, AccountScope::Account, name);
    live.sibling_id = Some(test.id);
    test.sibling_id = Some(live.id);
    (live, test)
}

pub(super) async fn seeded(repo: &AccountStore) -> (Organisation, Account, Account) {
    let org = organisation();
    let (live, test) = pair(org.id, "Acme");
    repo.create_organisation(&org, &live, &test, None)
        .await
        .unwrap();
    (org, live, test)
}

pub(super) fn key(account: &Account, secret: &ApiKeySecret) -> ApiKey {
    crate::fixtures::api_key(account, secret, T0)
}

/// A new PNG logo of `account`.
pub(super) fn png_logo(account: &Account, bytes: Vec<u8>, at: OffsetDateTime) -> Logo {
    Logo {
        id: LogoId::generate(&UuidV7Generator),
        account_id: account.id,
        image: EncodedLogo {
            format: LogoFormat::Png,
            bytes,
        },
        created_at: at,
    }
}

pub(super) fn client(org: OrganisationId, mode: AccountMode, name: &str) -> Account {
    account(org, mode, AccountScope::ClientAccount, name)
}

pub(super) fn handle(value: &str) -> Option<Handle> {
    Some(Handle::parse(value).unwrap())
}
