//! `/v1/estimates/shipping/multi-leg`: create, read, recompute and annotate a multi-leg
//! shipping estimate.

use actix_web::{HttpResponse, web};
use tonne_estimation::estimate::EstimateKind;

use super::conversion;
use super::on_behalf;
use super::respond::{AnnotationsPath, IdPath, annotated, created_in, read_in, updated_in};
use super::response_sets::{Annotate, Invalid, NotFound, Recompute};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::routes::estimates::requests::{
    MultiLegShippingEstimateRequest, UpdateShippingEstimateAnnotationsRequest,
};
use crate::routes::estimates::responses::{EstimateMassUnitQuery, MultiLegEstimateResponse};
use crate::state::AppState;
use crate::wire::{BodyErrors, KeyErrors};

/// Creates a multi-leg shipping estimate.
#[utoipa::path(post, path = "/v1/estimates/shipping/multi-leg", tag = "Emission estimates", operation_id = "createMultiLegShippingEstimate",
    security(("BearerAuth" = [])), params(EstimateMassUnitQuery), request_body = MultiLegShippingEstimateRequest,
    responses((status = 200, description = "OK", body = MultiLegEstimateResponse), Invalid, KeyErrors, BodyErrors))]
pub async fn create_multi_leg(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<EstimateMassUnitQuery>,
    body: JsonBody<MultiLegShippingEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    let new = conversion::multi_leg(&body.0)?;
    let who = on_behalf::acting_as(&state, who, body.0.client_account.as_ref()).await?;
    created_in(&state, &who, new, &query).await
}

/// Reads a multi-leg shipping estimate.
#[utoipa::path(get, path = "/v1/estimates/shipping/multi-leg/{id}", tag = "Emission estimates", operation_id = "getMultiLegShippingEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id"), EstimateMassUnitQuery),
    responses((status = 200, description = "OK", body = MultiLegEstimateResponse), NotFound, KeyErrors))]
pub async fn get_multi_leg(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<EstimateMassUnitQuery>,
    path: web::Path<IdPath>,
) -> Result<HttpResponse, ApiError> {
    read_in(
        &state,
        &who,
        EstimateKind::MultiLegShipping,
        &path.id,
        &query,
    )
    .await
}

/// Recomputes a multi-leg shipping estimate.
#[utoipa::path(put, path = "/v1/estimates/shipping/multi-leg/{id}", tag = "Emission estimates", operation_id = "updateMultiLegShippingEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id"), EstimateMassUnitQuery), request_body = MultiLegShippingEstimateRequest,
    responses((status = 200, description = "OK", body = MultiLegEstimateResponse), Recompute, KeyErrors, BodyErrors))]
pub async fn put_multi_leg(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<EstimateMassUnitQuery>,
    path: web::Path<IdPath>,
    body: JsonBody<MultiLegShippingEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    let new = conversion::multi_leg(&body.0)?;
    let who = on_behalf::acting_as(&state, who, body.0.client_account.as_ref()).await?;
    updated_in(&state, &who, &path.id, new, &query).await
}

/// Changes a multi-leg shipping estimate's annotations (nothing is recomputed).
#[utoipa::path(patch, path = "/v1/estimates/shipping/multi-leg/{id}/annotations", tag = "Emission estimates", operation_id = "updateMultiLegShippingEstimateAnnotations",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")), request_body = UpdateShippingEstimateAnnotationsRequest,
    responses((status = 200, description = "OK", body = MultiLegEstimateResponse), Annotate, KeyErrors, BodyErrors))]
pub async fn patch_multi_leg_annotations(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<AnnotationsPath>,
    body: JsonBody<UpdateShippingEstimateAnnotationsRequest>,
) -> Result<HttpResponse, ApiError> {
    let patch = conversion::shipping_annotations(&body.0)?;
    annotated(
        &state,
        &who,
        EstimateKind::MultiLegShipping,
        &path.id,
        patch,
    )
    .await
}
