//! Who owns the webhooks a key manages: the organisation and mode, never a
//! key acting as a client account.

use tonne_accounts::{AccountScope, Caller};
use tonne_webhooks::Owner;

use crate::error::{ApiError, codes};

/// Webhooks belong to the organisation; a key acting as a client account may not manage them.
pub(super) fn owner(caller: &Caller) -> Result<Owner, ApiError> {
    match caller.scope {
        AccountScope::Account => Ok(Owner {
            organisation_id: caller.organisation_id,
            mode: caller.mode,
        }),
        AccountScope::ClientAccount => Err(ApiError::new(
            actix_web::http::StatusCode::FORBIDDEN,
            codes::UNAUTHORISED,
            "a key acting as a client account may not manage the organisation's webhooks",
        )),
    }
}
