//! `/v1/estimates/*`: the estimate kinds (the 2024 document's eight, and
//! client 3.9.2's multi-leg shipping by fuel) and batch transactions.
//!
//! One file per estimate kind. Each handler parses the contract's request
//! (`requests`), makes it the domain's `NewEstimate` (`conversion`), calls the
//! "estimate answered with its quote" use case (`tonne_quoted`, through
//! `AppState::quoted`, in `respond`) and renders the answer (`quoting`,
//! `responses`); `response_sets` holds the error answers they document alike. A quote that cannot be made (no priced
//! bundle, bad selection…) is the `Errors` object in `quote`; the estimate
//! itself still succeeds.

pub mod batch;
pub mod by_fuel;
pub mod company;
pub mod conversion;
pub mod electricity;
pub mod emission_factor;
pub mod flight;
pub mod individual;
pub mod multi_leg;
pub mod on_behalf;
pub mod passenger;
pub mod passenger_annotations;
pub mod quoting;
pub mod requests;
pub mod respond;
pub mod response_sets;
pub mod responses;
pub mod shipping;
pub mod shipping_list;
pub mod transaction_documents;
pub mod transactions;

use actix_web::web;

/// Registers the estimate routes (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/estimates/electricity")
            .route(web::post().to(electricity::create_electricity)),
    )
    .service(
        web::resource("/estimates/emission-factor")
            .route(web::post().to(emission_factor::create_emission_factor)),
    )
    .service(
        web::resource("/estimates/emission-factor/{id}")
            .route(web::get().to(emission_factor::get_emission_factor)),
    )
    .service(
        web::resource("/estimates/electricity/{id}")
            .route(web::get().to(electricity::get_electricity))
            .route(web::put().to(electricity::put_electricity)),
    )
    .service(web::resource("/estimates/flight").route(web::post().to(flight::create_flight)))
    .service(
        web::resource("/estimates/passenger-transportation")
            .route(web::post().to(passenger::create_passenger)),
    )
    .service(
        web::resource("/estimates/passenger-transportation/{id}")
            .route(web::get().to(passenger::get_passenger)),
    )
    .service(
        web::resource("/estimates/passenger-transportation/{id}/annotations")
            .route(web::patch().to(passenger_annotations::patch_passenger_annotations)),
    )
    .service(web::resource("/estimates/shipping").route(web::post().to(shipping::create_shipping)))
    .service(
        web::resource("/estimates/shipping/all").route(web::get().to(shipping_list::list_shipping)),
    )
    .service(
        web::resource("/estimates/shipping/multi-leg")
            .route(web::post().to(multi_leg::create_multi_leg)),
    )
    .service(
        web::resource("/estimates/shipping/multi-leg/by-fuel")
            .route(web::post().to(by_fuel::create_multi_leg_by_fuel)),
    )
    .service(
        web::resource("/estimates/shipping/multi-leg/by-fuel/{id}")
            .route(web::get().to(by_fuel::get_multi_leg_by_fuel)),
    )
    .service(
        web::resource("/estimates/shipping/multi-leg/{id}/annotations")
            .route(web::patch().to(multi_leg::patch_multi_leg_annotations)),
    )
    .service(
        web::resource("/estimates/shipping/{id}/annotations")
            .route(web::patch().to(shipping::patch_shipping_annotations)),
    )
    .service(
        web::resource("/estimates/transactions/{id}/annotations")
            .route(web::patch().to(transactions::patch_transaction_annotations)),
    )
    .service(
        web::resource("/estimates/shipping/multi-leg/{id}")
            .route(web::get().to(multi_leg::get_multi_leg))
            .route(web::put().to(multi_leg::put_multi_leg)),
    )
    .service(
        web::resource("/estimates/shipping/{id}")
            .route(web::get().to(shipping::get_shipping))
            .route(web::put().to(shipping::put_shipping)),
    )
    .service(
        web::resource("/estimates/transactions")
            .route(web::post().to(transactions::create_transaction)),
    )
    .service(
        web::resource("/estimates/transactions/batch").route(web::post().to(batch::create_batch)),
    )
    .service(
        web::resource("/estimates/transactions/by-idempotency-key/{idempotency_key}")
            .route(web::get().to(transactions::get_transaction_by_idempotency_key)),
    )
    .service(
        web::resource("/estimates/transactions/{id}")
            .route(web::get().to(transactions::get_transaction))
            .route(web::put().to(transactions::put_transaction)),
    )
    .service(web::resource("/estimates/company").route(web::post().to(company::create_company)))
    .service(
        web::resource("/estimates/company/{id}")
            .route(web::get().to(company::get_company))
            .route(web::put().to(company::put_company)),
    )
    .service(
        web::resource("/estimates/individual").route(web::post().to(individual::create_individual)),
    );
}
