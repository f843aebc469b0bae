//! `PATCH /v1/estimates/transaction-documents/{id}/annotations`.

use actix_web::{HttpResponse, web};
use tonne_estimation::estimate::{AnnotationsPatch, EstimateKind};

use super::answer::answered;
use super::wire::{TransactionDocumentResponse, UpdateTransactionDocumentAnnotationsRequest};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::routes::estimates::requests::timestamp;
use crate::state::AppState;
use crate::wire::{BodyErrors, ErrorsResponse, KeyErrors};

/// Changes `is_transaction_document` and `transaction_document_processed_at`
/// (nothing is recomputed; each field absent is unchanged).
#[utoipa::path(patch, path = "/v1/estimates/transaction-documents/{id}/annotations", tag = "Emission estimates", operation_id = "partialUpdateTransactionDocumentsEstimateAnnotations",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")), request_body = UpdateTransactionDocumentAnnotationsRequest,
    responses((status = 200, description = "OK", body = TransactionDocumentResponse), (status = 400, description = "Invalid request", body = ErrorsResponse), (status = 404, description = "Not found", body = ErrorsResponse), KeyErrors, BodyErrors))]
pub async fn patch_transaction_document_annotations(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
    body: JsonBody<UpdateTransactionDocumentAnnotationsRequest>,
) -> Result<HttpResponse, ApiError> {
    let patch = AnnotationsPatch {
        idempotency_key: None,
        metadata: None,
        actual: body.0.is_transaction_document,
        occurred_at: body
            .0
            .transaction_document_processed_at
            .as_deref()
            .map(|t| timestamp("transaction_document_processed_at", t))
            .transpose()?,
    };
    let quoted = state
        .quoted
        .annotate(
            who.account_id(),
            &[EstimateKind::TransactionDocument],
            &id,
            patch,
        )
        .await?;
    answered(Some(quoted))
}
