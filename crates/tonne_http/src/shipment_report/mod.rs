//! The ISO 14083 report of an account's shipments (`GET /v1/shipments/report`,
//! and the console's download): the CSV streamed a page of shipments at a
//! time, or the summary as a PDF drawn with the certificate's renderer.

pub mod pdf;
mod slots;
mod stream;

pub use pdf::{ReportHeading, file_name, render};
pub use slots::{PER_ACCOUNT, Slot};
pub use stream::{csv_body, summary};
