//! Tonne's shipments domain: a company uploads its shipments in batches;
//! each row is decoded, checked and stored in the background with its legs
//! by carriage phase (pre, main, on); emissions are calculated per leg with
//! Tonne's freight engine, well-to-wheel (`wtt + ttw`), and summed per phase.
//!
//! Driving port [`ShipmentsService`] (implemented by [`Shipments`]); driven
//! ports [`ShipmentRepository`] (storage, and the durable jobs: batches and
//! calculations claimed under a lease) and [`RowDecoder`] (a row's wire text
//! to a [`ShipmentDraft`]).
//!
//! ```
//! use rust_decimal::Decimal;
//! use tonne_shipments::*;
//!
//! // 20 t by electric train over 300 km: well-to-wheel, the parts add up
//! let mut row = ShipmentDraft {
//!     reference: Some("PO-1".into()), target_internal_id: None, target_internal_name: None,
//!     client_emissions: None,
//!     legs: vec![LegDraft {
//!         order: None, carriage: Carriage::Main,
//!         method: LegMethod::Rail("electric_freight_train".into()),
//!         origin: None, destination: None, distance_km: Some(Decimal::from(300)),
//!         load: Load { tonnes: Some(Decimal::from(20)), teu: None }, load_factor: None, empty_run_factor: None,
//!         date: None, client_emissions: None,
//!     }],
//! };
//! row.check().unwrap();
//! let e = emissions(&row).unwrap();
//! assert_eq!(e.total.total().grams(), e.total.wtt.grams() + e.total.ttw.grams());
//! assert_eq!(e.total.activity, Decimal::from(6000));
//! ```
#![deny(clippy::float_arithmetic)]

mod batch;
mod calculate;
mod emissions;
mod errors;
mod ids;
mod model;
mod ports;
mod quotas;
mod report;
mod rules;
mod service;
#[cfg(test)]
mod testing;
mod vocabulary;

pub use batch::{
    Batch, BatchClaim, BatchDetail, BatchSource, BatchStatus, CalculationClaim, DataSheet,
    EmissionsFilter, MAX_BATCH_ROWS, MAX_CALCULATION, NewBatch, NewCalculation, PendingRow,
    RowDone, RowOutcome, RowResult, ShipmentCounts, ShipmentFilter, StoredRow, Upload,
};
pub use calculate::{ROAD_FUEL_FALLBACK, VESSEL_INFERENCE_FALLBACK, emissions};
pub use emissions::{FactorInfo, LegEmissions, ShipmentEmissions, Totals};
pub use errors::{CalculateError, ReadError, RowError, UploadError};
pub use ids::{CalculationId, CounterpartyId, DataSheetId, ShipmentBatchId, ShipmentId};
pub use model::{
    ClientEmissions, Counterparty, Facets, LegDraft, LegMethod, Load, Location, NewShipment, Party,
    SeaVessel, Shipment, ShipmentDraft,
};
pub use ports::{BATCH_JOB, CALCULATION_JOB, REPORT_PAGE, ReportPage};
#[cfg(any(test, feature = "mock"))]
pub use ports::{MockRowDecoder, MockShipmentRepository, MockShipmentsService};
pub use ports::{
    Owner, RowDecoder, ShipmentLines, ShipmentList, ShipmentRepository, ShipmentsService,
};
#[cfg(any(test, feature = "mock"))]
pub use quotas::MockShipmentQuotas;
pub use quotas::ShipmentQuotas;
pub use report::{Bucket, DataKind, ReportLine, ReportSummary, report_lines};
pub use rules::MAX_LEGS;
pub use service::{CHUNK, LEASE, Shipments};
pub use vocabulary::{Carriage, EmissionsSource, ModeSet, TransportMode};
