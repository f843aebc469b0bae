//! The audit log on SQLite and PostgreSQL: entries are written in the
//! transaction of their change (a refused change leaves none), and listed
//! newest first by filter and cursor.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use time::macros::datetime;
use tonne_accounts::audit::AuditRepository;
use tonne_accounts::ports::ApiKeyRepository;
use tonne_accounts::users::{Role, User, UserRepository};
use tonne_accounts::{Account, ApiKey, ApiKeySecret};
use tonne_kernel::{
    Actor, AuditEntry, AuditEntryId, AuditFilter, Limit, Page, PageRequest, Snapshot, StoreError,
    UuidV7Generator,
};
use tonne_storage::{ApiKeyStore, AuditStore, UserStore};
use tonne_test_support::{TestDb, on_both_backends, organisation};

use crate::fixtures;

const AT: time::OffsetDateTime = datetime!(2026-11-25 09:00 UTC);

fn user(email: &str, role: Role) -> User {
    fixtures::user(email, role, AT)
}

fn created(u: &User, by: &Actor) -> AuditEntry {
    let entry = AuditEntry::new(AT, by.clone(), "user.created", "user", u.id)
        .after(Snapshot::new().with("email", u.email.as_str()));
    match u.role.organisation() {
        Some(o) => entry.in_organisation(o),
        None => entry,
    }
}

fn key(account: &Account) -> ApiKey {
    fixtures::api_key(account, &ApiKeySecret::generate(account.mode), AT)
}

fn all() -> AuditFilter {
    AuditFilter::default()
}

async fn list(log: &AuditStore, filter: AuditFilter) -> Vec<String> {
    log.list(&filter, &PageRequest::first())
        .await
        .unwrap()
        .items
        .into_iter()
        .map(|e| e.action)
        .collect()
}

async fn entries_are_written_with_their_change_and_listed_by_filter(t: TestDb) {
    let (live, _) = organisation(t.db(), AT).await;
    let org = live.organisation_id;
    let (users, keys, log) = (
        UserStore::new(t.db().clone()),
        ApiKeyStore::new(t.db().clone()),
        AuditStore::new(t.db().clone()),
    );
    let ops = Actor::person("ops@example.org");
    let op = user("ops@example.org", Role::Operator);
    users
        .create(&op, None, created(&op, &Actor::CommandLine))
        .await
        .unwrap();
    let member = user("ada@example.org", Role::Member(org));
    let member_created = created(&member, &ops);
    users
        .create(&member, None, member_created.clone())
        .await
        .unwrap();

    // A refused change leaves no entry: the email is taken.
    let twin = user("ada@example.org", Role::Operator);
    let refused = created(&twin, &ops);
    assert!(matches!(
        users.create(&twin, None, refused.clone()).await,
        Err(StoreError::Duplicate)
    ));
    let by_object = AuditFilter {
        object_id: Some(twin.id.to_string()),
        ..all()
    };
    assert!(list(&log, by_object).await.is_empty());

    let k = key(&live);
    let made = AuditEntry::new(AT, ops.clone(), "api_key.created", "api_key", k.id)
        .in_organisation(org)
        .after(Snapshot::new().with("prefix", &k.display_prefix));
    keys.insert(&k, Some(made)).await.unwrap();
    let revoked = AuditEntry::new(AT, ops.clone(), "api_key.revoked", "api_key", k.id)
        .in_organisation(org)
        .before(Snapshot::new().with("prefix", &k.display_prefix))
        .after(
            Snapshot::new()
                .with("prefix", &k.display_prefix)
                .with("revoked at", AT),
        );
    keys.revoke(k.id, AT, Some(revoked.clone())).await.unwrap();

    // Newest first; an entry reads back as it was written.
    assert_eq!(
        list(&log, all()).await,
        [
            "api_key.revoked",
            "api_key.created",
            "user.created",
            "user.created"
        ]
    );
    let page = log.list(&all(), &PageRequest::first()).await.unwrap();
    assert_eq!(page.items[0], revoked);
    assert_eq!(page.items[2], member_created);

    let in_org = AuditFilter {
        organisation: Some(org),
        ..all()
    };
    assert_eq!(
        list(&log, in_org).await,
        ["api_key.revoked", "api_key.created", "user.created"]
    );
    let by_cli = AuditFilter {
        actor: Some("command line".into()),
        ..all()
    };
    assert_eq!(list(&log, by_cli).await, ["user.created"]);
    let by_ops = AuditFilter {
        actor: Some("ops@example.org".into()),
        ..all()
    };
    assert_eq!(list(&log, by_ops).await.len(), 3);
    let keys_only = AuditFilter {
        action: Some("api_key.".into()),
        ..all()
    };
    assert_eq!(list(&log, keys_only).await.len(), 2);
    // LIKE wildcards in a filter are literal characters
    let wildcard = AuditFilter {
        action: Some("%".into()),
        ..all()
    };
    assert!(list(&log, wildcard).await.is_empty());
    let about_key = AuditFilter {
        object_id: Some(k.id.to_string()),
        action: Some("api_key.rev".into()),
        ..all()
    };
    assert_eq!(list(&log, about_key).await, ["api_key.revoked"]);
}

async fn pages_follow_the_cursor_and_an_unknown_cursor_is_not_found(t: TestDb) {
    let users = UserStore::new(t.db().clone());
    let log = AuditStore::new(t.db().clone());
    for n in 0..5 {
        let u = user(&format!("u{n}@example.org"), Role::Operator);
        users
            .create(&u, None, created(&u, &Actor::CommandLine))
            .await
            .unwrap();
    }
    let two = |after| PageRequest {
        limit: Limit::new(2).unwrap(),
        after,
    };
    let mut seen = Vec::new();
    let mut after = None;
    loop {
        let Page { items, has_more } = log.list(&all(), &two(after)).await.unwrap();
        seen.extend(
            items
                .iter()
                .map(|e| e.after.get("email").unwrap().to_owned()),
        );
        after = items.last().map(|e| e.id);
        if !has_more {
            break;
        }
    }
    assert_eq!(
        seen,
        (0..5)
            .rev()
            .map(|n| format!("u{n}@example.org"))
            .collect::<Vec<_>>()
    );
    let ghost = AuditEntryId::generate(&UuidV7Generator);
    assert!(matches!(
        log.list(&all(), &two(Some(ghost))).await,
        Err(StoreError::NotFound)
    ));
}

on_both_backends!(
    entries_are_written_with_their_change_and_listed_by_filter,
    pages_follow_the_cursor_and_an_unknown_cursor_is_not_found,
);
