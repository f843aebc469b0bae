//! [`Users`]: the console's user use cases behind the [`UsersService`] port,
//! one module each: the operator's [`members`], the [`setup`] link, [`forms`]
//! claimed once, and [`sessions`].

use std::sync::Arc;

use async_trait::async_trait;
use tonne_kernel::{Actor, Clock, IdGenerator, StoreError};

use super::model::{
    Email, FormKey, NewUser, Principal, SessionPolicy, SessionToken, SetupToken, User,
};
use super::password::{Password, PasswordHasher};
use super::ports::{CreatedUser, SignInError, UserError, UserRepository, UsersService};
use super::throttle::{AttemptSource, Throttle};

mod forms;
mod members;
mod sessions;
mod setup;
mod support;
#[cfg(test)]
mod tests;

/// [`UsersService`] over a [`UserRepository`].
pub struct Users {
    repo: Arc<dyn UserRepository>,
    hasher: PasswordHasher,
    policy: SessionPolicy,
    throttle: Throttle,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
}

impl Users {
    /// The use cases over a store, with a hasher and a session policy.
    pub fn new(
        repo: Arc<dyn UserRepository>,
        hasher: PasswordHasher,
        policy: SessionPolicy,
        clock: Arc<dyn Clock>,
        ids: Arc<dyn IdGenerator>,
    ) -> Self {
        Self {
            repo,
            hasher,
            policy,
            throttle: Throttle::default(),
            clock,
            ids,
        }
    }

    /// The same use cases under other sign-in budgets.
    pub fn with_throttle(self, throttle: Throttle) -> Self {
        Self { throttle, ..self }
    }
}

#[async_trait]
impl UsersService for Users {
    async fn create(
        &self,
        new: NewUser,
        password: Option<Password>,
        by: &Actor,
    ) -> Result<CreatedUser, UserError> {
        self.create(new, password, by).await
    }

    async fn list(&self) -> Result<Vec<User>, StoreError> {
        self.list().await
    }

    async fn disable(&self, email: &Email, by: &Actor) -> Result<User, UserError> {
        self.disable(email, by).await
    }

    async fn claim_form(&self, key: &FormKey) -> Result<bool, StoreError> {
        self.claim_form(key).await
    }

    async fn release_form(&self, key: &FormKey) -> Result<(), StoreError> {
        self.release_form(key).await
    }

    async fn setup_link_works(&self, token: &SetupToken) -> Result<bool, StoreError> {
        self.setup_link_works(token).await
    }

    async fn choose_password(
        &self,
        token: &SetupToken,
        password: Password,
    ) -> Result<User, UserError> {
        self.choose_password(token, password).await
    }

    async fn sign_in(
        &self,
        email: &str,
        password: &str,
        from: &AttemptSource,
    ) -> Result<(SessionToken, Principal), SignInError> {
        self.sign_in(email, password, from).await
    }

    async fn principal(&self, token: &SessionToken) -> Result<Option<Principal>, StoreError> {
        self.principal(token).await
    }

    async fn sign_out(&self, token: &SessionToken) -> Result<(), StoreError> {
        self.sign_out(token).await
    }
}
