//! `/v1/estimates/passenger-transportation`: create and read a passenger-transportation estimate.

use actix_web::{HttpResponse, web};
use tonne_estimation::estimate::EstimateKind;

use super::conversion;
use super::respond::{IdPath, created, read};
use super::response_sets::{Invalid, NotFound};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::routes::estimates::requests::PassengerTransportationEstimateRequest;
use crate::routes::estimates::responses::PassengerEstimateResponse;
use crate::state::AppState;
use crate::wire::{BodyErrors, KeyErrors};

/// Creates a passenger-transportation estimate.
#[utoipa::path(post, path = "/v1/estimates/passenger-transportation", tag = "Emission estimates", operation_id = "createPassengerTransportationEstimate",
    security(("BearerAuth" = [])), request_body = PassengerTransportationEstimateRequest,
    responses((status = 200, description = "OK", body = PassengerEstimateResponse), Invalid, KeyErrors, BodyErrors))]
pub async fn create_passenger(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<PassengerTransportationEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    created(&state, &who, conversion::passenger(&body.0)?).await
}

/// Reads a passenger-transportation estimate.
#[utoipa::path(get, path = "/v1/estimates/passenger-transportation/{id}", tag = "Emission estimates", operation_id = "getPassengerTransportationEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = PassengerEstimateResponse), NotFound, KeyErrors))]
pub async fn get_passenger(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
) -> Result<HttpResponse, ApiError> {
    read(
        &state,
        &who,
        EstimateKind::PassengerTransportation,
        &path.id,
    )
    .await
}
