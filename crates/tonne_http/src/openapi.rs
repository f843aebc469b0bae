//! The OpenAPI document of what this server serves, generated from the handlers.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::routes::{
    accounts, analytics, bundle_selections, catalogue, data_sheets, emission_factors, estimates,
    offset_links, orders, quotes, shipments, shipping_analytics, sustainability_pages, webhooks,
};
use crate::wire::{ErrorDoc, ErrorsDoc};

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "BearerAuth",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    }
}

/// The generated document.
#[derive(OpenApi)]
#[openapi(
    info(title = "Tonne API", description = "Carbon offsets and emission estimates, speaking the Lune API v1 wire contract."),
    paths(
        accounts::me,
        webhooks::list,
        webhooks::create,
        webhooks::get,
        webhooks::update,
        webhooks::delete,
        webhooks::rotate_secret,
        webhooks::recover,
        webhooks::attempts,
        analytics::cumulative_per_bundle,
        analytics::metrics,
        analytics::aggregated,
        analytics::emission_calculations,
        shipping_analytics::public_shipping,
        sustainability_pages::create,
        sustainability_pages::update,
        sustainability_pages::current,
        sustainability_pages::public_by_slug,
        sustainability_pages::public_by_handle,
        offset_links::list,
        offset_links::create,
        offset_links::get,
        offset_links::update,
        offset_links::analytics,
        offset_links::chart,
        accounts::list_accounts,
        accounts::create_pair,
        accounts::update_account,
        accounts::list_clients,
        accounts::create_client,
        accounts::update_client,
        accounts::client_me,
        accounts::patch_account,
        accounts::patch_client,
        accounts::account_logo,
        accounts::client_logo,
        catalogue::list_projects,
        emission_factors::list,
        emission_factors::regions,
        catalogue::get_project,
        catalogue::get_project_by_slug,
        catalogue::list_bundles,
        catalogue::get_bundle,
        bundle_selections::get_selection,
        bundle_selections::put_selection,
        bundle_selections::list_portfolios,
        bundle_selections::put_portfolio,
        orders::create_by_mass,
        orders::create_by_value,
        orders::list,
        orders::get,
        orders::by_idempotency_key,
        orders::certificate,
        orders::create_by_estimate,
        quotes::quote_by_mass,
        quotes::quote_by_value,
        estimates::create_electricity,
        estimates::create_emission_factor,
        estimates::get_emission_factor,
        estimates::get_electricity,
        estimates::put_electricity,
        estimates::create_flight,
        estimates::create_passenger,
        estimates::get_passenger,
        estimates::create_shipping,
        estimates::list_shipping,
        estimates::get_shipping,
        estimates::put_shipping,
        estimates::patch_shipping_annotations,
        estimates::create_multi_leg,
        estimates::get_multi_leg,
        estimates::put_multi_leg,
        estimates::patch_multi_leg_annotations,
        estimates::create_multi_leg_by_fuel,
        estimates::get_multi_leg_by_fuel,
        estimates::create_transaction,
        estimates::get_transaction,
        estimates::get_transaction_by_idempotency_key,
        estimates::put_transaction,
        estimates::patch_transaction_annotations,
        estimates::passenger_annotations::patch_passenger_annotations,
        estimates::create_batch,
        estimates::create_company,
        estimates::get_company,
        estimates::put_company,
        estimates::create_individual,
        shipments::upload::create_shipment_batch,
        shipments::list_batches::list_shipment_batches,
        shipments::get_batch::get_shipment_batch,
        shipments::list_shipments::list_shipments,
        shipments::calculate::calculate_shipments,
        shipments::get_shipment::get_shipment,
        data_sheets::upload,
        data_sheets::template,
    ),
    components(schemas(ErrorsDoc, ErrorDoc)),
    modifiers(&BearerAuth),
)]
pub struct ApiDoc;
