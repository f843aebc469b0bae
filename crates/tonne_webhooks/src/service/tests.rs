//! Tests of the webhook use cases over mocked ports.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::net::IpAddr;
use std::sync::Arc;

use mockall::predicate::eq;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, AccountMode, Actor, MockClock, MockIdGenerator, OrganisationId};
use uuid::Uuid;

use super::*;
use crate::errors::InsertWebhookError;
use crate::policy::SendOutcome;
use crate::ports::StoreError;
use crate::ports::{
    MockAccountDirectory, MockEventEncoder, MockHostResolver, MockWebhookRepository,
    MockWebhookSender,
};
use crate::secret::WebhookSecret;
use crate::target::WebhookUrl;

fn now() -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(1_700_000_000).unwrap()
}

fn owner() -> Owner {
    Owner {
        organisation_id: OrganisationId::from_uuid(Uuid::from_u128(1)),
        mode: AccountMode::Live,
    }
}

fn account(n: u128) -> AccountId {
    AccountId::from_uuid(Uuid::from_u128(n))
}

struct Mocks {
    repo: MockWebhookRepository,
    accounts: MockAccountDirectory,
    resolver: MockHostResolver,
    sender: MockWebhookSender,
    encoder: MockEventEncoder,
}

fn mocks() -> Mocks {
    let mut resolver = MockHostResolver::new();
    resolver
        .expect_resolve()
        .returning(|_, _| Ok(vec!["93.184.216.34".parse::<IpAddr>().unwrap()]));
    let mut accounts = MockAccountDirectory::new();
    accounts.expect_owner_of().returning(|id| {
        Ok(match id.as_uuid().as_u128() {
            10..=19 => Some(owner()),
            20 => Some(Owner {
                mode: AccountMode::Test,
                ..owner()
            }),
            30 => Some(Owner {
                organisation_id: OrganisationId::from_uuid(Uuid::from_u128(2)),
                ..owner()
            }),
            _ => None,
        })
    });
    Mocks {
        repo: MockWebhookRepository::new(),
        accounts,
        resolver,
        sender: MockWebhookSender::new(),
        encoder: MockEventEncoder::new(),
    }
}

fn service(m: Mocks, settings: Settings) -> Webhooks {
    let mut clock = MockClock::new();
    clock.expect_now().returning(now);
    let mut ids = MockIdGenerator::new();
    ids.expect_new_uuid().returning(|| Uuid::from_u128(99));
    Webhooks::new(
        Arc::new(m.repo),
        Arc::new(m.accounts),
        Arc::new(m.resolver),
        Outbound {
            sender: Arc::new(m.sender),
            encoder: Arc::new(m.encoder),
        },
        Arc::new(clock),
        Arc::new(ids),
        settings,
    )
}

/// The API key the tests act as.
fn by() -> Actor {
    Actor::ApiKey(tonne_kernel::ApiKeyId::from_uuid(Uuid::from_u128(9)))
}

fn stored(id: u128, owner: Owner, filter: Option<Vec<AccountId>>, enabled: bool) -> Webhook {
    Webhook {
        id: WebhookId::from_uuid(Uuid::from_u128(id)),
        organisation_id: owner.organisation_id,
        mode: owner.mode,
        url: WebhookUrl::parse("https://hooks.example.com/a", TargetPolicy::default()).unwrap(),
        enabled,
        account_ids: filter,
        event_types: None,
        secret: WebhookSecret::generate(),
        disabled_reason: (!enabled).then(|| "the receiver answered 410 Gone".to_owned()),
        created_at: now(),
        updated_at: now(),
    }
}

fn new(url: &str, ids: Option<Vec<&str>>) -> NewWebhook {
    NewWebhook {
        url: url.into(),
        account_ids: ids.map(|v| v.into_iter().map(String::from).collect()),
        event_types: None,
    }
}

#[tokio::test]
async fn create_stores_an_enabled_webhook_with_a_fresh_secret_and_the_limit() {
    let mut m = mocks();
    m.repo
        .expect_insert()
        .withf(|w, limit, audit| {
            audit.action == "webhook.created"
                && audit.actor
                    == Actor::ApiKey(tonne_kernel::ApiKeyId::from_uuid(Uuid::from_u128(9)))
                && audit.after.get("url") == Some(w.url.as_str())
                && audit
                    .after
                    .fields()
                    .iter()
                    .all(|(_, v)| !v.contains(w.secret.expose()))
                && *limit == 10
                && w.enabled
                && w.account_ids.is_none()
                && w.mode == AccountMode::Live
                && w.secret.expose().starts_with("whsec_")
        })
        .times(1)
        .returning(|_, _, _| Ok(()));
    let w = service(m, Settings::default())
        .create(owner(), new("https://hooks.example.com/tonne", None), &by())
        .await
        .unwrap();
    assert_eq!(w.url.as_str(), "https://hooks.example.com/tonne");
    assert_eq!(w.created_at, now());
}

#[tokio::test]
async fn create_refuses_bad_urls_and_private_resolutions_without_writing() {
    let mut m = mocks();
    m.resolver = MockHostResolver::new();
    m.resolver.expect_resolve().returning(|host, _| match host {
        "inside.example.com" => Ok(vec!["10.0.0.5".parse().unwrap()]),
        "mixed.example.com" => Ok(vec![
            "93.184.216.34".parse().unwrap(),
            "127.0.0.1".parse().unwrap(),
        ]),
        _ => Err("no such host".into()),
    });
    m.repo.expect_insert().never();
    let s = service(m, Settings::default());
    for (url, why) in [
        ("http://hooks.example.com/x", "https"),
        ("https://10.0.0.1/x", "private"),
        (
            "https://inside.example.com/x",
            "must resolve to public addresses only",
        ),
        (
            "https://mixed.example.com/x",
            "must resolve to public addresses only",
        ),
        ("https://nowhere.example.com/x", "does not resolve"),
    ] {
        match s.create(owner(), new(url, None), &by()).await {
            Err(CreateWebhookError::Invalid(f)) => {
                assert_eq!(f.field, "url");
                assert!(f.reason.contains(why), "{url}: {}", f.reason);
                // what a name resolves to stays in the log, never in the answer
                assert!(
                    !f.reason.contains("10.0.0.5") && !f.reason.contains("127.0.0.1"),
                    "{url}: {}",
                    f.reason
                );
            }
            other => panic!("{url}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn account_filters_must_be_the_owners_accounts() {
    let mut m = mocks();
    m.repo
        .expect_insert()
        .withf(|w, _, _| w.account_ids == Some(vec![account(11), account(12)]))
        .times(1)
        .returning(|_, _, _| Ok(()));
    let s = service(m, Settings::default());
    let a11 = account(11).to_string();
    let a12 = account(12).to_string();
    // duplicates collapse, order is canonical
    let w = s
        .create(
            owner(),
            new("https://hooks.example.com/x", Some(vec![&a12, &a11, &a12])),
            &by(),
        )
        .await
        .unwrap();
    assert_eq!(w.account_ids, Some(vec![account(11), account(12)]));
    for (ids, field) in [
        (vec![], "account_ids"),
        (vec!["nope"], "account_ids[0]"),
        (
            vec![a11.as_str(), &account(20).to_string()],
            "account_ids[1]",
        ), // other mode
        (vec![&account(30).to_string()], "account_ids[0]"), // other organisation
        (vec![&account(77).to_string()], "account_ids[0]"), // unknown
    ] {
        match s
            .create(
                owner(),
                new("https://hooks.example.com/x", Some(ids.clone())),
                &by(),
            )
            .await
        {
            Err(CreateWebhookError::Invalid(f)) => assert_eq!(f.field, field, "{ids:?}"),
            other => panic!("{ids:?}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn the_limit_is_reported_as_such() {
    let mut m = mocks();
    m.repo
        .expect_insert()
        .returning(|_, _, _| Err(InsertWebhookError::LimitReached));
    let s = service(
        m,
        Settings {
            limit: 3,
            ..Settings::default()
        },
    );
    assert!(matches!(
        s.create(owner(), new("https://hooks.example.com/x", None), &by())
            .await,
        Err(CreateWebhookError::LimitReached { limit: 3 })
    ));
}

#[tokio::test]
async fn another_owners_webhook_or_a_malformed_id_is_not_found() {
    let mut m = mocks();
    let other = Owner {
        mode: AccountMode::Test,
        ..owner()
    };
    m.repo
        .expect_get()
        .returning(move |_| Ok(Some(stored(5, other, None, true))));
    m.repo.expect_delete().never();
    m.repo.expect_rotate_secret().never();
    let s = service(m, Settings::default());
    let id = WebhookId::from_uuid(Uuid::from_u128(5)).to_string();
    assert!(matches!(
        s.get(owner(), &id).await,
        Err(WebhookError::NotFound)
    ));
    assert!(matches!(
        s.get(owner(), "x").await,
        Err(WebhookError::NotFound)
    ));
    assert!(matches!(
        s.delete(owner(), &id, &by()).await,
        Err(WebhookError::NotFound)
    ));
    assert!(matches!(
        s.rotate_secret(owner(), &id, &by()).await,
        Err(WebhookError::NotFound)
    ));
}

#[tokio::test]
async fn update_keeps_what_is_not_sent_and_resumes_when_re_enabled() {
    let mut m = mocks();
    let filter = Some(vec![account(11)]);
    let f2 = filter.clone();
    m.repo
        .expect_get()
        .returning(move |_| Ok(Some(stored(5, owner(), f2.clone(), false))));
    m.repo
        .expect_update()
        .withf(|w, resume, audit| {
            *resume
                && audit.as_ref().is_some_and(|a| {
                    a.action == "webhook.updated"
                        && a.changed_fields() == ["url", "enabled"]
                        && a.after.get("enabled") == Some("true")
                })
                && w.enabled
                && w.disabled_reason.is_none()
                && w.account_ids == Some(vec![account(11)])
        })
        .times(1)
        .returning(|_, _, _| Ok(()));
    let s = service(m, Settings::default());
    let id = WebhookId::from_uuid(Uuid::from_u128(5)).to_string();
    let w = s
        .update(
            owner(),
            &id,
            WebhookChanges {
                url: "https://hooks.example.com/b".into(),
                enabled: Some(true),
                account_ids: None,
                event_types: None,
            },
            &by(),
        )
        .await
        .unwrap();
    assert_eq!(w.url.as_str(), "https://hooks.example.com/b");
    assert_eq!(w.account_ids, filter);
}

#[tokio::test]
async fn update_without_enabled_keeps_a_disabled_webhook_paused() {
    let mut m = mocks();
    m.repo
        .expect_get()
        .returning(|_| Ok(Some(stored(5, owner(), None, false))));
    m.repo
        .expect_update()
        .withf(|w, resume, _| !*resume && !w.enabled && w.disabled_reason.is_some())
        .times(1)
        .returning(|_, _, _| Ok(()));
    let s = service(m, Settings::default());
    let id = WebhookId::from_uuid(Uuid::from_u128(5)).to_string();
    s.update(
        owner(),
        &id,
        WebhookChanges {
            url: "https://hooks.example.com/b".into(),
            enabled: None,
            account_ids: None,
            event_types: None,
        },
        &by(),
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn rotation_stores_and_returns_a_new_secret() {
    let mut m = mocks();
    let old = stored(5, owner(), None, true);
    let old_secret = old.secret.clone();
    m.repo
        .expect_get()
        .returning(move |_| Ok(Some(old.clone())));
    let expected_old = old_secret.clone();
    m.repo
        .expect_rotate_secret()
        .withf(move |id, secret, _, audit| {
            audit.action == "webhook.secret_rotated"
                && audit.after.get("secret") == Some(format!("…{}", secret.last4()).as_str())
                && *id == WebhookId::from_uuid(Uuid::from_u128(5))
                && *secret != expected_old
        })
        .times(1)
        .returning(|_, _, _, _| Ok(()));
    let s = service(m, Settings::default());
    let w = s
        .rotate_secret(
            owner(),
            &WebhookId::from_uuid(Uuid::from_u128(5)).to_string(),
            &by(),
        )
        .await
        .unwrap();
    assert_ne!(w.secret, old_secret);
}

#[tokio::test]
async fn list_filters_by_account_keeping_unfiltered_webhooks() {
    let mut m = mocks();
    m.repo.expect_list().with(eq(owner())).returning(|o| {
        Ok(vec![
            stored(1, o, None, true),
            stored(2, o, Some(vec![account(11)]), true),
            stored(3, o, Some(vec![account(12)]), true),
        ])
    });
    let s = service(m, Settings::default());
    let all = s.list(owner(), vec![]).await.unwrap();
    assert_eq!(all.len(), 3);
    let some = s
        .list(owner(), vec![account(11).to_string()])
        .await
        .unwrap();
    let ids: Vec<u128> = some.iter().map(|w| w.id.as_uuid().as_u128()).collect();
    assert_eq!(ids, vec![1, 2]);
    assert!(matches!(
        s.list(owner(), vec![account(30).to_string()]).await,
        Err(ListWebhooksError::Invalid(_))
    ));
}

#[tokio::test]
async fn redeliver_checks_its_arguments() {
    let mut m = mocks();
    m.repo
        .expect_get()
        .returning(|id| Ok((id.as_uuid().as_u128() == 5).then(|| stored(5, owner(), None, true))));
    m.repo.expect_rewind().returning(|key, from, _, audit| {
        assert_eq!(audit.action, "webhook.redelivered");
        assert_eq!(audit.after.get("from sequence"), Some("3"));
        assert_eq!(from, 3);
        if key.account_id == account(11) {
            Ok(())
        } else {
            Err(StoreError::NotFound)
        }
    });
    let s = service(m, Settings::default());
    let w5 = WebhookId::from_uuid(Uuid::from_u128(5));
    s.redeliver(w5, account(11), 3, &Actor::CommandLine)
        .await
        .unwrap();
    assert!(matches!(
        s.redeliver(w5, account(12), 3, &Actor::CommandLine).await,
        Err(AdminWebhookError::StreamNotFound)
    ));
    assert!(matches!(
        s.redeliver(w5, account(11), 0, &Actor::CommandLine).await,
        Err(AdminWebhookError::Invalid(_))
    ));
    let w6 = WebhookId::from_uuid(Uuid::from_u128(6));
    assert!(matches!(
        s.redeliver(w6, account(11), 3, &Actor::CommandLine).await,
        Err(AdminWebhookError::WebhookNotFound)
    ));
}

#[tokio::test]
async fn recover_rewinds_from_a_past_time_for_covered_accounts_only() {
    let mut m = mocks();
    m.repo.expect_get().returning(|id| {
        Ok(match id.as_uuid().as_u128() {
            5 => Some(stored(5, owner(), None, true)),
            6 => Some(stored(6, owner(), Some(vec![account(11)]), true)),
            _ => None,
        })
    });
    let since = now() - time::Duration::hours(3);
    m.repo
        .expect_recover()
        .withf(move |_, s, _, at, audit| {
            *s == since
                && *at == now()
                && audit.action == "webhook.replayed"
                && audit.actor == Actor::person("ada@example.org")
                && audit.organisation == Some(owner().organisation_id)
                && audit.after.get("replay from") == Some(since.to_string().as_str())
        })
        .times(2)
        .returning(|_, _, account, _, _| {
            Ok(Recovery {
                streams: if account.is_some() { 1 } else { 2 },
                events: 7,
            })
        });
    let s = service(m, Settings::default());
    let by = Actor::person("ada@example.org");
    let w5 = WebhookId::from_uuid(Uuid::from_u128(5)).to_string();
    let w6 = WebhookId::from_uuid(Uuid::from_u128(6)).to_string();
    let all = s.recover(owner(), &w5, since, None, &by).await.unwrap();
    assert_eq!(
        all,
        Recovery {
            streams: 2,
            events: 7
        }
    );
    let one = s
        .recover(owner(), &w6, since, Some(account(11)), &by)
        .await
        .unwrap();
    assert_eq!(one.streams, 1);
    // Refused before anything moves: a future time, an account the webhook
    // does not cover (its filter, or another organisation), another owner's webhook.
    let future = now() + time::Duration::seconds(1);
    assert!(matches!(
        s.recover(owner(), &w5, future, None, &by).await,
        Err(RecoverError::Invalid(f)) if f.field == "since"
    ));
    assert!(matches!(
        s.recover(owner(), &w6, since, Some(account(12)), &by).await,
        Err(RecoverError::Invalid(f)) if f.field == "account_id"
    ));
    assert!(matches!(
        s.recover(owner(), &w5, since, Some(account(30)), &by).await,
        Err(RecoverError::Invalid(_))
    ));
    let stranger = Owner {
        mode: AccountMode::Test,
        ..owner()
    };
    assert!(matches!(
        s.recover(stranger, &w5, since, None, &by).await,
        Err(RecoverError::NotFound)
    ));
}

#[tokio::test]
async fn an_operator_re_enables_a_disabled_webhook_once_and_it_is_audited() {
    let mut m = mocks();
    m.repo.expect_get().returning(|id| {
        Ok(Some(stored(
            id.as_uuid().as_u128(),
            owner(),
            None,
            id.as_uuid().as_u128() == 6,
        )))
    });
    m.repo
        .expect_update()
        .times(1)
        .withf(|w, resume, audit| {
            let audit = audit.as_ref().expect("audited");
            *resume
                && w.enabled
                && w.disabled_reason.is_none()
                && audit.action == "webhook.enabled"
                && audit.organisation == Some(owner().organisation_id)
                && audit.before.get("state") == Some("disabled: the receiver answered 410 Gone")
                && audit.after.get("state") == Some("enabled")
        })
        .returning(|_, _, _| Ok(()));
    let s = service(m, Settings::default());
    let by = Actor::person("ops@example.org");
    let w5 = WebhookId::from_uuid(Uuid::from_u128(5));
    assert!(s.admin_enable(w5, &by).await.unwrap().enabled);
    // webhook 6 is enabled already: nothing is written (update is expected once)
    let w6 = WebhookId::from_uuid(Uuid::from_u128(6));
    assert!(s.admin_enable(w6, &by).await.unwrap().enabled);
}

/// A test event: signed with the webhook's secret, for an account it covers,
/// sent even while the webhook is disabled; the receiver's answer comes back.
#[tokio::test]
async fn a_test_event_is_signed_sent_once_and_answered() {
    let mut m = mocks();
    let hook = stored(5, owner(), None, false);
    let secret = hook.secret.expose().to_owned();
    m.repo
        .expect_get()
        .returning(move |_| Ok(Some(hook.clone())));
    m.encoder
        .expect_encode()
        .withf(|events| {
            events.len() == 1
                && events[0].event_type == crate::TEST_EVENT_TYPE
                && events[0].sequence == 0
                && events[0].account_id == account(12)
                && events[0].event_id == format!("test_{}", Uuid::from_u128(99).simple())
                && events[0]
                    .data_json
                    .contains(&WebhookId::from_uuid(Uuid::from_u128(5)).to_string())
        })
        .times(1)
        .returning(|_| b"{\"events\":[]}".to_vec());
    m.sender
        .expect_send()
        .withf(move |r| {
            r.url.as_str() == "https://hooks.example.com/a"
                && crate::verify(
                    &secret,
                    &r.signature,
                    &r.body,
                    now(),
                    time::Duration::minutes(5),
                )
                .is_ok()
        })
        .times(1)
        .returning(|_| SendOutcome::Response {
            status: 202,
            retry_after: None,
            body_start: "thanks".into(),
        });
    let s = service(m, Settings::default());
    let id = WebhookId::from_uuid(Uuid::from_u128(5)).to_string();
    let answer = s.send_test(owner(), &id, account(12)).await.unwrap();
    assert!(answer.acknowledged());
    assert_eq!(answer.status, Some(202));
    assert_eq!(answer.response, "thanks");
    assert_eq!(answer.attempted_at, now());
}

/// Another owner's webhook is not found; an account the webhook does not
/// cover is refused; neither sends anything.
#[tokio::test]
async fn a_test_event_needs_an_owned_webhook_and_a_covered_account() {
    let mut m = mocks();
    m.repo.expect_get().returning(|id| {
        Ok(match id.as_uuid().as_u128() {
            5 => Some(stored(5, owner(), Some(vec![account(11)]), true)),
            6 => Some(stored(6, owner(), None, true)),
            _ => None,
        })
    });
    m.sender.expect_send().never();
    m.encoder.expect_encode().never();
    let s = service(m, Settings::default());
    let w5 = WebhookId::from_uuid(Uuid::from_u128(5)).to_string();
    let w6 = WebhookId::from_uuid(Uuid::from_u128(6)).to_string();
    let other = Owner {
        mode: AccountMode::Test,
        ..owner()
    };
    assert!(matches!(
        s.send_test(other, &w5, account(11)).await,
        Err(TestEventError::NotFound)
    ));
    assert!(matches!(
        s.send_test(owner(), "nope", account(11)).await,
        Err(TestEventError::NotFound)
    ));
    // filtered to 11: 12 is the organisation's but not the webhook's
    match s.send_test(owner(), &w5, account(12)).await {
        Err(TestEventError::Invalid(f)) => assert_eq!(f.field, "account"),
        other => panic!("{other:?}"),
    }
    // unfiltered: another organisation's account (30) and the test mode's (20)
    for foreign in [30, 20, 40] {
        assert!(matches!(
            s.send_test(owner(), &w6, account(foreign)).await,
            Err(TestEventError::Invalid(_))
        ));
    }
}

/// A receiver that does not answer is the answer, not an error.
#[tokio::test]
async fn a_test_event_reports_a_receiver_that_does_not_answer() {
    let mut m = mocks();
    m.repo
        .expect_get()
        .returning(|_| Ok(Some(stored(5, owner(), None, true))));
    m.encoder.expect_encode().returning(|_| b"{}".to_vec());
    m.sender.expect_send().returning(|_| SendOutcome::Timeout);
    let s = service(m, Settings::default());
    let id = WebhookId::from_uuid(Uuid::from_u128(5)).to_string();
    let answer = s.send_test(owner(), &id, account(10)).await.unwrap();
    assert!(!answer.acknowledged());
    assert_eq!(answer.status, None);
    assert_eq!(answer.error.as_deref(), Some("timeout"));
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

#[tokio::test]
async fn create_keeps_the_chosen_event_types_checked_and_ordered() {
    let mut m = mocks();
    m.repo
        .expect_insert()
        .withf(|w, _, _| {
            w.event_types
                == Some(vec![
                    crate::EventType::OrderCompleted,
                    crate::EventType::AllocationRetired,
                ])
        })
        .times(1)
        .returning(|_, _, _| Ok(()));
    let s = service(m, Settings::default());
    let w = s
        .create(
            owner(),
            NewWebhook {
                event_types: Some(names(&[
                    "allocation.retired",
                    "order.completed",
                    "order.completed",
                ])),
                ..new("https://hooks.example.com/a", None)
            },
            &by(),
        )
        .await
        .unwrap();
    assert_eq!(w.event_types.map(|t| t.len()), Some(2));
}

#[tokio::test]
async fn an_unknown_or_empty_event_type_list_is_refused_and_nothing_is_written() {
    for (given, field) in [
        (
            names(&["order.completed", "order.shipped"]),
            "event_types[1]",
        ),
        (names(&["webhook.test"]), "event_types[0]"),
        (Vec::new(), "event_types"),
    ] {
        let mut m = mocks();
        m.repo.expect_insert().never();
        let s = service(m, Settings::default());
        match s
            .create(
                owner(),
                NewWebhook {
                    event_types: Some(given),
                    ..new("https://hooks.example.com/a", None)
                },
                &by(),
            )
            .await
        {
            Err(CreateWebhookError::Invalid(f)) => assert_eq!(f.field, field),
            other => panic!("{field}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn update_replaces_keeps_or_clears_the_event_types() {
    use crate::EventType;
    let chosen = Some(vec![EventType::OrderFailed]);
    for (given, expected) in [
        (None, chosen.clone()),
        (Some(None), None),
        (
            Some(Some(names(&["allocation.new"]))),
            Some(vec![EventType::AllocationNew]),
        ),
    ] {
        let mut m = mocks();
        let current = chosen.clone();
        m.repo.expect_get().returning(move |_| {
            Ok(Some(Webhook {
                event_types: current.clone(),
                ..stored(5, owner(), None, true)
            }))
        });
        let want = expected.clone();
        m.repo
            .expect_update()
            .withf(move |w, _, _| w.event_types == want)
            .times(1)
            .returning(|_, _, _| Ok(()));
        let s = service(m, Settings::default());
        let id = WebhookId::from_uuid(Uuid::from_u128(5)).to_string();
        let w = s
            .update(
                owner(),
                &id,
                WebhookChanges {
                    url: "https://hooks.example.com/a".into(),
                    enabled: None,
                    account_ids: None,
                    event_types: given,
                },
                &by(),
            )
            .await
            .unwrap();
        assert_eq!(w.event_types, expected);
    }
    // an unknown name changes nothing
    let mut m = mocks();
    m.repo
        .expect_get()
        .returning(|_| Ok(Some(stored(5, owner(), None, true))));
    m.repo.expect_update().never();
    let s = service(m, Settings::default());
    let id = WebhookId::from_uuid(Uuid::from_u128(5)).to_string();
    match s
        .update(
            owner(),
            &id,
            WebhookChanges {
                url: "https://hooks.example.com/a".into(),
                enabled: None,
                account_ids: None,
                event_types: Some(Some(names(&["Order.Completed"]))),
            },
            &by(),
        )
        .await
    {
        Err(UpdateWebhookError::Invalid(f)) => assert_eq!(f.field, "event_types[0]"),
        other => panic!("{other:?}"),
    }
}
