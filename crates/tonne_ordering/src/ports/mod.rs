//! Ports of the ordering domain: the catalogue's and the orders' storage,
//! the payment and registry adapters, the accounts it reads, and the use
//! cases it offers.

pub use tonne_kernel::StoreError;

mod catalogue;
mod fulfilment;
mod invoices;
mod orders;
mod service;

pub use catalogue::*;
pub use fulfilment::*;
pub use invoices::*;
pub use orders::*;
pub use service::*;
