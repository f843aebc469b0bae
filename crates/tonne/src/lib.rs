//! Tonne's composition root: settings, wiring of the domain services over the
//! storage adapters, the HTTP server, and the admin CLI.
//!
//! The `tonne` binary is a thin `main` over [`cli::run`]; tests start the same
//! server in-process with [`server::start`].

pub mod catalogue_file;
pub mod cli;
mod fulfilment;
pub mod server;
mod wiring;

pub use wiring::{Services, WebhookOptions, secrets_key};
