//! Client 3.9.2's transaction documents (`/v1/estimates/transaction-documents`:
//! a receipt or invoice estimated line by line, stored as an estimate of the
//! kind `transaction_document`), one file per route over the estimate use
//! cases (`tonne_quoted`), the bodies in `wire.rs`; and the multi-match
//! transaction estimate (`/v1/estimates/transactions/multi-match`).

pub mod annotations;
mod answer;
pub mod create;
pub mod create_async;
pub mod get;
pub mod multi_match;
pub mod wire;

use actix_web::web;

/// Registers the routes; before `routes::estimates` (whose
/// `/estimates/transactions/{id}` would take `multi-match`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/estimates/transaction-documents")
            .route(web::post().to(create::create_transaction_document)),
    )
    .service(
        web::resource("/estimates/transaction-documents/async")
            .route(web::post().to(create_async::create_transaction_document_async)),
    )
    .service(
        web::resource("/estimates/transaction-documents/{id}/annotations")
            .route(web::patch().to(annotations::patch_transaction_document_annotations)),
    )
    .service(
        web::resource("/estimates/transaction-documents/{id}")
            .route(web::get().to(get::get_transaction_document)),
    )
    .service(
        web::resource("/estimates/transactions/multi-match")
            .route(web::post().to(multi_match::create_multi_match)),
    );
}
