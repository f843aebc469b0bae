//! `POST /v1/estimates/flight`: a flight estimate.

use actix_web::{HttpResponse, web};

use super::conversion;
use super::respond::created;
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::routes::estimates::requests::FlightEstimateRequest;
use crate::routes::estimates::responses::EstimateResponse;
use crate::state::AppState;
use crate::wire::{BodyErrors, ErrorsResponse, KeyErrors};

/// Creates a flight estimate.
#[utoipa::path(post, path = "/v1/estimates/flight", tag = "Emission estimates", operation_id = "createFlightEstimate",
    security(("BearerAuth" = [])), request_body = FlightEstimateRequest,
    responses((status = 200, description = "OK", body = EstimateResponse), (status = 400, description = "Invalid request (airport_invalid for an unknown airport)", body = ErrorsResponse), KeyErrors, BodyErrors))]
pub async fn create_flight(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<FlightEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    created(&state, &who, conversion::flight(&body.0)?).await
}
