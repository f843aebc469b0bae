//! Set-up the crate's tests share: a clock stopped at one time, ids that are
//! all one number, and an account store that knows one live account or
//! organisations.

use std::sync::Arc;

use mockall::predicate::eq;
use time::OffsetDateTime;
use time::macros::datetime;
use tonne_kernel::{AccountMode, MockClock, MockIdGenerator, OrganisationId};
use uuid::Uuid;

use crate::models::{Account, AccountId, AccountScope, Organisation, OrganisationType};
use crate::ports::MockAccountRepository;

/// A clock that always answers `now`.
pub(crate) fn stopped(now: OffsetDateTime) -> Arc<MockClock> {
    let mut clock = MockClock::new();
    clock.expect_now().return_const(now);
    Arc::new(clock)
}

/// Ids that are all `n`.
pub(crate) fn ids(n: u128) -> Arc<MockIdGenerator> {
    let mut ids = MockIdGenerator::new();
    ids.expect_new_uuid().returning(move || Uuid::from_u128(n));
    Arc::new(ids)
}

/// An account store that knows account `id` (live, of organisation 1,
/// created at `at`) and is asked for no other.
pub(crate) fn accounts_knowing(id: AccountId, at: OffsetDateTime) -> MockAccountRepository {
    let mut accounts = MockAccountRepository::new();
    accounts.expect_get().with(eq(id)).returning(move |id| {
        Ok(Some(Account::sample(
            id,
            OrganisationId::from_uuid(Uuid::from_u128(1)),
            AccountMode::Live,
            AccountScope::Account,
            at,
        )))
    });
    accounts
}

/// Storage knows organisation 1 (or any asked for) as a supplier.
pub(crate) fn with_organisation(accounts: &mut MockAccountRepository) {
    accounts.expect_organisation().returning(|id| {
        Ok(Some(Organisation {
            id,
            name: "O".into(),
            organisation_type: OrganisationType::Supplier,
            created_at: datetime!(2026-01-01 00:00 UTC),
        }))
    });
}
