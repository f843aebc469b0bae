//! `/v1/offset-links`: the contract's five routes, plus
//! `GET /v1/offset-links/{id}/analytics/chart.svg` (an extension, docs/API.md).
//!
//! One file per use case beside the wire types (`wire`).

pub mod analytics;
pub mod create;
pub mod get;
pub mod list;
pub mod logo;
pub mod update;
pub mod wire;

use actix_web::web;

/// Registers the offset link routes (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/offset-links")
            .route(web::get().to(list::list))
            .route(web::post().to(create::create)),
    )
    .service(
        web::resource("/offset-links/{id}/analytics/chart.svg")
            .route(web::get().to(analytics::chart)),
    )
    .service(
        web::resource("/offset-links/{id}/analytics").route(web::get().to(analytics::analytics)),
    )
    .service(
        web::resource("/offset-links/{id}")
            .route(web::get().to(get::get))
            .route(web::put().to(update::update)),
    );
}
