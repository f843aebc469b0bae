//! Stored estimates: the use cases (create, create many, read, update) over the
//! [`EstimateRepository`] port. An estimate belongs to one account; another
//! account's id reads as not found; an ordered estimate can no longer change.
//!
//! The request and the kind-specific result are kept as the JSON the API
//! rendered (opaque text here), so a read answers exactly what the create did.

use std::sync::Arc;

use async_trait::async_trait;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, Clock, EstimateId, IdGenerator, Mass, StoreError};

/// The estimate kinds of the contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EstimateKind {
    /// `/estimates/electricity`.
    Electricity,
    /// `/estimates/flight`.
    Flight,
    /// `/estimates/passenger-transportation`.
    PassengerTransportation,
    /// `/estimates/shipping`.
    Shipping,
    /// `/estimates/shipping/multi-leg`.
    MultiLegShipping,
    /// `/estimates/transactions` (and batch entries).
    Transaction,
    /// `/estimates/company`.
    Company,
    /// `/estimates/individual`.
    Individual,
}

impl EstimateKind {
    /// Stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            EstimateKind::Electricity => "electricity",
            EstimateKind::Flight => "flight",
            EstimateKind::PassengerTransportation => "passenger_transportation",
            EstimateKind::Shipping => "shipping",
            EstimateKind::MultiLegShipping => "multi_leg_shipping",
            EstimateKind::Transaction => "transaction",
            EstimateKind::Company => "company",
            EstimateKind::Individual => "individual",
        }
    }

    /// Parses a stored name.
    pub fn parse(s: &str) -> Option<Self> {
        [
            EstimateKind::Electricity,
            EstimateKind::Flight,
            EstimateKind::PassengerTransportation,
            EstimateKind::Shipping,
            EstimateKind::MultiLegShipping,
            EstimateKind::Transaction,
            EstimateKind::Company,
            EstimateKind::Individual,
        ]
        .into_iter()
        .find(|k| k.as_str() == s)
    }

    /// Whether the contract lets clients read and update this kind.
    pub fn is_updatable(self) -> bool {
        matches!(
            self,
            EstimateKind::Electricity
                | EstimateKind::Shipping
                | EstimateKind::MultiLegShipping
                | EstimateKind::Transaction
                | EstimateKind::Company
        )
    }
}

/// What an engine computed, ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Computed {
    /// CO2e; `None` for money movement (nothing to estimate).
    pub mass: Option<Mass>,
    /// The request as JSON.
    pub request: String,
    /// Kind-specific response fields as a JSON object.
    pub result: String,
}

/// A stored estimate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EstimateRecord {
    pub id: EstimateId,
    pub account_id: AccountId,
    pub kind: EstimateKind,
    /// What was computed.
    pub computed: Computed,
    /// The order that bought this estimate's mass, if any (32-hex order id).
    pub order_id: Option<String>,
    pub created_at: OffsetDateTime,
    /// Last recomputed.
    pub updated_at: OffsetDateTime,
}

/// The result of a conditional update.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpdateOutcome {
    Updated,
    /// No such estimate of this kind on this account.
    NotFound,
    /// Ordered already: it can no longer change.
    Ordered,
}

/// Storage of estimates.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait EstimateRepository: Send + Sync {
    /// Inserts all records in one transaction (all or none).
    async fn insert(&self, records: &[EstimateRecord]) -> Result<(), StoreError>;
    /// The account's estimate with this id.
    async fn get(
        &self,
        account: AccountId,
        id: EstimateId,
    ) -> Result<Option<EstimateRecord>, StoreError>;
    /// Replaces `computed` and `updated_at` if the estimate exists on the
    /// account, has the kind, and has no order — atomically.
    async fn update(
        &self,
        account: AccountId,
        id: EstimateId,
        kind: EstimateKind,
        computed: &Computed,
        at: OffsetDateTime,
    ) -> Result<UpdateOutcome, StoreError>;
}

/// Why a stored-estimate use case failed.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Unknown id, another account's, or another kind's (`estimate_not_found`).
    #[error("estimate not found")]
    NotFound,
    /// The estimate was ordered (`estimate_order_already_placed`).
    #[error("the estimate has an order and can no longer be updated")]
    AlreadyOrdered,
    /// Storage failed.
    #[error(transparent)]
    Unexpected(anyhow::Error),
}

fn unexpected(e: StoreError) -> RecordError {
    RecordError::Unexpected(anyhow::anyhow!(e))
}

/// The stored-estimate use cases.
#[derive(Clone)]
pub struct Estimates {
    repo: Arc<dyn EstimateRepository>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
}

impl Estimates {
    /// Wires the use cases to their ports.
    pub fn new(
        repo: Arc<dyn EstimateRepository>,
        clock: Arc<dyn Clock>,
        ids: Arc<dyn IdGenerator>,
    ) -> Self {
        Self { repo, clock, ids }
    }

    fn record(&self, account: AccountId, kind: EstimateKind, computed: Computed) -> EstimateRecord {
        let now = self.clock.now();
        EstimateRecord {
            id: EstimateId::generate(self.ids.as_ref()),
            account_id: account,
            kind,
            computed,
            order_id: None,
            created_at: now,
            updated_at: now,
        }
    }

    /// Stores one estimate.
    pub async fn create(
        &self,
        account: AccountId,
        kind: EstimateKind,
        computed: Computed,
    ) -> Result<EstimateRecord, RecordError> {
        let record = self.record(account, kind, computed);
        self.repo
            .insert(std::slice::from_ref(&record))
            .await
            .map_err(unexpected)?;
        Ok(record)
    }

    /// Stores many estimates in one transaction; records come back in order.
    pub async fn create_many(
        &self,
        account: AccountId,
        kind: EstimateKind,
        computed: Vec<Computed>,
    ) -> Result<Vec<EstimateRecord>, RecordError> {
        let records: Vec<EstimateRecord> = computed
            .into_iter()
            .map(|c| self.record(account, kind, c))
            .collect();
        if !records.is_empty() {
            self.repo.insert(&records).await.map_err(unexpected)?;
        }
        Ok(records)
    }

    /// Reads the account's estimate of `kind` (any kind with `None`).
    pub async fn get(
        &self,
        account: AccountId,
        kind: Option<EstimateKind>,
        id: &str,
    ) -> Result<EstimateRecord, RecordError> {
        let id: EstimateId = id.parse().map_err(|_| RecordError::NotFound)?;
        let record = self
            .repo
            .get(account, id)
            .await
            .map_err(unexpected)?
            .ok_or(RecordError::NotFound)?;
        if record.account_id != account || kind.is_some_and(|k| k != record.kind) {
            return Err(RecordError::NotFound);
        }
        Ok(record)
    }

    /// Recomputes an estimate in place (same id): only the kinds the contract
    /// lets clients update (others read as not found), and refused once ordered.
    pub async fn update(
        &self,
        account: AccountId,
        kind: EstimateKind,
        id: &str,
        computed: &Computed,
    ) -> Result<(), RecordError> {
        if !kind.is_updatable() {
            return Err(RecordError::NotFound);
        }
        let id: EstimateId = id.parse().map_err(|_| RecordError::NotFound)?;
        let at = self.clock.now();
        match self
            .repo
            .update(account, id, kind, computed, at)
            .await
            .map_err(unexpected)?
        {
            UpdateOutcome::Updated => Ok(()),
            UpdateOutcome::NotFound => Err(RecordError::NotFound),
            UpdateOutcome::Ordered => Err(RecordError::AlreadyOrdered),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mockall::predicate::eq;
    use tonne_kernel::{MockClock, MockIdGenerator};

    fn clock() -> Arc<dyn Clock> {
        let mut c = MockClock::new();
        c.expect_now().return_const(OffsetDateTime::UNIX_EPOCH);
        Arc::new(c)
    }

    fn ids() -> Arc<dyn IdGenerator> {
        let mut g = MockIdGenerator::new();
        let mut n = 0_u128;
        g.expect_new_uuid().returning(move || {
            n += 1;
            uuid::Uuid::from_u128(n)
        });
        Arc::new(g)
    }

    fn computed(grams: i64) -> Computed {
        Computed {
            mass: Some(Mass::from_grams(grams)),
            request: "{}".into(),
            result: "{}".into(),
        }
    }

    fn account(n: u128) -> AccountId {
        AccountId::from_uuid(uuid::Uuid::from_u128(n))
    }

    #[tokio::test]
    async fn a_batch_is_one_insert_in_request_order() {
        let mut repo = MockEstimateRepository::new();
        repo.expect_insert()
            .withf(|r| {
                r.len() == 3
                    && r.iter()
                        .map(|e| e.computed.mass)
                        .eq([1, 2, 3].map(|g| Some(Mass::from_grams(g))))
            })
            .times(1)
            .returning(|_| Ok(()));
        let s = Estimates::new(Arc::new(repo), clock(), ids());
        let out = s
            .create_many(
                account(1),
                EstimateKind::Transaction,
                vec![computed(1), computed(2), computed(3)],
            )
            .await
            .unwrap();
        assert_eq!(out.len(), 3);
        assert_ne!(out.first().map(|r| r.id), out.get(1).map(|r| r.id));
    }

    #[tokio::test]
    async fn other_accounts_other_kinds_and_bad_ids_are_not_found() {
        let s = Estimates::new(Arc::new(MockEstimateRepository::new()), clock(), ids());
        assert!(matches!(
            s.get(account(1), None, "nope").await,
            Err(RecordError::NotFound)
        ));
        let mut repo = MockEstimateRepository::new();
        let id = EstimateId::from_uuid(uuid::Uuid::from_u128(7));
        let stored = EstimateRecord {
            id,
            account_id: account(1),
            kind: EstimateKind::Electricity,
            computed: computed(5),
            order_id: None,
            created_at: OffsetDateTime::UNIX_EPOCH,
            updated_at: OffsetDateTime::UNIX_EPOCH,
        };
        repo.expect_get()
            .with(eq(account(1)), eq(id))
            .returning(move |_, _| Ok(Some(stored.clone())));
        repo.expect_get().returning(|_, _| Ok(None));
        let s = Estimates::new(Arc::new(repo), clock(), ids());
        let text = id.to_string();
        assert!(
            s.get(account(1), Some(EstimateKind::Electricity), &text)
                .await
                .is_ok()
        );
        assert!(matches!(
            s.get(account(1), Some(EstimateKind::Company), &text).await,
            Err(RecordError::NotFound)
        ));
        assert!(matches!(
            s.get(account(2), None, &text).await,
            Err(RecordError::NotFound)
        ));
    }

    #[tokio::test]
    async fn an_ordered_estimate_cannot_be_updated() {
        let mut repo = MockEstimateRepository::new();
        repo.expect_update()
            .returning(|_, _, _, _, _| Ok(UpdateOutcome::Ordered));
        let s = Estimates::new(Arc::new(repo), clock(), ids());
        let id = EstimateId::from_uuid(uuid::Uuid::from_u128(9)).to_string();
        assert!(matches!(
            s.update(account(1), EstimateKind::Shipping, &id, &computed(1))
                .await,
            Err(RecordError::AlreadyOrdered)
        ));
    }

    #[test]
    fn kinds_round_trip_and_only_the_contracts_kinds_update() {
        for k in [
            EstimateKind::Electricity,
            EstimateKind::Flight,
            EstimateKind::Individual,
            EstimateKind::MultiLegShipping,
        ] {
            assert_eq!(EstimateKind::parse(k.as_str()), Some(k));
        }
        assert!(!EstimateKind::Flight.is_updatable());
        assert!(EstimateKind::Company.is_updatable());
    }
}
