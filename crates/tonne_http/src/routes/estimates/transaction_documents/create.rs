//! `POST /v1/estimates/transaction-documents`.

use actix_web::{HttpResponse, web};

use super::answer::answered;
use super::wire::{
    DOCUMENT_BODY_LIMIT, ToleranceQuery, TransactionDocumentEstimateRequest,
    TransactionDocumentResponse, new_estimate,
};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBodyUpTo};
use crate::state::AppState;
use crate::wire::{BodyErrors, ErrorsResponse, KeyErrors};

/// Estimates a receipt or invoice line by line (or as a whole), stored.
#[utoipa::path(post, path = "/v1/estimates/transaction-documents", tag = "Emission estimates", operation_id = "createTransactionDocumentEstimate",
    security(("BearerAuth" = [])), params(ToleranceQuery), request_body = TransactionDocumentEstimateRequest,
    responses((status = 200, description = "OK", body = TransactionDocumentResponse), (status = 400, description = "Invalid request, or nothing Tonne can read", body = ErrorsResponse), (status = 409, description = "The idempotency key is taken", body = ErrorsResponse), KeyErrors, BodyErrors))]
pub async fn create_transaction_document(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<ToleranceQuery>,
    body: JsonBodyUpTo<TransactionDocumentEstimateRequest, DOCUMENT_BODY_LIMIT>,
) -> Result<HttpResponse, ApiError> {
    if body.0.correlation_id.is_some() {
        return Err(ApiError::validation(
            "correlation_id",
            "is for POST /v1/estimates/transaction-documents/async only",
        ));
    }
    let new = new_estimate(&body.0, query.parse()?)?;
    answered(state.quoted.create(who.account_id(), new).await?)
}
