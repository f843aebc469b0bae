//! The whole HTTP application: the API (`tonne_http`), the hosted pages
//! (`tonne_pages`), PACT (`tonne_pact`) and the console (`tonne_console`) over one state, behind
//! one middleware stack (the console's same-origin check wraps them all).
//! From the outside in: `observe` (ids, logs, metrics; unknown methods 501),
//! `limit_outside_api` (every request outside `/v1` is rate limited: per
//! address, `/health` and `/ready` apart, the hosted pages by their own
//! limit), the documentation's headers, the JSON error fallback, HSTS, the
//! console's same-origin check, the request deadline, and `refuse_unstorable`
//! (U+0000 in the path, query or a form: 400, a page for a person; a form's
//! body is read within the deadline).

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::middleware::{ErrorHandlers, from_fn};
use actix_web::{App, web};
use tonne_http::{AppState, middleware};

/// The whole application over its state. Actix tries resources in
/// registration order: the API first (its OpenAPI document, `/v1`,
/// `/health`, `/ready`), then the hosted pages and the console, whose
/// dynamic patterns cost a regex each, then the API's public files.
pub fn app(
    state: AppState,
    pact: tonne_pact::PactState,
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
        .app_data(web::Data::from(std::sync::Arc::clone(&pact.clients)))
        .app_data(web::Data::new(state))
        .app_data(web::QueryConfig::default().error_handler(tonne_http::query_error))
        .app_data(web::PathConfig::default().error_handler(tonne_http::path_error))
        .wrap(from_fn(tonne_http::unstorable::refuse_unstorable))
        .wrap(from_fn(middleware::deadline))
        .wrap(from_fn(tonne_console::same_origin_posts))
        .wrap(from_fn(tonne_http::transport::strict_transport_security))
        .wrap(ErrorHandlers::new().default_handler(middleware::jsonify_errors))
        .wrap(from_fn(middleware::docs_headers))
        .wrap(from_fn(middleware::limit_outside_api))
        .wrap(from_fn(middleware::observe))
        .configure(tonne_http::configure_api)
        .configure(tonne_pages::configure)
        .configure(|cfg| tonne_pact::configure(cfg, pact))
        .configure(tonne_console::configure)
        .configure(tonne_http::configure_api_public)
        .default_service(web::to(tonne_http::unknown_route))
}
