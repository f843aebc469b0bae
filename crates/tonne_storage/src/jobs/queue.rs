//! [`JobStore`]'s `JobQueue`: claim, release, retry and finish.

use async_trait::async_trait;
use diesel::QueryResult;
use diesel::result::Error as DieselError;
use diesel::sql_types::{BigInt, Nullable, Text};
use time::OffsetDateTime;
use tonne_jobs::{Finished, JobQueue};
use tonne_kernel::{AccountId, JobClaim, JobId, JobLease, StoreError};

use super::JobStore;
use super::status::{FAILED, READY, RUNNING};
use crate::db::Conn;
use crate::db::error::failed;
use crate::db::statement::{Bind, Sql};
use crate::mapping::{parse_id, to_sql_time};

#[derive(diesel::QueryableByName)]
struct Claimed {
    #[diesel(sql_type = Text)]
    id: String,
    #[diesel(sql_type = Text)]
    kind: String,
    #[diesel(sql_type = Nullable<Text>)]
    account_id: Option<String>,
    #[diesel(sql_type = Text)]
    subject: String,
    #[diesel(sql_type = BigInt)]
    attempts: i64,
}

/// A due job's place in line: when its account was last served (`NULL`,
/// never: first), or, for a system job (no account), when it fell due. So a
/// system job goes after the accounts served before it fell due and before
/// those served since: it waits for at most one step of each account with
/// work, and, due again only an interval after its step, it cannot hold
/// the accounts up either.
const TURN: &str = "CASE WHEN j.account_id IS NULL THEN j.due_at ELSE t.served_at END";

async fn claim(
    conn: &mut Conn,
    worker: &str,
    now: OffsetDateTime,
    until: OffsetDateTime,
) -> QueryResult<Option<JobClaim>> {
    let lock = match conn {
        Conn::Pg(_) => " FOR UPDATE OF j SKIP LOCKED",
        Conn::Sqlite(_) => "",
    };
    let at = to_sql_time(now);
    let mut sql = Sql::new(&format!(
        "UPDATE jobs SET status = '{RUNNING}', lease_owner = "
    ));
    sql.text(worker)
        .push(", lease_until = ")
        .bind(Bind::Time(to_sql_time(until)))
        .push(", updated_at = ")
        .bind(Bind::Time(at))
        .push(&format!(
            ", attempts = attempts + CASE WHEN status = '{RUNNING}' THEN 1 ELSE 0 END \
             WHERE id = (SELECT j.id FROM jobs j \
             LEFT JOIN job_turns t ON t.account_id = j.account_id \
             WHERE (j.status = '{READY}' AND j.due_at <= "
        ))
        .bind(Bind::Time(at))
        .push(&format!(
            ") OR (j.status = '{RUNNING}' AND j.lease_until < "
        ))
        .bind(Bind::Time(at))
        .push(&format!(
            ") ORDER BY ({TURN} IS NOT NULL), {TURN}, j.due_at, j.id \
             LIMIT 1{lock}) RETURNING id, kind, account_id, subject, attempts"
        ));
    let Some(row) = sql.load::<Claimed>(conn).await?.into_iter().next() else {
        return Ok(None);
    };
    let account_id = match &row.account_id {
        Some(id) => {
            let mut turn = Sql::new("INSERT INTO job_turns (account_id, served_at) VALUES (");
            turn.text(id.clone())
                .push(", ")
                .bind(Bind::Time(at))
                .push(") ON CONFLICT (account_id) DO UPDATE SET served_at = excluded.served_at");
            turn.execute(conn).await?;
            Some(parse_id::<AccountId>("account id", id)?)
        }
        // a system job has no turn of its own: its due time is its turn
        None => None,
    };
    Ok(Some(JobClaim {
        lease: JobLease {
            job: parse_id::<JobId>("job id", &row.id)?,
            worker: worker.to_owned(),
        },
        kind: row.kind,
        account_id,
        subject: row.subject,
        attempts: u32::try_from(row.attempts).unwrap_or(u32::MAX),
    }))
}

/// `UPDATE jobs SET {set} … WHERE` the lease holds; `NotFound` otherwise.
pub(super) async fn held_update(
    conn: &mut Conn,
    mut sql: Sql,
    lease: &JobLease,
) -> QueryResult<()> {
    sql.push(" WHERE id = ")
        .text(lease.job.to_string())
        .push(" AND lease_owner = ")
        .text(lease.worker.clone())
        .push(&format!(" AND status = '{RUNNING}'"));
    match sql.execute(conn).await? {
        1 => Ok(()),
        _ => Err(DieselError::NotFound),
    }
}

fn back_in_line(due: OffsetDateTime, attempts: u32, error: Option<&str>) -> Sql {
    let mut sql = Sql::new(&format!(
        "UPDATE jobs SET status = '{READY}', lease_owner = NULL, lease_until = NULL, due_at = "
    ));
    let due = to_sql_time(due);
    sql.bind(Bind::Time(due))
        .push(", updated_at = ")
        .bind(Bind::Time(due))
        .push(", attempts = ")
        .bind(Bind::Int(i64::from(attempts)))
        .push(", last_error = ")
        .bind(Bind::OptText(error.map(str::to_owned)));
    sql
}

#[async_trait]
impl JobQueue for JobStore {
    async fn claim(
        &self,
        worker: &str,
        now: OffsetDateTime,
        until: OffsetDateTime,
    ) -> Result<Option<JobClaim>, StoreError> {
        let worker = worker.to_owned();
        self.db
            .transaction(move |conn| {
                Box::pin(async move { claim(conn, &worker, now, until).await })
            })
            .await
            .map_err(failed("claiming a job"))
    }

    async fn release(&self, lease: &JobLease, due: OffsetDateTime) -> Result<(), StoreError> {
        let lease = lease.clone();
        self.db
            .transaction(move |conn| {
                Box::pin(async move { held_update(conn, back_in_line(due, 0, None), &lease).await })
            })
            .await
            .map_err(failed("releasing a job"))
    }

    async fn retry(
        &self,
        lease: &JobLease,
        attempts: u32,
        error: &str,
        due: OffsetDateTime,
    ) -> Result<(), StoreError> {
        let (lease, error) = (lease.clone(), error.to_owned());
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    held_update(conn, back_in_line(due, attempts, Some(&error)), &lease).await
                })
            })
            .await
            .map_err(failed("retrying a job"))
    }

    async fn finish(&self, lease: &JobLease, finished: Finished) -> Result<(), StoreError> {
        let lease = lease.clone();
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    let sql = match finished {
                        // the subject keeps the outcome: a done job is no longer needed
                        Finished::Done => Sql::new("DELETE FROM jobs"),
                        Finished::Failed(reason) => {
                            let mut sql = Sql::new(&format!(
                                "UPDATE jobs SET status = '{FAILED}', lease_owner = NULL, \
                                 lease_until = NULL, last_error = "
                            ));
                            sql.text(reason);
                            sql
                        }
                    };
                    held_update(conn, sql, &lease).await
                })
            })
            .await
            .map_err(failed("ending a job"))
    }
}
