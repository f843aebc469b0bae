//! PACT clients: the OAuth 2 client credentials an account gives another
//! system so that it can pull the account's logistics footprints over the
//! PACT Data Exchange Protocol (`/pact`), and the short-lived access tokens
//! those credentials buy.
//!
//! A client's secret and its tokens are 256 random bits each, shown once and
//! stored only as SHA-256 hashes ([`KeyHash`]). Revoking a client ends its
//! tokens at once: a token is honoured only while its client stands.
//!
//! ```
//! use tonne_accounts::pact::{AccessToken, ClientSecret};
//!
//! let secret = ClientSecret::generate();
//! assert!(secret.expose().starts_with("tonne_pact_"));
//! assert!(ClientSecret::well_formed(secret.expose()));
//! assert!(!ClientSecret::well_formed("tonne_pact_short"));
//! let token = AccessToken::generate();
//! assert!(AccessToken::well_formed(token.expose()));
//! ```

use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore as _;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, Clock, IdGenerator, StoreError};

use crate::keys::KeyHash;
use crate::ports::AccountRepository;

mod authenticate;
mod create;
mod issue;
pub mod partners;
mod revoke;

#[cfg(test)]
mod tests;

tonne_kernel::define_id!(
    /// A PACT client's `client_id`.
    PactClientId
);

/// How long an access token is honoured.
pub const TOKEN_LIFETIME: time::Duration = time::Duration::hours(1);
/// Tokens a client may hold at once; issuing one more forgets the oldest.
pub const TOKENS_PER_CLIENT: u32 = 64;
/// Clients an account may hold at once (revoked ones do not count).
pub const CLIENTS_PER_ACCOUNT: u32 = 20;

const SECRET_PREFIX: &str = "tonne_pact_";
const TOKEN_PREFIX: &str = "tonne_pat_";
/// 32 random bytes encode to 43 base64url characters.
const BODY_LEN: usize = 43;

fn random_body() -> String {
    let mut bytes = [0_u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

fn well_formed(presented: &str, prefix: &str) -> bool {
    presented.strip_prefix(prefix).is_some_and(|body| {
        body.len() == BODY_LEN
            && body
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    })
}

/// A client's secret: shown once at creation, never stored.
#[derive(Clone, PartialEq, Eq)]
pub struct ClientSecret(String);

impl ClientSecret {
    /// A new random secret (`tonne_pact_` and 43 base64url characters).
    pub fn generate() -> Self {
        Self(format!("{SECRET_PREFIX}{}", random_body()))
    }

    /// The secret's text, to show its owner once.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Whether a presented secret has the form of one (it must still match).
    pub fn well_formed(presented: &str) -> bool {
        well_formed(presented, SECRET_PREFIX)
    }
}

impl fmt::Debug for ClientSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ClientSecret(<redacted>)")
    }
}

/// An access token: given once to the client that asked, never stored.
#[derive(Clone, PartialEq, Eq)]
pub struct AccessToken(String);

impl AccessToken {
    /// A new random token (`tonne_pat_` and 43 base64url characters).
    pub fn generate() -> Self {
        Self(format!("{TOKEN_PREFIX}{}", random_body()))
    }

    /// The token's text, for the one answer that carries it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Whether a presented token has the form of one (it must still be found).
    pub fn well_formed(presented: &str) -> bool {
        well_formed(presented, TOKEN_PREFIX)
    }
}

impl fmt::Debug for AccessToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AccessToken(<redacted>)")
    }
}

/// A client as stored (its secret only as a hash).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PactClient {
    pub id: PactClientId,
    /// The account whose footprints it may read.
    pub account_id: AccountId,
    /// What the account calls it (who it was given to).
    pub label: String,
    pub secret_hash: KeyHash,
    pub created_at: OffsetDateTime,
    pub revoked_at: Option<OffsetDateTime>,
}

/// A new client and its secret, shown this once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreatedClient {
    pub client: PactClient,
    pub secret: ClientSecret,
}

/// A token handed out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssuedToken {
    pub token: AccessToken,
    /// Seconds until it expires.
    pub expires_in: u32,
}

/// Why a token request is refused.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    /// Unknown client, wrong secret or revoked client (OAuth's `invalid_client`).
    #[error("the client's credentials are not valid")]
    InvalidClient,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a presented token is refused.
#[derive(Debug, thiserror::Error)]
pub enum TokenAuthError {
    /// Unknown, malformed, or its client revoked.
    #[error("the access token is not valid")]
    Invalid,
    /// Known, but past its lifetime.
    #[error("the access token has expired")]
    Expired,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a client cannot be created or revoked.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("no such account")]
    AccountNotFound,
    #[error("no such PACT client")]
    ClientNotFound,
    /// The label is empty, too long or holds control characters.
    #[error("the label must be 1 to 100 printable characters")]
    InvalidLabel,
    /// The account holds [`CLIENTS_PER_ACCOUNT`] clients already.
    #[error("the account holds {CLIENTS_PER_ACCOUNT} PACT clients already; revoke one first")]
    TooMany,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A stored token's standing, as the repository finds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenRecord {
    pub account_id: AccountId,
    pub expires_at: OffsetDateTime,
}

/// Storage of clients and token hashes.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait PactClientRepository: Send + Sync {
    /// Stores a client unless the account already holds `max` clients not
    /// revoked (counted in the same transaction): whether it was stored.
    async fn insert(&self, client: &PactClient, max: u32) -> Result<bool, StoreError>;

    /// A client by id, revoked or not.
    async fn get(&self, id: PactClientId) -> Result<Option<PactClient>, StoreError>;

    /// The account's clients, oldest first.
    async fn list(&self, account: AccountId) -> Result<Vec<PactClient>, StoreError>;

    /// Marks the client revoked and forgets its tokens; the client as it now stands.
    async fn revoke(
        &self,
        id: PactClientId,
        at: OffsetDateTime,
    ) -> Result<Option<PactClient>, StoreError>;

    /// Stores a token's hash for a client, forgetting the client's expired
    /// tokens and its oldest beyond `keep`.
    async fn insert_token(
        &self,
        client: PactClientId,
        hash: &KeyHash,
        issued_at: OffsetDateTime,
        expires_at: OffsetDateTime,
        keep: u32,
    ) -> Result<(), StoreError>;

    /// The token with that hash, if its client stands (not revoked).
    async fn token(&self, hash: &KeyHash) -> Result<Option<TokenRecord>, StoreError>;
}

/// The PACT clients' use cases: create, list, revoke (the CLI, the console),
/// trade credentials for a token and a token for the account it reads.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait PactClientsService: Send + Sync {
    /// A new client of the account, with its secret (shown once).
    async fn create(&self, account: AccountId, label: &str) -> Result<CreatedClient, ClientError>;

    /// The account's clients, oldest first.
    async fn list(&self, account: AccountId) -> Result<Vec<PactClient>, ClientError>;

    /// Revokes a client of the account (of any account when `account` is
    /// `None`: the operator's CLI); its tokens stop working at once.
    async fn revoke(
        &self,
        account: Option<AccountId>,
        id: PactClientId,
    ) -> Result<PactClient, ClientError>;

    /// OAuth 2 client credentials: a token for a standing client whose secret matches.
    async fn issue_token(&self, client_id: &str, secret: &str) -> Result<IssuedToken, TokenError>;

    /// The account a presented token reads.
    async fn authenticate(&self, token: &str) -> Result<AccountId, TokenAuthError>;
}

/// [`PactClientsService`] over its ports: the clients' storage, the accounts
/// (a client names one), a clock and an id generator (`PactClients::new`
/// takes them in the order of the fields).
#[derive(derive_more::Constructor)]
pub struct PactClients {
    repo: Arc<dyn PactClientRepository>,
    accounts: Arc<dyn AccountRepository>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
}

#[async_trait]
impl PactClientsService for PactClients {
    async fn create(&self, account: AccountId, label: &str) -> Result<CreatedClient, ClientError> {
        create::create(self, account, label).await
    }

    async fn list(&self, account: AccountId) -> Result<Vec<PactClient>, ClientError> {
        Ok(self.repo.list(account).await?)
    }

    async fn revoke(
        &self,
        account: Option<AccountId>,
        id: PactClientId,
    ) -> Result<PactClient, ClientError> {
        revoke::revoke(self, account, id).await
    }

    async fn issue_token(&self, client_id: &str, secret: &str) -> Result<IssuedToken, TokenError> {
        issue::issue(self, client_id, secret).await
    }

    async fn authenticate(&self, token: &str) -> Result<AccountId, TokenAuthError> {
        authenticate::authenticate(self, token).await
    }
}
