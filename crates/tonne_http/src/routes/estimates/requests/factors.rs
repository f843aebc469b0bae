//! Estimates from a chosen emission factor (2024).

use serde::{Deserialize, Serialize};
use tonne_estimation::factor_estimate::FactorRequest;
use utoipa::ToSchema;

use crate::error::ApiError;

/// The contract's `EmissionFactorActivity`.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = EmissionFactorActivityBody)]
pub struct ActivityRequest {
    /// Decimal string.
    pub value: String,
    /// A unit of the factor's dimension (`EmissionFactorDenominatorUnit`).
    pub unit: String,
}

estimate_request! {
/// The contract's `EmissionFactorEstimateRequest`.
pub struct EmissionFactorEstimateRequest as EmissionFactorEstimateRequestBody {
    /// A factor id from `GET /v1/emission-factors`.
    pub emission_factor_id: String,
    pub activity: ActivityRequest,
}
}

impl EmissionFactorEstimateRequest {
    /// Engine input (the factor and the conversion are checked by the engine).
    pub fn parse(&self) -> Result<FactorRequest, ApiError> {
        Ok(FactorRequest::parse(
            &self.emission_factor_id,
            &self.activity.value,
            &self.activity.unit,
        )?)
    }
}
