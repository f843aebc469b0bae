//! `/v1/estimates/company`: create, read and recompute a company estimate.

use actix_web::{HttpResponse, web};
use tonne_estimation::estimate::EstimateKind;

use super::conversion;
use super::respond::{IdPath, created, read, updated};
use super::response_sets::{Invalid, NotFound, Recompute};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::routes::estimates::requests::CompanyEstimateRequest;
use crate::routes::estimates::responses::CompanyEstimateResponse;
use crate::state::AppState;
use crate::wire::{BodyErrors, KeyErrors};

/// Creates a company estimate.
#[utoipa::path(post, path = "/v1/estimates/company", tag = "Emission estimates", operation_id = "createCompanyEstimate",
    security(("BearerAuth" = [])), request_body = CompanyEstimateRequest,
    responses((status = 200, description = "OK", body = CompanyEstimateResponse), Invalid, KeyErrors, BodyErrors))]
pub async fn create_company(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<CompanyEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    created(&state, &who, conversion::company(&body.0)?).await
}

/// Reads a company estimate.
#[utoipa::path(get, path = "/v1/estimates/company/{id}", tag = "Emission estimates", operation_id = "getCompanyEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = CompanyEstimateResponse), NotFound, KeyErrors))]
pub async fn get_company(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
) -> Result<HttpResponse, ApiError> {
    read(&state, &who, EstimateKind::Company, &path.id).await
}

/// Recomputes a company estimate.
#[utoipa::path(put, path = "/v1/estimates/company/{id}", tag = "Emission estimates", operation_id = "updateCompanyEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")), request_body = CompanyEstimateRequest,
    responses((status = 200, description = "OK", body = CompanyEstimateResponse), Recompute, KeyErrors, BodyErrors))]
pub async fn put_company(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
    body: JsonBody<CompanyEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    updated(&state, &who, &path.id, conversion::company(&body.0)?).await
}
