//! The invoices' wire types: an invoice is `tonne_wire`'s (the same body
//! its `invoice.issued` event carries); a page of them is here.

pub use tonne_wire::invoices::InvoiceResponse;

use utoipa::IntoResponses;

use crate::wire::{ErrorsResponse, paginated};

paginated! {
    /// A page of invoices, highest number first.
    PaginatedInvoices of InvoiceResponse
}

/// 404 of a route on one invoice.
#[derive(IntoResponses)]
pub enum NoSuchInvoice {
    /// No such invoice of this organisation
    #[response(status = 404)]
    NotFound(ErrorsResponse),
}
