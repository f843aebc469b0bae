//! End-to-end tests: the real server on a random port, spoken to over HTTP, on
//! SQLite and (when `TONNE_TEST_POSTGRES_URL` is set; mandatory under `CI=true`)
//! on PostgreSQL. Response bodies are validated against the reference contract.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod support;

mod accounts;
mod aircraft;
mod browser;
mod card_payments;
mod catalogue;
mod cli;
mod config_file;
mod console;
mod container_files;
mod conventions;
mod dashboard;
mod data_sheets;
mod emission_factors;
mod estimate_fields;
mod estimate_requests;
mod estimates;
mod freight;
mod fuzz;
mod impact;
mod invoices;
mod isolation;
mod lune_pay;
mod offset_links;
mod orders;
mod pact;
mod pact_partners;
mod pact_tad;
mod perimeters;
mod quotas;
mod receivers;
mod recover;
mod resilience;
mod scale_out;
mod security;
mod shipments;
mod shipments_jobs;
mod shipments_report;
mod shipping_analytics;
mod spend;
mod traces;
mod transaction_documents;
mod versions;
mod webhooks;
