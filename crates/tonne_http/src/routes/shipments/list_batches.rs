//! `GET /v1/shipments/batches`.

use actix_web::{HttpRequest, HttpResponse, web};
use tonne_shipments::ShipmentBatchId;

use super::wire::{PaginatedShipmentBatchesBody, Query, ShipmentBatchSummaryResponse};
use crate::error::ApiError;
use crate::extract::{Authenticated, PageQuery};
use crate::state::AppState;
use crate::wire::{ErrorsResponse, KeyErrors};

/// The account's batches, most recent first; counts and `batch_error` are
/// null until a batch is processed.
#[utoipa::path(get, path = "/v1/shipments/batches", tag = "Shipments", operation_id = "listShipmentBatches",
    security(("BearerAuth" = [])),
    params(PageQuery,
        ("source" = Option<Vec<String>>, Query, description = "Only batches from these channels (`api`, `data_sheet`); repeat the key for several")),
    responses(
        (status = 200, description = "OK", body = PaginatedShipmentBatchesBody),
        (status = 400, description = "Bad limit, cursor or source", body = ErrorsResponse),
        KeyErrors,
    ))]
pub async fn list_shipment_batches(
    state: web::Data<AppState>,
    who: Authenticated,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let query = Query::of(&req)?;
    let page = query.page::<ShipmentBatchId>()?;
    let sources = query.sources()?;
    let batches = state
        .shipments
        .batches(who.account_id(), sources, page)
        .await?;
    Ok(PaginatedShipmentBatchesBody::answer(
        &batches,
        |b| b.id.to_string(),
        ShipmentBatchSummaryResponse::of,
    ))
}
