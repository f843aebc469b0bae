//! The caller a key stands for, API keys as stored and as just created, and
//! the first account pair and keys of a new organisation.

use time::OffsetDateTime;
use tonne_kernel::{AccountId, AccountMode, ApiKeyId, OrganisationId};

use crate::keys::{ApiKeySecret, KeyHash};

use super::account::{Account, AccountScope};

/// Who is calling, resolved from an API key and an optional `Lune-Account` header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    /// The key used.
    pub key_id: ApiKeyId,
    /// The key's organisation; every read and write is confined to it.
    pub organisation_id: OrganisationId,
    /// The key's mode; every read and write is confined to it.
    pub mode: AccountMode,
    /// The account acted as.
    pub account_id: AccountId,
    /// Whether that account is a client account.
    pub scope: AccountScope,
}

/// An account id and the key created for it, as `tonne bootstrap` prints them.
#[derive(Debug, Clone)]
pub struct BootstrapAccount {
    /// The account.
    pub account_id: AccountId,
    /// Its first API key, shown once.
    pub api_key: ApiKeySecret,
}

/// The result of creating a new organisation with its first account pair and keys.
#[derive(Debug, Clone)]
pub struct Bootstrapped {
    /// The new organisation.
    pub organisation_id: OrganisationId,
    /// The live account and key.
    pub live: BootstrapAccount,
    /// The test account and key.
    pub test: BootstrapAccount,
}

/// A key just created: its record id, default account, and the secret, shown once.
#[derive(Debug, Clone)]
pub struct CreatedKey {
    /// The record id (to revoke it).
    pub id: ApiKeyId,
    /// The default account.
    pub account_id: AccountId,
    /// Its mode.
    pub mode: AccountMode,
    /// The secret.
    pub secret: ApiKeySecret,
}

/// How precisely a key's last use is kept: a key in use is written at most
/// once per this period, never on every request.
pub const LAST_USED_GRANULARITY: time::Duration = time::Duration::hours(1);

/// A stored API key record (never the secret).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKey {
    /// Record id, used to list and revoke.
    pub id: ApiKeyId,
    /// Owning organisation.
    pub organisation_id: OrganisationId,
    /// Live or test.
    pub mode: AccountMode,
    /// The account the key acts as when no `Lune-Account` header is sent.
    pub account_id: AccountId,
    /// Whether that default account is a client account (fixed for the key's life).
    pub account_scope: AccountScope,
    /// SHA-256 of the secret.
    pub hash: KeyHash,
    /// `tonne_live_abcd`: enough to recognise a key in a list.
    pub display_prefix: String,
    /// Creation time.
    pub created_at: OffsetDateTime,
    /// When it was revoked, if it was.
    pub revoked_at: Option<OffsetDateTime>,
    /// When it was last used, to the hour (see [`LAST_USED_GRANULARITY`]).
    pub last_used_at: Option<OffsetDateTime>,
}

impl ApiKey {
    /// A new key `id` of `account` for `secret`, created `at` and never used:
    /// of the secret, only its hash and display prefix are kept.
    pub fn issue(
        id: ApiKeyId,
        account: &Account,
        secret: &ApiKeySecret,
        at: OffsetDateTime,
    ) -> Self {
        Self {
            id,
            organisation_id: account.organisation_id,
            mode: account.mode,
            account_id: account.id,
            account_scope: account.scope,
            hash: KeyHash::of(secret.expose()),
            display_prefix: secret.display_prefix(),
            created_at: at,
            revoked_at: None,
            last_used_at: None,
        }
    }
}
