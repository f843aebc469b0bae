//! [`Shipments`]: the use cases behind [`ShipmentsService`], one file each
//! under `service/` (upload, the batch worker, calculations); reads are here.

use std::sync::Arc;

use async_trait::async_trait;
use tonne_kernel::{AccountId, Clock, IdGenerator, JobClaim, Page, PageRequest, Step, StoreError};

use crate::batch::{Batch, BatchDetail, BatchSource, ShipmentFilter, Upload};
use crate::errors::{CalculateError, ReadError, UploadError};
use crate::ids::{CalculationId, ShipmentBatchId, ShipmentId};
use crate::model::Shipment;
use crate::ports::{
    BATCH_JOB, CALCULATION_JOB, Owner, RowDecoder, ShipmentList, ShipmentRepository,
    ShipmentsService,
};

mod calculating;
mod calculations;
mod footprints;
mod process;
mod quotas;
mod report;
mod upload;

/// Rows processed in one transaction.
pub const CHUNK: u32 = 500;
/// How long a worker holds a batch or a calculation, by default, before
/// another may take it over (each chunk done extends it).
pub const LEASE: time::Duration = time::Duration::seconds(60);

/// The shipments use cases over their ports.
pub struct Shipments {
    repo: Arc<dyn ShipmentRepository>,
    decoder: Arc<dyn RowDecoder>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
    lease: time::Duration,
    /// The bounds per account and their defaults (none: unbounded).
    quotas: Option<(Arc<dyn crate::quotas::ShipmentQuotas>, tonne_kernel::Limits)>,
}

impl Shipments {
    /// The use cases over a repository, a row decoder, a clock and an id generator.
    pub fn new(
        repo: Arc<dyn ShipmentRepository>,
        decoder: Arc<dyn RowDecoder>,
        clock: Arc<dyn Clock>,
        ids: Arc<dyn IdGenerator>,
    ) -> Self {
        Self {
            repo,
            decoder,
            clock,
            ids,
            lease: LEASE,
            quotas: None,
        }
    }

    /// A shipment's report lines: its stored row decoded again to name its
    /// legs (decoded when it was stored; should it no longer — a vocabulary
    /// retired since — its figures stand as one line). The report's walk and
    /// the PACT footprints both read shipments through this.
    fn lines_of(&self, shipment: &Shipment) -> Vec<crate::report::ReportLine> {
        self.decoded(shipment).1
    }

    /// A shipment's legs as sent (empty when its row no longer decodes)
    /// and its report lines.
    fn decoded(
        &self,
        shipment: &Shipment,
    ) -> (Vec<crate::model::LegDraft>, Vec<crate::report::ReportLine>) {
        let draft = self.decoder.decode(&shipment.row).ok();
        let lines = crate::report::report_lines(shipment, draft.as_ref());
        (draft.map(|d| d.legs).unwrap_or_default(), lines)
    }

    /// The same use cases with another lease: how long after a worker
    /// stopped (a crash) another takes its batch or calculation over.
    pub fn with_lease(mut self, lease: time::Duration) -> Self {
        self.lease = lease;
        self
    }

    /// The same use cases with each account's uploads and calculations
    /// bounded: the organisation's own limits where it has them, else
    /// `defaults`.
    pub fn with_quotas(
        mut self,
        quotas: Arc<dyn crate::quotas::ShipmentQuotas>,
        defaults: tonne_kernel::Limits,
    ) -> Self {
        self.quotas = Some((quotas, defaults));
        self
    }
}

#[async_trait]
impl ShipmentsService for Shipments {
    async fn upload(&self, owner: &Owner, upload: Upload) -> Result<ShipmentBatchId, UploadError> {
        upload::upload(self, owner, upload).await
    }

    async fn batch(
        &self,
        account: AccountId,
        id: ShipmentBatchId,
    ) -> Result<BatchDetail, ReadError> {
        self.repo
            .batch(account, id)
            .await?
            .ok_or(ReadError::NotFound)
    }

    async fn batches(
        &self,
        account: AccountId,
        sources: Vec<BatchSource>,
        page: PageRequest<ShipmentBatchId>,
    ) -> Result<Page<Batch>, ReadError> {
        Ok(self.repo.batches(account, &sources, &page).await?)
    }

    async fn shipment(&self, account: AccountId, id: ShipmentId) -> Result<Shipment, ReadError> {
        self.repo
            .shipment(account, id)
            .await?
            .ok_or(ReadError::NotFound)
    }

    async fn shipments(
        &self,
        account: AccountId,
        filter: ShipmentFilter,
        page: PageRequest<ShipmentId>,
        with_counts: bool,
    ) -> Result<ShipmentList, ReadError> {
        let page = self.repo.shipments(account, &filter, &page).await?;
        let counts = if with_counts {
            Some(self.repo.counts(account, &filter).await?)
        } else {
            None
        };
        Ok(ShipmentList { page, counts })
    }

    async fn report_page(
        &self,
        account: AccountId,
        filter: &ShipmentFilter,
        after: Option<ShipmentId>,
    ) -> Result<crate::ports::ReportPage, ReadError> {
        report::page(self, account, filter, after).await
    }

    async fn calculated_after(
        &self,
        account: AccountId,
        after: Option<ShipmentId>,
        limit: u32,
    ) -> Result<Vec<crate::ports::ShipmentLines>, ReadError> {
        footprints::calculated_after(self, account, after, limit).await
    }

    async fn shipment_lines(
        &self,
        account: AccountId,
        id: ShipmentId,
    ) -> Result<crate::ports::ShipmentLines, ReadError> {
        footprints::shipment_lines(self, account, id).await
    }

    async fn calculate(
        &self,
        account: AccountId,
        filter: ShipmentFilter,
    ) -> Result<Vec<CalculationId>, CalculateError> {
        calculations::queue(self, account, filter).await
    }

    async fn step(&self, job: &JobClaim) -> Result<Step, StoreError> {
        match job.kind.as_str() {
            BATCH_JOB => process::step(self, job).await,
            CALCULATION_JOB => calculating::step(self, job).await,
            other => Err(not_ours(other)),
        }
    }

    async fn give_up(&self, job: &JobClaim, reason: &str) -> Result<(), StoreError> {
        let _ = reason; // the engine logs it and keeps it on the job
        match job.kind.as_str() {
            BATCH_JOB => process::give_up(self, job).await,
            CALCULATION_JOB => calculating::give_up(self, job).await,
            other => Err(not_ours(other)),
        }
    }
}

/// A job this domain does not step.
fn not_ours(kind: &str) -> StoreError {
    StoreError::Unexpected(anyhow::anyhow!("not a shipments job: {kind}"))
}

#[cfg(test)]
mod tests;
