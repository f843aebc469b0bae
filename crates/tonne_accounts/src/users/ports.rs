//! The user ports: the driving [`UsersService`] and the driven
//! [`UserRepository`], with the use cases' answers and errors.

use async_trait::async_trait;
use time::OffsetDateTime;
use tonne_kernel::{Actor, AuditEntry, StoreError};

use super::model::{
    Email, FormKey, NewUser, Principal, Session, SessionToken, SetupToken, TokenHash, User, UserId,
};
use super::password::{HashingFailed, Password, PasswordRuleError};
use super::throttle::{AttemptSource, RecentFailures, SignInFailure};

/// Where users, their setup tokens and their sessions are kept (driven port).
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait UserRepository: Send + Sync {
    /// Stores a new user with its audit entry, in one transaction; `Duplicate`
    /// if the email is taken, `NotFound` if a member's organisation does not exist.
    async fn create(
        &self,
        user: &User,
        setup: Option<(TokenHash, OffsetDateTime)>,
        audit: AuditEntry,
    ) -> Result<(), StoreError>;
    /// A user by email.
    async fn by_email(&self, email: &Email) -> Result<Option<User>, StoreError>;
    /// A user by id.
    async fn get(&self, id: UserId) -> Result<Option<User>, StoreError>;
    /// Every user, by email.
    async fn list(&self) -> Result<Vec<User>, StoreError>;
    /// Sets a password hash and deletes the user's setup tokens; writes the
    /// audit entry in the same transaction.
    async fn set_password(
        &self,
        id: UserId,
        hash: &str,
        audit: AuditEntry,
    ) -> Result<(), StoreError>;
    /// The user of a setup token valid at `now`, without consuming it (the
    /// page of a setup link shows its form only while the link works).
    async fn setup_token_user(
        &self,
        token: &TokenHash,
        now: OffsetDateTime,
    ) -> Result<Option<UserId>, StoreError>;
    /// Consumes a setup token valid at `now`: deletes it and answers its user
    /// (at most one caller gets it).
    async fn take_setup_token(
        &self,
        token: &TokenHash,
        now: OffsetDateTime,
    ) -> Result<Option<UserId>, StoreError>;
    /// Marks a user disabled at `at`, deletes all their sessions and writes the
    /// audit entry, in one transaction.
    async fn disable(
        &self,
        id: UserId,
        at: OffsetDateTime,
        audit: AuditEntry,
    ) -> Result<(), StoreError>;
    /// Stores a session.
    async fn create_session(&self, session: &Session) -> Result<(), StoreError>;
    /// A session with its user.
    async fn session(&self, token: &TokenHash) -> Result<Option<(Session, User)>, StoreError>;
    /// Records a use of the session.
    async fn touch_session(&self, token: &TokenHash, at: OffsetDateTime) -> Result<(), StoreError>;
    /// Deletes a session (sign-out, expiry).
    async fn delete_session(&self, token: &TokenHash) -> Result<(), StoreError>;
    /// Claims a form's one-time key at `now`: `true` for the first claim,
    /// `false` when it was claimed before. Claims older than `forget_before`
    /// are deleted.
    async fn claim_form(
        &self,
        key: &FormKey,
        now: OffsetDateTime,
        forget_before: OffsetDateTime,
    ) -> Result<bool, StoreError>;
    /// Gives a claimed key back (the form's action failed and may be retried).
    async fn release_form(&self, key: &FormKey) -> Result<(), StoreError>;
    /// The failed sign-ins since `since` for this email from this address,
    /// for this email from every address, and for every email from the
    /// source's network: each list newest first, at most `most` long.
    async fn recent_sign_in_failures(
        &self,
        email: &TokenHash,
        source: &AttemptSource,
        since: OffsetDateTime,
        most: usize,
    ) -> Result<RecentFailures, StoreError>;
    /// Records a failed sign-in, and forgets every failure older than
    /// `forget_before` (they no longer count).
    async fn record_sign_in_failure(
        &self,
        failure: &SignInFailure,
        forget_before: OffsetDateTime,
    ) -> Result<(), StoreError>;
    /// Forgets this email's failures from this address (after a sign-in
    /// succeeded from it).
    async fn clear_sign_in_failures(
        &self,
        email: &TokenHash,
        source: &AttemptSource,
    ) -> Result<(), StoreError>;
}

/// A user just created, with the link to choose a password (when none was given).
#[derive(Debug, Clone)]
pub struct CreatedUser {
    pub user: User,
    /// Shown once: `…/console/setup/{token}`.
    pub setup_token: Option<SetupToken>,
}

/// Why a user could not be created, or a password set.
#[derive(Debug, thiserror::Error)]
pub enum UserError {
    #[error(transparent)]
    Password(#[from] PasswordRuleError),
    #[error("a user with this email exists")]
    EmailTaken,
    #[error("no such organisation")]
    NoSuchOrganisation,
    #[error("no such user")]
    NoSuchUser,
    #[error("this link has expired or was used already")]
    SetupLinkInvalid,
    #[error(transparent)]
    Hashing(#[from] HashingFailed),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a sign-in was refused: one answer for every wrong email or password.
#[derive(Debug, thiserror::Error)]
pub enum SignInError {
    #[error("the email or password is wrong")]
    Refused,
    /// Too many recent failures bear on this attempt (from this address, for
    /// this email or from this network): nothing was checked.
    #[error("too many failed sign-ins; wait {} seconds", wait.whole_seconds())]
    TooManyFailures { wait: time::Duration },
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The console's use cases for people (driving port).
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait UsersService: Send + Sync {
    /// Creates a user (audited as made `by`); with a password it is set at
    /// once, else the answer carries a one-time setup token valid 24 h.
    async fn create(
        &self,
        user: NewUser,
        password: Option<Password>,
        by: &Actor,
    ) -> Result<CreatedUser, UserError>;
    /// Every user.
    async fn list(&self) -> Result<Vec<User>, StoreError>;
    /// Disables a user by email and ends their sessions at once (audited as done `by`).
    async fn disable(&self, email: &Email, by: &Actor) -> Result<User, UserError>;
    /// Whether a setup link still works: its token is unused, unexpired and
    /// its user not disabled. Reads only; the link is consumed by
    /// [`choose_password`](Self::choose_password).
    async fn setup_link_works(&self, token: &SetupToken) -> Result<bool, StoreError>;
    /// Chooses a password with a setup token (once).
    async fn choose_password(
        &self,
        token: &SetupToken,
        password: Password,
    ) -> Result<User, UserError>;
    /// Signs in: a new session (and its token) for a right email and
    /// password, unless too many recent failures bear on an attempt from
    /// `from` (see [`super::Throttle`]); a wrong one is recorded as a failure.
    async fn sign_in(
        &self,
        email: &str,
        password: &str,
        from: &AttemptSource,
    ) -> Result<(SessionToken, Principal), SignInError>;
    /// The person a session token stands for, if the session is live (its use
    /// is recorded; an expired session is deleted).
    async fn principal(&self, token: &SessionToken) -> Result<Option<Principal>, StoreError>;
    /// Claims a console form's one-time key: `true` the first time, `false`
    /// for a repeat (the form already acted). Claims are kept a day.
    async fn claim_form(&self, key: &FormKey) -> Result<bool, StoreError>;
    /// Gives a claimed key back, when the form's action did not happen.
    async fn release_form(&self, key: &FormKey) -> Result<(), StoreError>;
    /// Signs out: deletes the session.
    async fn sign_out(&self, token: &SessionToken) -> Result<(), StoreError>;
}
