//! `JobStore` (the job engine's queue) on SQLite and PostgreSQL: claims
//! fair across accounts, leases that run out counting an attempt, back-off,
//! jobs ended done or failed, claimers at once taking different jobs, a
//! document's job ended only under its lease, and recurring system jobs
//! (ensured once, rescheduled, taking their turn fairly among accounts).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::collections::HashSet;

use time::macros::datetime;
use time::{Duration, OffsetDateTime};
use tonne_estimation::document_jobs::{
    DOCUMENT_JOB, DocumentJobId, DocumentJobRepository, NewDocumentJob,
};
use tonne_jobs::{Finished, JobClaim, JobQueue};
use tonne_kernel::{AccountId, EstimateId, StoreError, UuidV7Generator};
use tonne_shipments::{BATCH_JOB, ShipmentRepository};
use tonne_storage::{DocumentJobStore, JobStore, ShipmentStore};
use tonne_test_support::{TestDb, on_both_backends};

const T0: OffsetDateTime = datetime!(2026-11-28 10:00 UTC);
const LEASE: Duration = Duration::seconds(60);

struct Fixture {
    jobs: JobStore,
    shipments: ShipmentStore,
    shipments_db: tonne_storage::Db,
    a: AccountId,
    b: AccountId,
    _db: TestDb,
}

async fn fixture(t: TestDb) -> Fixture {
    let (live, test) = tonne_test_support::organisation(t.db(), T0).await;
    Fixture {
        jobs: JobStore::new(t.db().clone()),
        shipments: ShipmentStore::new(t.db().clone()),
        shipments_db: t.db().clone(),
        a: live.id,
        b: test.id,
        _db: t,
    }
}

impl Fixture {
    /// A job claimed by `worker` at `now`, held until `until`, if one is due.
    async fn claim(
        &self,
        worker: &str,
        now: OffsetDateTime,
        until: OffsetDateTime,
    ) -> Option<JobClaim> {
        self.jobs.claim(worker, now, until).await.unwrap()
    }

    /// Whether ensuring the sweep at `at` put it in line.
    async fn ensure_sweep(&self, at: OffsetDateTime) -> bool {
        self.jobs
            .ensure_system_job(SWEEP, "test_orders", at)
            .await
            .unwrap()
    }
}

/// A one-row batch of `account` uploaded at `at`: its job is queued with it.
async fn batch(f: &Fixture, account: AccountId, at: OffsetDateTime) -> String {
    let b = crate::fixtures::batch(account, vec!["{}".into()], at);
    f.shipments.insert_batch(&b).await.unwrap();
    b.id.to_string()
}

async fn a_job_is_queued_with_its_batch_and_claimed_under_a_lease(t: TestDb) {
    let f = fixture(t).await;
    let subject = batch(&f, f.a, T0).await;
    let job = f.claim("w1", T0, T0 + LEASE).await.unwrap();
    assert_eq!(
        (
            job.kind.as_str(),
            job.account_id,
            job.subject.as_str(),
            job.attempts
        ),
        (BATCH_JOB, Some(f.a), subject.as_str(), 0)
    );
    assert_eq!(job.lease.worker, "w1");
    assert!(
        f.claim("w2", T0 + LEASE - Duration::seconds(1), T0 + LEASE * 2)
            .await
            .is_none(),
        "held until its lease runs out"
    );
    // w1 dies: past the lease, w2 takes it over with an attempt counted
    let taken = f
        .claim("w2", T0 + LEASE + Duration::seconds(1), T0 + LEASE * 3)
        .await
        .unwrap();
    assert_eq!((taken.lease.job, taken.attempts), (job.lease.job, 1));
    // the stale worker can no longer release, retry or end it
    assert!(matches!(
        f.jobs.release(&job.lease, T0).await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        f.jobs.finish(&job.lease, Finished::Done).await,
        Err(StoreError::NotFound)
    ));
    // done: gone for good
    f.jobs.finish(&taken.lease, Finished::Done).await.unwrap();
    assert!(
        f.claim("w3", T0 + LEASE * 10, T0 + LEASE * 11)
            .await
            .is_none()
    );
}

async fn claims_serve_the_account_served_least_recently(t: TestDb) {
    let f = fixture(t).await;
    // A has a backlog of three batches; B uploads one after them
    for i in 0..3 {
        batch(&f, f.a, T0 + Duration::milliseconds(i)).await;
    }
    batch(&f, f.b, T0 + Duration::seconds(1)).await;
    let mut served = Vec::new();
    for i in 0..6 {
        let now = T0 + Duration::seconds(2 + i);
        let Some(job) = f.claim("w", now, now + LEASE).await else {
            break;
        };
        let account = job.account_id.unwrap();
        served.push(account);
        if account == f.a && i < 3 {
            // A's batch needs another step: back in line
            f.jobs.release(&job.lease, now).await.unwrap();
        } else {
            f.jobs.finish(&job.lease, Finished::Done).await.unwrap();
        }
    }
    assert_eq!(
        served[..2],
        [f.a, f.b],
        "B's one batch waits for one step of A's backlog, not for all of it"
    );
    assert!(served[2..].iter().all(|a| *a == f.a));
}

async fn a_failed_step_waits_for_its_back_off_and_a_failed_job_ends(t: TestDb) {
    let f = fixture(t).await;
    batch(&f, f.a, T0).await;
    let job = f.claim("w", T0, T0 + LEASE).await.unwrap();
    f.jobs
        .retry(
            &job.lease,
            1,
            "invalid byte sequence",
            T0 + Duration::seconds(2),
        )
        .await
        .unwrap();
    assert!(
        f.claim("w", T0 + Duration::seconds(1), T0 + LEASE)
            .await
            .is_none(),
        "not before its back-off"
    );
    let again = f
        .claim("w", T0 + Duration::seconds(2), T0 + LEASE)
        .await
        .unwrap();
    assert_eq!(again.attempts, 1);
    f.jobs
        .finish(&again.lease, Finished::Failed("5 attempts failed".into()))
        .await
        .unwrap();
    assert!(
        f.claim("w", T0 + LEASE * 100, T0 + LEASE * 101)
            .await
            .is_none(),
        "a failed job is never claimed again"
    );
}

async fn claimers_at_once_take_different_jobs(t: TestDb) {
    let f = fixture(t).await;
    for i in 0..6 {
        let account = if i % 2 == 0 { f.a } else { f.b };
        batch(&f, account, T0 + Duration::milliseconds(i)).await;
    }
    let claims = futures_util::future::join_all((0..8).map(|i| {
        let jobs = f.jobs.clone();
        tokio::spawn(async move {
            jobs.claim(&format!("w{i}"), T0 + Duration::seconds(1), T0 + LEASE)
                .await
                .unwrap()
        })
    }))
    .await;
    let got: Vec<_> = claims
        .into_iter()
        .filter_map(|c| c.unwrap())
        .map(|c| c.lease.job)
        .collect();
    assert_eq!(got.len(), 6, "every job claimed once: {got:?}");
    assert_eq!(got.iter().collect::<HashSet<_>>().len(), 6);
}

/// A transaction document is queued with its job, and ended only by the
/// worker that holds the job's lease.
async fn a_document_is_ended_once_under_its_jobs_lease(t: TestDb) {
    let f = fixture(t).await;
    let docs = DocumentJobStore::new(f.shipments_db.clone());
    let id = DocumentJobId::generate(&UuidV7Generator);
    docs.enqueue(&NewDocumentJob {
        id,
        account_id: f.a,
        estimate_id: EstimateId::generate(&UuidV7Generator),
        body: "{}".into(),
        tolerance: "0.1".into(),
        correlation_id: None,
        created_at: T0,
    })
    .await
    .unwrap();
    let w1 = f.claim("w1", T0, T0 + LEASE).await.unwrap();
    assert_eq!(
        (w1.kind.as_str(), w1.subject.clone()),
        (DOCUMENT_JOB, id.to_string())
    );
    let stale = docs.open(&w1.lease, id).await.unwrap().unwrap();
    // w1 stops; w2 takes the job over once the lease ran out
    let later = T0 + LEASE + Duration::seconds(1);
    let w2 = f.claim("w2", later, later + LEASE).await.unwrap();
    let held = docs.open(&w2.lease, id).await.unwrap().unwrap();
    assert!(matches!(
        docs.fail(&stale, "late", later).await,
        Err(StoreError::NotFound)
    ));
    docs.fail(&held, "body: not JSON", later).await.unwrap();
    assert!(
        docs.open(&w2.lease, id).await.unwrap().is_none(),
        "an ended document is not done again"
    );
}

const SWEEP: &str = "test_order_pipeline";

/// A system job is claimed with no account and, rescheduled, is due again
/// only after its interval, its attempts cleared.
async fn a_system_job_is_claimed_and_comes_back_after_its_interval(t: TestDb) {
    let f = fixture(t).await;
    assert!(f.ensure_sweep(T0).await);
    let job = f.claim("w1", T0, T0 + LEASE).await.unwrap();
    assert_eq!(
        (job.kind.as_str(), job.account_id, job.subject.as_str()),
        (SWEEP, None, "test_orders")
    );
    assert!(job.is_system());
    // a failed sweep backs off, then succeeds: released due after its interval
    f.jobs
        .retry(&job.lease, 1, "database hiccup", T0 + Duration::seconds(2))
        .await
        .unwrap();
    let again = f
        .claim("w1", T0 + Duration::seconds(2), T0 + LEASE)
        .await
        .unwrap();
    assert_eq!(again.attempts, 1);
    let next = T0 + Duration::seconds(2) + Duration::milliseconds(250);
    f.jobs.release(&again.lease, next).await.unwrap();
    assert!(
        f.claim("w1", next - Duration::milliseconds(1), T0 + LEASE)
            .await
            .is_none(),
        "not before its interval"
    );
    let third = f.claim("w2", next, next + LEASE).await.unwrap();
    assert_eq!((third.lease.job, third.attempts), (job.lease.job, 0));
}

/// Ensuring a system job leaves one that exists as it is (ready or held),
/// and puts one that was ended failed back in line.
async fn ensuring_a_system_job_is_idempotent(t: TestDb) {
    let f = fixture(t).await;
    assert!(f.ensure_sweep(T0).await);
    assert!(!f.ensure_sweep(T0).await);
    let held = f.claim("w1", T0, T0 + LEASE).await.unwrap();
    let later = T0 + Duration::seconds(1);
    assert!(!f.ensure_sweep(later).await);
    assert!(
        f.claim("w2", later, later + LEASE).await.is_none(),
        "a held system job stays held: one row, not two"
    );
    // a process of an earlier release, which knew no such kind, gave it up
    f.jobs
        .finish(&held.lease, Finished::Failed("no handler".into()))
        .await
        .unwrap();
    assert!(f.ensure_sweep(later).await);
    let revived = f.claim("w2", later, later + LEASE).await.unwrap();
    assert_eq!((revived.lease.job, revived.attempts), (held.lease.job, 0));
}

/// Processes starting at once each ensure the system job: one row.
async fn concurrent_ensures_make_one_system_job(t: TestDb) {
    let f = fixture(t).await;
    let ensured = futures_util::future::join_all((0..6).map(|_| {
        let jobs = f.jobs.clone();
        tokio::spawn(async move {
            jobs.ensure_system_job(SWEEP, "test_orders", T0)
                .await
                .unwrap()
        })
    }))
    .await;
    let written = ensured.into_iter().filter(|e| *e.as_ref().unwrap()).count();
    assert_eq!(written, 1, "one process inserted it");
    assert!(f.claim("w1", T0, T0 + LEASE).await.is_some());
    assert!(f.claim("w2", T0, T0 + LEASE).await.is_none(), "one row");
}

/// A system job takes its turn by when it fell due: after the accounts
/// served before then, before those served since; and due again only
/// after its interval, it does not hold an account's backlog up.
async fn a_system_job_takes_its_turn_fairly_among_accounts(t: TestDb) {
    let f = fixture(t).await;
    for i in 0..3 {
        batch(&f, f.a, T0 + Duration::milliseconds(i)).await;
    }
    batch(&f, f.b, T0 + Duration::seconds(1)).await;
    let every = Duration::milliseconds(1500);
    f.ensure_sweep(T0 + every).await;
    let mut served = Vec::new();
    for i in 0..6 {
        let now = T0 + Duration::seconds(2 + i);
        let job = f.claim("w", now, now + LEASE).await.unwrap();
        served.push(job.account_id);
        match job.account_id {
            // A's backlog always needs another step
            Some(a) if a == f.a => f.jobs.release(&job.lease, now).await.unwrap(),
            Some(_) => f.jobs.finish(&job.lease, Finished::Done).await.unwrap(),
            None => f.jobs.release(&job.lease, now + every).await.unwrap(),
        }
    }
    // 2 s: A (never served); 3 s: B (never served); 4 s: the sweep, due
    // since 1.5 s, before A (served at 2 s); 5 s: A (the sweep is due at
    // 5.5 s); 6 s: A, served at 5 s, before the sweep; 7 s: the sweep
    assert_eq!(
        served,
        [Some(f.a), Some(f.b), None, Some(f.a), Some(f.a), None]
    );
}

on_both_backends!(
    a_system_job_is_claimed_and_comes_back_after_its_interval,
    ensuring_a_system_job_is_idempotent,
    concurrent_ensures_make_one_system_job,
    a_system_job_takes_its_turn_fairly_among_accounts,
    a_document_is_ended_once_under_its_jobs_lease,
    a_job_is_queued_with_its_batch_and_claimed_under_a_lease,
    claims_serve_the_account_served_least_recently,
    a_failed_step_waits_for_its_back_off_and_a_failed_job_ends,
    claimers_at_once_take_different_jobs,
);
