//! `/v1/accounts` and `/v1/accounts/client`: one file per use case (read the
//! account the key acts as, list, create, update, logos) beside the wire types
//! (`requests`, `responses`, `visibility`) they speak.

pub mod create;
pub mod delete_logo;
pub mod list;
pub mod logos;
pub mod me;
pub mod requests;
pub mod responses;
pub mod update;
pub mod visibility;

use actix_web::web;

pub use visibility::ExternalPagesVisibilityCode;

/// Registers the public logo route (outside `/v1`: no key needed).
pub fn configure_public(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/logos/{id}").route(web::get().to(logos::serve_logo)));
}

/// Registers the account routes (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/accounts/me").route(web::get().to(me::me)))
        .service(
            web::resource("/accounts/client")
                .route(web::get().to(list::list_clients))
                .route(web::post().to(create::create_client)),
        )
        .service(web::resource("/accounts/client/me").route(web::get().to(me::client_me)))
        .service(
            web::resource("/accounts/client/{id}")
                .route(web::put().to(update::update_client))
                .route(web::patch().to(update::patch_client)),
        )
        .service(
            web::resource("/accounts/client/{id}/logo")
                .route(web::post().to(logos::client_logo))
                .route(web::delete().to(delete_logo::client_logo)),
        )
        .service(
            web::resource("/accounts")
                .route(web::get().to(list::list_accounts))
                .route(web::post().to(create::create_pair)),
        )
        .service(
            web::resource("/accounts/{id}")
                .route(web::put().to(update::update_account))
                .route(web::patch().to(update::patch_account)),
        )
        .service(
            web::resource("/accounts/{id}/logo")
                .route(web::post().to(logos::account_logo))
                .route(web::delete().to(delete_logo::account_logo)),
        );
}
