//! `/v1/estimates/shipping`: create, read, recompute and annotate a single-leg shipping estimate.

use actix_web::{HttpResponse, web};
use tonne_estimation::estimate::EstimateKind;

use super::conversion;
use super::respond::{AnnotationsPath, IdPath, annotated, created_in, read_in, updated_in};
use super::response_sets::{Annotate, NotFound, Recompute};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::routes::estimates::requests::{
    ShippingEstimateRequest, UpdateShippingEstimateAnnotationsRequest,
};
use crate::routes::estimates::responses::{EstimateMassUnitQuery, ShippingEstimateResponse};
use crate::state::AppState;
use crate::wire::{BodyErrors, ErrorsResponse, KeyErrors};

/// Creates a single-leg shipping estimate.
#[utoipa::path(post, path = "/v1/estimates/shipping", tag = "Emission estimates", operation_id = "createShippingEstimate",
    security(("BearerAuth" = [])), params(EstimateMassUnitQuery), request_body = ShippingEstimateRequest,
    responses((status = 200, description = "OK", body = ShippingEstimateResponse), (status = 400, description = "Invalid request (port_not_found, airport_invalid, address_not_found)", body = ErrorsResponse), KeyErrors, BodyErrors))]
pub async fn create_shipping(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<EstimateMassUnitQuery>,
    body: JsonBody<ShippingEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    created_in(&state, &who, conversion::shipping(&body.0)?, &query).await
}

/// Reads a single-leg shipping estimate.
#[utoipa::path(get, path = "/v1/estimates/shipping/{id}", tag = "Emission estimates", operation_id = "getShippingEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id"), EstimateMassUnitQuery),
    responses((status = 200, description = "OK", body = ShippingEstimateResponse), NotFound, KeyErrors))]
pub async fn get_shipping(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<EstimateMassUnitQuery>,
    path: web::Path<IdPath>,
) -> Result<HttpResponse, ApiError> {
    read_in(&state, &who, EstimateKind::Shipping, &path.id, &query).await
}

/// Recomputes a single-leg shipping estimate.
#[utoipa::path(put, path = "/v1/estimates/shipping/{id}", tag = "Emission estimates", operation_id = "updateShippingEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id"), EstimateMassUnitQuery), request_body = ShippingEstimateRequest,
    responses((status = 200, description = "OK", body = ShippingEstimateResponse), Recompute, KeyErrors, BodyErrors))]
pub async fn put_shipping(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<EstimateMassUnitQuery>,
    path: web::Path<IdPath>,
    body: JsonBody<ShippingEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    updated_in(
        &state,
        &who,
        &path.id,
        conversion::shipping(&body.0)?,
        &query,
    )
    .await
}

/// Changes a single-leg shipping estimate's annotations (nothing is recomputed).
#[utoipa::path(patch, path = "/v1/estimates/shipping/{id}/annotations", tag = "Emission estimates", operation_id = "updateShippingEstimateAnnotations",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")), request_body = UpdateShippingEstimateAnnotationsRequest,
    responses((status = 200, description = "OK", body = ShippingEstimateResponse), Annotate, KeyErrors, BodyErrors))]
pub async fn patch_shipping_annotations(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<AnnotationsPath>,
    body: JsonBody<UpdateShippingEstimateAnnotationsRequest>,
) -> Result<HttpResponse, ApiError> {
    let patch = conversion::shipping_annotations(&body.0)?;
    annotated(&state, &who, EstimateKind::Shipping, &path.id, patch).await
}
