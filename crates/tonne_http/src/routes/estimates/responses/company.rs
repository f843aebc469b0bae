//! The company answer (`CompanyEmissionEstimate`) and the emission-factor
//! answer (`EmissionFactorEstimate`).

use serde::Serialize;
use utoipa::ToSchema;

use super::amounts::MassResponse;
use super::base::EstimateResponse;

/// Company components (each a part of the total).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CompanyComponentsDoc)]
pub struct CompanyComponentsResponse {
    pub(super) material_and_waste: MassResponse,
    pub(super) energy: MassResponse,
    pub(super) travel_and_commute: MassResponse,
    pub(super) food_and_drink: MassResponse,
    pub(super) tech: MassResponse,
    pub(super) remote_employee: MassResponse,
}

/// The contract's `EmissionFactorEstimate`: the factor as it was when used.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = EmissionFactorEstimateDoc)]
pub struct EmissionFactorEstimateResponse {
    #[serde(flatten)]
    pub(super) base: EstimateResponse,
    pub(super) emission_factor: crate::routes::emission_factors::EmissionFactorResponse,
}

/// The contract's `CompanyEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CompanyEstimateDoc)]
pub struct CompanyEstimateResponse {
    #[serde(flatten)]
    pub(super) base: EstimateResponse,
    pub(super) scope1: MassResponse,
    pub(super) scope2: MassResponse,
    pub(super) scope3: MassResponse,
    pub(super) components: CompanyComponentsResponse,
}
