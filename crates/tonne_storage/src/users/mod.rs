//! Console users, their setup tokens and sessions, on either backend.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use tonne_accounts::users::{
    AttemptSource, FormKey, RecentFailures, Role, Session, SignInFailure, TokenHash, User, UserId,
    UserRepository,
};
use tonne_kernel::{AuditEntry, StoreError};

use crate::db::Db;
use crate::db::error::store_error;
use crate::mapping::{parse_id, to_sql_time};
use crate::schema::{organisations, user_sessions as sessions, user_setup_tokens as setup, users};

mod login_sessions;
mod rows;
mod throttle;

use rows::{USER_COLUMNS, UserRow, user_of};

/// Users and sessions over a pool.
#[derive(Debug, Clone)]
pub struct UserStore {
    db: Db,
}

impl UserStore {
    /// A repository over a pool.
    pub fn new(db: Db) -> Self {
        Self { db }
    }
}

#[async_trait]
impl UserRepository for UserStore {
    async fn create(
        &self,
        user: &User,
        setup_token: Option<(TokenHash, OffsetDateTime)>,
        audit: AuditEntry,
    ) -> Result<(), StoreError> {
        let (role, organisation) = match user.role {
            Role::Operator => ("operator", None),
            Role::Member(o) => ("member", Some(o.to_string())),
        };
        let row = (
            users::id.eq(user.id.to_string()),
            users::email.eq(user.email.as_str().to_owned()),
            users::role.eq(role),
            users::organisation_id.eq(organisation.clone()),
            users::password_hash.eq(user.password_hash.clone()),
            users::created_at.eq(to_sql_time(user.created_at)),
            users::disabled_at.eq(user.disabled_at.map(to_sql_time)),
        );
        let id = user.id.to_string();
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    if let Some(o) = organisation {
                        let known = on!(&mut *conn, |c| organisations::table
                            .filter(organisations::id.eq(o))
                            .count()
                            .get_result::<i64>(c)
                            .await)?;
                        if known == 0 {
                            return Err(diesel::result::Error::NotFound);
                        }
                    }
                    on!(&mut *conn, |c| diesel::insert_into(users::table)
                        .values(row)
                        .execute(c)
                        .await)?;
                    if let Some((hash, until)) = setup_token {
                        on!(&mut *conn, |c| diesel::insert_into(setup::table)
                            .values((
                                setup::token_hash.eq(hash.as_str().to_owned()),
                                setup::user_id.eq(id),
                                setup::expires_at.eq(to_sql_time(until)),
                            ))
                            .execute(c)
                            .await)?;
                    }
                    crate::audit::record(conn, [&audit]).await
                })
            })
            .await
            .map_err(|e| store_error(e, "creating a user"))
    }

    async fn by_email(
        &self,
        email: &tonne_accounts::users::Email,
    ) -> Result<Option<User>, StoreError> {
        let email = email.as_str().to_owned();
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    on!(conn, |c| users::table
                        .filter(users::email.eq(email))
                        .select(USER_COLUMNS)
                        .first::<UserRow>(c)
                        .await)
                    .optional()?
                    .map(user_of)
                    .transpose()
                })
            })
            .await
            .map_err(|e| store_error(e, "reading a user by email"))
    }

    async fn get(&self, id: UserId) -> Result<Option<User>, StoreError> {
        let id = id.to_string();
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    on!(conn, |c| users::table
                        .find(id)
                        .select(USER_COLUMNS)
                        .first::<UserRow>(c)
                        .await)
                    .optional()?
                    .map(user_of)
                    .transpose()
                })
            })
            .await
            .map_err(|e| store_error(e, "reading a user"))
    }

    async fn list(&self) -> Result<Vec<User>, StoreError> {
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    on!(conn, |c| users::table
                        .order(users::email.asc())
                        .select(USER_COLUMNS)
                        .load::<UserRow>(c)
                        .await)?
                    .into_iter()
                    .map(user_of)
                    .collect()
                })
            })
            .await
            .map_err(|e| store_error(e, "listing users"))
    }

    async fn set_password(
        &self,
        id: UserId,
        hash: &str,
        audit: AuditEntry,
    ) -> Result<(), StoreError> {
        let (id, hash) = (id.to_string(), hash.to_owned());
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    let updated = on!(&mut *conn, |c| diesel::update(users::table.find(&id))
                        .set(users::password_hash.eq(Some(hash)))
                        .execute(c)
                        .await)?;
                    if updated == 0 {
                        return Err(diesel::result::Error::NotFound);
                    }
                    on!(&mut *conn, |c| diesel::delete(
                        setup::table.filter(setup::user_id.eq(&id))
                    )
                    .execute(c)
                    .await)?;
                    crate::audit::record(conn, [&audit]).await
                })
            })
            .await
            .map_err(|e| store_error(e, "setting a password"))
    }

    async fn setup_token_user(
        &self,
        token: &TokenHash,
        now: OffsetDateTime,
    ) -> Result<Option<UserId>, StoreError> {
        let token = token.as_str().to_owned();
        let now = to_sql_time(now);
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let found = on!(conn, |c| setup::table
                        .find(&token)
                        .filter(setup::expires_at.gt(now))
                        .select(setup::user_id)
                        .first::<String>(c)
                        .await)
                    .optional()?;
                    found.map(|user| parse_id("user id", &user)).transpose()
                })
            })
            .await
            .map_err(|e| store_error(e, "reading a setup token"))
    }

    async fn take_setup_token(
        &self,
        token: &TokenHash,
        now: OffsetDateTime,
    ) -> Result<Option<UserId>, StoreError> {
        let token = token.as_str().to_owned();
        let now = to_sql_time(now);
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    let found = on!(&mut *conn, |c| setup::table
                        .find(&token)
                        .select((setup::user_id, setup::expires_at))
                        .first::<(String, time::PrimitiveDateTime)>(c)
                        .await)
                    .optional()?;
                    let Some((user, until)) = found else {
                        return Ok(None);
                    };
                    // Deleting is what consumes it: of two concurrent uses, one deletes the row.
                    let deleted = on!(conn, |c| diesel::delete(setup::table.find(&token))
                        .execute(c)
                        .await)?;
                    if deleted == 0 || until <= now {
                        return Ok(None);
                    }
                    parse_id("user id", &user).map(Some)
                })
            })
            .await
            .map_err(|e| store_error(e, "taking a setup token"))
    }

    async fn disable(
        &self,
        id: UserId,
        at: OffsetDateTime,
        audit: AuditEntry,
    ) -> Result<(), StoreError> {
        let id = id.to_string();
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    let updated = on!(&mut *conn, |c| diesel::update(
                        users::table.find(&id).filter(users::disabled_at.is_null())
                    )
                    .set(users::disabled_at.eq(Some(to_sql_time(at))))
                    .execute(c)
                    .await)?;
                    let known = updated > 0
                        || on!(&mut *conn, |c| users::table
                            .find(&id)
                            .count()
                            .get_result::<i64>(c)
                            .await)?
                            > 0;
                    if !known {
                        return Err(diesel::result::Error::NotFound);
                    }
                    on!(&mut *conn, |c| diesel::delete(
                        sessions::table.filter(sessions::user_id.eq(&id))
                    )
                    .execute(c)
                    .await)?;
                    on!(&mut *conn, |c| diesel::delete(
                        setup::table.filter(setup::user_id.eq(&id))
                    )
                    .execute(c)
                    .await)?;
                    if updated > 0 {
                        // Disabling a disabled user changes nothing, and records nothing.
                        crate::audit::record(conn, [&audit]).await?;
                    }
                    Ok(())
                })
            })
            .await
            .map_err(|e| store_error(e, "disabling a user"))
    }

    async fn create_session(&self, session: &Session) -> Result<(), StoreError> {
        login_sessions::create_session(&self.db, session).await
    }

    async fn session(&self, token: &TokenHash) -> Result<Option<(Session, User)>, StoreError> {
        login_sessions::session(&self.db, token).await
    }

    async fn touch_session(&self, token: &TokenHash, at: OffsetDateTime) -> Result<(), StoreError> {
        login_sessions::touch_session(&self.db, token, at).await
    }

    async fn claim_form(
        &self,
        key: &FormKey,
        now: OffsetDateTime,
        forget_before: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        login_sessions::claim_form(&self.db, key, now, forget_before).await
    }

    async fn release_form(&self, key: &FormKey) -> Result<(), StoreError> {
        login_sessions::release_form(&self.db, key).await
    }

    async fn delete_session(&self, token: &TokenHash) -> Result<(), StoreError> {
        login_sessions::delete_session(&self.db, token).await
    }

    async fn recent_sign_in_failures(
        &self,
        email: &TokenHash,
        source: &AttemptSource,
        since: OffsetDateTime,
        most: usize,
    ) -> Result<RecentFailures, StoreError> {
        throttle::recent_sign_in_failures(&self.db, email, source, since, most).await
    }

    async fn record_sign_in_failure(
        &self,
        failure: &SignInFailure,
        forget_before: OffsetDateTime,
    ) -> Result<(), StoreError> {
        throttle::record_sign_in_failure(&self.db, failure, forget_before).await
    }

    async fn clear_sign_in_failures(
        &self,
        email: &TokenHash,
        source: &AttemptSource,
    ) -> Result<(), StoreError> {
        throttle::clear_sign_in_failures(&self.db, email, source).await
    }
}
