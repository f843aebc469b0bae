//! A user's and a session's columns as read, and their domain values.

use tonne_accounts::users::{Role, Session, TokenHash, User};
use tonne_kernel::OrganisationId;

use crate::db::error::corrupt;
use crate::mapping::{from_sql_time, parse_id};
use crate::schema::users;

pub(super) type UserRow = (
    String,
    String,
    String,
    Option<String>,
    Option<String>,
    time::PrimitiveDateTime,
    Option<time::PrimitiveDateTime>,
);

/// A constant tuple of columns, its type spelled by the same list.
macro_rules! columns {
    ($name:ident = ($($column:path),* $(,)?)) => {
        pub(super) const $name: ($($column,)*) = ($($column,)*);
    };
}

columns!(
    USER_COLUMNS = (
        users::id,
        users::email,
        users::role,
        users::organisation_id,
        users::password_hash,
        users::created_at,
        users::disabled_at,
    )
);

pub(super) fn user_of(row: UserRow) -> Result<User, diesel::result::Error> {
    let (id, email, role, organisation, password_hash, created_at, disabled_at) = row;
    let role = match (role.as_str(), organisation) {
        ("operator", None) => Role::Operator,
        ("member", Some(o)) => Role::Member(parse_id::<OrganisationId>("organisation id", &o)?),
        _ => return Err(corrupt("user role", &role)),
    };
    Ok(User {
        id: parse_id("user id", &id)?,
        email: email.parse().map_err(|_| corrupt("user email", &email))?,
        role,
        password_hash,
        created_at: from_sql_time(created_at),
        disabled_at: disabled_at.map(from_sql_time),
    })
}

pub(super) type SessionRow = (
    String,
    String,
    String,
    time::PrimitiveDateTime,
    time::PrimitiveDateTime,
);

pub(super) fn session_of(row: SessionRow) -> Result<Session, diesel::result::Error> {
    let (token_hash, user_id, csrf_token, created_at, last_seen_at) = row;
    Ok(Session {
        token_hash: TokenHash::from_stored(token_hash),
        user_id: parse_id("user id", &user_id)?,
        csrf_token,
        created_at: from_sql_time(created_at),
        last_seen_at: from_sql_time(last_seen_at),
    })
}
