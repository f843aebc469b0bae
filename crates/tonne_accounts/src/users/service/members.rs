//! Use cases: the operator creates (with a password or a setup link), lists and
//! disables users.

use time::Duration;
use tonne_kernel::{Actor, StoreError};

use crate::users::model::{Email, NewUser, SetupToken, User, UserId};
use crate::users::password::Password;
use crate::users::ports::{CreatedUser, UserError};

use super::Users;
use super::support::{user_entry, user_snapshot};

/// How long a setup link stays valid.
const SETUP_LINK_VALIDITY: Duration = Duration::hours(24);

impl Users {
    pub(super) async fn create(
        &self,
        new: NewUser,
        password: Option<Password>,
        by: &Actor,
    ) -> Result<CreatedUser, UserError> {
        if let Some(p) = &password {
            p.strong_enough(&[new.email.as_str()])?;
        }
        let now = self.clock.now();
        let user = User {
            id: UserId::generate(self.ids.as_ref()),
            email: new.email,
            role: new.role,
            password_hash: password
                .map(|p| self.hasher.hash(&p).map(|h| h.0))
                .transpose()?,
            created_at: now,
            disabled_at: None,
        };
        let setup_token = user.password_hash.is_none().then(SetupToken::generate);
        let setup = setup_token
            .as_ref()
            .map(|t| (t.hash(), now + SETUP_LINK_VALIDITY));
        let audit = user_entry(&user, now, by, "user.created").after(user_snapshot(&user));
        self.repo
            .create(&user, setup, audit)
            .await
            .map_err(created_error)?;
        Ok(CreatedUser { user, setup_token })
    }

    pub(super) async fn list(&self) -> Result<Vec<User>, StoreError> {
        self.repo.list().await
    }

    pub(super) async fn disable(&self, email: &Email, by: &Actor) -> Result<User, UserError> {
        let mut user = self
            .repo
            .by_email(email)
            .await?
            .ok_or(UserError::NoSuchUser)?;
        let now = self.clock.now();
        let before = user_snapshot(&user);
        user.disabled_at.get_or_insert(now);
        let audit = user_entry(&user, now, by, "user.disabled")
            .before(before)
            .after(user_snapshot(&user));
        self.repo.disable(user.id, now, audit).await?;
        Ok(user)
    }
}

fn created_error(e: StoreError) -> UserError {
    match e {
        StoreError::Duplicate => UserError::EmailTaken,
        StoreError::NotFound => UserError::NoSuchOrganisation,
        other => UserError::Store(other),
    }
}
