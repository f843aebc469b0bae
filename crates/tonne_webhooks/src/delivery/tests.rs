//! Tests of the delivery step over mocked ports.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use time::OffsetDateTime;
use tonne_kernel::{AccountId, MockClock, MockIdGenerator, OrganisationId};
use uuid::Uuid;

use super::*;
use crate::events::{EventType, Subscription};
use crate::models::{OutboxEvent, StreamKey, Target, WebhookId};
use crate::policy::RetrySchedule;
use crate::ports::{MockDeliveryStore, MockEventEncoder, MockWebhookSender};
use crate::secret::WebhookSecret;
use crate::target::{TargetPolicy, WebhookUrl};

fn now() -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(1_700_000_000).unwrap()
}

fn key() -> StreamKey {
    StreamKey {
        webhook_id: WebhookId::from_uuid(Uuid::from_u128(5)),
        account_id: AccountId::from_uuid(Uuid::from_u128(11)),
    }
}

fn event(seq: i64) -> OutboxEvent {
    OutboxEvent {
        event_id: format!("{seq:032x}"),
        event_type: "order.received".into(),
        account_id: key().account_id,
        sequence: seq,
        data_json: "{}".into(),
        created_at: now(),
        traceparent: None,
    }
}

fn target(secret: &WebhookSecret, enabled: bool) -> Target {
    Target {
        organisation_id: OrganisationId::from_uuid(Uuid::from_u128(1)),
        url: WebhookUrl::parse("https://hooks.example.com/x", TargetPolicy::default()).unwrap(),
        secret: secret.clone(),
        enabled,
    }
}

fn settings(schedule: &str, batch: usize) -> DeliverySettings {
    DeliverySettings {
        policy: DeliveryPolicy {
            schedule: RetrySchedule::parse(schedule).unwrap(),
        },
        batch_size: batch,
        lease: Duration::from_secs(60),
        owner: "dispatcher-a".into(),
    }
}

fn deliverer(
    store: MockDeliveryStore,
    sender: MockWebhookSender,
    s: DeliverySettings,
    jitter: i64,
) -> Deliverer {
    let mut clock = MockClock::new();
    clock.expect_now().returning(now);
    let mut ids = MockIdGenerator::new();
    ids.expect_new_uuid().returning(|| Uuid::from_u128(42));
    let mut encoder = MockEventEncoder::new();
    encoder.expect_encode().returning(|events| {
        let seqs: Vec<String> = events.iter().map(|e| e.sequence.to_string()).collect();
        format!("[{}]", seqs.join(",")).into_bytes()
    });
    Deliverer::new(
        Arc::new(store),
        Arc::new(sender),
        Arc::new(encoder),
        Arc::new(clock),
        Arc::new(ids),
        Arc::new(move || jitter),
        s,
    )
}

fn stream(acked: i64, failures: u32) -> ClaimedStream {
    ClaimedStream {
        key: key(),
        acked_sequence: acked,
        failures,
        subscription: Subscription::default(),
    }
}

/// A store whose stream holds the events `pending` answers (and keeps its
/// lease) for an enabled webhook of a new secret.
fn sending(pending: fn() -> Vec<OutboxEvent>) -> MockDeliveryStore {
    let secret = WebhookSecret::generate();
    let mut store = MockDeliveryStore::new();
    store
        .expect_pending()
        .returning(move |_, _, _, _| Ok(pending()));
    store.expect_renew().returning(|_, _, _| Ok(true));
    targets(&mut store, &secret);
    store
}

/// The store's target: an enabled webhook of `secret`.
fn targets(store: &mut MockDeliveryStore, secret: &WebhookSecret) {
    let secret = secret.clone();
    store
        .expect_target()
        .returning(move |_| Ok(Some(target(&secret, true))));
}

/// A sender that answers every request `outcome`.
fn answering(outcome: fn() -> SendOutcome) -> MockWebhookSender {
    let mut sender = MockWebhookSender::new();
    sender.expect_send().returning(move |_| outcome());
    sender
}

/// A sender that must send nothing.
fn silent() -> MockWebhookSender {
    let mut sender = MockWebhookSender::new();
    sender.expect_send().never();
    sender
}

fn status(s: u16) -> SendOutcome {
    SendOutcome::Response {
        status: s,
        retry_after: None,
        body_start: String::new(),
    }
}

#[tokio::test]
async fn a_2xx_acknowledges_the_batch_signed_with_the_current_secret() {
    let secret = WebhookSecret::generate();
    let mut store = MockDeliveryStore::new();
    store
        .expect_pending()
        .withf(|a, after, limit, only| {
            *a == key().account_id && *after == 2 && *limit == 2 && only.is_none()
        })
        .returning(|_, _, _, _| Ok(vec![event(3), event(4)]));
    store.expect_renew().times(1).returning(|_, _, _| Ok(true));
    targets(&mut store, &secret);
    store
        .expect_acknowledge()
        .withf(|owner, a| {
            owner == "dispatcher-a"
                && a.first_sequence == 3
                && a.last_sequence == 4
                && a.events == 2
                && a.status == Some(204)
                && a.outcome == AttemptOutcome::Delivered
        })
        .times(1)
        .returning(|_, _| Ok(true));
    let seen = Arc::new(Mutex::new(None));
    let seen2 = Arc::clone(&seen);
    let mut sender = MockWebhookSender::new();
    sender.expect_send().times(1).returning(move |req| {
        *seen2.lock().unwrap() = Some(req.clone());
        status(204)
    });
    let d = deliverer(store, sender, settings("5", 2), 0);
    let mut s = stream(2, 0);
    match d.step(&mut s).await.unwrap() {
        Step::Delivered {
            more, committed_at, ..
        } => {
            assert!(more);
            assert_eq!(committed_at.len(), 2);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(s.acked_sequence, 4);
    let req = seen.lock().unwrap().clone().unwrap();
    assert_eq!(req.body, b"[3,4]");
    crate::verify(
        secret.expose(),
        &req.signature,
        &req.body,
        now(),
        time::Duration::minutes(5),
    )
    .unwrap();
    assert!(
        req.signature
            .contains("organisation=00000000000000000000000000000001")
    );
}

#[tokio::test]
async fn a_failure_schedules_the_same_batch_with_jitter_and_keeps_the_position() {
    let mut store = sending(|| vec![event(3)]);
    store.expect_acknowledge().never();
    store
        .expect_fail()
        .withf(|_, a, failures, next| {
            *failures == 2
                && a.outcome == AttemptOutcome::Failed
                && a.status == Some(500)
                && *next == now() + time::Duration::seconds(360)
                && a.next_attempt_at == Some(*next)
        })
        .times(1)
        .returning(|_, _, _, _| Ok(true));
    let sender = answering(|| status(500));
    // second failure of this batch: the schedule's second delay (300 s) + 20 %
    let d = deliverer(store, sender, settings("5,300,1800", 10), 1_000);
    let mut s = stream(2, 1);
    assert!(matches!(d.step(&mut s).await.unwrap(), Step::Failed { .. }));
    assert_eq!(s.acked_sequence, 2);
    assert_eq!(s.failures, 2);
}

#[tokio::test]
async fn exhausting_the_schedule_disables_the_webhook() {
    let mut store = sending(|| vec![event(3)]);
    store
        .expect_disable()
        .withf(|_, a, failures, reason| {
            *failures == 4 && a.outcome == AttemptOutcome::Disabled && reason.contains("4 attempts")
        })
        .times(1)
        .returning(|_, _, _, _| Ok(true));
    let sender = answering(|| SendOutcome::Timeout);
    let d = deliverer(store, sender, settings("1,1,2", 10), 0);
    let mut s = stream(2, 3);
    assert!(matches!(
        d.step(&mut s).await.unwrap(),
        Step::Disabled { .. }
    ));
    assert_eq!(s.acked_sequence, 2);
}

#[tokio::test]
async fn gone_disables_on_the_first_attempt() {
    let mut store = sending(|| vec![event(1)]);
    store
        .expect_disable()
        .withf(|_, a, _, reason| a.status == Some(410) && reason.contains("410"))
        .times(1)
        .returning(|_, _, _, _| Ok(true));
    let sender = answering(|| status(410));
    let d = deliverer(store, sender, settings("5,300", 10), 0);
    assert!(matches!(
        d.step(&mut stream(0, 0)).await.unwrap(),
        Step::Disabled { .. }
    ));
}

#[tokio::test]
async fn nothing_is_sent_to_a_deleted_or_disabled_webhook_or_without_events() {
    for case in 0..3 {
        let secret = WebhookSecret::generate();
        let mut store = MockDeliveryStore::new();
        store
            .expect_pending()
            .returning(move |_, _, _, _| Ok(if case == 0 { vec![] } else { vec![event(1)] }));
        store.expect_renew().returning(|_, _, _| Ok(true));
        store.expect_target().returning(move |_| {
            Ok(match case {
                1 => None,
                _ => Some(target(&secret, false)),
            })
        });
        let d = deliverer(store, silent(), settings("5", 10), 0);
        assert_eq!(
            d.step(&mut stream(0, 0)).await.unwrap(),
            Step::Idle,
            "case {case}"
        );
    }
}

#[tokio::test]
async fn a_lost_lease_sends_nothing_and_a_late_acknowledgement_changes_nothing() {
    let mut store = MockDeliveryStore::new();
    store
        .expect_pending()
        .returning(|_, _, _, _| Ok(vec![event(1)]));
    store.expect_renew().returning(|_, _, _| Ok(false));
    let d = deliverer(store, silent(), settings("5", 10), 0);
    assert_eq!(d.step(&mut stream(0, 0)).await.unwrap(), Step::LeaseLost);

    let mut store = sending(|| vec![event(1)]);
    store.expect_acknowledge().returning(|_, _| Ok(false));
    let sender = answering(|| status(200));
    let d = deliverer(store, sender, settings("5", 10), 0);
    let mut s = stream(0, 0);
    assert_eq!(d.step(&mut s).await.unwrap(), Step::LeaseLost);
    assert_eq!(
        s.acked_sequence, 0,
        "the position moves only with the lease"
    );
}

#[tokio::test]
async fn claim_materialises_new_streams_then_leases_for_the_configured_time() {
    let mut store = MockDeliveryStore::new();
    store
        .expect_materialise_streams()
        .times(1)
        .returning(|_| Ok(2));
    store
        .expect_claim()
        .withf(|owner, n, until, limit| {
            owner == "dispatcher-a"
                && *n == now()
                && *until == now() + time::Duration::seconds(60)
                && *limit == 7
        })
        .times(1)
        .returning(|_, _, _, _| Ok(vec![stream(0, 0)]));
    let d = deliverer(store, MockWebhookSender::new(), settings("5", 10), 0);
    assert_eq!(d.claim(7).await.unwrap().len(), 1);
}

fn typed(seq: i64, event_type: &str) -> OutboxEvent {
    OutboxEvent {
        event_type: event_type.into(),
        ..event(seq)
    }
}

fn subscribed(
    acked: i64,
    event_types: Option<Vec<EventType>>,
    pinned_version: Option<&str>,
) -> ClaimedStream {
    let subscription = Subscription {
        event_types,
        pinned_version: pinned_version.map(str::to_owned),
    };
    ClaimedStream {
        subscription,
        ..stream(acked, 0)
    }
}

#[tokio::test]
async fn a_webhook_choosing_types_is_given_only_those_events() {
    let secret = WebhookSecret::generate();
    let mut store = MockDeliveryStore::new();
    store
        .expect_pending()
        .withf(|_, after, _, only| {
            *after == 2 && only.as_deref() == Some(&[EventType::OrderCompleted][..])
        })
        .times(1)
        .returning(|_, _, _, _| Ok(vec![typed(7, "order.completed")]));
    store.expect_pass().never();
    store.expect_renew().returning(|_, _, _| Ok(true));
    targets(&mut store, &secret);
    store
        .expect_acknowledge()
        .withf(|_, a| a.first_sequence == 7 && a.last_sequence == 7 && a.events == 1)
        .times(1)
        .returning(|_, _| Ok(true));
    let mut sender = MockWebhookSender::new();
    sender.expect_send().times(1).returning(|_| status(200));
    let d = deliverer(store, sender, settings("5", 10), 0);
    let mut s = subscribed(2, Some(vec![EventType::OrderCompleted]), None);
    assert!(matches!(
        d.step(&mut s).await.unwrap(),
        Step::Delivered { .. }
    ));
    assert_eq!(s.acked_sequence, 7);
}

#[tokio::test]
async fn an_organisation_pinned_before_2024_08_08_is_given_no_allocation_events() {
    let mut store = MockDeliveryStore::new();
    store
        .expect_pending()
        .withf(|_, _, _, only| {
            only.as_deref() == Some(&EventType::ALL[..7]) // the order events
        })
        .times(1)
        .returning(|_, _, _, _| Ok(vec![]));
    // nothing it receives follows: the stream moves past the allocation events
    store
        .expect_pass()
        .withf(|owner, k, after, only| {
            owner == "dispatcher-a"
                && *k == key()
                && *after == 4
                && !only.contains(&EventType::AllocationNew)
                && !only.contains(&EventType::AllocationRetired)
        })
        .times(1)
        .returning(|_, _, _, _| Ok(Some(9)));
    store.expect_renew().never();
    store.expect_target().never();
    let d = deliverer(store, silent(), settings("5", 10), 0);
    // choosing allocation events does not overrule the version
    let mut s = subscribed(4, None, Some("2023-01-01"));
    assert_eq!(d.step(&mut s).await.unwrap(), Step::Idle);
    assert_eq!(s.acked_sequence, 9);
}

#[tokio::test]
async fn a_webhook_receiving_every_type_never_passes_events() {
    let mut store = MockDeliveryStore::new();
    store
        .expect_pending()
        .withf(|_, _, _, only| only.is_none())
        .returning(|_, _, _, _| Ok(vec![]));
    store.expect_pass().never();
    let d = deliverer(store, MockWebhookSender::new(), settings("5", 10), 0);
    let mut s = subscribed(4, None, Some("2024-08-08"));
    assert_eq!(d.step(&mut s).await.unwrap(), Step::Idle);
    assert_eq!(s.acked_sequence, 4);
}

#[tokio::test]
async fn a_pass_that_finds_a_wanted_event_moves_nothing() {
    let mut store = MockDeliveryStore::new();
    store.expect_pending().returning(|_, _, _, _| Ok(vec![]));
    store
        .expect_pass()
        .times(1)
        .returning(|_, _, _, _| Ok(None));
    let d = deliverer(store, MockWebhookSender::new(), settings("5", 10), 0);
    let mut s = subscribed(4, Some(vec![EventType::AllocationNew]), None);
    assert_eq!(d.step(&mut s).await.unwrap(), Step::Idle);
    assert_eq!(s.acked_sequence, 4);
}
