//! The console's users and sessions: emails, roles, the random tokens (setup,
//! session, form) of which only hashes are stored, and the session policy.

use std::str::FromStr;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore as _;
use sha2::{Digest as _, Sha256};
use time::{Duration, OffsetDateTime};
use tonne_kernel::OrganisationId;

tonne_kernel::define_id!(
    /// Identifies a console user.
    UserId
);

/// An email address, trimmed and lower-cased (the sign-in name).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Email(String);

/// Why a text is not an email address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("an email address looks like name@example.org (at most 254 characters)")]
pub struct InvalidEmail;

impl FromStr for Email {
    type Err = InvalidEmail;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let text = s.trim().to_lowercase();
        let (local, domain) = text.split_once('@').ok_or(InvalidEmail)?;
        let fine = !local.is_empty()
            && domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
            && !domain.contains('@')
            && text.len() <= 254
            && !text.chars().any(|c| c.is_whitespace() || c.is_control());
        if fine {
            Ok(Self(text))
        } else {
            Err(InvalidEmail)
        }
    }
}

impl Email {
    /// The address.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Email {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a user may see and do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The whole installation.
    Operator,
    /// One organisation: its accounts, client accounts, keys and webhooks.
    Member(OrganisationId),
}

impl Role {
    /// The organisation a member belongs to; `None` for an operator.
    pub fn organisation(self) -> Option<OrganisationId> {
        match self {
            Self::Operator => None,
            Self::Member(o) => Some(o),
        }
    }
}

/// A stored user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: UserId,
    pub email: Email,
    pub role: Role,
    /// The argon2id hash (PHC string); `None` until a password is chosen.
    pub password_hash: Option<String>,
    pub created_at: OffsetDateTime,
    /// Set when the user was disabled (their sessions ended then).
    pub disabled_at: Option<OffsetDateTime>,
}

/// A user to create.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewUser {
    pub email: Email,
    pub role: Role,
}

/// The SHA-256 of a secret token (what the store keeps), as 64 hex characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TokenHash(String);

impl TokenHash {
    /// The hash of a token's text.
    pub fn of(token: &str) -> Self {
        Self(hex_of(&Sha256::digest(token.as_bytes())))
    }

    /// A stored hash, as read back.
    pub fn from_stored(hex: String) -> Self {
        Self(hex)
    }

    /// The hex text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn hex_of(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A fresh secret for sessions, setup links and form keys: 32 random bytes,
/// base64url without padding (only its hash is stored).
fn fresh_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// A session's secret (the cookie's value): 32 random bytes, base64url.
#[derive(Clone, PartialEq, Eq)]
pub struct SessionToken(String);

impl SessionToken {
    /// A fresh token.
    pub fn generate() -> Self {
        Self(fresh_secret())
    }

    /// A token as a cookie carried it.
    pub fn from_cookie(text: &str) -> Self {
        Self(text.to_owned())
    }

    /// The text to put in the cookie.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// What the store keeps.
    pub fn hash(&self) -> TokenHash {
        TokenHash::of(&self.0)
    }
}

impl std::fmt::Debug for SessionToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SessionToken(…)")
    }
}

/// The one-time key a console form carries, so that it acts once: the
/// first submission claims it, a repeat (a double click, a reload, a replay
/// within a day) finds it taken.
///
/// ```
/// use tonne_accounts::users::FormKey;
/// let key = FormKey::generate();
/// assert_eq!(FormKey::parse(key.as_str()), Some(key));
/// assert_eq!(FormKey::parse("short"), None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormKey(String);

impl FormKey {
    /// A fresh key for a form about to be shown.
    pub fn generate() -> Self {
        Self(fresh_secret())
    }

    /// A key as a form sent it: 16 to 100 letters, digits, `-` or `_`.
    pub fn parse(text: &str) -> Option<Self> {
        let fine = (16..=100).contains(&text.len())
            && text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'));
        fine.then(|| Self(text.to_owned()))
    }

    /// The key's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A one-time password-setup token (the link's last segment).
#[derive(Clone, PartialEq, Eq)]
pub struct SetupToken(String);

impl SetupToken {
    /// A fresh token.
    pub fn generate() -> Self {
        Self(fresh_secret())
    }

    /// A token as a link carried it.
    pub fn from_link(text: &str) -> Self {
        Self(text.to_owned())
    }

    /// The text to put in the link.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// What the store keeps.
    pub fn hash(&self) -> TokenHash {
        TokenHash::of(&self.0)
    }
}

impl std::fmt::Debug for SetupToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SetupToken(…)")
    }
}

/// A stored session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub token_hash: TokenHash,
    pub user_id: UserId,
    /// The synchronizer token every form of this session carries.
    pub csrf_token: String,
    pub created_at: OffsetDateTime,
    pub last_seen_at: OffsetDateTime,
}

impl Session {
    /// A new session for a user, created now.
    pub fn start(user_id: UserId, token: &SessionToken, now: OffsetDateTime) -> Self {
        Self {
            token_hash: token.hash(),
            user_id,
            csrf_token: fresh_secret(),
            created_at: now,
            last_seen_at: now,
        }
    }
}

/// When sessions end.
///
/// ```
/// use time::{Duration, macros::datetime};
/// use tonne_accounts::users::{Session, SessionPolicy, SessionToken, UserId};
///
/// let policy = SessionPolicy::default(); // 12 h idle, 7 days absolute
/// let start = datetime!(2026-11-24 09:00 UTC);
/// let id: UserId = "0190c6f1a7b27c3e9f2d4b1a2c3d4e5f".parse().unwrap();
/// let mut s = Session::start(id, &SessionToken::generate(), start);
/// assert!(policy.is_live(&s, start + Duration::hours(11)));
/// assert!(!policy.is_live(&s, start + Duration::hours(13)));  // idle
/// s.last_seen_at = start + Duration::days(7);
/// assert!(!policy.is_live(&s, start + Duration::days(7) + Duration::minutes(1))); // absolute
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionPolicy {
    pub idle: Duration,
    pub absolute: Duration,
}

impl Default for SessionPolicy {
    fn default() -> Self {
        Self {
            idle: Duration::hours(12),
            absolute: Duration::days(7),
        }
    }
}

impl SessionPolicy {
    /// Whether a session may still be used at `now`.
    pub fn is_live(&self, session: &Session, now: OffsetDateTime) -> bool {
        now - session.last_seen_at < self.idle && now - session.created_at < self.absolute
    }
}

/// The signed-in person a console request acts for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    pub user: User,
    pub session: Session,
}

impl Principal {
    /// This person as the audit log names them.
    pub fn actor(&self) -> tonne_kernel::Actor {
        tonne_kernel::Actor::person(self.user.email.as_str())
    }

    /// Whether this person may see an organisation's objects.
    pub fn may_see(&self, organisation: OrganisationId) -> bool {
        match self.user.role {
            Role::Operator => true,
            Role::Member(o) => o == organisation,
        }
    }
}
