//! `POST /v1/estimates/individual`: an individual's estimate.

use actix_web::{HttpResponse, web};

use super::conversion;
use super::respond::created;
use super::response_sets::Invalid;
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::routes::estimates::requests::IndividualEstimateRequest;
use crate::routes::estimates::responses::EstimateResponse;
use crate::state::AppState;
use crate::wire::{BodyErrors, KeyErrors};

/// Creates an individual's estimate.
#[utoipa::path(post, path = "/v1/estimates/individual", tag = "Emission estimates", operation_id = "createIndividualEstimate",
    security(("BearerAuth" = [])), request_body = IndividualEstimateRequest,
    responses((status = 200, description = "OK", body = EstimateResponse), Invalid, KeyErrors, BodyErrors))]
pub async fn create_individual(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<IndividualEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    created(&state, &who, conversion::individual(&body.0)?).await
}
