//! `JobStore`: the job engine's queue (`tonne_jobs::JobQueue`) on either
//! backend, and what other stores need of it inside their own
//! transactions: [`enqueue`] a job with the write that needs it, and
//! [`hold`] its lease around a step's writes.
//!
//! A claim is one statement: the due job of the account served least
//! recently (`job_turns`), its oldest first; on PostgreSQL the subquery
//! locks the job `FOR UPDATE OF j SKIP LOCKED`, so processes claiming at
//! once take different jobs; SQLite has one writer. The account's turn is
//! recorded in the same transaction. A job whose lease ran out is claimed
//! with one more attempt counted.
//!
//! A system job (`account_id` NULL: a recurring sweep) takes its turn by
//! its due time among the accounts' last turns, and records none. The
//! server makes sure each exists at start ([`JobStore::ensure_system_job`]).

mod queue;
mod status;

use diesel::QueryResult;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, JobId, JobLease, StoreError};

use crate::db::error::store_error;
use crate::db::statement::{Bind, Sql};
use crate::db::{Conn, Db};
use crate::mapping::to_sql_time;
use status::{FAILED, READY};

/// The job engine's queue over a pool.
#[derive(Debug, Clone)]
pub struct JobStore {
    db: Db,
}

impl JobStore {
    /// A queue over a pool.
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// Makes sure the system job of `kind` on `subject` exists, due at
    /// `now` if it is new: one statement, `ON CONFLICT (kind, subject)`, so
    /// processes starting at once make one row. One found ended `failed` (by
    /// a process of an earlier release, which gave up kinds it did not know)
    /// is put back in line; one ready or running is left as it is. Whether a
    /// row was written.
    pub async fn ensure_system_job(
        &self,
        kind: &str,
        subject: &str,
        now: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        let (kind, subject) = (kind.to_owned(), subject.to_owned());
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    let id = JobId::from_uuid(uuid::Uuid::now_v7());
                    let mut sql = insert_ready(id, &kind, None, &subject, now);
                    sql.push(&format!(
                        ") ON CONFLICT (kind, subject) DO UPDATE SET status = '{READY}', \
                             attempts = 0, lease_owner = NULL, lease_until = NULL, \
                             due_at = excluded.due_at, updated_at = excluded.updated_at \
                             WHERE jobs.status = '{FAILED}'"
                    ));
                    sql.execute(conn).await.map(|written| written > 0)
                })
            })
            .await
            .map_err(|e| store_error(e, "ensuring a system job"))
    }
}

/// Queues a job of `kind` on `subject` for `account`, due at `now`, in the
/// caller's transaction.
pub(crate) async fn enqueue(
    conn: &mut Conn,
    kind: &str,
    account: AccountId,
    subject: &str,
    now: OffsetDateTime,
) -> QueryResult<()> {
    let id = JobId::from_uuid(uuid::Uuid::now_v7());
    let mut sql = insert_ready(id, kind, Some(account), subject, now);
    sql.push(")");
    sql.execute(conn).await.map(drop)
}

/// The start of an insert of job `id`, ready: of `kind` on `subject`, of
/// `account` (none: a system job), due, created and updated at `now`; the
/// caller ends it (`)`, and what a conflict does).
fn insert_ready(
    id: JobId,
    kind: &str,
    account: Option<AccountId>,
    subject: &str,
    now: OffsetDateTime,
) -> Sql {
    let at = to_sql_time(now);
    let mut sql = Sql::new(
        "INSERT INTO jobs (id, kind, account_id, subject, status, attempts, due_at, \
         created_at, updated_at) VALUES (",
    );
    sql.text(id.to_string()).push(", ").text(kind.to_owned());
    match account {
        Some(account) => sql.push(", ").text(account.to_string()).push(", "),
        None => sql.push(", NULL, "),
    };
    sql.text(subject.to_owned())
        .push(&format!(", '{READY}', 0, "))
        .bind(Bind::Time(at))
        .push(", ")
        .bind(Bind::Time(at))
        .push(", ")
        .bind(Bind::Time(at));
    sql
}

/// Checks, in the caller's transaction, that `lease` still holds its job
/// (extending it to `until` when given), locking the job's row until the
/// transaction ends (so a takeover waits for the step's writes); `NotFound`
/// when it no longer does: the caller's transaction rolls back.
pub(crate) async fn hold(
    conn: &mut Conn,
    lease: &JobLease,
    until: Option<OffsetDateTime>,
) -> QueryResult<()> {
    let mut sql = Sql::new("UPDATE jobs SET ");
    match until {
        Some(until) => sql
            .push("lease_until = ")
            .bind(Bind::Time(to_sql_time(until))),
        None => sql.push("lease_owner = lease_owner"),
    };
    queue::held_update(conn, sql, lease).await
}
