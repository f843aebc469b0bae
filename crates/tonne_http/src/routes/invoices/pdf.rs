//! `GET /v1/invoices/{id}/pdf`: an invoice as the PDF a buyer files.

use actix_web::{HttpResponse, web};

use super::get::owned;
use super::wire::NoSuchInvoice;
use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;
use crate::wire::KeyErrors;

/// The invoice's PDF.
#[utoipa::path(get, path = "/v1/invoices/{id}/pdf", tag = "Invoices", operation_id = "getInvoicePdf",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The invoice's id")),
    responses((status = 200, description = "The invoice", content_type = "application/pdf"), NoSuchInvoice, KeyErrors))]
pub async fn pdf(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let invoice = owned(&state, &who, &id).await?;
    let name = crate::invoice::file_name(&invoice);
    let pdf = web::block(move || crate::invoice::render(&invoice))
        .await
        .map_err(|e| ApiError::internal(&anyhow::anyhow!(e).context("rendering an invoice")))?;
    Ok(HttpResponse::Ok()
        .content_type("application/pdf")
        .insert_header((
            "Content-Disposition",
            format!("inline; filename=\"{name}\""),
        ))
        .body(pdf))
}
