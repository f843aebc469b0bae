//! The estimate answers: one Rust type per contract schema (`…Response`, the
//! contract's schema name kept in the OpenAPI document), one file per kind of
//! answer, the queries that choose how they render, and [`render`], which
//! builds them from the domain's `Estimate`. The pieces other answers share
//! (`base`, `amounts`, `factor`) import no other answer.

pub mod amounts;
pub mod base;
pub mod company;
pub mod explanation;
pub mod factor;
pub mod fuel;
pub mod passenger;
pub mod queries;
pub mod render;
pub mod road;
pub mod shipping;
pub mod transaction;

pub use amounts::{MassResponse, mass_response};
pub use base::{EstimateQuoteResponse, EstimateResponse};
pub use company::{CompanyEstimateResponse, EmissionFactorEstimateResponse};
pub use factor::EmissionFactorResponse;
pub use fuel::ByFuelEstimateResponse;
pub use passenger::PassengerEstimateResponse;
pub use queries::{EstimateMassUnitQuery, RenderOptions, ShippingEstimatesQuery};
pub use render::{AnyEstimateResponse, AnyShippingEstimateResponse, BatchEntryResponse, render};
pub use shipping::{MultiLegEstimateResponse, ShippingEstimateResponse};
pub use transaction::TransactionEstimateResponse;
