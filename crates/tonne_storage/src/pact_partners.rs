//! PACT partners (their secrets sealed with the operator's key) and the
//! footprint requests they sent, on either backend. A request is stored
//! with its answering job in one transaction.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::RunQueryDsl;
use time::{OffsetDateTime, PrimitiveDateTime};
use tonne_accounts::pact::partners::{
    ANSWER_JOB, PactPartner, PactPartnerId, PactPartnerRepository, PactRequest, PactRequestId,
    PartnerError, PartnerSecret, PendingAnswer, Received, RequestStatus,
};
use tonne_kernel::{AccountId, JobLease, StoreError};

use crate::db::error::{corrupt, store_error};
use crate::db::{Db, all_rows, first_row};
use crate::mapping::{from_sql_time, parse_id, to_sql_time};
use crate::schema::{pact_partners, pact_requests};
use crate::secrets::SecretsKey;

/// PACT partners and their requests on either backend.
#[derive(Debug, Clone)]
pub struct PactPartnerStore {
    db: Db,
    key: Option<SecretsKey>,
}

impl PactPartnerStore {
    /// A repository over a pool; partners' secrets are sealed with `key`
    /// (`TONNE_SECRETS_KEY`): without one, partners can be neither
    /// registered nor answered.
    pub fn new(db: Db, key: Option<SecretsKey>) -> Self {
        Self { db, key }
    }

    fn key(&self) -> Result<SecretsKey, StoreError> {
        self.key.clone().ok_or_else(|| {
            StoreError::Unexpected(anyhow::anyhow!(
                "TONNE_SECRETS_KEY is not set: PACT partners' secrets cannot be sealed or opened"
            ))
        })
    }
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = pact_partners)]
struct PartnerRow {
    id: String,
    account_id: String,
    url: String,
    token_url: String,
    client_id: String,
    secret: String,
    created_at: PrimitiveDateTime,
    removed_at: Option<PrimitiveDateTime>,
}

impl PartnerRow {
    fn into_domain(self) -> Result<(PactPartner, String), DieselError> {
        Ok((
            PactPartner {
                id: parse_id::<PactPartnerId>("PACT partner id", &self.id)?,
                account_id: parse_id::<AccountId>("account id", &self.account_id)?,
                url: self.url,
                token_url: self.token_url,
                client_id: self.client_id,
                created_at: from_sql_time(self.created_at),
                removed_at: self.removed_at.map(from_sql_time),
            },
            self.secret,
        ))
    }
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = pact_requests)]
struct RequestRow {
    id: String,
    account_id: String,
    partner_id: String,
    event_id: String,
    product_ids: String,
    status: String,
    received_at: PrimitiveDateTime,
    answered_at: Option<PrimitiveDateTime>,
    error: Option<String>,
}

impl RequestRow {
    fn from_domain(r: &PactRequest) -> Self {
        Self {
            id: r.id.to_string(),
            account_id: r.account_id.to_string(),
            partner_id: r.partner_id.to_string(),
            event_id: r.event_id.clone(),
            product_ids: serde_json::to_string(&r.product_ids).unwrap_or_else(|_| "[]".into()),
            status: r.status.as_str().to_owned(),
            received_at: to_sql_time(r.received_at),
            answered_at: r.answered_at.map(to_sql_time),
            error: r.error.clone(),
        }
    }

    fn into_domain(self) -> Result<PactRequest, DieselError> {
        Ok(PactRequest {
            id: parse_id::<PactRequestId>("PACT request id", &self.id)?,
            account_id: parse_id::<AccountId>("account id", &self.account_id)?,
            partner_id: parse_id::<PactPartnerId>("PACT partner id", &self.partner_id)?,
            event_id: self.event_id,
            product_ids: serde_json::from_str(&self.product_ids)
                .map_err(|_| corrupt("product ids", &self.product_ids))?,
            status: RequestStatus::parse(&self.status)
                .ok_or_else(|| corrupt("request status", &self.status))?,
            received_at: from_sql_time(self.received_at),
            answered_at: self.answered_at.map(from_sql_time),
            error: self.error,
        })
    }
}

fn partner_of(row: PartnerRow) -> QueryResult<PactPartner> {
    row.into_domain().map(|(p, _)| p)
}

/// What an insertion found.
enum Inserted {
    Stored,
    TooMany,
    Duplicate,
}

#[async_trait]
impl PactPartnerRepository for PactPartnerStore {
    async fn insert(
        &self,
        partner: &PactPartner,
        secret: &PartnerSecret,
        max: u32,
    ) -> Result<Result<(), PartnerError>, StoreError> {
        let id = partner.id.to_string();
        let row = PartnerRow {
            secret: self.key()?.seal(secret.expose(), &id),
            id,
            account_id: partner.account_id.to_string(),
            url: partner.url.clone(),
            token_url: partner.token_url.clone(),
            client_id: partner.client_id.clone(),
            created_at: to_sql_time(partner.created_at),
            removed_at: None,
        };
        let max = i64::from(max);
        let inserted = self
            .db
            .transaction(move |conn| {
                Box::pin(async move {
                    crate::accounts::lock_row(&mut *conn, &row.account_id).await?;
                    let standing: Vec<String> = on!(&mut *conn, |c| pact_partners::table
                        .filter(pact_partners::account_id.eq(&row.account_id))
                        .filter(pact_partners::removed_at.is_null())
                        .select(pact_partners::url)
                        .load(c)
                        .await)?;
                    if standing.contains(&row.url) {
                        return Ok(Inserted::Duplicate);
                    }
                    if i64::try_from(standing.len()).unwrap_or(i64::MAX) >= max {
                        return Ok(Inserted::TooMany);
                    }
                    on!(&mut *conn, |c| diesel::insert_into(pact_partners::table)
                        .values(&row)
                        .execute(c)
                        .await)?;
                    Ok(Inserted::Stored)
                })
            })
            .await
            .map_err(|e| store_error(e, "inserting a PACT partner"))?;
        Ok(match inserted {
            Inserted::Stored => Ok(()),
            Inserted::TooMany => Err(PartnerError::TooMany),
            Inserted::Duplicate => Err(PartnerError::Duplicate),
        })
    }

    async fn get(&self, id: PactPartnerId) -> Result<Option<PactPartner>, StoreError> {
        let id = id.to_string();
        let rows = load!(self.db, (id) => pact_partners::table
            .filter(pact_partners::id.eq(id))
            .select(PartnerRow::as_select())
            .limit(1))
        .await;
        first_row(rows, partner_of).map_err(|e| store_error(e, "reading a PACT partner"))
    }

    async fn list(&self, account: AccountId) -> Result<Vec<PactPartner>, StoreError> {
        let account = account.to_string();
        let rows = load!(self.db, (account) => pact_partners::table
            .filter(pact_partners::account_id.eq(account))
            .filter(pact_partners::removed_at.is_null())
            .order((pact_partners::created_at.asc(), pact_partners::id.asc()))
            .select(PartnerRow::as_select()))
        .await;
        all_rows(rows, partner_of).map_err(|e| store_error(e, "listing PACT partners"))
    }

    async fn remove(
        &self,
        id: PactPartnerId,
        at: OffsetDateTime,
    ) -> Result<Option<PactPartner>, StoreError> {
        let id = id.to_string();
        let at = to_sql_time(at);
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    stamp_once!(&mut *conn, pact_partners, removed_at, &id, at)?;
                    let rows: Vec<PartnerRow> = on!(&mut *conn, |c| pact_partners::table
                        .find(&id)
                        .select(PartnerRow::as_select())
                        .load(c)
                        .await)?;
                    rows.into_iter().next().map(partner_of).transpose()
                })
            })
            .await
            .map_err(|e| store_error(e, "removing a PACT partner"))
    }

    async fn find(&self, account: AccountId, url: &str) -> Result<Option<PactPartner>, StoreError> {
        let account = account.to_string();
        let url = url.to_owned();
        let rows = load!(self.db, (account, url) => pact_partners::table
            .filter(pact_partners::account_id.eq(account))
            .filter(pact_partners::url.eq(url))
            .filter(pact_partners::removed_at.is_null())
            .select(PartnerRow::as_select())
            .limit(1))
        .await;
        first_row(rows, partner_of).map_err(|e| store_error(e, "finding a PACT partner"))
    }

    async fn record(
        &self,
        request: &PactRequest,
        max_waiting: u32,
    ) -> Result<Received, StoreError> {
        let row = RequestRow::from_domain(request);
        let id = request.id;
        let account = request.account_id;
        let at = request.received_at;
        let max = i64::from(max_waiting);
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    crate::accounts::lock_row(&mut *conn, &row.account_id).await?;
                    let seen: i64 = on!(&mut *conn, |c| pact_requests::table
                        .filter(pact_requests::partner_id.eq(&row.partner_id))
                        .filter(pact_requests::event_id.eq(&row.event_id))
                        .count()
                        .get_result(c)
                        .await)?;
                    if seen > 0 {
                        return Ok(Received::Repeated);
                    }
                    let waiting: i64 = on!(&mut *conn, |c| pact_requests::table
                        .filter(pact_requests::account_id.eq(&row.account_id))
                        .filter(pact_requests::status.eq(RequestStatus::Waiting.as_str()))
                        .count()
                        .get_result(c)
                        .await)?;
                    if waiting >= max {
                        return Ok(Received::TooMany);
                    }
                    on!(&mut *conn, |c| diesel::insert_into(pact_requests::table)
                        .values(&row)
                        .execute(c)
                        .await)?;
                    crate::jobs::enqueue(conn, ANSWER_JOB, account, &row.id, at).await?;
                    Ok(Received::Queued(id))
                })
            })
            .await
            .map_err(|e| store_error(e, "recording a PACT request"))
    }

    async fn pending(&self, id: PactRequestId) -> Result<Option<PendingAnswer>, StoreError> {
        let id = id.to_string();
        let rows = load!(self.db, (id) => pact_requests::table
            .inner_join(pact_partners::table)
            .filter(pact_requests::id.eq(id))
            .select((RequestRow::as_select(), PartnerRow::as_select()))
            .limit(1))
        .await;
        let found = first_row(rows, |(request, partner): (RequestRow, PartnerRow)| {
            Ok((request.into_domain()?, partner.into_domain()?))
        })
        .map_err(|e| store_error(e, "reading a PACT request"))?;
        let Some((request, (partner, sealed))) = found else {
            return Ok(None);
        };
        let secret = self
            .key()?
            .open(&sealed, &partner.id.to_string())
            .ok()
            .and_then(PartnerSecret::new)
            .ok_or_else(|| {
                StoreError::Unexpected(anyhow::anyhow!(
                    "a PACT partner's secret does not open with this TONNE_SECRETS_KEY"
                ))
            })?;
        Ok(Some(PendingAnswer {
            request,
            partner,
            secret,
        }))
    }

    async fn answered(
        &self,
        lease: &JobLease,
        id: PactRequestId,
        status: RequestStatus,
        at: OffsetDateTime,
        error: Option<String>,
    ) -> Result<(), StoreError> {
        let lease = lease.clone();
        let id = id.to_string();
        let at = to_sql_time(at);
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    crate::jobs::hold(&mut *conn, &lease, None).await?;
                    on!(&mut *conn, |c| diesel::update(
                        pact_requests::table
                            .find(&id)
                            .filter(pact_requests::status.eq(RequestStatus::Waiting.as_str())),
                    )
                    .set((
                        pact_requests::status.eq(status.as_str()),
                        pact_requests::answered_at.eq(Some(at)),
                        pact_requests::error.eq(error.as_deref()),
                    ))
                    .execute(c)
                    .await)
                    .map(drop)
                })
            })
            .await
            .map_err(|e| store_error(e, "marking a PACT request answered"))
    }

    async fn requests(
        &self,
        account: AccountId,
        limit: u32,
    ) -> Result<Vec<PactRequest>, StoreError> {
        let account = account.to_string();
        let limit = i64::from(limit);
        let rows = load!(self.db, (account) => pact_requests::table
            .filter(pact_requests::account_id.eq(account))
            .order((pact_requests::received_at.desc(), pact_requests::id.desc()))
            .select(RequestRow::as_select())
            .limit(limit))
        .await;
        all_rows(rows, RequestRow::into_domain).map_err(|e| store_error(e, "listing PACT requests"))
    }
}
