//! Who reads an organisation's invoices.

use tonne_kernel::{AccountMode, OrganisationId};

use crate::extract::Authenticated;

/// The organisation whose invoices the caller reads, if any.
pub(super) fn reader(who: &Authenticated) -> Option<OrganisationId> {
    (who.0.mode == AccountMode::Live && who.0.scope == tonne_accounts::AccountScope::Account)
        .then_some(who.0.organisation_id)
}
