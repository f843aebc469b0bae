//! Use case: a presented token names the account it reads.

use tonne_kernel::AccountId;

use super::{AccessToken, PactClients, TokenAuthError};
use crate::keys::KeyHash;

pub(super) async fn authenticate(
    s: &PactClients,
    token: &str,
) -> Result<AccountId, TokenAuthError> {
    if !AccessToken::well_formed(token) {
        return Err(TokenAuthError::Invalid);
    }
    let record = s
        .repo
        .token(&KeyHash::of(token))
        .await?
        .ok_or(TokenAuthError::Invalid)?;
    if record.expires_at <= s.clock.now() {
        return Err(TokenAuthError::Expired);
    }
    Ok(record.account_id)
}
