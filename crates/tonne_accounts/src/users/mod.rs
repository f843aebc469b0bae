//! People who use the console: users, their passwords and their sessions.
//!
//! A **user** has an email, an argon2id password hash and a [`Role`]: the
//! `operator` runs the whole installation; a `member` sees one organisation
//! (its live and test accounts and its client accounts). A user is created
//! without a password and receives a one-time **setup link** (valid 24 h) to
//! choose one, or is given one directly (`--password-stdin`).
//!
//! A **session** is an opaque random token held in a cookie; only its SHA-256
//! is stored, beside the session's CSRF token. It ends after 12 h without use
//! (idle), 7 days after sign-in (absolute), at sign-out, or when its user is
//! disabled.
//!
//! ```
//! use tonne_accounts::users::{Email, Password, PasswordRuleError};
//!
//! let email: Email = " Ada@Example.org ".parse().unwrap();
//! assert_eq!(email.as_str(), "ada@example.org");
//! assert!("not an email".parse::<Email>().is_err());
//!
//! assert!(Password::new("correct horse battery").is_ok());
//! assert_eq!(Password::new("short").unwrap_err(), PasswordRuleError::TooShort);
//! ```

mod model;
mod password;
mod ports;
mod service;
mod throttle;

pub use model::{
    Email, FormKey, InvalidEmail, NewUser, Principal, Role, Session, SessionPolicy, SessionToken,
    SetupToken, TokenHash, User, UserId,
};
pub use password::{
    HashingFailed, Password, PasswordHash, PasswordHasher, PasswordRuleError, Weakness,
};
pub use ports::{CreatedUser, SignInError, UserError, UserRepository, UsersService};
#[cfg(any(test, feature = "mock"))]
pub use ports::{MockUserRepository, MockUsersService};
pub use service::Users;
pub use throttle::{
    AttemptSource, RecentFailures, SignInFailure, Step, Throttle, Verdict, email_key,
};
