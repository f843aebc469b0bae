//! The errors the account use cases answer, one per use case family.

use crate::models::InvalidField;

/// Why a request could not be authenticated.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// No key was presented.
    #[error("an API key is required")]
    MissingKey,
    /// The key is malformed, unknown or revoked.
    #[error("the API key is invalid or revoked")]
    InvalidKey,
    /// The key is valid but may not act as the account named in `Lune-Account`.
    #[error("this key may not act as that account")]
    AccountNotAllowed,
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// Why the acting account could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadAccountError {
    /// `GET /accounts/client/me` by a key that does not act as a client account.
    #[error("this key does not act as a client account")]
    NotAClientAccount,
    /// Storage failed (or the acting account vanished).
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// Why accounts could not be listed.
#[derive(Debug, thiserror::Error)]
pub enum ListAccountsError {
    /// A filter or cursor is invalid.
    #[error(transparent)]
    Invalid(#[from] InvalidField),
    /// A key acting as a client account may not list the organisation's accounts.
    #[error("a key acting as a client account may not list accounts")]
    ClientAccountKey,
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// Why an account pair or client account could not be created.
#[derive(Debug, thiserror::Error)]
pub enum CreateAccountError {
    /// A field is invalid.
    #[error(transparent)]
    Invalid(#[from] InvalidField),
    /// Account pairs are created with live keys only.
    #[error("a live API key is required to create accounts")]
    LiveAccountRequired,
    /// A key acting as a client account may not create accounts.
    #[error("a key acting as a client account may not create accounts")]
    ClientAccountKey,
    /// Another account of the organisation and type has this handle.
    #[error("handle: another account of this organisation and type has this handle")]
    HandleTaken,
    /// A client account was already created with this idempotency key.
    #[error("idempotency_key: a client account was already created with this key")]
    IdempotencyKeyTaken,
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// Why an account could not be updated.
#[derive(Debug, thiserror::Error)]
pub enum UpdateAccountError {
    /// A field is invalid.
    #[error(transparent)]
    Invalid(#[from] InvalidField),
    /// No account of the caller's organisation and mode has this id (or it is
    /// not an id at all): another tenant's account is not told apart.
    #[error("no account has this id")]
    NotFound,
    /// The account is the caller's organisation's and mode's, but of the other
    /// kind (an account on the client accounts' route, or the reverse).
    #[error("the account is not one this key may update")]
    IdInvalid,
    /// A test account's name follows its live sibling and cannot be changed directly.
    #[error("a test account's name cannot be changed; rename its live sibling")]
    TestAccountNameUpdateDisallowed,
    /// A key acting as a client account may not update accounts.
    #[error("a key acting as a client account may not update accounts")]
    ClientAccountKey,
    /// Another account of the organisation and type has this handle.
    #[error("handle: another account of this organisation and type has this handle")]
    HandleTaken,
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// Why an operator command failed.
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    /// No organisation with that id.
    #[error("organisation not found")]
    OrganisationNotFound,
    /// The account does not exist, or belongs to another organisation or mode.
    #[error("account not found in that organisation and mode")]
    AccountNotFound,
    /// The organisation has no account of that mode to default to.
    #[error("the organisation has no account of that mode")]
    NoAccountForMode,
    /// No key with that id.
    #[error("API key not found")]
    KeyNotFound,
    /// A field is invalid.
    #[error(transparent)]
    Invalid(#[from] InvalidField),
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}
