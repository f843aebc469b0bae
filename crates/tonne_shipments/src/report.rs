//! The ISO 14083 report of an account's shipments over a period: a
//! [`ReportLine`] per leg (or per shipment when the client sent only the
//! shipment's totals, or when it has no emissions), and the
//! [`ReportSummary`] folded from them — totals well-to-wheel, well-to-tank
//! and tank-to-wheel, by mode, by carriage phase and by hub type, the
//! intensities per tonne-kilometre, the shares of primary, modelled and
//! default data, the factors' sources, the fallbacks taken and what was
//! left out and why.
//!
//! Lines are made from the stored shipment and its decoded row
//! ([`report_lines`]); the summary's totals are the sums of the lines, so
//! the report's total equals the sum of the shipments' totals to the gram.
//!
//! ```
//! use rust_decimal::Decimal;
//! use tonne_kernel::Mass;
//! use tonne_shipments::*;
//!
//! let line = ReportLine {
//!     shipment_id: "0190e0a0a0a070008000000000000001".parse().unwrap(), reference: "PO-1".into(), shipment_date: None,
//!     leg: Some(1), carriage: Some(Carriage::Main), category: "rail".into(), hub: false,
//!     distance_km: Decimal::from(300), distance_given: true, tonnes: Some(Decimal::from(20)),
//!     activity_tkm: Decimal::from(6000),
//!     wtt: Mass::from_grams(30_000), ttw: Mass::from_grams(120_000),
//!     data: Some(DataKind::Default), factor_id: "RAIL".into(), factor_source: "DESNZ 2025".into(),
//!     grade: "C".into(), flagged: false, notes: vec![], excluded: None,
//! };
//! let mut summary = ReportSummary::default();
//! summary.add(&line);
//! assert_eq!(summary.total.total(), Mass::from_grams(150_000));
//! // 150 kg over 6,000 t·km
//! assert_eq!(summary.total.intensity_g_per_tkm(|t| t.total()), Some(Decimal::from(25)));
//! assert_eq!(summary.data_share(DataKind::Default), Some(Decimal::ONE));
//! ```

mod lines;
mod summary;

pub use lines::{DataKind, ReportLine, report_lines};
pub use summary::{Bucket, ReportSummary};
