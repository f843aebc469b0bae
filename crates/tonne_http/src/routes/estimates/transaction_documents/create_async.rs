//! `POST /v1/estimates/transaction-documents/async`: the request is checked
//! at once (400 and nothing written when the synchronous route would refuse
//! it), then queued as a durable job; `202 Accepted` with no body (the
//! client's `void`) and `Location` naming the estimate the job will store.

use actix_web::{HttpResponse, web};
use rust_decimal::Decimal;
use tonne_estimation::document_jobs::DocumentDecoder;
use tonne_estimation::estimate::NewEstimate;

use super::wire::{
    DOCUMENT_BODY_LIMIT, ToleranceQuery, TransactionDocumentEstimateRequest, new_estimate,
};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBodyUpTo};
use crate::state::AppState;
use crate::wire::{BodyErrors, ErrorsResponse, KeyErrors};

/// Queues a receipt or invoice; the estimate reads at `Location` once done.
#[utoipa::path(post, path = "/v1/estimates/transaction-documents/async", tag = "Emission estimates", operation_id = "createTransactionDocumentEstimateAsync",
    security(("BearerAuth" = [])), params(ToleranceQuery), request_body = TransactionDocumentEstimateRequest,
    responses((status = 202, description = "Queued; `Location` names the estimate to come"), (status = 400, description = "Invalid request, or nothing Tonne can read", body = ErrorsResponse), KeyErrors, BodyErrors))]
pub async fn create_transaction_document_async(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<ToleranceQuery>,
    body: JsonBodyUpTo<TransactionDocumentEstimateRequest, DOCUMENT_BODY_LIMIT>,
) -> Result<HttpResponse, ApiError> {
    let tolerance = query.parse()?;
    let new = new_estimate(&body.0, tolerance)?;
    let json =
        serde_json::to_string(&body.0).map_err(|e| ApiError::internal(&anyhow::anyhow!(e)))?;
    let id = state
        .document_jobs
        .submit(
            who.account_id(),
            new,
            json,
            tolerance.to_string(),
            body.0.correlation_id.clone(),
        )
        .await?;
    Ok(HttpResponse::Accepted()
        .insert_header((
            actix_web::http::header::LOCATION,
            format!("/v1/estimates/transaction-documents/{id}"),
        ))
        .finish())
}

/// Reads a queued request again, as the route accepted it.
#[derive(Debug, Clone, Copy, Default)]
pub struct JsonDocumentDecoder;

impl DocumentDecoder for JsonDocumentDecoder {
    fn decode(&self, body: &str, tolerance: &str) -> Result<NewEstimate, String> {
        let request: TransactionDocumentEstimateRequest =
            serde_json::from_str(body).map_err(|e| format!("body: {e}"))?;
        let tolerance: Decimal = tolerance
            .parse()
            .map_err(|_| "relative_amount_tolerance_threshold: not a number".to_owned())?;
        new_estimate(&request, tolerance).map_err(|e| e.to_string())
    }
}
