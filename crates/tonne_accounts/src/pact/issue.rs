//! Use case: a standing client's credentials buy an access token (OAuth 2
//! client credentials).

use super::{
    AccessToken, ClientSecret, IssuedToken, PactClientId, PactClients, TOKEN_LIFETIME,
    TOKENS_PER_CLIENT, TokenError,
};
use crate::keys::KeyHash;

pub(super) async fn issue(
    s: &PactClients,
    client_id: &str,
    secret: &str,
) -> Result<IssuedToken, TokenError> {
    let Ok(id) = client_id.parse::<PactClientId>() else {
        return Err(TokenError::InvalidClient);
    };
    if !ClientSecret::well_formed(secret) {
        return Err(TokenError::InvalidClient);
    }
    let Some(client) = s.repo.get(id).await? else {
        return Err(TokenError::InvalidClient);
    };
    if client.revoked_at.is_some() || !client.secret_hash.matches(&KeyHash::of(secret)) {
        return Err(TokenError::InvalidClient);
    }
    let token = AccessToken::generate();
    let now = s.clock.now();
    s.repo
        .insert_token(
            client.id,
            &KeyHash::of(token.expose()),
            now,
            now + TOKEN_LIFETIME,
            TOKENS_PER_CLIENT,
        )
        .await?;
    Ok(IssuedToken {
        token,
        expires_in: u32::try_from(TOKEN_LIFETIME.whole_seconds()).unwrap_or(u32::MAX),
    })
}
