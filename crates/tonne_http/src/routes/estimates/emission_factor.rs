//! `/v1/estimates/emission-factor`: an estimate from a chosen emission factor (2024), created and read.

use actix_web::{HttpResponse, web};
use tonne_estimation::estimate::EstimateKind;

use super::conversion;
use super::respond::{IdPath, created, read};
use super::response_sets::{Invalid, NotFound};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::routes::estimates::requests::EmissionFactorEstimateRequest;
use crate::routes::estimates::responses::EmissionFactorEstimateResponse;
use crate::state::AppState;
use crate::wire::{BodyErrors, KeyErrors};

/// Creates an estimate from a chosen emission factor (2024).
#[utoipa::path(post, path = "/v1/estimates/emission-factor", tag = "Emission estimates", operation_id = "createEmissionFactorEstimate",
    security(("BearerAuth" = [])), request_body = EmissionFactorEstimateRequest,
    responses((status = 200, description = "OK", body = EmissionFactorEstimateResponse), Invalid, KeyErrors, BodyErrors))]
pub async fn create_emission_factor(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<EmissionFactorEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    created(&state, &who, conversion::emission_factor(&body.0)?).await
}

/// Reads an estimate made from a chosen emission factor.
#[utoipa::path(get, path = "/v1/estimates/emission-factor/{id}", tag = "Emission estimates", operation_id = "getEmissionFactorEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = EmissionFactorEstimateResponse), NotFound, KeyErrors))]
pub async fn get_emission_factor(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
) -> Result<HttpResponse, ApiError> {
    read(&state, &who, EstimateKind::EmissionFactor, &path.id).await
}
