//! The wire types of `emission_factors`: what its requests and answers hold.

use serde::Serialize;
use utoipa::ToSchema;

/// The contract's `GasEmissions`: kg of each gas per unit of the factor's
/// denominator (`co2e` all gases as CO2 equivalent; `methane` and
/// `nitrous_oxide` as masses of those gases).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = GasEmissionsBody)]
pub struct GasEmissionsResponse {
    pub(crate) co2e: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) co2: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) methane: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) nitrous_oxide: Option<String>,
}

/// The contract's `EmissionFactorWithGasEmissions`, with Tonne's `publication`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = EmissionFactorBody)]
pub struct EmissionFactorResponse {
    pub(crate) id: String,
    pub(crate) name: String,
    /// `beis`, `epa`, `exiobase`, `glec` or `lune` (compiled from the open
    /// publication named in `publication`).
    pub(crate) source: &'static str,
    pub(crate) source_version: String,
    pub(crate) publication_year: u16,
    /// Always `kg`.
    pub(crate) numerator_unit: &'static str,
    pub(crate) denominator_unit: &'static str,
    pub(crate) created_at: String,
    pub(crate) region: String,
    pub(crate) category: Option<String>,
    pub(crate) gas_emissions: GasEmissionsResponse,
    /// Tonne's extension: the whole citation, with its licence.
    pub(crate) publication: String,
}
