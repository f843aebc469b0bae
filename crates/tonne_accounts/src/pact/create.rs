//! Use case: an account's PACT client is created, its secret shown once.

use tonne_kernel::AccountId;

use super::{
    CLIENTS_PER_ACCOUNT, ClientError, ClientSecret, CreatedClient, PactClient, PactClientId,
    PactClients,
};
use crate::keys::KeyHash;

/// The longest label, in characters.
const LABEL_MAX: usize = 100;

fn label_ok(label: &str) -> bool {
    let count = label.chars().count();
    (1..=LABEL_MAX).contains(&count)
        && !label.trim().is_empty()
        && label.chars().all(|c| !c.is_control())
}

pub(super) async fn create(
    s: &PactClients,
    account: AccountId,
    label: &str,
) -> Result<CreatedClient, ClientError> {
    if !label_ok(label) {
        return Err(ClientError::InvalidLabel);
    }
    s.accounts
        .get(account)
        .await?
        .ok_or(ClientError::AccountNotFound)?;
    let secret = ClientSecret::generate();
    let client = PactClient {
        id: PactClientId::generate(s.ids.as_ref()),
        account_id: account,
        label: label.trim().to_owned(),
        secret_hash: KeyHash::of(secret.expose()),
        created_at: s.clock.now(),
        revoked_at: None,
    };
    if !s.repo.insert(&client, CLIENTS_PER_ACCOUNT).await? {
        return Err(ClientError::TooMany);
    }
    tracing::info!(client_id = %client.id, account_id = %account, "PACT client created");
    Ok(CreatedClient { client, secret })
}
