//! The bearer token of a PACT request, traded for the account it reads.

use actix_web::HttpRequest;
use actix_web::http::header;
use tonne_accounts::pact::TokenAuthError;
use tonne_kernel::AccountId;

use crate::error::PactError;
use crate::state::PactState;

/// The account the request's `Authorization: Bearer …` token reads.
pub(crate) async fn account(req: &HttpRequest, state: &PactState) -> Result<AccountId, PactError> {
    let token = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            let (scheme, rest) = v.split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then(|| rest.trim())
        })
        .ok_or_else(PactError::invalid_token)?;
    match state.clients.authenticate(token).await {
        Ok(account) => Ok(account),
        Err(TokenAuthError::Invalid) => Err(PactError::invalid_token()),
        Err(TokenAuthError::Expired) => Err(PactError::token_expired()),
        Err(TokenAuthError::Store(e)) => Err(PactError::internal(&e)),
    }
}
