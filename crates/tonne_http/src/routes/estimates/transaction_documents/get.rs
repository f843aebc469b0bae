//! `GET /v1/estimates/transaction-documents/{id}`.

use actix_web::{HttpResponse, web};
use tonne_estimation::estimate::EstimateKind;

use super::answer::answered;
use super::wire::TransactionDocumentResponse;
use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;
use crate::wire::{ErrorsResponse, KeyErrors};

/// A transaction document estimate as it was computed.
#[utoipa::path(get, path = "/v1/estimates/transaction-documents/{id}", tag = "Emission estimates", operation_id = "getTransactionDocumentEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = TransactionDocumentResponse), (status = 404, description = "Not found", body = ErrorsResponse), KeyErrors))]
pub async fn get_transaction_document(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let quoted = state
        .quoted
        .get(
            who.account_id(),
            Some(EstimateKind::TransactionDocument),
            &id,
        )
        .await?;
    answered(Some(quoted))
}
