//! `GET /v1/invoices`: the organisation's invoices and credit notes, highest
//! number first.

use actix_web::{HttpResponse, web};
use tonne_kernel::Page;

use super::reader::reader;
use super::wire::{InvoiceResponse, PaginatedInvoices};
use crate::error::ApiError;
use crate::extract::{Authenticated, PageQuery};
use crate::state::AppState;
use crate::wire::{InvalidParameter, KeyErrors};

/// The organisation's invoices and credit notes.
#[utoipa::path(get, path = "/v1/invoices", tag = "Invoices", operation_id = "listInvoices",
    security(("BearerAuth" = [])), params(PageQuery),
    responses((status = 200, description = "OK (empty for a test key or a client account)", body = PaginatedInvoices), InvalidParameter, KeyErrors))]
pub async fn list(
    state: web::Data<AppState>,
    who: Authenticated,
    page: web::Query<PageQuery>,
) -> Result<HttpResponse, ApiError> {
    let request = page.page()?;
    let page = match reader(&who) {
        Some(organisation) => state.invoices.invoices(Some(organisation), request).await?,
        None => Page {
            items: Vec::new(),
            has_more: false,
        },
    };
    Ok(PaginatedInvoices::answer(
        &page,
        |i| i.id.to_string(),
        |i| InvoiceResponse::from(i),
    ))
}
