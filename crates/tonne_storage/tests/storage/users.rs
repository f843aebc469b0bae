//! The console's user and session store on SQLite and PostgreSQL.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use time::Duration;
use time::macros::datetime;
use tonne_accounts::users::{
    AttemptSource, Role, Session, SessionToken, SetupToken, SignInFailure, User, UserId,
    UserRepository, email_key,
};
use tonne_kernel::{Actor, AuditEntry, OrganisationId, StoreError, UuidV7Generator};
use tonne_storage::UserStore;
use tonne_test_support::{TestDb, on_both_backends, organisation};

const AT: time::OffsetDateTime = datetime!(2026-11-24 09:00 UTC);

fn user(email: &str, role: Role) -> User {
    crate::fixtures::user(email, role, AT)
}

/// An audit entry about a user, as the service would write it.
fn entry(action: &str, u: &User) -> AuditEntry {
    AuditEntry::new(AT, Actor::CommandLine, action, "user", u.id)
}

async fn users_round_trip_and_emails_are_unique(t: TestDb) {
    let (live, _) = organisation(t.db(), AT).await;
    let store = UserStore::new(t.db().clone());
    let op = user("op@example.org", Role::Operator);
    let member = user("ada@example.org", Role::Member(live.organisation_id));
    store
        .create(&op, None, entry("user.created", &op))
        .await
        .unwrap();
    store
        .create(&member, None, entry("user.created", &member))
        .await
        .unwrap();
    assert_eq!(store.get(member.id).await.unwrap(), Some(member.clone()));
    assert_eq!(
        store
            .by_email(&"ADA@example.org".parse().unwrap())
            .await
            .unwrap(),
        Some(member.clone())
    );
    let again = user("ada@example.org", Role::Operator);
    assert!(matches!(
        store
            .create(&again, None, entry("user.created", &again))
            .await,
        Err(StoreError::Duplicate)
    ));
    let emails: Vec<_> = store
        .list()
        .await
        .unwrap()
        .into_iter()
        .map(|u| u.email.to_string())
        .collect();
    assert_eq!(emails, ["ada@example.org", "op@example.org"]);
}

async fn a_member_of_an_unknown_organisation_is_not_stored(t: TestDb) {
    let store = UserStore::new(t.db().clone());
    let ghost = OrganisationId::generate(&UuidV7Generator);
    let u = user("ghost@example.org", Role::Member(ghost));
    assert!(matches!(
        store
            .create(
                &u,
                Some((SetupToken::generate().hash(), AT)),
                entry("user.created", &u)
            )
            .await,
        Err(StoreError::NotFound)
    ));
    assert!(store.list().await.unwrap().is_empty());
}

async fn a_setup_token_is_taken_once_and_not_after_it_expires(t: TestDb) {
    let store = UserStore::new(t.db().clone());
    let (fresh, stale) = (SetupToken::generate(), SetupToken::generate());
    let a = user("a@example.org", Role::Operator);
    let b = user("b@example.org", Role::Operator);
    store
        .create(
            &a,
            Some((fresh.hash(), AT + Duration::hours(24))),
            entry("user.created", &a),
        )
        .await
        .unwrap();
    store
        .create(
            &b,
            Some((stale.hash(), AT + Duration::hours(24))),
            entry("user.created", &b),
        )
        .await
        .unwrap();
    let hash = fresh.hash();
    let (one, two) = tokio::join!(
        store.take_setup_token(&hash, AT),
        store.take_setup_token(&hash, AT)
    );
    let taken: Vec<_> = [one.unwrap(), two.unwrap()].into_iter().flatten().collect();
    assert_eq!(taken, [a.id]);
    let late = AT + Duration::hours(24);
    assert_eq!(
        store.take_setup_token(&stale.hash(), late).await.unwrap(),
        None
    );
    store
        .set_password(a.id, "$argon2id$stub", entry("user.password_chosen", &a))
        .await
        .unwrap();
    assert_eq!(
        store
            .get(a.id)
            .await
            .unwrap()
            .unwrap()
            .password_hash
            .as_deref(),
        Some("$argon2id$stub")
    );
}

async fn sessions_are_found_touched_deleted_and_end_when_the_user_is_disabled(t: TestDb) {
    let store = UserStore::new(t.db().clone());
    let u = user("s@example.org", Role::Operator);
    store
        .create(&u, None, entry("user.created", &u))
        .await
        .unwrap();
    let (first, second) = (SessionToken::generate(), SessionToken::generate());
    let s1 = Session::start(u.id, &first, AT);
    store.create_session(&s1).await.unwrap();
    store
        .create_session(&Session::start(u.id, &second, AT))
        .await
        .unwrap();
    let (found, owner) = store.session(&first.hash()).await.unwrap().unwrap();
    assert_eq!((found.clone(), owner.id), (s1, u.id));
    store
        .touch_session(&first.hash(), AT + Duration::minutes(5))
        .await
        .unwrap();
    let (touched, _) = store.session(&first.hash()).await.unwrap().unwrap();
    assert_eq!(touched.last_seen_at, AT + Duration::minutes(5));
    store.delete_session(&first.hash()).await.unwrap();
    assert!(store.session(&first.hash()).await.unwrap().is_none());

    store
        .disable(u.id, AT + Duration::hours(1), entry("user.disabled", &u))
        .await
        .unwrap();
    assert!(store.session(&second.hash()).await.unwrap().is_none());
    assert_eq!(
        store.get(u.id).await.unwrap().unwrap().disabled_at,
        Some(AT + Duration::hours(1))
    );
    assert!(matches!(
        store
            .disable(
                UserId::generate(&UuidV7Generator),
                AT,
                entry("user.disabled", &u)
            )
            .await,
        Err(StoreError::NotFound)
    ));
}

fn failure(email: &str, ip: &str, minutes_ago: i64) -> SignInFailure {
    SignInFailure {
        email: email_key(email),
        source: AttemptSource::of(ip.parse().unwrap()),
        at: AT - Duration::minutes(minutes_ago),
    }
}

async fn failed_sign_ins_are_counted_by_pair_email_and_network_and_forgotten(t: TestDb) {
    let store = UserStore::new(t.db().clone());
    let keep = AT - Duration::days(1);
    for f in [
        failure("ada@example.org", "192.0.2.1", 3),
        failure("ada@example.org", "192.0.2.1", 1),
        failure("ADA@example.org", "192.0.2.9", 2),
        failure("bob@example.org", "2001:db8::1", 5),
        failure("eve@example.org", "2001:db8::2", 4),
        // outside the window, and deleted by the next record
        failure("ada@example.org", "192.0.2.1", 60 * 25),
    ] {
        store
            .record_sign_in_failure(&f, AT - Duration::days(3))
            .await
            .unwrap();
    }
    let here = AttemptSource::of("192.0.2.1".parse().unwrap());
    let ada = email_key("ada@example.org");
    let recent = store
        .recent_sign_in_failures(&ada, &here, keep, 10)
        .await
        .unwrap();
    let ago = |m: i64| AT - Duration::minutes(m);
    assert_eq!(
        recent.pair,
        [ago(1), ago(3)],
        "this email from here, newest first"
    );
    assert_eq!(recent.email, [ago(1), ago(2), ago(3)]);
    assert_eq!(recent.network, [ago(1), ago(3)]);
    // at most `most` of each
    let one = store
        .recent_sign_in_failures(&ada, &here, keep, 1)
        .await
        .unwrap();
    assert_eq!(one.email, [ago(1)]);
    // two addresses of one IPv6 /64 share their network's count
    let v6 = AttemptSource::of("2001:db8::3".parse().unwrap());
    let spray = store
        .recent_sign_in_failures(&email_key("nobody@example.org"), &v6, keep, 10)
        .await
        .unwrap();
    assert_eq!(spray.network, [ago(4), ago(5)]);
    assert!(spray.pair.is_empty() && spray.email.is_empty());
    // a record forgets what is older than it is told
    store
        .record_sign_in_failure(&failure("x@example.org", "192.0.2.5", 0), keep)
        .await
        .unwrap();
    let all = store
        .recent_sign_in_failures(&ada, &here, AT - Duration::days(30), 10)
        .await
        .unwrap();
    assert_eq!(all.pair, [ago(1), ago(3)]);
    // a success clears this email's failures from this address only
    store.clear_sign_in_failures(&ada, &here).await.unwrap();
    let cleared = store
        .recent_sign_in_failures(&ada, &here, keep, 10)
        .await
        .unwrap();
    assert!(cleared.pair.is_empty());
    assert_eq!(cleared.email, [ago(2)]);
}

on_both_backends!(
    failed_sign_ins_are_counted_by_pair_email_and_network_and_forgotten,
    users_round_trip_and_emails_are_unique,
    a_member_of_an_unknown_organisation_is_not_stored,
    a_setup_token_is_taken_once_and_not_after_it_expires,
    sessions_are_found_touched_deleted_and_end_when_the_user_is_disabled,
);
