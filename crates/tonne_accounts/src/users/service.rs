use std::sync::Arc;

use async_trait::async_trait;
use time::{Duration, OffsetDateTime};
use tonne_kernel::{Actor, AuditEntry, Clock, IdGenerator, Snapshot, StoreError};

use super::model::{
    Email, FormKey, NewUser, Principal, Role, Session, SessionPolicy, SessionToken, SetupToken,
    User, UserId,
};
use super::password::{Password, PasswordHasher};
use super::ports::{CreatedUser, SignInError, UserError, UserRepository, UsersService};
use super::throttle::{AttemptSource, SignInFailure, Throttle, Verdict, email_key};

/// How long a setup link stays valid.
const SETUP_LINK_VALIDITY: Duration = Duration::hours(24);
/// A session's use is recorded at most this often (one write per minute, not per page).
const TOUCH_EVERY: Duration = Duration::minutes(1);

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

/// An audit entry about a user, in their organisation when they are a member.
fn user_entry(user: &User, at: OffsetDateTime, by: &Actor, action: &str) -> AuditEntry {
    let entry = AuditEntry::new(at, by.clone(), action, "user", user.id);
    match user.role.organisation() {
        Some(organisation) => entry.in_organisation(organisation),
        None => entry,
    }
}

/// What the audit log keeps of a user (never the password hash).
fn user_snapshot(user: &User) -> Snapshot {
    let role = match user.role {
        Role::Operator => "operator".to_owned(),
        Role::Member(organisation) => format!("member of {organisation}"),
    };
    let snapshot = Snapshot::new()
        .with("email", user.email.as_str())
        .with("role", role);
    match user.disabled_at {
        Some(at) => snapshot.with("disabled at", at),
        None => snapshot,
    }
}

fn created_error(e: StoreError) -> UserError {
    match e {
        StoreError::Duplicate => UserError::EmailTaken,
        StoreError::NotFound => UserError::NoSuchOrganisation,
        other => UserError::Store(other),
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

    async fn list(&self) -> Result<Vec<User>, StoreError> {
        self.repo.list().await
    }

    async fn disable(&self, email: &Email, by: &Actor) -> Result<User, UserError> {
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

    async fn claim_form(&self, key: &FormKey) -> Result<bool, StoreError> {
        let now = self.clock.now();
        self.repo
            .claim_form(key, now, now - Duration::days(1))
            .await
    }

    async fn release_form(&self, key: &FormKey) -> Result<(), StoreError> {
        self.repo.release_form(key).await
    }

    async fn setup_link_works(&self, token: &SetupToken) -> Result<bool, StoreError> {
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

    async fn choose_password(
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

    async fn sign_in(
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

    async fn principal(&self, token: &SessionToken) -> Result<Option<Principal>, StoreError> {
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

    async fn sign_out(&self, token: &SessionToken) -> Result<(), StoreError> {
        self.repo.delete_session(&token.hash()).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::users::PasswordRuleError;
    use crate::users::{MockUserRepository, RecentFailures, Role, TokenHash};
    use mockall::predicate::always;
    use time::macros::datetime;
    use tonne_kernel::{MockClock, OrganisationId, UuidV7Generator};

    const START: time::OffsetDateTime = datetime!(2026-11-24 09:00 UTC);

    fn users_at(repo: MockUserRepository, now: time::OffsetDateTime) -> Users {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(now);
        Users::new(
            Arc::new(repo),
            PasswordHasher::for_tests(),
            SessionPolicy::default(),
            Arc::new(clock),
            Arc::new(UuidV7Generator),
        )
    }

    fn here() -> AttemptSource {
        AttemptSource::of("192.0.2.1".parse().unwrap())
    }

    /// A store where no failure was recorded yet.
    fn no_failures(repo: &mut MockUserRepository) {
        repo.expect_recent_sign_in_failures()
            .returning(|_, _, _, _| Ok(RecentFailures::default()));
    }

    fn stored_user(password: Option<&str>) -> User {
        User {
            id: "0190c6f1a7b27c3e9f2d4b1a2c3d4e5f".parse().unwrap(),
            email: "ada@example.org".parse().unwrap(),
            role: Role::Member(OrganisationId::from_uuid(uuid::Uuid::from_u128(7))),
            password_hash: password.map(|p| {
                PasswordHasher::for_tests()
                    .hash(&Password::new(p).unwrap())
                    .unwrap()
                    .0
            }),
            created_at: START,
            disabled_at: None,
        }
    }

    #[tokio::test]
    async fn creating_without_a_password_gives_a_setup_link_valid_24_hours() {
        let mut repo = MockUserRepository::new();
        repo.expect_create()
            .withf(|u, setup, audit| {
                u.password_hash.is_none()
                    && setup
                        .as_ref()
                        .is_some_and(|(_, until)| *until == START + Duration::hours(24))
                    && audit.action == "user.created"
                    && audit.actor == Actor::CommandLine
                    && audit.object_id == u.id.to_string()
                    && audit.after.get("email") == Some("ada@example.org")
                    && audit.after.get("role") == Some("operator")
            })
            .times(1)
            .returning(|_, _, _| Ok(()));
        let users = users_at(repo, START);
        let created = users
            .create(
                NewUser {
                    email: "ada@example.org".parse().unwrap(),
                    role: Role::Operator,
                },
                None,
                &Actor::CommandLine,
            )
            .await
            .unwrap();
        assert!(created.setup_token.is_some());
    }

    #[tokio::test]
    async fn disabling_is_recorded_in_the_members_organisation_with_before_and_after() {
        let mut repo = MockUserRepository::new();
        repo.expect_by_email()
            .returning(|_| Ok(Some(stored_user(None))));
        repo.expect_disable()
            .times(1)
            .withf(|_, at, audit| {
                audit.action == "user.disabled"
                    && audit.actor == Actor::person("ops@example.org")
                    && audit.organisation
                        == Some(OrganisationId::from_uuid(uuid::Uuid::from_u128(7)))
                    && audit.before.get("disabled at").is_none()
                    && audit.after.get("disabled at") == Some(at.to_string().as_str())
                    && audit.changed_fields() == ["disabled at"]
            })
            .returning(|_, _, _| Ok(()));
        let users = users_at(repo, START);
        let user = users
            .disable(
                &"ada@example.org".parse().unwrap(),
                &Actor::person("ops@example.org"),
            )
            .await
            .unwrap();
        assert_eq!(user.disabled_at, Some(START));
    }

    #[tokio::test]
    async fn a_taken_email_is_refused() {
        let mut repo = MockUserRepository::new();
        repo.expect_create()
            .returning(|_, _, _| Err(StoreError::Duplicate));
        let users = users_at(repo, START);
        let outcome = users
            .create(
                NewUser {
                    email: "ada@example.org".parse().unwrap(),
                    role: Role::Operator,
                },
                Some(Password::new("correct horse battery").unwrap()),
                &Actor::CommandLine,
            )
            .await;
        assert!(matches!(outcome, Err(UserError::EmailTaken)));
    }

    #[tokio::test]
    async fn sign_in_with_the_right_password_starts_a_session() {
        let mut repo = MockUserRepository::new();
        no_failures(&mut repo);
        repo.expect_by_email()
            .returning(|_| Ok(Some(stored_user(Some("correct horse battery")))));
        repo.expect_record_sign_in_failure().never();
        repo.expect_clear_sign_in_failures()
            .withf(|email, source| *email == email_key("ada@example.org") && *source == here())
            .times(1)
            .returning(|_, _| Ok(()));
        repo.expect_create_session().times(1).returning(|_| Ok(()));
        let users = users_at(repo, START);
        let (token, who) = users
            .sign_in("Ada@Example.org", "correct horse battery", &here())
            .await
            .unwrap();
        assert_eq!(who.session.token_hash, token.hash());
        assert_eq!(who.session.created_at, START);
    }

    #[tokio::test]
    async fn a_wrong_password_an_unknown_email_and_a_disabled_user_get_the_same_refusal() {
        let mut repo = MockUserRepository::new();
        repo.expect_by_email().returning(|e| {
            Ok(match e.as_str() {
                "ada@example.org" => Some(stored_user(Some("correct horse battery"))),
                "off@example.org" => Some(User {
                    disabled_at: Some(START),
                    ..stored_user(Some("correct horse battery"))
                }),
                _ => None,
            })
        });
        repo.expect_create_session().never();
        no_failures(&mut repo);
        repo.expect_record_sign_in_failure()
            .times(4)
            .withf(|failure, forget_before| {
                failure.at == START
                    && failure.source == here()
                    && *forget_before == START - Duration::days(1)
            })
            .returning(|_, _| Ok(()));
        let users = users_at(repo, START);
        for (email, password) in [
            ("ada@example.org", "wrong horse battery"),
            ("nobody@example.org", "correct horse battery"),
            ("off@example.org", "correct horse battery"),
            ("not an email", "correct horse battery"),
        ] {
            let refused = users.sign_in(email, password, &here()).await.unwrap_err();
            assert_eq!(
                refused.to_string(),
                "the email or password is wrong",
                "{email}"
            );
        }
    }

    #[tokio::test]
    async fn an_idle_session_is_deleted_and_stands_for_nobody() {
        let token = SessionToken::generate();
        let session = Session::start(stored_user(None).id, &token, START);
        let mut repo = MockUserRepository::new();
        repo.expect_session()
            .returning(move |_| Ok(Some((session.clone(), stored_user(None)))));
        repo.expect_delete_session()
            .with(mockall::predicate::eq(token.hash()))
            .times(1)
            .returning(|_| Ok(()));
        let users = users_at(repo, START + Duration::hours(12));
        assert!(users.principal(&token).await.unwrap().is_none());
    }

    #[tokio::test]
    async fn a_live_session_is_touched_at_most_once_a_minute() {
        let token = SessionToken::generate();
        let session = Session::start(stored_user(None).id, &token, START);
        let mut repo = MockUserRepository::new();
        repo.expect_session()
            .returning(move |_| Ok(Some((session.clone(), stored_user(None)))));
        repo.expect_touch_session()
            .with(
                always(),
                mockall::predicate::eq(START + Duration::minutes(5)),
            )
            .times(1)
            .returning(|_, _| Ok(()));
        let later = users_at(repo, START + Duration::minutes(5));
        let who = later.principal(&token).await.unwrap().unwrap();
        assert_eq!(who.session.last_seen_at, START + Duration::minutes(5));

        let mut repo = MockUserRepository::new();
        let session = Session::start(stored_user(None).id, &token, START);
        repo.expect_session()
            .returning(move |_| Ok(Some((session.clone(), stored_user(None)))));
        repo.expect_touch_session().never();
        let soon = users_at(repo, START + Duration::seconds(30));
        assert!(soon.principal(&token).await.unwrap().is_some());
    }

    #[tokio::test]
    async fn a_setup_link_works_once() {
        let mut repo = MockUserRepository::new();
        let mut taken = false;
        repo.expect_take_setup_token().returning(move |_, _| {
            let first = !taken;
            taken = true;
            Ok(first.then(|| stored_user(None).id))
        });
        repo.expect_get().returning(|_| Ok(Some(stored_user(None))));
        repo.expect_set_password()
            .times(1)
            .withf(|_, hash, audit| {
                // the person chose it themselves; the hash stays out of the log
                audit.actor == Actor::person(stored_user(None).email.as_str())
                    && audit.action == "user.password_chosen"
                    && audit.after.fields().iter().all(|(_, v)| v != hash)
            })
            .returning(|_, _, _| Ok(()));
        let users = users_at(repo, START);
        let token = SetupToken::generate();
        let pw = || Password::new("correct horse battery").unwrap();
        let user = users.choose_password(&token, pw()).await.unwrap();
        assert!(user.password_hash.is_some());
        assert!(matches!(
            users.choose_password(&token, pw()).await,
            Err(UserError::SetupLinkInvalid)
        ));
        let _ = TokenHash::of("unused");
    }

    #[tokio::test]
    async fn past_the_budget_even_the_right_password_is_not_checked() {
        let mut repo = MockUserRepository::new();
        repo.expect_recent_sign_in_failures()
            .withf(|email, source, since, most| {
                *email == email_key("ada@example.org")
                    && *source == here()
                    && *since == START - Duration::days(1)
                    && *most == Throttle::default().most_counted()
            })
            .returning(|_, _, _, _| {
                Ok(RecentFailures {
                    pair: (1..=10).map(|m| START - Duration::minutes(m)).collect(),
                    ..RecentFailures::default()
                })
            });
        repo.expect_by_email().never();
        repo.expect_create_session().never();
        repo.expect_record_sign_in_failure().never();
        let users = users_at(repo, START);
        let refused = users
            .sign_in("ada@example.org", "correct horse battery", &here())
            .await
            .unwrap_err();
        assert!(matches!(
            refused,
            SignInError::TooManyFailures { wait } if wait == Duration::minutes(5)
        ));
    }

    #[tokio::test]
    async fn others_failures_for_the_email_do_not_keep_the_owner_out() {
        let mut repo = MockUserRepository::new();
        // 200 failures for this email from elsewhere, none from here
        repo.expect_recent_sign_in_failures()
            .returning(|_, _, _, _| {
                Ok(RecentFailures {
                    email: (1..=200).map(|s| START - Duration::seconds(s)).collect(),
                    ..RecentFailures::default()
                })
            });
        repo.expect_by_email()
            .returning(|_| Ok(Some(stored_user(Some("correct horse battery")))));
        repo.expect_clear_sign_in_failures()
            .returning(|_, _| Ok(()));
        repo.expect_create_session().times(1).returning(|_| Ok(()));
        let users = users_at(repo, START);
        assert!(
            users
                .sign_in("ada@example.org", "correct horse battery", &here())
                .await
                .is_ok()
        );
    }

    #[tokio::test]
    async fn a_guessable_password_is_refused_and_the_setup_link_stays_valid() {
        let mut repo = MockUserRepository::new();
        repo.expect_take_setup_token().never();
        repo.expect_create().never();
        let users = users_at(repo, START);
        let weak = Password::new("password123!").unwrap();
        assert!(matches!(
            users
                .choose_password(&SetupToken::generate(), weak.clone())
                .await,
            Err(UserError::Password(PasswordRuleError::Guessable(_)))
        ));
        let own = Password::new("ada@example.org1").unwrap();
        assert!(matches!(
            users
                .create(
                    NewUser {
                        email: "ada@example.org".parse().unwrap(),
                        role: Role::Operator,
                    },
                    Some(own),
                    &Actor::CommandLine,
                )
                .await,
            Err(UserError::Password(PasswordRuleError::Guessable(_)))
        ));
    }
}
