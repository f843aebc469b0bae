//! Tonne's composition root: settings, wiring of the domain services over the
//! storage adapters, the HTTP server, and the admin CLI.
//!
//! The `tonne` binary is a thin `main` over [`cli::run`]; tests start the same
//! server in-process with [`server::start`].

/// The catalogue file format (its own crate, shared with the console).
pub use tonne_catalogue_file as catalogue_file;
mod app;
pub mod cli;
mod fulfilment;
mod jobs;
mod secrets_key;
pub mod server;
mod wiring;

pub use app::app;
pub use fulfilment::{CardProcessors, StripeMode};
pub use secrets_key::secrets_key;
pub use wiring::{InvoiceTerms, Services, WebhookOptions};
