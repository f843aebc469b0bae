//! The whole HTTP application: the API (`tonne_http`), the hosted pages
//! (`tonne_pages`), PACT (`tonne_pact`) and the console (`tonne_console`)
//! over one state (the console's adds the ports only it uses), behind the one middleware stack every front end shares
//! (`tonne_http::with_stack`, written once there), with the console's
//! same-origin check for POSTs innermost.

use actix_web::middleware::from_fn;
use actix_web::{App, web};
use tonne_http::AppState;

/// The whole application over its state. Actix tries resources in
/// registration order: the API first (its OpenAPI document, `/v1`,
/// `/health`, `/ready`), then the hosted pages and the console, whose
/// dynamic patterns cost a regex each, then the API's public files.
pub fn app(
    state: AppState,
    pact: tonne_pact::PactState,
    console: tonne_console::ConsoleState,
) -> tonne_http::served_app!() {
    tonne_http::with_stack(
        App::new()
            .app_data(web::Data::from(std::sync::Arc::clone(&pact.clients)))
            .app_data(web::Data::new(state))
            .app_data(web::Data::new(console))
            .wrap(from_fn(tonne_console::same_origin_posts))
            .configure(tonne_http::configure_api)
            .configure(tonne_pages::configure)
            .configure(|cfg| tonne_pact::configure(cfg, pact))
            .configure(tonne_console::configure)
            .configure(tonne_http::configure_api_public)
            .default_service(web::to(tonne_http::unknown_route)),
    )
}
