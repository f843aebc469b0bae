//! `/v1/webhooks`: the contract's six routes, plus `GET /v1/webhooks/{id}/attempts`
//! (an extension, documented in docs/API.md).
//!
//! One file per use case beside the wire types (`wire`) and the ownership
//! rule they share (`owner`).

pub mod attempts;
pub mod create;
pub mod delete;
pub mod get;
pub mod list;
pub mod owner;
pub mod recover;
pub mod rotate_secret;
pub mod update;
pub mod wire;

use actix_web::web;

/// Registers the webhook routes (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/webhooks")
            .route(web::get().to(list::list))
            .route(web::post().to(create::create)),
    )
    .service(
        web::resource("/webhooks/{id}/rotate-secret")
            .route(web::put().to(rotate_secret::rotate_secret)),
    )
    .service(web::resource("/webhooks/{id}/attempts").route(web::get().to(attempts::attempts)))
    .service(web::resource("/webhooks/{id}/recover").route(web::post().to(recover::recover)))
    .service(
        web::resource("/webhooks/{id}")
            .route(web::get().to(get::get))
            .route(web::put().to(update::update))
            .route(web::delete().to(delete::delete)),
    );
}
