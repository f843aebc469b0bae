//! Use cases: a setup link is checked, then used once to choose a password.

use tonne_kernel::{Actor, Snapshot, StoreError};

use crate::users::model::{SetupToken, User};
use crate::users::password::Password;
use crate::users::ports::UserError;

use super::Users;
use super::support::user_entry;

impl Users {
    pub(super) async fn setup_link_works(&self, token: &SetupToken) -> Result<bool, StoreError> {
        let Some(id) = self
            .repo
            .setup_token_user(&token.hash(), self.clock.now())
            .await?
        else {
            return Ok(false);
        };
        Ok(self
            .repo
            .get(id)
            .await?
            .is_some_and(|user| user.disabled_at.is_none()))
    }

    pub(super) async fn choose_password(
        &self,
        token: &SetupToken,
        password: Password,
    ) -> Result<User, UserError> {
        // Before the link is used: a refused password leaves it valid.
        password.strong_enough(&[])?;
        let now = self.clock.now();
        let id = self
            .repo
            .take_setup_token(&token.hash(), now)
            .await?
            .ok_or(UserError::SetupLinkInvalid)?;
        let user = self.repo.get(id).await?.ok_or(UserError::NoSuchUser)?;
        if user.disabled_at.is_some() {
            return Err(UserError::SetupLinkInvalid);
        }
        let hash = self.hasher.hash(&password)?.0;
        let by = Actor::person(user.email.as_str());
        let audit = user_entry(&user, now, &by, "user.password_chosen")
            .before(Snapshot::new().with("password", "not set"))
            .after(Snapshot::new().with("password", "set"));
        self.repo.set_password(id, &hash, audit).await?;
        Ok(User {
            password_hash: Some(hash),
            ..user
        })
    }
}
