//! Lune Pay over the API: `GET /v1/payments/by-temporary-id/{temporary_id}`
//! (client 3.9.2's `getPaymentByTemporaryId`) and the account's allowed
//! return origins, `GET`/`PUT /v1/lune-pay/origins` (a Tonne extension,
//! docs/API.md "Payments"). The page itself is `tonne_pages`' `/pay/{id}`.
//!
//! One file per use case beside the wire types (`wire`).

pub mod by_temporary_id;
pub mod origins;
pub mod wire;

use actix_web::web;

/// Registers the routes (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/payments/by-temporary-id/{temporary_id}")
            .route(web::get().to(by_temporary_id::by_temporary_id)),
    )
    .service(
        web::resource("/lune-pay/origins")
            .route(web::get().to(origins::get))
            .route(web::put().to(origins::put)),
    );
}
