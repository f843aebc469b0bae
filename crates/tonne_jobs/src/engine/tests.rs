use std::sync::Arc;

use mockall::predicate::eq;
use time::{Duration, OffsetDateTime};
use tonne_kernel::{AccountId, JobClaim, JobId, JobLease, MockClock, Step, StoreError};

use super::*;
use crate::ports::{MockJobHandler, MockJobQueue};

const KIND: &str = "shipment_batch";

fn now() -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap()
}

fn clock() -> Arc<MockClock> {
    let mut clock = MockClock::new();
    clock.expect_now().returning(now);
    Arc::new(clock)
}

fn job(kind: &str, attempts: u32) -> JobClaim {
    JobClaim {
        lease: JobLease {
            job: "0190c6f1a7b27c3e9f2d4b1a2c3d4e5f".parse::<JobId>().unwrap(),
            worker: "w1".into(),
        },
        kind: kind.into(),
        account_id: Some(
            "0190c6f1a7b27c3e9f2d4b1a2c3d4e60"
                .parse::<AccountId>()
                .unwrap(),
        ),
        subject: "batch-1".into(),
        attempts,
    }
}

/// A recurring system job (of no account).
fn sweep(attempts: u32) -> JobClaim {
    JobClaim {
        account_id: None,
        subject: "test_orders".into(),
        ..job(KIND, attempts)
    }
}

/// A queue that hands `job` to worker w1 once, under a lease from now.
fn queue_of(job: JobClaim) -> MockJobQueue {
    let mut queue = MockJobQueue::new();
    queue
        .expect_claim()
        .with(eq("w1"), eq(now()), eq(now() + LEASE))
        .times(1)
        .returning(move |_, _, _| Ok(Some(job.clone())));
    queue
}

/// Expects the job put back in line once, due at `due`.
fn expect_released(queue: &mut MockJobQueue, due: OffsetDateTime) {
    queue
        .expect_release()
        .withf(move |lease, at| lease.worker == "w1" && *at == due)
        .times(1)
        .returning(|_, _| Ok(()));
}

/// Expects one failed attempt recorded, whose attempts, error and due
/// `retried` accepts.
fn expect_retried(
    queue: &mut MockJobQueue,
    retried: impl Fn(u32, &str, OffsetDateTime) -> bool + Send + 'static,
) {
    queue
        .expect_retry()
        .withf(move |_, attempts, error, due| retried(*attempts, error, *due))
        .times(1)
        .returning(|_, _, _, _| Ok(()));
}

/// Expects the job ended once, as `finished` accepts.
fn expect_finished(
    queue: &mut MockJobQueue,
    finished: impl Fn(&Finished) -> bool + Send + 'static,
) {
    queue
        .expect_finish()
        .withf(move |_, f| finished(f))
        .times(1)
        .returning(|_, _| Ok(()));
}

/// A handler whose one step answers `outcome`.
fn stepping(outcome: impl Fn() -> Result<Step, StoreError> + Send + 'static) -> MockJobHandler {
    let mut handler = MockJobHandler::new();
    handler.expect_step().times(1).returning(move |_| outcome());
    handler
}

fn engine(queue: MockJobQueue, handler: MockJobHandler) -> JobEngine {
    JobEngine::new(Arc::new(queue), clock()).handle(KIND, Arc::new(handler))
}

/// One turn of worker w1.
async fn work(queue: MockJobQueue, handler: MockJobHandler) -> Worked {
    engine(queue, handler).work("w1").await.unwrap()
}

fn failing() -> StoreError {
    StoreError::Unexpected(anyhow::anyhow!(
        "invalid byte sequence for encoding \"UTF8\": 0x00"
    ))
}

#[tokio::test]
async fn nothing_due_is_idle() {
    let mut queue = MockJobQueue::new();
    queue.expect_claim().times(1).returning(|_, _, _| Ok(None));
    let engine = engine(queue, MockJobHandler::new());
    assert_eq!(engine.work("w1").await.unwrap(), Worked::Idle);
}

#[tokio::test]
async fn a_step_that_leaves_work_puts_the_job_back_in_line() {
    let mut queue = queue_of(job(KIND, 0));
    expect_released(&mut queue, now());
    let handler = stepping(|| Ok(Step::More));
    assert_eq!(work(queue, handler).await, Worked::Progress);
}

#[tokio::test]
async fn a_finished_step_ends_the_job_done() {
    let mut queue = queue_of(job(KIND, 2));
    expect_finished(&mut queue, |f| *f == Finished::Done);
    let handler = stepping(|| Ok(Step::Done));
    assert_eq!(work(queue, handler).await, Worked::Progress);
}

#[tokio::test]
async fn a_failed_step_counts_an_attempt_and_backs_off() {
    let mut queue = queue_of(job(KIND, 1));
    expect_retried(&mut queue, |attempts, error, due| {
        attempts == 2 && error.contains("0x00") && due == now() + Duration::seconds(4)
    });
    let mut handler = stepping(|| Err(failing()));
    handler.expect_give_up().never();
    assert_eq!(work(queue, handler).await, Worked::Progress);
}

#[tokio::test]
async fn the_fifth_failure_gives_the_job_up_with_its_reason() {
    let mut queue = queue_of(job(KIND, 4));
    queue.expect_retry().never();
    expect_finished(
        &mut queue,
        |f| matches!(f, Finished::Failed(r) if r.starts_with("5 attempts failed") && r.contains("0x00")),
    );
    let mut handler = stepping(|| Err(failing()));
    handler
        .expect_give_up()
        .withf(|job, reason| job.subject == "batch-1" && reason.starts_with("5 attempts failed"))
        .times(1)
        .returning(|_, _| Ok(()));
    assert_eq!(work(queue, handler).await, Worked::Progress);
}

#[tokio::test]
async fn a_subject_that_cannot_record_its_failure_still_ends_the_job() {
    let mut queue = queue_of(job(KIND, 4));
    expect_finished(&mut queue, |f| matches!(f, Finished::Failed(_)));
    let mut handler = MockJobHandler::new();
    handler.expect_step().returning(|_| Err(failing()));
    handler
        .expect_give_up()
        .times(1)
        .returning(|_, _| Err(failing()));
    assert_eq!(work(queue, handler).await, Worked::Progress);
}

#[tokio::test]
async fn a_job_whose_lease_ran_out_too_often_is_given_up_without_a_step() {
    // taken over five times: each worker stopped mid-step (a crash loop)
    let mut queue = queue_of(job(KIND, 5));
    expect_finished(
        &mut queue,
        |f| matches!(f, Finished::Failed(r) if r.contains("stopped")),
    );
    let mut handler = MockJobHandler::new();
    handler.expect_step().never();
    handler.expect_give_up().times(1).returning(|_, _| Ok(()));
    assert_eq!(work(queue, handler).await, Worked::Progress);
}

#[tokio::test]
async fn a_lost_lease_leaves_the_job_to_its_new_holder() {
    let mut queue = queue_of(job(KIND, 0));
    queue.expect_release().never();
    queue.expect_retry().never();
    queue.expect_finish().never();
    let handler = stepping(|| Err(StoreError::NotFound));
    assert_eq!(work(queue, handler).await, Worked::Progress);
}

#[tokio::test]
async fn a_lease_lost_while_releasing_is_not_an_error() {
    let mut queue = queue_of(job(KIND, 0));
    queue
        .expect_release()
        .times(1)
        .returning(|_, _| Err(StoreError::NotFound));
    let mut handler = MockJobHandler::new();
    handler.expect_step().returning(|_| Ok(Step::More));
    assert_eq!(work(queue, handler).await, Worked::Progress);
}

#[tokio::test]
async fn a_kind_without_handler_counts_an_attempt() {
    let mut queue = queue_of(job("from_a_newer_release", 0));
    expect_retried(&mut queue, |attempts, error, _| {
        attempts == 1 && error.contains("from_a_newer_release")
    });
    let engine = engine(queue, MockJobHandler::new());
    assert_eq!(engine.work("w1").await.unwrap(), Worked::Progress);
}

#[tokio::test]
async fn a_failing_queue_is_the_callers_error() {
    let mut queue = MockJobQueue::new();
    queue.expect_claim().returning(|_, _, _| Err(failing()));
    let engine = engine(queue, MockJobHandler::new());
    assert!(engine.work("w1").await.is_err());
}

#[tokio::test]
async fn a_recurring_step_comes_back_after_its_interval_with_attempts_cleared() {
    let mut queue = queue_of(sweep(0));
    expect_released(&mut queue, now() + Duration::milliseconds(250));
    queue.expect_finish().never();
    queue.expect_retry().never();
    let handler = stepping(|| Ok(Step::Again(std::time::Duration::from_millis(250))));
    assert_eq!(work(queue, handler).await, Worked::Progress);
}

#[tokio::test]
async fn a_failed_sweep_backs_off_like_any_job() {
    let mut queue = queue_of(sweep(0));
    expect_retried(&mut queue, |attempts, _, due| {
        attempts == 1 && due == now() + Duration::seconds(2)
    });
    let handler = stepping(|| Err(failing()));
    assert_eq!(work(queue, handler).await, Worked::Progress);
}

#[tokio::test]
async fn a_system_job_failing_its_last_attempt_is_not_given_up_but_comes_back_later() {
    let mut queue = queue_of(sweep(4));
    queue.expect_finish().never();
    expect_retried(&mut queue, |attempts, error, due| {
        attempts == 0
            && error.starts_with("5 attempts failed")
            && error.contains("0x00")
            && due == now() + Duration::minutes(5)
    });
    let mut handler = stepping(|| Err(failing()));
    handler.expect_give_up().never();
    assert_eq!(work(queue, handler).await, Worked::Progress);
}

#[tokio::test]
async fn a_system_job_whose_lease_ran_out_too_often_comes_back_later() {
    let mut queue = queue_of(sweep(5));
    queue.expect_finish().never();
    expect_retried(&mut queue, |attempts, error, due| {
        attempts == 0 && error.contains("stopped") && due == now() + Duration::minutes(5)
    });
    let mut handler = MockJobHandler::new();
    handler.expect_step().never();
    handler.expect_give_up().never();
    assert_eq!(work(queue, handler).await, Worked::Progress);
}

#[tokio::test]
async fn a_system_job_of_an_unknown_kind_is_never_ended() {
    let mut queue = queue_of(JobClaim {
        kind: "from_a_newer_release".into(),
        ..sweep(4)
    });
    queue.expect_finish().never();
    expect_retried(&mut queue, |attempts, _, _| attempts == 0);
    let engine = engine(queue, MockJobHandler::new());
    assert_eq!(engine.work("w1").await.unwrap(), Worked::Progress);
}
