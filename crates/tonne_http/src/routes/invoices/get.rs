//! `GET /v1/invoices/{id}`: one of the organisation's invoices.

use actix_web::{HttpResponse, web};
use tonne_ordering::invoices::Invoice;

use super::reader::reader;
use super::wire::{InvoiceResponse, NoSuchInvoice};
use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;
use crate::wire::KeyErrors;

/// The caller's invoice, or 404 as for an unknown id.
pub(super) async fn owned(
    state: &AppState,
    who: &Authenticated,
    id: &str,
) -> Result<Invoice, ApiError> {
    let Some(organisation) = reader(who) else {
        return Err(ApiError::not_found("invoice not found"));
    };
    Ok(state.invoices.invoice(id, Some(organisation)).await?)
}

/// An invoice or credit note.
#[utoipa::path(get, path = "/v1/invoices/{id}", tag = "Invoices", operation_id = "getInvoice",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The invoice's id")),
    responses((status = 200, description = "OK", body = InvoiceResponse), NoSuchInvoice, KeyErrors))]
pub async fn get(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let invoice = owned(&state, &who, &id).await?;
    Ok(HttpResponse::Ok().json(InvoiceResponse::from(&invoice)))
}
