//! Use case: a PACT client is revoked; its tokens go with it.

use tonne_kernel::AccountId;

use super::{ClientError, PactClient, PactClientId, PactClients};

pub(super) async fn revoke(
    s: &PactClients,
    account: Option<AccountId>,
    id: PactClientId,
) -> Result<PactClient, ClientError> {
    let found = s.repo.get(id).await?.ok_or(ClientError::ClientNotFound)?;
    if account.is_some_and(|a| a != found.account_id) {
        // another account's client is as unknown as a missing one
        return Err(ClientError::ClientNotFound);
    }
    if found.revoked_at.is_some() {
        return Ok(found);
    }
    let revoked = s
        .repo
        .revoke(id, s.clock.now())
        .await?
        .ok_or(ClientError::ClientNotFound)?;
    tracing::info!(client_id = %id, "PACT client revoked");
    Ok(revoked)
}
