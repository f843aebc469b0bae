//! Redelivery, recovery and test events.

use super::*;

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
