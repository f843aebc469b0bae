//! The actix-web adapter of Tonne: the API, and what every front end shares.
//!
//! [`configure_api`] registers the API: `/v1` routes behind authentication and
//! rate limiting, `/health`, `/ready`, the generated OpenAPI document at
//! `/v1/openapi.json` and a browsable UI at `/docs/` (assets vendored, works
//! offline); [`configure_api_public`] its public files, registered after the
//! front ends. Every error, actix's own included, answers the contract's
//! `Errors` body. The binary composes the whole application (API, hosted pages,
//! console); [`app`] is the API alone.
//!
//! The front ends (`tonne_pages`, `tonne_console`) depend on this crate for
//! what they share: [`AppState`], [`ApiError`], the [`style`] sheet, the
//! [`rate_limit`]er, [`client_addr`], the [`chart`], the [`certificate`]
//! renderer and the [`data_sheets`] upload reader.

pub mod certificate;
pub mod chart;
pub mod client_addr;
pub mod data_sheets;
pub mod error;
pub mod extract;
pub mod html_page;
pub mod invoice;
pub mod logo_image;
pub mod metrics;
pub mod middleware;
pub mod openapi;
pub mod rate_limit;
pub mod routes;
pub mod shipment_report;
mod state;
pub mod style;
#[cfg(feature = "test-support")]
pub mod test_support;
pub mod token;
pub mod transport;
pub mod unstorable;
pub mod wire;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::middleware::{ErrorHandlers, from_fn};
use actix_web::{App, HttpRequest, web};
use utoipa::OpenApi as _;

pub use error::ApiError;
pub use metrics::PoolGauge;
pub use state::{
    AppState, CardPaymentsNote, DEFAULT_BATCH_LIMIT, DEFAULT_BODY_LIMIT, DEFAULT_REQUEST_TIMEOUT,
    HttpConfig, PagesConfig, Readiness, SHIPMENT_BATCH_BODY_LIMIT,
};

/// What the application builders below and the binary's return: an `App`
/// whose service answers requests with any body (the caller depends on
/// `actix_web`).
#[macro_export]
macro_rules! served_app {
    () => {
        ::actix_web::App<
            impl ::actix_web::dev::ServiceFactory<
                ::actix_web::dev::ServiceRequest,
                Config = (),
                Response = ::actix_web::dev::ServiceResponse<impl ::actix_web::body::MessageBody>,
                Error = ::actix_web::Error,
                InitError = (),
            >,
        >
    };
}

/// The answer of a path no resource matches: 404 `not_found` naming it.
pub async fn unknown_route(req: HttpRequest) -> actix_web::HttpResponse {
    use actix_web::ResponseError as _;
    ApiError::not_found(format!("no route for {} {}", req.method(), req.path())).error_response()
}

/// A query string that does not parse: 400 naming the query.
fn query_error(err: actix_web::error::QueryPayloadError, _: &HttpRequest) -> actix_web::Error {
    ApiError::validation("query", err).into()
}

/// A path segment that does not parse: 400 naming the path.
fn path_error(err: actix_web::error::PathError, _: &HttpRequest) -> actix_web::Error {
    ApiError::validation("path", err).into()
}

/// The operator's side door: `/metrics` (Prometheus) and `/health`, served on
/// their own address (loopback by default), never on the public one.
pub fn metrics_app(state: AppState) -> served_app!() {
    App::new()
        .app_data(web::Data::new(state))
        .route("/metrics", web::get().to(routes::system::metrics))
        .route("/health", web::get().to(routes::system::health))
}

/// The API alone over its state, behind the middleware stack every front
/// end shares ([`with_stack`]; the binary composes the front ends in the
/// same way: see `tonne::app`).
pub fn app(state: AppState) -> served_app!() {
    with_stack(
        App::new()
            .app_data(web::Data::new(state))
            .configure(configure_api)
            .configure(configure_api_public)
            .default_service(web::to(unknown_route)),
    )
}

/// The middleware stack of the whole application, written once, with the
/// extractors' error handlers (a bad query or path segment: 400 naming it).
/// From the outside in: `observe` (ids, logs, metrics; unknown methods 501),
/// `limit_outside_api` (every request outside `/v1` rate limited), the
/// documentation's headers, the JSON error fallback, HSTS, the request
/// deadline, and `refuse_unstorable` (U+0000 in the path, query or a form:
/// 400). A front end's own middleware (the console's same-origin check) is
/// wrapped by the caller before this, so it runs inside all of them.
pub fn with_stack<T, B>(app: App<T>) -> served_app!()
where
    T: ServiceFactory<
            ServiceRequest,
            Config = (),
            Response = ServiceResponse<B>,
            Error = actix_web::Error,
            InitError = (),
        > + 'static,
    B: MessageBody + 'static,
{
    app.app_data(web::QueryConfig::default().error_handler(query_error))
        .app_data(web::PathConfig::default().error_handler(path_error))
        .wrap(from_fn(unstorable::refuse_unstorable))
        .wrap(from_fn(middleware::deadline))
        .wrap(from_fn(transport::strict_transport_security))
        .wrap(ErrorHandlers::new().default_handler(middleware::jsonify_errors))
        .wrap(from_fn(middleware::docs_headers))
        .wrap(from_fn(middleware::limit_outside_api))
        .wrap(from_fn(middleware::observe))
}

/// Registers the API: the OpenAPI document (at `/v1/openapi.json`) and its
/// UI, the `/v1` scope, `/health` and `/ready`. Registered first: actix tries
/// resources in registration order, and the pages' and console's dynamic
/// patterns cost a regex each.
pub fn configure_api(cfg: &mut web::ServiceConfig) {
    cfg.service(
        utoipa_swagger_ui::SwaggerUi::new("/docs/{_:.*}")
            .url(middleware::OPENAPI_PATH, openapi::ApiDoc::openapi()),
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
            .configure(routes::estimates::transaction_documents::configure)
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
            .configure(routes::invoices::configure)
            .configure(routes::webhook_request::configure)
            .configure(routes::orders::configure_by_id)
            .default_service(web::to(unknown_route)),
    )
    .route("/health", web::get().to(routes::system::health))
    .route("/ready", web::get().to(routes::system::ready));
}

/// Registers the API's resources outside `/v1` that come after the front
/// ends: the account logos (`/logos/{id}`) and the `/docs` redirect.
pub fn configure_api_public(cfg: &mut web::ServiceConfig) {
    cfg.configure(routes::accounts::configure_public)
        .route("/docs", web::get().to(routes::system::docs_redirect));
}
