//! `ShipmentStore`: the shipments domain's `ShipmentRepository` — batches
//! and their rows as sent (`batches`), counterparties (`counterparties`),
//! stored shipments and their list (`list`, over the statement builder
//! `db::statement`), the steps of the batch and calculation jobs (`jobs`), the tables' rows
//! (`rows`) and the JSON of emissions and filters (`encoding`).

mod batches;
mod counterparties;
mod encoding;
mod jobs;
mod list;
mod quotas;
mod rows;

use async_trait::async_trait;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, JobLease, Page, PageRequest, StoreError};
use tonne_shipments::{
    Batch, BatchClaim, BatchDetail, BatchSource, CalculationClaim, CalculationId, Counterparty,
    NewBatch, NewCalculation, PendingRow, RowDone, Shipment, ShipmentBatchId, ShipmentCounts,
    ShipmentEmissions, ShipmentFilter, ShipmentId, ShipmentRepository, StoredRow,
};

use crate::db::Db;
use crate::db::error::failed;

/// Shipments, their batches, counterparties and calculations on either backend.
#[derive(Debug, Clone)]
pub struct ShipmentStore {
    db: Db,
}

impl ShipmentStore {
    /// A repository over a pool.
    pub fn new(db: Db) -> Self {
        Self { db }
    }
}

#[async_trait]
impl ShipmentRepository for ShipmentStore {
    async fn insert_batch(&self, batch: &NewBatch) -> Result<(), StoreError> {
        let batch = batch.clone();
        self.db
            .transaction(move |conn| Box::pin(async move { batches::insert(conn, &batch).await }))
            .await
            .map_err(failed("storing a shipment batch"))
    }

    async fn batch(
        &self,
        account: AccountId,
        id: ShipmentBatchId,
    ) -> Result<Option<BatchDetail>, StoreError> {
        self.db
            .query(move |conn| Box::pin(async move { batches::detail(conn, account, id).await }))
            .await
            .map_err(failed("reading a shipment batch"))
    }

    async fn batches(
        &self,
        account: AccountId,
        sources: &[BatchSource],
        page: &PageRequest<ShipmentBatchId>,
    ) -> Result<Page<Batch>, StoreError> {
        let (sources, page) = (sources.to_vec(), page.clone());
        self.db
            .query(move |conn| {
                Box::pin(async move { batches::page(conn, account, &sources, &page).await })
            })
            .await
            .map_err(failed("listing shipment batches"))
    }

    async fn open_batch(
        &self,
        lease: &JobLease,
        batch: ShipmentBatchId,
    ) -> Result<Option<BatchClaim>, StoreError> {
        let lease = lease.clone();
        self.db
            .transaction(move |conn| {
                Box::pin(async move { jobs::open_batch(conn, &lease, batch).await })
            })
            .await
            .map_err(failed("opening a shipment batch"))
    }

    async fn pending_rows(
        &self,
        batch: ShipmentBatchId,
        limit: u32,
    ) -> Result<Vec<PendingRow>, StoreError> {
        self.db
            .query(move |conn| {
                Box::pin(async move { jobs::pending_rows(conn, batch, limit).await })
            })
            .await
            .map_err(failed("reading a batch's pending rows"))
    }

    async fn complete_rows(
        &self,
        claim: &BatchClaim,
        rows: Vec<(u32, RowDone)>,
        lease_until: OffsetDateTime,
    ) -> Result<(), StoreError> {
        let claim = claim.clone();
        self.db
            .transaction(move |conn| {
                Box::pin(async move { jobs::complete_rows(conn, &claim, &rows, lease_until).await })
            })
            .await
            .map_err(failed("storing a batch's processed rows"))
    }

    async fn finish_batch(
        &self,
        claim: &BatchClaim,
        batch_error: Option<String>,
    ) -> Result<(), StoreError> {
        let claim = claim.clone();
        self.db
            .transaction(move |conn| {
                Box::pin(async move { jobs::finish_batch(conn, &claim, batch_error).await })
            })
            .await
            .map_err(failed("finishing a shipment batch"))
    }

    async fn counterparty(
        &self,
        account: AccountId,
        id: &str,
    ) -> Result<Option<Counterparty>, StoreError> {
        let id = id.to_owned();
        self.db
            .query(move |conn| {
                Box::pin(async move { counterparties::by_id(conn, account, &id).await })
            })
            .await
            .map_err(failed("reading a counterparty"))
    }

    async fn counterparty_by_internal_id(
        &self,
        account: AccountId,
        internal_id: &str,
        name: Option<String>,
    ) -> Result<Counterparty, StoreError> {
        let internal_id = internal_id.to_owned();
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    counterparties::by_internal_id(conn, account, &internal_id, name).await
                })
            })
            .await
            .map_err(failed("finding or creating a counterparty"))
    }

    async fn shipment(
        &self,
        account: AccountId,
        id: ShipmentId,
    ) -> Result<Option<Shipment>, StoreError> {
        self.db
            .query(move |conn| Box::pin(async move { list::one(conn, account, id).await }))
            .await
            .map_err(failed("reading a shipment"))
    }

    async fn shipments_after(
        &self,
        account: AccountId,
        filter: &ShipmentFilter,
        after: Option<ShipmentId>,
        limit: u32,
    ) -> Result<Vec<Shipment>, StoreError> {
        let filter = filter.clone();
        self.db
            .query(move |conn| {
                Box::pin(async move { list::after(conn, account, &filter, after, limit).await })
            })
            .await
            .map_err(failed("reading shipments for a report"))
    }

    async fn shipments(
        &self,
        account: AccountId,
        filter: &ShipmentFilter,
        page: &PageRequest<ShipmentId>,
    ) -> Result<Page<Shipment>, StoreError> {
        let (filter, page) = (filter.clone(), page.clone());
        self.db
            .query(move |conn| {
                Box::pin(async move { list::page(conn, account, &filter, &page).await })
            })
            .await
            .map_err(failed("listing shipments"))
    }

    async fn count(
        &self,
        account: AccountId,
        filter: &ShipmentFilter,
        cap: u64,
    ) -> Result<u64, StoreError> {
        let filter = filter.clone();
        self.db
            .query(move |conn| {
                Box::pin(async move { list::count(conn, account, &filter, cap).await })
            })
            .await
            .map_err(failed("counting shipments"))
    }

    async fn counts(
        &self,
        account: AccountId,
        filter: &ShipmentFilter,
    ) -> Result<ShipmentCounts, StoreError> {
        let filter = filter.clone();
        self.db
            .query(move |conn| Box::pin(async move { list::counts(conn, account, &filter).await }))
            .await
            .map_err(failed("counting shipments"))
    }

    async fn insert_calculation(&self, calculation: &NewCalculation) -> Result<(), StoreError> {
        let calculation = calculation.clone();
        self.db
            .transaction(move |conn| {
                Box::pin(async move { jobs::insert_calculation(conn, &calculation).await })
            })
            .await
            .map_err(failed("queuing a calculation"))
    }

    async fn open_calculation(
        &self,
        lease: &JobLease,
        id: CalculationId,
    ) -> Result<Option<CalculationClaim>, StoreError> {
        let lease = lease.clone();
        self.db
            .transaction(move |conn| {
                Box::pin(async move { jobs::open_calculation(conn, &lease, id).await })
            })
            .await
            .map_err(failed("opening a calculation"))
    }

    async fn calculation_rows(
        &self,
        claim: &CalculationClaim,
        limit: u32,
    ) -> Result<Vec<StoredRow>, StoreError> {
        let claim = claim.clone();
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    list::walk(conn, claim.account_id, &claim.filter, claim.after, limit).await
                })
            })
            .await
            .map_err(failed("reading a calculation's shipments"))
    }

    async fn save_calculated(
        &self,
        claim: &CalculationClaim,
        results: Vec<(ShipmentId, Option<ShipmentEmissions>)>,
        last: ShipmentId,
        lease_until: OffsetDateTime,
    ) -> Result<(), StoreError> {
        let claim = claim.clone();
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    jobs::save_calculated(conn, &claim, &results, last, lease_until).await
                })
            })
            .await
            .map_err(failed("saving calculated emissions"))
    }

    async fn finish_calculation(&self, claim: &CalculationClaim) -> Result<(), StoreError> {
        let claim = claim.clone();
        self.db
            .transaction(move |conn| {
                Box::pin(async move { jobs::finish_calculation(conn, &claim).await })
            })
            .await
            .map_err(failed("finishing a calculation"))
    }
}
