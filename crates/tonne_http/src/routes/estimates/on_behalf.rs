//! An estimate request's `client_account`: the request is then made as that
//! client account of the caller's organisation (found or created by
//! `AccountsService::client_on_behalf`), as if the key acted as it.

use tonne_accounts::AccountScope;

use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::routes::estimates::requests::EstimateClientAccountRequest;
use crate::state::AppState;

/// The caller, acting as the named client account when there is one.
pub async fn acting_as(
    state: &AppState,
    who: Authenticated,
    client_account: Option<&EstimateClientAccountRequest>,
) -> Result<Authenticated, ApiError> {
    let Some(named) = client_account else {
        return Ok(who);
    };
    let new = named.parse()?;
    let account = state.accounts.client_on_behalf(&who.0, new).await?;
    let mut caller = who.0;
    caller.account_id = account.id;
    caller.scope = AccountScope::ClientAccount;
    Ok(Authenticated(caller))
}

/// A batch entry: the batch is made as the caller (client 3.9.2's batch
/// entries have no `client_account`), so an entry naming one is refused.
pub fn alone(
    entry: &crate::routes::estimates::requests::TransactionEstimateRequest,
    i: usize,
) -> Result<(), ApiError> {
    match entry.client_account {
        Some(_) => Err(ApiError::validation(
            &format!("[{i}].client_account"),
            "a batch is made as the caller: send client_account on POST /v1/estimates/transactions",
        )),
        None => Ok(()),
    }
}
