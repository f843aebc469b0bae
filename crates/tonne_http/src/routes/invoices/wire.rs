//! The invoices' wire types: an invoice is `tonne_wire`'s (the same body
//! its `invoice.issued` event carries); a page of them is here.

pub use tonne_wire::invoices::InvoiceResponse;

use crate::wire::paginated;

paginated! {
    /// A page of invoices, highest number first.
    PaginatedInvoices of InvoiceResponse
}
