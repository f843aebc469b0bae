//! The storage adapters' tests, one module per repository or concern, in one
//! binary (one link of the workspace, not twenty): each runs on SQLite and,
//! where `TONNE_TEST_POSTGRES_URL` names a server, on PostgreSQL.

mod allocation_events;
mod async_reads;
mod audit;
mod backup;
mod fixtures;
mod impact;
mod invoices;
mod jobs;
mod offset_links;
mod orders;
mod pact_clients;
mod pact_partners;
mod perimeters;
mod quotas;
mod repositories;
mod shipments;
mod stock;
mod transaction_documents;
mod users;
mod versions;
mod webhooks;
