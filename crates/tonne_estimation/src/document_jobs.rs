//! Asynchronous transaction documents (`POST
//! /v1/estimates/transaction-documents/async`): each request is checked at
//! once (the engine runs; a refusal is the caller's 400 and nothing is
//! written), then stored as a durable job with the id its estimate will
//! have, with a job of the job engine ([`DOCUMENT_JOB`]); a worker of any
//! server process claims it under a lease (fairly across accounts),
//! computes it again and stores the estimate and the job's end in one
//! transaction, only while it still holds the lease. A process killed
//! mid-job leaves the job to be taken over when the lease runs out; the
//! estimate is stored once.

use std::sync::Arc;

use async_trait::async_trait;
use tonne_kernel::{AccountId, Clock, EstimateId, IdGenerator, JobClaim, Step, StoreError};

use crate::estimate::{Estimate, NewEstimate};
use crate::ports::{Engine, EstimationError};

#[cfg(any(test, feature = "mock"))]
pub use crate::document_job::MockDocumentJobRepository;
pub use crate::document_job::{
    DOCUMENT_JOB, DocumentJobClaim, DocumentJobId, DocumentJobRepository, NewDocumentJob,
};

/// Reads a stored request again (the adapter that accepted it).
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
pub trait DocumentDecoder: Send + Sync {
    /// The request as the domain's, or why it no longer reads.
    fn decode(&self, body: &str, tolerance: &str) -> Result<NewEstimate, String>;
}

/// The async use cases.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait DocumentJobsService: Send + Sync {
    /// Checks a request (the engine runs) and queues it; the id its estimate
    /// will have. `Invalid`: refused, nothing written.
    async fn submit(
        &self,
        account: AccountId,
        new: NewEstimate,
        body: String,
        tolerance: String,
        correlation_id: Option<String>,
    ) -> Result<EstimateId, EstimationError>;

    /// Does a [`DOCUMENT_JOB`] the job engine claimed: computes the
    /// estimate and stores it (or the job's failure), only while the lease
    /// holds (`NotFound` otherwise).
    async fn step(&self, job: &JobClaim) -> Result<Step, StoreError>;

    /// The job engine gave the job up: it ends failed.
    async fn give_up(&self, job: &JobClaim, reason: &str) -> Result<(), StoreError>;
}

/// [`DocumentJobsService`] over its ports.
#[derive(Clone)]
pub struct DocumentJobs {
    repo: Arc<dyn DocumentJobRepository>,
    engine: Arc<dyn Engine>,
    decoder: Arc<dyn DocumentDecoder>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
    /// The bound per account on queued jobs (none: unbounded).
    quotas: Option<crate::document_quotas::DocumentBounds>,
}

impl DocumentJobs {
    /// The use cases over their ports.
    pub fn new(
        repo: Arc<dyn DocumentJobRepository>,
        engine: Arc<dyn Engine>,
        decoder: Arc<dyn DocumentDecoder>,
        clock: Arc<dyn Clock>,
        ids: Arc<dyn IdGenerator>,
    ) -> Self {
        Self {
            repo,
            engine,
            decoder,
            clock,
            ids,
            quotas: None,
        }
    }

    /// The same use cases with each account's queued jobs bounded (the
    /// organisation's limit, else `defaults`'s).
    pub fn with_quotas(
        mut self,
        quotas: Arc<dyn crate::document_quotas::DocumentQuotas>,
        defaults: tonne_kernel::Limits,
    ) -> Self {
        self.quotas = Some((quotas, defaults));
        self
    }
}

impl DocumentJobs {
    /// The estimate of a claimed job, or why it cannot be made.
    fn estimate(&self, claim: &DocumentJobClaim) -> Result<Estimate, String> {
        let new = self.decoder.decode(&claim.body, &claim.tolerance)?;
        let computed = self
            .engine
            .compute(&new.request)
            .map_err(|e| e.to_string())?;
        let now = self.clock.now();
        let mut annotations = new.annotations;
        if annotations.occurred_at.is_none() {
            annotations.occurred_at = Some(now);
        }
        Ok(Estimate {
            id: claim.estimate_id,
            account_id: claim.account_id,
            kind: new.request.kind(),
            mass: Some(computed.mass.ok_or("money movement: nothing to estimate")?),
            detail: computed.detail,
            explanation: computed.explanation,
            quote: new.quote,
            submitted: new.submitted,
            annotations,
            order_id: None,
            created_at: now,
            updated_at: now,
        })
    }
}

#[async_trait]
impl DocumentJobsService for DocumentJobs {
    async fn submit(
        &self,
        account: AccountId,
        new: NewEstimate,
        body: String,
        tolerance: String,
        correlation_id: Option<String>,
    ) -> Result<EstimateId, EstimationError> {
        let computed = self.engine.compute(&new.request)?;
        if computed.mass.is_none() {
            return Err(EstimationError::Invalid(crate::EstimateError::Invalid {
                field: "merchant.category_code".into(),
                reason: "is money movement: nothing to estimate".into(),
            }));
        }
        let job = NewDocumentJob {
            id: DocumentJobId::generate(self.ids.as_ref()),
            account_id: account,
            estimate_id: EstimateId::generate(self.ids.as_ref()),
            body,
            tolerance,
            correlation_id,
            created_at: self.clock.now(),
        };
        crate::document_quotas::enqueue(self.repo.as_ref(), self.quotas.as_ref(), &job).await?;
        Ok(job.estimate_id)
    }

    async fn step(&self, job: &JobClaim) -> Result<Step, StoreError> {
        let Some(claim) = self.repo.open(&job.lease, job.parsed_subject()?).await? else {
            return Ok(Step::Done);
        };
        let outcome = match self.estimate(&claim) {
            Ok(estimate) => match self
                .repo
                .complete(&claim, &estimate, self.clock.now())
                .await
            {
                Ok(()) => return Ok(Step::Done),
                Err(StoreError::Duplicate) => {
                    "idempotency_key: an estimate with this key exists".to_owned()
                }
                // `NotFound`: another worker took the job over
                Err(e) => return Err(e),
            },
            Err(reason) => reason,
        };
        self.repo.fail(&claim, &outcome, self.clock.now()).await?;
        Ok(Step::Done)
    }

    async fn give_up(&self, job: &JobClaim, _reason: &str) -> Result<(), StoreError> {
        let Some(claim) = self.repo.open(&job.lease, job.parsed_subject()?).await? else {
            return Ok(());
        };
        let reason = "processing stopped after repeated failures";
        self.repo.fail(&claim, reason, self.clock.now()).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimate::{EstimateRequest, Submitted};
    use crate::transaction_document::{DEFAULT_TOLERANCE, DocumentRequest, MerchantHint, Node};
    use mockall::predicate::always;
    use tonne_kernel::JobLease;
    use tonne_kernel::{SystemClock, UuidV7Generator};

    fn document() -> NewEstimate {
        NewEstimate {
            request: EstimateRequest::TransactionDocument(Box::new(DocumentRequest {
                key_value: Node::Map(vec![]),
                value: Some(rust_decimal::Decimal::from(100)),
                currency: Some(tonne_kernel::Currency::Usd),
                merchant: MerchantHint {
                    country_code: Some("USA".into()),
                    category_code: Some("5812".into()),
                    ..MerchantHint::default()
                },
                diet: None,
                processed_year: Some(2019),
                tolerance: DEFAULT_TOLERANCE,
            })),
            quote: Default::default(),
            submitted: Submitted::new("{}"),
            annotations: Default::default(),
        }
    }

    fn jobs(repo: MockDocumentJobRepository, decoder: MockDocumentDecoder) -> DocumentJobs {
        DocumentJobs::new(
            Arc::new(repo),
            Arc::new(crate::service::Engines),
            Arc::new(decoder),
            Arc::new(SystemClock),
            Arc::new(UuidV7Generator),
        )
    }

    fn account() -> AccountId {
        AccountId::from_uuid(uuid::Uuid::from_u128(7))
    }

    #[tokio::test]
    async fn a_refused_request_is_never_queued() {
        let mut repo = MockDocumentJobRepository::new();
        repo.expect_enqueue().never();
        let mut bad = document();
        if let EstimateRequest::TransactionDocument(d) = &mut bad.request {
            d.value = None;
        }
        let err = jobs(repo, MockDocumentDecoder::new())
            .submit(account(), bad, "{}".into(), "0.1".into(), None)
            .await;
        assert!(matches!(err, Err(EstimationError::Invalid(_))));
    }

    #[tokio::test]
    async fn a_claimed_job_stores_its_estimate_under_the_promised_id() {
        let mut repo = MockDocumentJobRepository::new();
        let promised = std::sync::Arc::new(std::sync::Mutex::new(None));
        let seen = Arc::clone(&promised);
        repo.expect_enqueue().times(1).returning(move |job| {
            *seen.lock().unwrap() = Some(job.clone());
            Ok(())
        });
        let service = jobs(repo, MockDocumentDecoder::new());
        let id = service
            .submit(
                account(),
                document(),
                "{}".into(),
                "0.1".into(),
                Some("c-1".into()),
            )
            .await
            .unwrap();
        let job = promised.lock().unwrap().clone().unwrap();
        assert_eq!(
            (job.estimate_id, job.correlation_id.as_deref()),
            (id, Some("c-1"))
        );

        let mut repo = MockDocumentJobRepository::new();
        let claim = DocumentJobClaim {
            id: job.id,
            account_id: account(),
            estimate_id: id,
            body: "{}".into(),
            tolerance: "0.1".into(),
            lease: lease(),
        };
        let held = claim.clone();
        repo.expect_open()
            .withf(move |l, d| *l == lease() && *d == claim.id)
            .times(1)
            .return_once(move |_, _| Ok(Some(held)));
        repo.expect_complete()
            .withf(move |c, e, _| {
                c.id == claim.id && e.id == id && e.mass.unwrap().grams() == 3_869
            })
            .times(1)
            .returning(|_, _, _| Ok(()));
        repo.expect_fail().never();
        let mut decoder = MockDocumentDecoder::new();
        decoder
            .expect_decode()
            .with(always(), always())
            .returning(|_, _| Ok(document()));
        assert_eq!(
            jobs(repo, decoder).step(&job_of(job.id)).await.unwrap(),
            Step::Done
        );
    }

    #[tokio::test]
    async fn a_job_that_no_longer_reads_fails_and_nothing_else_waits() {
        let mut repo = MockDocumentJobRepository::new();
        let claim = claim_of("nonsense");
        let id = claim.id;
        let mut once = Some(claim);
        repo.expect_open()
            .times(2)
            .returning(move |_, _| Ok(once.take()));
        repo.expect_complete().never();
        repo.expect_fail()
            .withf(|_, reason, _| reason == "body: not JSON")
            .times(1)
            .returning(|_, _, _| Ok(()));
        let mut decoder = MockDocumentDecoder::new();
        decoder
            .expect_decode()
            .returning(|_, _| Err("body: not JSON".into()));
        let service = jobs(repo, decoder);
        assert_eq!(service.step(&job_of(id)).await.unwrap(), Step::Done);
        // ended: a later claim of the same job finds nothing to do
        assert_eq!(service.step(&job_of(id)).await.unwrap(), Step::Done);
    }

    #[tokio::test]
    async fn a_job_given_up_fails_without_naming_internals() {
        let mut repo = MockDocumentJobRepository::new();
        let claim = claim_of("{}");
        let id = claim.id;
        repo.expect_open()
            .returning(move |_, _| Ok(Some(claim.clone())));
        repo.expect_fail()
            .withf(|_, reason, _| reason == "processing stopped after repeated failures")
            .times(1)
            .returning(|_, _, _| Ok(()));
        let service = jobs(repo, MockDocumentDecoder::new());
        service
            .give_up(&job_of(id), "5 attempts failed; the last: connection reset")
            .await
            .unwrap();
    }

    /// A claim of a new job of the account's, reading `body`.
    fn claim_of(body: &str) -> DocumentJobClaim {
        DocumentJobClaim {
            id: DocumentJobId::generate(&UuidV7Generator),
            account_id: account(),
            estimate_id: EstimateId::generate(&UuidV7Generator),
            body: body.into(),
            tolerance: "0.1".into(),
            lease: lease(),
        }
    }

    fn lease() -> JobLease {
        JobLease {
            job: tonne_kernel::JobId::from_uuid(uuid::Uuid::from_u128(5)),
            worker: "w".into(),
        }
    }

    fn job_of(id: DocumentJobId) -> JobClaim {
        JobClaim {
            lease: lease(),
            kind: DOCUMENT_JOB.into(),
            account_id: Some(account()),
            subject: id.to_string(),
            attempts: 0,
        }
    }
}
