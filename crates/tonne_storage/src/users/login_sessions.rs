//! Console sessions: created at sign-in, read and touched on each request,
//! deleted at sign-out; and the one-time claims that make every console form
//! act once.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use tonne_accounts::users::{FormKey, Session, TokenHash, User};
use tonne_kernel::StoreError;

use super::rows::{SessionRow, USER_COLUMNS, UserRow, session_of, user_of};
use crate::db::Db;
use crate::db::error::store_error;
use crate::mapping::to_sql_time;
use crate::schema::{console_form_claims as claims, user_sessions as sessions, users};

pub(super) async fn create_session(db: &Db, session: &Session) -> Result<(), StoreError> {
    let row = (
        sessions::token_hash.eq(session.token_hash.as_str().to_owned()),
        sessions::user_id.eq(session.user_id.to_string()),
        sessions::csrf_token.eq(session.csrf_token.clone()),
        sessions::created_at.eq(to_sql_time(session.created_at)),
        sessions::last_seen_at.eq(to_sql_time(session.last_seen_at)),
    );
    db.transaction(move |conn| {
        Box::pin(async move {
            on!(conn, |c| diesel::insert_into(sessions::table)
                .values(row)
                .execute(c)
                .await)
            .map(drop)
        })
    })
    .await
    .map_err(|e| store_error(e, "creating a session"))
}

pub(super) async fn session(
    db: &Db,
    token: &TokenHash,
) -> Result<Option<(Session, User)>, StoreError> {
    let token = token.as_str().to_owned();
    db.query(move |conn| {
        Box::pin(async move {
            let found = on!(conn, |c| sessions::table
                .inner_join(users::table)
                .filter(sessions::token_hash.eq(token))
                .select((
                    (
                        sessions::token_hash,
                        sessions::user_id,
                        sessions::csrf_token,
                        sessions::created_at,
                        sessions::last_seen_at,
                    ),
                    USER_COLUMNS,
                ))
                .first::<(SessionRow, UserRow)>(c)
                .await)
            .optional()?;
            found
                .map(|(s, u)| Ok((session_of(s)?, user_of(u)?)))
                .transpose()
        })
    })
    .await
    .map_err(|e| store_error(e, "reading a session"))
}

pub(super) async fn touch_session(
    db: &Db,
    token: &TokenHash,
    at: OffsetDateTime,
) -> Result<(), StoreError> {
    let token = token.as_str().to_owned();
    db.transaction(move |conn| {
        Box::pin(async move {
            on!(conn, |c| diesel::update(sessions::table.find(token))
                .set(sessions::last_seen_at.eq(to_sql_time(at)))
                .execute(c)
                .await)
            .map(drop)
        })
    })
    .await
    .map_err(|e| store_error(e, "recording a session's use"))
}

pub(super) async fn claim_form(
    db: &Db,
    key: &FormKey,
    now: OffsetDateTime,
    forget_before: OffsetDateTime,
) -> Result<bool, StoreError> {
    let key = key.as_str().to_owned();
    let (now, forget_before) = (to_sql_time(now), to_sql_time(forget_before));
    db.transaction(move |conn| {
        Box::pin(async move {
            on!(&mut *conn, |c| diesel::delete(
                claims::table.filter(claims::claimed_at.lt(forget_before))
            )
            .execute(c)
            .await)?;
            // The primary key decides: of two submissions of one form,
            // exactly one inserts.
            let inserted = on!(conn, |c| diesel::insert_into(claims::table)
                .values((claims::form_key.eq(&key), claims::claimed_at.eq(now)))
                .on_conflict_do_nothing()
                .execute(c)
                .await)?;
            Ok(inserted == 1)
        })
    })
    .await
    .map_err(|e| store_error(e, "claiming a form's key"))
}

pub(super) async fn release_form(db: &Db, key: &FormKey) -> Result<(), StoreError> {
    let key = key.as_str().to_owned();
    db.transaction(move |conn| {
        Box::pin(async move {
            on!(conn, |c| diesel::delete(claims::table.find(key))
                .execute(c)
                .await)
            .map(drop)
        })
    })
    .await
    .map_err(|e| store_error(e, "releasing a form's key"))
}

pub(super) async fn delete_session(db: &Db, token: &TokenHash) -> Result<(), StoreError> {
    let token = token.as_str().to_owned();
    db.transaction(move |conn| {
        Box::pin(async move {
            on!(conn, |c| diesel::delete(sessions::table.find(token))
                .execute(c)
                .await)
            .map(drop)
        })
    })
    .await
    .map_err(|e| store_error(e, "deleting a session"))
}
