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

fn claims(queue: &mut MockJobQueue, job: JobClaim) {
    queue
        .expect_claim()
        .with(eq("w1"), eq(now()), eq(now() + LEASE))
        .times(1)
        .returning(move |_, _, _| Ok(Some(job.clone())));
}

fn engine(queue: MockJobQueue, handler: MockJobHandler) -> JobEngine {
    JobEngine::new(Arc::new(queue), clock()).handle(KIND, Arc::new(handler))
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
    let mut queue = MockJobQueue::new();
    claims(&mut queue, job(KIND, 0));
    queue
        .expect_release()
        .withf(|lease, due| lease.worker == "w1" && *due == now())
        .times(1)
        .returning(|_, _| Ok(()));
    let mut handler = MockJobHandler::new();
    handler.expect_step().times(1).returning(|_| Ok(Step::More));
    assert_eq!(
        engine(queue, handler).work("w1").await.unwrap(),
        Worked::Progress
    );
}

#[tokio::test]
async fn a_finished_step_ends_the_job_done() {
    let mut queue = MockJobQueue::new();
    claims(&mut queue, job(KIND, 2));
    queue
        .expect_finish()
        .withf(|_, f| *f == Finished::Done)
        .times(1)
        .returning(|_, _| Ok(()));
    let mut handler = MockJobHandler::new();
    handler.expect_step().times(1).returning(|_| Ok(Step::Done));
    assert_eq!(
        engine(queue, handler).work("w1").await.unwrap(),
        Worked::Progress
    );
}

#[tokio::test]
async fn a_failed_step_counts_an_attempt_and_backs_off() {
    let mut queue = MockJobQueue::new();
    claims(&mut queue, job(KIND, 1));
    queue
        .expect_retry()
        .withf(|_, attempts, error, due| {
            *attempts == 2 && error.contains("0x00") && *due == now() + Duration::seconds(4)
        })
        .times(1)
        .returning(|_, _, _, _| Ok(()));
    let mut handler = MockJobHandler::new();
    handler.expect_step().times(1).returning(|_| Err(failing()));
    handler.expect_give_up().never();
    assert_eq!(
        engine(queue, handler).work("w1").await.unwrap(),
        Worked::Progress
    );
}

#[tokio::test]
async fn the_fifth_failure_gives_the_job_up_with_its_reason() {
    let mut queue = MockJobQueue::new();
    claims(&mut queue, job(KIND, 4));
    queue.expect_retry().never();
    queue
        .expect_finish()
        .withf(|_, f| {
            matches!(f, Finished::Failed(r) if r.starts_with("5 attempts failed") && r.contains("0x00"))
        })
        .times(1)
        .returning(|_, _| Ok(()));
    let mut handler = MockJobHandler::new();
    handler.expect_step().times(1).returning(|_| Err(failing()));
    handler
        .expect_give_up()
        .withf(|job, reason| job.subject == "batch-1" && reason.starts_with("5 attempts failed"))
        .times(1)
        .returning(|_, _| Ok(()));
    assert_eq!(
        engine(queue, handler).work("w1").await.unwrap(),
        Worked::Progress
    );
}

#[tokio::test]
async fn a_subject_that_cannot_record_its_failure_still_ends_the_job() {
    let mut queue = MockJobQueue::new();
    claims(&mut queue, job(KIND, 4));
    queue
        .expect_finish()
        .withf(|_, f| matches!(f, Finished::Failed(_)))
        .times(1)
        .returning(|_, _| Ok(()));
    let mut handler = MockJobHandler::new();
    handler.expect_step().returning(|_| Err(failing()));
    handler
        .expect_give_up()
        .times(1)
        .returning(|_, _| Err(failing()));
    assert_eq!(
        engine(queue, handler).work("w1").await.unwrap(),
        Worked::Progress
    );
}

#[tokio::test]
async fn a_job_whose_lease_ran_out_too_often_is_given_up_without_a_step() {
    // taken over five times: each worker stopped mid-step (a crash loop)
    let mut queue = MockJobQueue::new();
    claims(&mut queue, job(KIND, 5));
    queue
        .expect_finish()
        .withf(|_, f| matches!(f, Finished::Failed(r) if r.contains("stopped")))
        .times(1)
        .returning(|_, _| Ok(()));
    let mut handler = MockJobHandler::new();
    handler.expect_step().never();
    handler.expect_give_up().times(1).returning(|_, _| Ok(()));
    assert_eq!(
        engine(queue, handler).work("w1").await.unwrap(),
        Worked::Progress
    );
}

#[tokio::test]
async fn a_lost_lease_leaves_the_job_to_its_new_holder() {
    let mut queue = MockJobQueue::new();
    claims(&mut queue, job(KIND, 0));
    queue.expect_release().never();
    queue.expect_retry().never();
    queue.expect_finish().never();
    let mut handler = MockJobHandler::new();
    handler
        .expect_step()
        .times(1)
        .returning(|_| Err(StoreError::NotFound));
    assert_eq!(
        engine(queue, handler).work("w1").await.unwrap(),
        Worked::Progress
    );
}

#[tokio::test]
async fn a_lease_lost_while_releasing_is_not_an_error() {
    let mut queue = MockJobQueue::new();
    claims(&mut queue, job(KIND, 0));
    queue
        .expect_release()
        .times(1)
        .returning(|_, _| Err(StoreError::NotFound));
    let mut handler = MockJobHandler::new();
    handler.expect_step().returning(|_| Ok(Step::More));
    assert_eq!(
        engine(queue, handler).work("w1").await.unwrap(),
        Worked::Progress
    );
}

#[tokio::test]
async fn a_kind_without_handler_counts_an_attempt() {
    let mut queue = MockJobQueue::new();
    claims(&mut queue, job("from_a_newer_release", 0));
    queue
        .expect_retry()
        .withf(|_, attempts, error, _| *attempts == 1 && error.contains("from_a_newer_release"))
        .times(1)
        .returning(|_, _, _, _| Ok(()));
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
    let mut queue = MockJobQueue::new();
    claims(&mut queue, sweep(0));
    queue
        .expect_release()
        .withf(|lease, due| lease.worker == "w1" && *due == now() + Duration::milliseconds(250))
        .times(1)
        .returning(|_, _| Ok(()));
    queue.expect_finish().never();
    queue.expect_retry().never();
    let mut handler = MockJobHandler::new();
    handler
        .expect_step()
        .times(1)
        .returning(|_| Ok(Step::Again(std::time::Duration::from_millis(250))));
    assert_eq!(
        engine(queue, handler).work("w1").await.unwrap(),
        Worked::Progress
    );
}

#[tokio::test]
async fn a_failed_sweep_backs_off_like_any_job() {
    let mut queue = MockJobQueue::new();
    claims(&mut queue, sweep(0));
    queue
        .expect_retry()
        .withf(|_, attempts, _, due| *attempts == 1 && *due == now() + Duration::seconds(2))
        .times(1)
        .returning(|_, _, _, _| Ok(()));
    let mut handler = MockJobHandler::new();
    handler.expect_step().times(1).returning(|_| Err(failing()));
    assert_eq!(
        engine(queue, handler).work("w1").await.unwrap(),
        Worked::Progress
    );
}

#[tokio::test]
async fn a_system_job_failing_its_last_attempt_is_not_given_up_but_comes_back_later() {
    let mut queue = MockJobQueue::new();
    claims(&mut queue, sweep(4));
    queue.expect_finish().never();
    queue
        .expect_retry()
        .withf(|_, attempts, error, due| {
            *attempts == 0
                && error.starts_with("5 attempts failed")
                && error.contains("0x00")
                && *due == now() + Duration::minutes(5)
        })
        .times(1)
        .returning(|_, _, _, _| Ok(()));
    let mut handler = MockJobHandler::new();
    handler.expect_step().times(1).returning(|_| Err(failing()));
    handler.expect_give_up().never();
    assert_eq!(
        engine(queue, handler).work("w1").await.unwrap(),
        Worked::Progress
    );
}

#[tokio::test]
async fn a_system_job_whose_lease_ran_out_too_often_comes_back_later() {
    let mut queue = MockJobQueue::new();
    claims(&mut queue, sweep(5));
    queue.expect_finish().never();
    queue
        .expect_retry()
        .withf(|_, attempts, error, due| {
            *attempts == 0 && error.contains("stopped") && *due == now() + Duration::minutes(5)
        })
        .times(1)
        .returning(|_, _, _, _| Ok(()));
    let mut handler = MockJobHandler::new();
    handler.expect_step().never();
    handler.expect_give_up().never();
    assert_eq!(
        engine(queue, handler).work("w1").await.unwrap(),
        Worked::Progress
    );
}

#[tokio::test]
async fn a_system_job_of_an_unknown_kind_is_never_ended() {
    let mut queue = MockJobQueue::new();
    claims(
        &mut queue,
        JobClaim {
            kind: "from_a_newer_release".into(),
            ..sweep(4)
        },
    );
    queue.expect_finish().never();
    queue
        .expect_retry()
        .withf(|_, attempts, _, _| *attempts == 0)
        .times(1)
        .returning(|_, _, _, _| Ok(()));
    let engine = engine(queue, MockJobHandler::new());
    assert_eq!(engine.work("w1").await.unwrap(), Worked::Progress);
}
