//! The actix-web adapter of Tonne.
//!
//! [`app`] builds the application: `/v1` routes behind authentication and rate
//! limiting, `/health`, `/ready`, the generated OpenAPI document at
//! `/v1/openapi.json` and a browsable UI at `/docs/` (assets vendored, works
//! offline). Every error, actix's own included, answers the contract's `Errors`
//! body.

pub mod certificate;
pub mod client_addr;
mod console;
mod data_sheets;
pub mod error;
pub mod extract;
pub mod logo_image;
pub mod metrics;
pub mod middleware;
pub mod openapi;
pub mod pages;
pub mod rate_limit;
pub mod routes;
mod state;
mod transport;
pub mod wire;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::middleware::{ErrorHandlers, from_fn};
use actix_web::{App, HttpRequest, web};
use utoipa::OpenApi as _;

pub use error::ApiError;
pub use metrics::PoolGauge;
pub use state::{
    AppState, DEFAULT_BATCH_LIMIT, DEFAULT_BODY_LIMIT, DEFAULT_REQUEST_TIMEOUT, HttpConfig,
    PagesConfig, Readiness, SHIPMENT_BATCH_BODY_LIMIT,
};

async fn unknown_route(req: HttpRequest) -> actix_web::HttpResponse {
    use actix_web::ResponseError as _;
    ApiError::not_found(format!("no route for {} {}", req.method(), req.path())).error_response()
}

fn query_error(err: actix_web::error::QueryPayloadError, _: &HttpRequest) -> actix_web::Error {
    ApiError::validation("query", err).into()
}

fn path_error(err: actix_web::error::PathError, _: &HttpRequest) -> actix_web::Error {
    ApiError::validation("path", err).into()
}

/// The operator's side door: `/metrics` (Prometheus) and `/health`, served on
/// their own address (loopback by default), never on the public one.
pub fn metrics_app(
    state: AppState,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    App::new()
        .app_data(web::Data::new(state))
        .route("/metrics", web::get().to(routes::system::metrics))
        .route("/health", web::get().to(routes::system::health))
}

/// The whole application over its state.
pub fn app(
    state: AppState,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    App::new()
        .app_data(web::Data::new(state))
        .app_data(web::QueryConfig::default().error_handler(query_error))
        .app_data(web::PathConfig::default().error_handler(path_error))
        .wrap(from_fn(middleware::deadline))
        .wrap(from_fn(console::same_origin_posts))
        .wrap(from_fn(transport::strict_transport_security))
        .wrap(ErrorHandlers::new().default_handler(middleware::jsonify_errors))
        .wrap(from_fn(middleware::docs_headers))
        .wrap(from_fn(middleware::observe))
        // The API first (after the OpenAPI document it serves at
        // /v1/openapi.json): actix tries resources in registration order, and
        // the pages' and console's dynamic patterns cost a regex each.
        .service(
            utoipa_swagger_ui::SwaggerUi::new("/docs/{_:.*}")
                .url("/v1/openapi.json", openapi::ApiDoc::openapi()),
        )
        .service(
            web::scope("/v1")
                .wrap(from_fn(middleware::authenticate_and_limit))
                .configure(routes::accounts::configure)
                .configure(routes::catalogue::configure)
                .configure(routes::project_perimeter::configure)
                .configure(routes::bundle_selections::configure)
                .configure(routes::orders::configure)
                .configure(routes::quotes::configure)
                .configure(routes::transaction_documents::configure)
                .configure(routes::estimates::configure)
                .configure(routes::emission_factors::configure)
                .configure(routes::webhooks::configure)
                .configure(routes::offset_links::configure)
                .configure(routes::analytics::configure)
                .configure(routes::business_analytics::configure)
                .configure(routes::shipping_analytics::configure)
                .configure(routes::sustainability_pages::configure)
                .configure(routes::data_sheets::configure)
                .configure(routes::shipments::configure)
                .configure(routes::payments::configure)
                .configure(routes::webhook_request::configure)
                .configure(routes::orders::configure_by_id)
                .default_service(web::to(unknown_route)),
        )
        .route("/health", web::get().to(routes::system::health))
        .route("/ready", web::get().to(routes::system::ready))
        .configure(pages::configure)
        .configure(console::configure)
        .configure(routes::accounts::configure_public)
        .route("/docs", web::get().to(routes::system::docs_redirect))
        .default_service(web::to(unknown_route))
}
