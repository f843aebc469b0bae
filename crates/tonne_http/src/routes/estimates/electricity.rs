//! `/v1/estimates/electricity`: create, read and recompute an electricity estimate.

use actix_web::{HttpResponse, web};
use tonne_estimation::estimate::EstimateKind;

use super::conversion;
use super::respond::{IdPath, created, read, updated};
use super::response_sets::{Invalid, NotFound, Recompute};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::routes::estimates::requests::ElectricityEstimateRequest;
use crate::routes::estimates::responses::EstimateResponse;
use crate::state::AppState;
use crate::wire::{BodyErrors, KeyErrors};

/// Creates an electricity estimate.
#[utoipa::path(post, path = "/v1/estimates/electricity", tag = "Emission estimates", operation_id = "createElectricityEstimate",
    security(("BearerAuth" = [])), request_body = ElectricityEstimateRequest,
    responses((status = 200, description = "OK", body = EstimateResponse), Invalid, KeyErrors, BodyErrors))]
pub async fn create_electricity(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<ElectricityEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    created(&state, &who, conversion::electricity(&body.0)?).await
}

/// Reads an electricity estimate.
#[utoipa::path(get, path = "/v1/estimates/electricity/{id}", tag = "Emission estimates", operation_id = "getElectricityEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = EstimateResponse), NotFound, KeyErrors))]
pub async fn get_electricity(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
) -> Result<HttpResponse, ApiError> {
    read(&state, &who, EstimateKind::Electricity, &path.id).await
}

/// Recomputes an electricity estimate.
#[utoipa::path(put, path = "/v1/estimates/electricity/{id}", tag = "Emission estimates", operation_id = "updateElectricityEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")), request_body = ElectricityEstimateRequest,
    responses((status = 200, description = "OK", body = EstimateResponse), Recompute, KeyErrors, BodyErrors))]
pub async fn put_electricity(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
    body: JsonBody<ElectricityEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    updated(&state, &who, &path.id, conversion::electricity(&body.0)?).await
}
