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

/// A transaction request from a client that names its API version
/// (`Lune-Version`, as client 3.x always does): its search term in the 2024
/// spelling, `search_term`, also when it was sent under the 2023 name
/// `fuzzy_search_term` — so that the echoed request is the one that
/// client's model reads (3.9.2's `MerchantWithSearchTerm` requires
/// `search_term`). Without the header (client 2.2.7) the request is kept as
/// sent.
pub fn in_2024_spelling(
    req: &actix_web::HttpRequest,
    body: &mut crate::routes::estimates::requests::TransactionEstimateRequest,
) {
    let m = &mut body.merchant;
    if req.headers().contains_key(crate::middleware::LUNE_VERSION) && m.search_term.is_none() {
        m.search_term = m.fuzzy_search_term.take();
    }
}
