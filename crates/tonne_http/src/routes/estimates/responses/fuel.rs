//! Client 3.9.2's by-fuel multi-leg answer
//! (`CreateMultiLegShippingEstimateByFuelResponse`) and its legs.

use serde::Serialize;
use utoipa::ToSchema;

use super::amounts::ShippingMassResponse;
use super::base::EstimateResponse;
use super::factor::EmissionFactorResponse;
use super::shipping::ShipmentFieldsResponse;

/// Client 3.9.2's `FuelMethodologyDetails`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = FuelMethodologyDetails)]
pub struct FuelMethodologyResponse {
    pub(super) energy_density: EnergyDensityResponse,
}

/// An energy density (MJ per litre, net calorific value).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = EnergyDensity)]
pub struct EnergyDensityResponse {
    /// Decimal string.
    pub(super) amount: String,
    /// Always `MJ/l`.
    pub(super) unit: &'static str,
}

/// One leg of client 3.9.2's `CreateMultiLegShippingEstimateByFuelResponse`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = FuelLegEstimate)]
pub struct FuelLegResponse {
    /// Well-to-wheel, with its stages.
    pub(super) mass: ShippingMassResponse,
    /// The fuel's DESNZ factor per litre (a blend's: the volume-weighted mix).
    pub(super) emission_factor: Option<EmissionFactorResponse>,
    pub(super) methodology_details: FuelMethodologyResponse,
}

/// The score of 3.9.2's by-fuel answer (`{score}`).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = FuelDataQualityScore)]
pub struct ScoreOnlyResponse {
    pub(super) score: &'static str,
}

/// Client 3.9.2's `CreateMultiLegShippingEstimateByFuelResponse`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = MultiLegByFuelEstimateDoc)]
pub struct ByFuelEstimateResponse {
    #[serde(flatten)]
    pub(super) base: EstimateResponse,
    /// Per leg, in request order.
    pub(super) legs: Vec<FuelLegResponse>,
    /// The worst of the legs' fuel grades.
    pub(super) data_quality_score: Option<ScoreOnlyResponse>,
    #[serde(flatten)]
    pub(super) shipment: ShipmentFieldsResponse,
}
