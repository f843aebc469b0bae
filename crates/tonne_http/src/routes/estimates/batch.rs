//! `POST /v1/estimates/transactions/batch`: 1 to 100 transactions, each estimated on
//! its own, answered in request order.

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;

use super::conversion;
use super::on_behalf;
use super::quoting::answer;
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::routes::estimates::requests::TransactionEstimateRequest;
use crate::routes::estimates::responses::BatchEntryResponse;
use crate::state::AppState;
use crate::wire::{BodyErrors, ErrorsResponse, KeyErrors};

/// Estimates 1 to 100 transactions, each on its own; answers in request order.
#[utoipa::path(post, path = "/v1/estimates/transactions/batch", tag = "Emission estimates", operation_id = "createBatchTransactionEstimate",
    security(("BearerAuth" = [])), request_body = Vec<TransactionEstimateRequest>,
    responses((status = 200, description = "Estimates, Errors objects or {} in request order", body = Vec<Object>), (status = 400, description = "Not an array of 1 to 100 entries", body = ErrorsResponse), KeyErrors, BodyErrors))]
pub async fn create_batch(
    state: web::Data<AppState>,
    who: Authenticated,
    req: HttpRequest,
    body: JsonBody<Vec<Value>>,
) -> Result<HttpResponse, ApiError> {
    let entries = body.0;
    let max = state.config.batch_limit;
    if entries.is_empty() || entries.len() > max {
        return Err(ApiError::validation(
            "body",
            format!("must be an array of 1 to {max} transactions"),
        ));
    }
    // each entry on its own: parse, keeping refusals in place
    let mut parsed = Vec::with_capacity(entries.len());
    let mut batch = Vec::new();
    for (i, entry) in entries.into_iter().enumerate() {
        let outcome = serde_path_to_error::deserialize::<_, TransactionEstimateRequest>(entry)
            .map_err(|e| ApiError::validation(&format!("[{i}].{}", e.path()), e.into_inner()))
            .and_then(|mut b| {
                on_behalf::in_2024_spelling(&req, &mut b);
                on_behalf::alone(&b, i).and_then(|()| conversion::transaction(&b))
            });
        parsed.push(match outcome {
            Ok(new) => {
                batch.push(new);
                None
            }
            Err(e) => Some(e.body_json()),
        });
    }
    let mut computed = state
        .quoted
        .create_many(who.account_id(), batch)
        .await?
        .into_iter();
    let mut answers = Vec::with_capacity(parsed.len());
    for refusal in parsed {
        answers.push(match refusal {
            Some(errors) => BatchEntryResponse::Errors(errors),
            None => match computed.next() {
                Some(Ok(Some(quoted))) => match answer(quoted)? {
                    Some(a) => BatchEntryResponse::Estimate(Box::new(a)),
                    None => BatchEntryResponse::Empty {},
                },
                Some(Ok(None)) => BatchEntryResponse::Empty {},
                Some(Err(e)) => BatchEntryResponse::Errors(ApiError::from(e).body_json()),
                None => {
                    return Err(ApiError::internal(&anyhow::anyhow!("an entry is missing")));
                }
            },
        });
    }
    Ok(HttpResponse::Ok().json(answers))
}
