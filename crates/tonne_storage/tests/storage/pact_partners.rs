//! PACT partners and their footprint requests on SQLite and PostgreSQL: the
//! secret sealed at rest and opened again, partners bounded per account and
//! one per URL, a request stored once per partner and event id with its
//! answering job, waiting requests bounded, an answer marked under the
//! job's lease only.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use time::Duration;
use time::macros::datetime;
use tonne_accounts::pact::partners::{
    ANSWER_JOB, PactPartner, PactPartnerId, PactPartnerRepository, PactRequest, PactRequestId,
    PartnerError, PartnerSecret, Received, RequestStatus,
};
use tonne_jobs::JobQueue as _;
use tonne_kernel::{JobLease, StoreError, UuidV7Generator};
use tonne_storage::{JobStore, PactPartnerStore, SecretsKey};
use tonne_test_support::{TestDb, count, on_both_backends, organisation};

const AT: time::OffsetDateTime = datetime!(2026-11-29 09:00 UTC);

fn partner(account: tonne_kernel::AccountId, n: u32) -> PactPartner {
    let url = format!("https://pcf{n}.example.com");
    PactPartner {
        id: PactPartnerId::generate(&UuidV7Generator),
        account_id: account,
        token_url: format!("{url}/auth/token"),
        url,
        client_id: format!("tonne-{n}"),
        created_at: AT + Duration::seconds(i64::from(n)),
        removed_at: None,
    }
}

fn request(p: &PactPartner, event: &str) -> PactRequest {
    PactRequest {
        id: PactRequestId::generate(&UuidV7Generator),
        account_id: p.account_id,
        partner_id: p.id,
        event_id: event.into(),
        product_ids: vec!["urn:x:1".into(), "urn:x:2".into()],
        received_at: AT,
        status: RequestStatus::Waiting,
        answered_at: None,
        error: None,
    }
}

fn secret(text: &str) -> PartnerSecret {
    PartnerSecret::new(text.into()).unwrap()
}

async fn partners_are_sealed_bounded_and_one_per_url(t: TestDb) {
    let (live, test) = organisation(t.db(), AT).await;
    let key = SecretsKey::generate();
    let store = PactPartnerStore::new(t.db().clone(), Some(key.clone()));
    let first = partner(live.id, 1);
    store
        .insert(&first, &secret("s-1"), 3)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(store.get(first.id).await.unwrap(), Some(first.clone()));
    // the secret is not stored as given
    let sealed = "SELECT count(*) AS n FROM pact_partners WHERE secret LIKE '%s-1%'";
    assert_eq!(count(t.db(), sealed).await, 0);
    assert_eq!(
        count(t.db(), "SELECT count(*) AS n FROM pact_partners").await,
        1
    );
    // the same URL again: refused; two more: stored; a fourth: over the bound
    let again = PactPartner {
        id: PactPartnerId::generate(&UuidV7Generator),
        ..first.clone()
    };
    assert!(matches!(
        store.insert(&again, &secret("s"), 3).await.unwrap(),
        Err(PartnerError::Duplicate)
    ));
    for n in 2..=3 {
        store
            .insert(&partner(live.id, n), &secret("s"), 3)
            .await
            .unwrap()
            .unwrap();
    }
    assert!(matches!(
        store
            .insert(&partner(live.id, 4), &secret("s"), 3)
            .await
            .unwrap(),
        Err(PartnerError::TooMany)
    ));
    assert_eq!(store.list(live.id).await.unwrap().len(), 3);
    assert!(store.list(test.id).await.unwrap().is_empty());
    assert_eq!(
        store.find(live.id, &first.url).await.unwrap(),
        Some(first.clone())
    );
    assert_eq!(store.find(test.id, &first.url).await.unwrap(), None);
    // removed: not found by URL, not listed, not counted
    let removed = store.remove(first.id, AT).await.unwrap().unwrap();
    assert_eq!(removed.removed_at, Some(AT));
    assert_eq!(store.find(live.id, &first.url).await.unwrap(), None);
    assert_eq!(store.list(live.id).await.unwrap().len(), 2);
    store
        .insert(&partner(live.id, 5), &secret("s"), 3)
        .await
        .unwrap()
        .unwrap();
    // without the key nothing is sealed
    let keyless = PactPartnerStore::new(t.db().clone(), None);
    assert!(
        keyless
            .insert(&partner(test.id, 6), &secret("s"), 3)
            .await
            .is_err()
    );
}

async fn a_request_is_stored_once_with_its_job_and_answered_under_the_lease(t: TestDb) {
    let (live, _) = organisation(t.db(), AT).await;
    let key = SecretsKey::generate();
    let store = Arc::new(PactPartnerStore::new(t.db().clone(), Some(key)));
    let p = partner(live.id, 1);
    store
        .insert(&p, &secret("their secret"), 3)
        .await
        .unwrap()
        .unwrap();
    let r = request(&p, "run-1/12");
    assert_eq!(store.record(&r, 2).await.unwrap(), Received::Queued(r.id));
    // the same event id again: nothing new
    let again = request(&p, "run-1/12");
    assert_eq!(store.record(&again, 2).await.unwrap(), Received::Repeated);
    // the bound of waiting requests, counted under concurrency: one more of four
    let tasks: Vec<_> = (0..4)
        .map(|n| {
            let store = Arc::clone(&store);
            let r = request(&p, &format!("run-2/{n}"));
            tokio::spawn(async move { store.record(&r, 2).await.unwrap() })
        })
        .collect();
    let mut queued = 0;
    for task in tasks {
        if matches!(task.await.unwrap(), Received::Queued(_)) {
            queued += 1;
        }
    }
    assert_eq!(queued, 1);
    // the pending answer carries the partner and its secret, opened again
    let pending = store.pending(r.id).await.unwrap().unwrap();
    assert_eq!(pending.request, r);
    assert_eq!(pending.partner, p);
    assert_eq!(pending.secret.expose(), "their secret");
    // its job was queued with it
    let jobs = JobStore::new(t.db().clone());
    let mut claims = Vec::new();
    while let Some(job) = jobs
        .claim("w1", AT + Duration::minutes(1), AT + Duration::minutes(2))
        .await
        .unwrap()
    {
        claims.push(job);
    }
    assert_eq!(claims.len(), 2);
    let job = claims
        .iter()
        .find(|j| j.subject == r.id.to_string())
        .unwrap();
    assert_eq!(job.kind, ANSWER_JOB);
    assert_eq!(job.account_id, Some(live.id));
    // a stranger's lease marks nothing
    let stranger = JobLease {
        job: job.lease.job,
        worker: "w2".into(),
    };
    let lost = store
        .answered(&stranger, r.id, RequestStatus::Fulfilled, AT, None)
        .await;
    assert!(matches!(lost, Err(StoreError::NotFound)), "{lost:?}");
    store
        .answered(&job.lease, r.id, RequestStatus::Fulfilled, AT, None)
        .await
        .unwrap();
    // answered once: a second mark changes nothing
    store
        .answered(
            &job.lease,
            r.id,
            RequestStatus::Failed,
            AT,
            Some("late".into()),
        )
        .await
        .unwrap();
    let listed = store.requests(live.id, 10).await.unwrap();
    assert_eq!(listed.len(), 2);
    let answered = listed.iter().find(|x| x.id == r.id).unwrap();
    assert_eq!(answered.status, RequestStatus::Fulfilled);
    assert_eq!(answered.answered_at, Some(AT));
    assert_eq!(answered.error, None);
    assert_eq!(answered.product_ids, ["urn:x:1", "urn:x:2"]);
}

on_both_backends!(
    partners_are_sealed_bounded_and_one_per_url,
    a_request_is_stored_once_with_its_job_and_answered_under_the_lease,
);
