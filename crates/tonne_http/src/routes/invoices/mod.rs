//! Invoices over the API (a Tonne extension, docs/API.md "Invoices"):
//! `GET /v1/invoices`, `GET /v1/invoices/{id}` and its PDF,
//! `GET /v1/invoices/{id}/pdf`. An organisation's invoices cover its live
//! orders, so only a key of one of its own live accounts reads them; a test
//! key or a client account's sees none (an empty list, 404 by id).
//!
//! One file per use case beside the wire types (`wire`).

pub mod get;
pub mod list;
pub mod pdf;
mod reader;
pub mod wire;

use actix_web::web;

/// Registers the routes (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/invoices").route(web::get().to(list::list)))
        .service(web::resource("/invoices/{id}/pdf").route(web::get().to(pdf::pdf)))
        .service(web::resource("/invoices/{id}").route(web::get().to(get::get)));
}
