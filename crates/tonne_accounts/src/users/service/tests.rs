//! Tests of the user use cases over a mocked store.

use super::*;
use crate::users::PasswordRuleError;
use crate::users::{MockUserRepository, RecentFailures, Role, TokenHash};
use crate::users::{Session, email_key};
use mockall::predicate::always;
use time::Duration;
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
                && audit.organisation == Some(OrganisationId::from_uuid(uuid::Uuid::from_u128(7)))
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
