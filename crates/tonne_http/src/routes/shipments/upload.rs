//! `POST /v1/shipments/batches`: stores the rows as sent; they are checked
//! when the batch is processed.

use actix_web::{HttpResponse, web};
use tonne_shipments::{BatchSource, Owner, Upload};

use super::wire::{CreateShipmentBatchRequest, CreatedBatchResponse};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBodyUpTo};
use crate::state::{AppState, SHIPMENT_BATCH_BODY_LIMIT};
use crate::wire::{BodyErrors, ErrorsResponse, KeyErrors};

/// Uploads a batch of shipments (1 to 10,000 rows, body up to 32 MiB). Only
/// the body's structure is checked now; each row is checked, and becomes a
/// shipment or a row error naming its field, in the background.
#[utoipa::path(post, path = "/v1/shipments/batches", tag = "Shipments", operation_id = "createShipmentBatch",
    security(("BearerAuth" = [])), request_body = CreateShipmentBatchRequest,
    responses((status = 200, description = "OK", body = CreatedBatchResponse), (status = 400, description = "Not 1 to 10,000 objects in `shipments`, or a bad idempotency key", body = ErrorsResponse), (status = 422, description = "account_limit_reached: the account stores the most shipments or bytes allowed (max_stored_shipments, max_stored_bytes)", body = ErrorsResponse), (status = 409, description = "shipment_batch_idempotency_already_exists", body = ErrorsResponse), KeyErrors, BodyErrors))]
pub async fn create_shipment_batch(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBodyUpTo<CreateShipmentBatchRequest, SHIPMENT_BATCH_BODY_LIMIT>,
) -> Result<HttpResponse, ApiError> {
    let mut body = body.0;
    let shipments = std::mem::take(&mut body.shipments);
    // up to 10,000 rows written out again: a large batch on the blocking
    // pool, not this worker's time (another tenant's request may wait on it)
    let rows = if shipments.len() <= WRITE_INLINE_UP_TO {
        rows_as_text(&shipments)?
    } else {
        web::block(move || rows_as_text(&shipments))
            .await
            .map_err(|e| ApiError::internal(&anyhow::anyhow!(e)))??
    };
    let account = state.accounts.me(&who.0).await?;
    let owner = Owner {
        account_id: who.account_id(),
        account_name: account.name.as_str().to_owned(),
    };
    let id = state
        .shipments
        .upload(
            &owner,
            Upload {
                rows,
                contact_id: body.contact_id,
                idempotency_key: body.idempotency_key,
                calculate: body.calculate_emissions.unwrap_or(false),
                source: BatchSource::Api,
                data_sheet: None,
            },
        )
        .await?;
    Ok(HttpResponse::Ok().json(CreatedBatchResponse { id: id.to_string() }))
}

/// Batches of up to this many rows are written out on the request's worker
/// (a hop to the blocking pool would cost more than the work).
const WRITE_INLINE_UP_TO: usize = 100;

/// Each row as its JSON text, or 400 naming the first row that is not an object.
fn rows_as_text(shipments: &[serde_json::Value]) -> Result<Vec<String>, ApiError> {
    shipments
        .iter()
        .enumerate()
        .map(|(i, row)| {
            if row.is_object() {
                Ok(row.to_string())
            } else {
                Err(ApiError::validation(
                    &format!("shipments[{i}]"),
                    "must be an object (CreateShipmentRequest)",
                ))
            }
        })
        .collect()
}
