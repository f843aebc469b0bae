//! Console users, their setup tokens and sessions, on either backend.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use tonne_accounts::users::{
    AttemptSource, FormKey, RecentFailures, Role, Session, SignInFailure, TokenHash, User, UserId,
    UserRepository,
};
use tonne_kernel::{AuditEntry, OrganisationId, StoreError};

use crate::db::error::{corrupt, store_error};
use crate::db::{Conn, Db};
use crate::mapping::{from_sql_time, parse_id, to_sql_time};
use crate::schema::{
    console_form_claims as claims, organisations, sign_in_failures as failures,
    user_sessions as sessions, user_setup_tokens as setup, users,
};

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

type UserRow = (
    String,
    String,
    String,
    Option<String>,
    Option<String>,
    time::PrimitiveDateTime,
    Option<time::PrimitiveDateTime>,
);

const USER_COLUMNS: (
    users::id,
    users::email,
    users::role,
    users::organisation_id,
    users::password_hash,
    users::created_at,
    users::disabled_at,
) = (
    users::id,
    users::email,
    users::role,
    users::organisation_id,
    users::password_hash,
    users::created_at,
    users::disabled_at,
);

fn user_of(row: UserRow) -> Result<User, diesel::result::Error> {
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

type SessionRow = (
    String,
    String,
    String,
    time::PrimitiveDateTime,
    time::PrimitiveDateTime,
);

fn session_of(row: SessionRow) -> Result<Session, diesel::result::Error> {
    let (token_hash, user_id, csrf_token, created_at, last_seen_at) = row;
    Ok(Session {
        token_hash: TokenHash::from_stored(token_hash),
        user_id: parse_id("user id", &user_id)?,
        csrf_token,
        created_at: from_sql_time(created_at),
        last_seen_at: from_sql_time(last_seen_at),
    })
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
        let row = (
            sessions::token_hash.eq(session.token_hash.as_str().to_owned()),
            sessions::user_id.eq(session.user_id.to_string()),
            sessions::csrf_token.eq(session.csrf_token.clone()),
            sessions::created_at.eq(to_sql_time(session.created_at)),
            sessions::last_seen_at.eq(to_sql_time(session.last_seen_at)),
        );
        self.db
            .transaction(move |conn| {
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

    async fn session(&self, token: &TokenHash) -> Result<Option<(Session, User)>, StoreError> {
        let token = token.as_str().to_owned();
        self.db
            .query(move |conn| {
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

    async fn touch_session(&self, token: &TokenHash, at: OffsetDateTime) -> Result<(), StoreError> {
        let token = token.as_str().to_owned();
        self.db
            .transaction(move |conn| {
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

    async fn claim_form(
        &self,
        key: &FormKey,
        now: OffsetDateTime,
        forget_before: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        let key = key.as_str().to_owned();
        let (now, forget_before) = (to_sql_time(now), to_sql_time(forget_before));
        self.db
            .transaction(move |conn| {
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

    async fn release_form(&self, key: &FormKey) -> Result<(), StoreError> {
        let key = key.as_str().to_owned();
        self.db
            .transaction(move |conn| {
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

    async fn delete_session(&self, token: &TokenHash) -> Result<(), StoreError> {
        let token = token.as_str().to_owned();
        self.db
            .transaction(move |conn| {
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

    async fn recent_sign_in_failures(
        &self,
        email: &TokenHash,
        source: &AttemptSource,
        since: OffsetDateTime,
        most: usize,
    ) -> Result<RecentFailures, StoreError> {
        let email = email.as_str().to_owned();
        let address = source.address().to_owned();
        let network = source.network().to_owned();
        let since = to_sql_time(since);
        let most = i64::try_from(most).unwrap_or(i64::MAX);
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let newest = failures::table
                        .filter(failures::at.ge(since))
                        .order(failures::at.desc())
                        .limit(most)
                        .select(failures::at);
                    let times = |rows: Vec<time::PrimitiveDateTime>| {
                        rows.into_iter().map(from_sql_time).collect::<Vec<_>>()
                    };
                    let pair = newest
                        .filter(failures::email_hash.eq(&email))
                        .filter(failures::address.eq(&address));
                    let by_email = newest.filter(failures::email_hash.eq(&email));
                    let by_network = newest.filter(failures::network.eq(&network));
                    let (pair, by_email, by_network) = match conn {
                        // Three independent reads: sent together, one round trip.
                        Conn::Pg(c) => {
                            let c: &diesel_async::AsyncPgConnection = c;
                            crate::db::sent_together!(
                                pair.load(&mut &*c),
                                by_email.load(&mut &*c),
                                by_network.load(&mut &*c),
                            )?
                        }
                        Conn::Sqlite(c) => {
                            let c: &mut crate::db::SqliteConn = c;
                            (
                                pair.load(c).await?,
                                by_email.load(c).await?,
                                by_network.load(c).await?,
                            )
                        }
                    };
                    Ok(RecentFailures {
                        pair: times(pair),
                        email: times(by_email),
                        network: times(by_network),
                    })
                })
            })
            .await
            .map_err(|e| store_error(e, "reading failed sign-ins"))
    }

    async fn record_sign_in_failure(
        &self,
        failure: &SignInFailure,
        forget_before: OffsetDateTime,
    ) -> Result<(), StoreError> {
        let row = (
            failures::email_hash.eq(failure.email.as_str().to_owned()),
            failures::address.eq(failure.source.address().to_owned()),
            failures::network.eq(failure.source.network().to_owned()),
            failures::at.eq(to_sql_time(failure.at)),
        );
        let forget_before = to_sql_time(forget_before);
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    on!(&mut *conn, |c| diesel::insert_into(failures::table)
                        .values(row)
                        .execute(c)
                        .await)?;
                    on!(conn, |c| diesel::delete(
                        failures::table.filter(failures::at.lt(forget_before))
                    )
                    .execute(c)
                    .await)
                    .map(drop)
                })
            })
            .await
            .map_err(|e| store_error(e, "recording a failed sign-in"))
    }

    async fn clear_sign_in_failures(
        &self,
        email: &TokenHash,
        source: &AttemptSource,
    ) -> Result<(), StoreError> {
        let email = email.as_str().to_owned();
        let address = source.address().to_owned();
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    on!(conn, |c| diesel::delete(
                        failures::table
                            .filter(failures::email_hash.eq(email))
                            .filter(failures::address.eq(address)),
                    )
                    .execute(c)
                    .await)
                    .map(drop)
                })
            })
            .await
            .map_err(|e| store_error(e, "forgetting failed sign-ins"))
    }
}
