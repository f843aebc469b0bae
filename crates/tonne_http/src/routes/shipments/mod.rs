//! `/v1/shipments`: the six Shipments routes of client 3.9.2, one file per
//! use case over `ShipmentsService`, the bodies and query parameters in
//! `wire.rs`. Everything is scoped by the acting account (the key's, or
//! `Lune-Account`'s): another account's batch or shipment is 404 `not_found`.

pub mod calculate;
pub mod get_batch;
pub mod get_shipment;
pub mod list_batches;
pub mod list_shipments;
pub mod report;
pub mod upload;
pub mod wire;

use actix_web::web;
use calculate::calculate_shipments;
use get_batch::get_shipment_batch;
use get_shipment::get_shipment;
use list_batches::list_shipment_batches;
use list_shipments::list_shipments;
use report::shipment_report;
use upload::create_shipment_batch;

/// Registers the routes (the batches' and the report's before `/shipments/{id}`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/shipments/batches")
            .route(web::get().to(list_shipment_batches))
            .route(web::post().to(create_shipment_batch)),
    )
    .service(web::resource("/shipments/batches/{id}").route(web::get().to(get_shipment_batch)))
    .service(web::resource("/shipments/calculate").route(web::post().to(calculate_shipments)))
    .service(web::resource("/shipments/report").route(web::get().to(shipment_report)))
    .service(web::resource("/shipments").route(web::get().to(list_shipments)))
    .service(web::resource("/shipments/{id}").route(web::get().to(get_shipment)));
}
