//! Answering a partner's footprint request (the job engine's
//! [`ANSWER_JOB`](tonne_accounts::pact::partners::ANSWER_JOB)): the
//! footprints whose product ids it names, sent back as
//! `…ProductFootprintRequest.Fulfilled.v1`, or `…Rejected.v1` with
//! `NotFound` when none matches (PACT Tech Specs v2.3, 6.8.4).
//!
//! One step does the whole answer: it reads at most [`SCAN_CAP`] of the
//! account's newest calculated shipments and sends at most
//! [`MAX_FOOTPRINTS`] footprints. A failed delivery is retried by the
//! engine with back-off (the event keeps its id, so the partner can tell
//! a resend); a request is marked answered only after the partner took it.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::json;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use tonne_accounts::pact::partners::{
    PactPartnersService, PactRequestId, PartnerGateway, PendingAnswer, RequestStatus,
};
use tonne_kernel::{JobClaim, Step, StoreError};
use tonne_shipments::{ReadError, ShipmentsService};

use crate::wire::events::{REQUEST_FULFILLED, REQUEST_REJECTED};
use crate::wire::footprint::{product_footprint, product_id_of};

/// Shipments examined for one answer, newest first.
pub const SCAN_CAP: usize = 10_000;
/// Footprints one answer carries at most.
pub const MAX_FOOTPRINTS: usize = 100;
/// Shipments read from storage at a time.
const READ_PAGE: u32 = 500;

/// The answering job's use case.
pub struct PactAnswers {
    partners: Arc<dyn PactPartnersService>,
    shipments: Arc<dyn ShipmentsService>,
    gateway: Arc<dyn PartnerGateway>,
    source: String,
}

impl PactAnswers {
    /// Answers over the partners, the shipments and a gateway; `public_url`
    /// (no trailing `/`) names Tonne as the answers' `source`
    /// (`{public_url}/pact`).
    pub fn new(
        partners: Arc<dyn PactPartnersService>,
        shipments: Arc<dyn ShipmentsService>,
        gateway: Arc<dyn PartnerGateway>,
        public_url: &str,
    ) -> Self {
        Self {
            partners,
            shipments,
            gateway,
            source: format!("{}/pact", public_url.trim_end_matches('/')),
        }
    }

    /// Does the job: builds the answer, delivers it, marks the request.
    pub async fn step(&self, job: &JobClaim) -> Result<Step, StoreError> {
        let id: PactRequestId = job.parsed_subject()?;
        let Some(pending) = self.partners.pending(id).await? else {
            return Ok(Step::Done);
        };
        if pending.request.status != RequestStatus::Waiting {
            return Ok(Step::Done);
        }
        if pending.partner.removed_at.is_some() {
            self.partners
                .answered(
                    &job.lease,
                    id,
                    RequestStatus::Failed,
                    Some("the partner was removed before the answer was sent".into()),
                )
                .await?;
            return Ok(Step::Done);
        }
        let (status, event) = self.answer(&pending).await?;
        self.gateway
            .deliver(&pending.partner, &pending.secret, &event)
            .await
            .map_err(|e| {
                StoreError::Unexpected(anyhow::anyhow!("answering a PACT request: {e}"))
            })?;
        self.partners.answered(&job.lease, id, status, None).await?;
        tracing::info!(request_id = %id, status = status.as_str(), "PACT request answered");
        Ok(Step::Done)
    }

    /// The job was given up: the request is marked failed with why.
    pub async fn give_up(&self, job: &JobClaim, reason: &str) -> Result<(), StoreError> {
        let id: PactRequestId = job.parsed_subject()?;
        self.partners
            .answered(&job.lease, id, RequestStatus::Failed, Some(reason.into()))
            .await
    }

    /// The event answering `pending`, and what it makes of the request.
    async fn answer(&self, pending: &PendingAnswer) -> Result<(RequestStatus, String), StoreError> {
        let request = &pending.request;
        let wanted: HashSet<&str> = request.product_ids.iter().map(String::as_str).collect();
        let mut pfs = Vec::new();
        let mut cursor = None;
        let mut examined = 0_usize;
        while !wanted.is_empty() && examined < SCAN_CAP && pfs.len() < MAX_FOOTPRINTS {
            let page = self
                .shipments
                .calculated_after(request.account_id, cursor, READ_PAGE)
                .await
                .map_err(|e| match e {
                    ReadError::Store(e) => e,
                    // (`NotFound` from a step would mean its lease was lost)
                    ReadError::NotFound => StoreError::Unexpected(anyhow::anyhow!(
                        "the account's shipments are not found"
                    )),
                })?;
            let short = page.len() < usize::try_from(READ_PAGE).unwrap_or(usize::MAX);
            for item in page {
                examined += 1;
                cursor = Some(item.shipment.id);
                if wanted.contains(product_id_of(&item).as_str())
                    && let Some(pf) = product_footprint(&item)
                {
                    pfs.push(pf);
                    if pfs.len() == MAX_FOOTPRINTS {
                        break;
                    }
                }
            }
            if short {
                break;
            }
        }
        let time = OffsetDateTime::now_utc()
            .format(&Rfc3339)
            .unwrap_or_default();
        let (status, kind, data) = if pfs.is_empty() {
            (
                RequestStatus::Rejected,
                REQUEST_REJECTED,
                json!({
                    "requestEventId": request.event_id,
                    "error": {
                        "code": "NotFound",
                        "message": "no footprint of the data owner has the requested product ids"
                    }
                }),
            )
        } else {
            (
                RequestStatus::Fulfilled,
                REQUEST_FULFILLED,
                json!({ "requestEventId": request.event_id, "pfs": pfs }),
            )
        };
        let event = json!({
            "type": kind,
            "specversion": "1.0",
            "id": request.id.as_uuid().hyphenated().to_string(),
            "source": self.source,
            "time": time,
            "data": data,
        });
        Ok((status, event.to_string()))
    }
}
