//! `/v1/estimates/transactions`: create, read (by id or idempotency key), recompute and
//! annotate a transaction estimate.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use tonne_estimation::estimate::{EstimateKind, NewEstimate};

use super::conversion;
use super::on_behalf;
use super::quoting::answer;
use super::respond::{AnnotationsPath, IdPath, annotated, created, read, respond, updated};
use super::response_sets::{Annotate, Invalid, NotFound, Recompute};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::routes::estimates::requests::{
    TransactionEstimateRequest, UpdateTransactionEstimateAnnotationsRequest,
};
use crate::routes::estimates::responses::TransactionEstimateResponse;
use crate::state::AppState;
use crate::wire::{BodyErrors, KeyErrors};

/// The estimate a transaction body asks for (in either spelling of its
/// fields), and the caller it is made for: the body's client account, if it
/// names one.
async fn submitted(
    state: &AppState,
    who: Authenticated,
    req: &HttpRequest,
    body: JsonBody<TransactionEstimateRequest>,
) -> Result<(NewEstimate, Authenticated), ApiError> {
    let mut body = body.0;
    on_behalf::in_2024_spelling(req, &mut body);
    let new = conversion::transaction(&body)?;
    let who = on_behalf::acting_as(state, who, body.client_account.as_ref()).await?;
    Ok((new, who))
}

/// Creates a transaction estimate (204 for money movement).
#[utoipa::path(post, path = "/v1/estimates/transactions", tag = "Emission estimates", operation_id = "createTransactionEstimate",
    security(("BearerAuth" = [])), request_body = TransactionEstimateRequest,
    responses((status = 200, description = "OK", body = TransactionEstimateResponse), (status = 204, description = "Money movement: nothing to estimate"), Invalid, KeyErrors, BodyErrors))]
pub async fn create_transaction(
    state: web::Data<AppState>,
    who: Authenticated,
    req: HttpRequest,
    body: JsonBody<TransactionEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    let (new, who) = submitted(&state, who, &req, body).await?;
    created(&state, &who, new).await
}

/// Reads a transaction estimate.
#[utoipa::path(get, path = "/v1/estimates/transactions/{id}", tag = "Emission estimates", operation_id = "getTransactionEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = TransactionEstimateResponse), (status = 204, description = "Money movement"), NotFound, KeyErrors))]
pub async fn get_transaction(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
) -> Result<HttpResponse, ApiError> {
    read(&state, &who, EstimateKind::Transaction, &path.id).await
}

/// Path idempotency key.
#[derive(Debug, Deserialize)]
pub struct IdempotencyKeyPath {
    idempotency_key: String,
}

/// Reads a transaction estimate by the idempotency key it was created with.
#[utoipa::path(get, path = "/v1/estimates/transactions/by-idempotency-key/{idempotency_key}", tag = "Emission estimates", operation_id = "getTransactionEstimateByIdempotencyKey",
    security(("BearerAuth" = [])), params(("idempotency_key" = String, Path, description = "The key the estimate was created with")),
    responses((status = 200, description = "OK", body = TransactionEstimateResponse), NotFound, KeyErrors))]
pub async fn get_transaction_by_idempotency_key(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdempotencyKeyPath>,
) -> Result<HttpResponse, ApiError> {
    let quoted = state
        .quoted
        .get_by_idempotency_key(
            who.account_id(),
            Some(EstimateKind::Transaction),
            &path.idempotency_key,
        )
        .await?;
    Ok(respond(answer(quoted)?))
}

/// Recomputes a transaction estimate.
#[utoipa::path(put, path = "/v1/estimates/transactions/{id}", tag = "Emission estimates", operation_id = "updateTransactionEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")), request_body = TransactionEstimateRequest,
    responses((status = 200, description = "OK", body = TransactionEstimateResponse), (status = 204, description = "Money movement"), Recompute, KeyErrors, BodyErrors))]
pub async fn put_transaction(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
    req: HttpRequest,
    body: JsonBody<TransactionEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    let (new, who) = submitted(&state, who, &req, body).await?;
    updated(&state, &who, &path.id, new).await
}

/// Changes a transaction estimate's annotations (nothing is recomputed).
#[utoipa::path(patch, path = "/v1/estimates/transactions/{id}/annotations", tag = "Emission estimates", operation_id = "partialUpdateTransactionsEstimateAnnotations",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")), request_body = UpdateTransactionEstimateAnnotationsRequest,
    responses((status = 200, description = "OK", body = TransactionEstimateResponse), Annotate, KeyErrors, BodyErrors))]
pub async fn patch_transaction_annotations(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<AnnotationsPath>,
    body: JsonBody<UpdateTransactionEstimateAnnotationsRequest>,
) -> Result<HttpResponse, ApiError> {
    let patch = conversion::transaction_annotations(&body.0)?;
    annotated(&state, &who, EstimateKind::Transaction, &path.id, patch).await
}
