//! The passenger answer (`PassengerTransportationEmissionEstimate`) and its legs.

use serde::Serialize;
use tonne_estimation::Distance;
use tonne_estimation::explain::Part;
use tonne_kernel::Mass;
use utoipa::ToSchema;

use super::amounts::{DistanceResponse, MassResponse, distance_response, mass_response};
use super::base::EstimateResponse;
use super::factor::{EmissionFactorResponse, emission_factor};

/// One passenger leg's estimate.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = PassengerLegDoc)]
pub struct PassengerLegResponse {
    pub(super) mass: MassResponse,
    /// The distance the leg's factor multiplied (omitted for estimates stored
    /// before Tonne kept their explanation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) distance: Option<DistanceResponse>,
    /// The leg's DESNZ factor, with its gases and well-to-tank row; `null`
    /// for estimates stored before Tonne kept their explanation.
    pub(super) emission_factor: Option<EmissionFactorResponse>,
}

pub(super) fn passenger_leg(m: Mass, part: Option<&Part>) -> PassengerLegResponse {
    PassengerLegResponse {
        mass: mass_response(m),
        distance: part
            .and_then(|p| p.quantities.iter().find(|q| q.name == "distance"))
            .map(|q| distance_response(&Distance::from_km(q.amount))),
        emission_factor: part.and_then(Part::emission_factor).map(emission_factor),
    }
}

/// The contract's `PassengerTransportationEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = PassengerEstimateDoc)]
pub struct PassengerEstimateResponse {
    #[serde(flatten)]
    pub(super) base: EstimateResponse,
    /// Per leg, in request order.
    pub(super) legs: Vec<PassengerLegResponse>,
    /// As sent or annotated (default `false`).
    pub(super) is_passenger_transportation: bool,
    /// As sent or annotated (RFC 3339); omitted when never said.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) passenger_transportation_travelled_at: Option<String>,
}
