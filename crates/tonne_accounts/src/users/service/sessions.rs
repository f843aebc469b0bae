//! Use cases: sign in (throttled, one argon2 verification whatever the email),
//! the principal a session token stands for, and sign out.

use time::Duration;
use tonne_kernel::StoreError;

use crate::users::model::{Email, Principal, Session, SessionToken};
use crate::users::ports::SignInError;
use crate::users::throttle::{AttemptSource, SignInFailure, Verdict, email_key};

use super::Users;

/// A session's use is recorded at most this often (one write per minute, not per page).
const TOUCH_EVERY: Duration = Duration::minutes(1);

impl Users {
    pub(super) async fn sign_in(
        &self,
        email: &str,
        password: &str,
        from: &AttemptSource,
    ) -> Result<(SessionToken, Principal), SignInError> {
        let now = self.clock.now();
        let key = email_key(email);
        let recent = self
            .repo
            .recent_sign_in_failures(
                &key,
                from,
                now - self.throttle.horizon(),
                self.throttle.most_counted(),
            )
            .await?;
        if let Verdict::Wait(wait) = self.throttle.verdict(&recent, now) {
            return Err(SignInError::TooManyFailures { wait });
        }
        let user = match email.parse::<Email>() {
            Ok(email) => self.repo.by_email(&email).await?,
            Err(_) => None,
        };
        let usable = user.as_ref().filter(|u| u.disabled_at.is_none());
        // Always one argon2 verification, against the decoy when there is no
        // usable hash: an unknown email takes as long as a wrong password.
        let stored = usable.and_then(|u| u.password_hash.as_deref());
        let verified = self.hasher.verify(stored, password);
        let Some(user) = usable.filter(|_| verified).cloned() else {
            let failure = SignInFailure {
                email: key,
                source: from.clone(),
                at: now,
            };
            self.repo
                .record_sign_in_failure(&failure, now - self.throttle.horizon())
                .await?;
            return Err(SignInError::Refused);
        };
        self.repo.clear_sign_in_failures(&key, from).await?;
        let token = SessionToken::generate();
        let session = Session::start(user.id, &token, now);
        self.repo.create_session(&session).await?;
        Ok((token, Principal { user, session }))
    }

    pub(super) async fn principal(
        &self,
        token: &SessionToken,
    ) -> Result<Option<Principal>, StoreError> {
        let hash = token.hash();
        let Some((mut session, user)) = self.repo.session(&hash).await? else {
            return Ok(None);
        };
        let now = self.clock.now();
        if user.disabled_at.is_some() || !self.policy.is_live(&session, now) {
            self.repo.delete_session(&hash).await?;
            return Ok(None);
        }
        if now - session.last_seen_at >= TOUCH_EVERY {
            self.repo.touch_session(&hash, now).await?;
            session.last_seen_at = now;
        }
        Ok(Some(Principal { user, session }))
    }

    pub(super) async fn sign_out(&self, token: &SessionToken) -> Result<(), StoreError> {
        self.repo.delete_session(&token.hash()).await
    }
}
