//! The console (`/console/…`): server-rendered pages for the people who run
//! Tonne (operators) and for the members of client organisations.
//!
//! An adapter like the API: handlers call the domains' driving ports
//! (`UsersService`, `OrderingService`, `AccountsService`, `WebhooksService`,
//! `EstimationService`, `AuditLog`) and hold no SQL and no business rule.
//! Pages are maud templates (compile-time checked, every value escaped) in the
//! offset-link pages' style, with no script.
//!
//! Layers, top down: this file (the routes) → one handler file per section →
//! `session` (who is asking, CSRF) → `answers` (pages, redirects, error pages,
//! list cursors) → `views` (the markup).
//!
//! Sessions: an opaque random token in the `tonne_session` cookie (`HttpOnly`,
//! `SameSite=Lax`, `Path=/console`, `Secure` when `TONNE_PUBLIC_URL` is
//! https); the store keeps its SHA-256. Every form of a session carries the
//! session's CSRF token; the sign-in form, before any session, a double-submit
//! token bound to a `SameSite=Strict` cookie. A POST without the right token
//! is 403 and changes nothing; [`same_origin_posts`], the middleware the binary
//! wraps the whole application in, refuses a cross-site console POST first.
//!
//! This crate depends on `tonne_http`, deliberately, for what every front end
//! shares: `AppState`, the style sheet, the client's address, the chart, the
//! data-sheet upload reader; `tonne_http` never depends on it. The ports only
//! the console uses (people and their sessions, the audit log) are its own
//! state's, [`ConsoleState`], not the API's. The binary registers
//! [`configure`] after the API and the hosted pages, with a [`ConsoleState`]
//! as app data.

mod answers;
mod audit;
mod auth;
mod catalogue;
mod client_accounts;
mod error;
mod estimates;
mod impact;
mod installation_webhooks;
mod invoices;
mod keys;
mod limits;
mod offset_links;
mod once;
mod orders;
mod organisations;
mod origin;
mod overview;
mod pact;
mod scope;
mod selections;
mod session;
mod shipment_batches;
mod shipment_report;
mod shipments;
mod views;
mod webhook_settings;
mod webhooks;

use std::sync::Arc;

use actix_web::web;
use tonne_http::AppState;

use answers::see_other;
pub use origin::same_origin_posts;

/// What the console runs over: the API's state (the domains every front end
/// shares, the page settings, the limiter) and the ports only the console
/// uses. It reads as the API's state where a shared helper wants one.
#[derive(Clone)]
pub struct ConsoleState {
    /// The state the API and the hosted pages run over.
    pub api: AppState,
    /// Console users, sessions and sign-in throttling; the forms' keys.
    pub users: Arc<dyn tonne_accounts::users::UsersService>,
    /// The audit log's reading.
    pub audit: Arc<dyn tonne_accounts::audit::AuditLog>,
}

impl std::ops::Deref for ConsoleState {
    type Target = AppState;

    fn deref(&self) -> &AppState {
        &self.api
    }
}

/// Registers the console's routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/console").route(web::get().to(|| async { see_other("/console/") })),
    )
    .service(web::resource("/console/").route(web::get().to(overview::overview)))
    .service(
        web::resource("/console/sign-in")
            .route(web::get().to(auth::sign_in_page))
            .route(web::post().to(auth::sign_in)),
    )
    .service(web::resource("/console/audit").route(web::get().to(audit::list)))
    .service(web::resource("/console/invoices").route(web::get().to(invoices::list)))
    .service(web::resource("/console/invoices/billing").route(web::post().to(invoices::billing)))
    .service(web::resource("/console/invoices/{id}/pdf").route(web::get().to(invoices::pdf)))
    .service(web::resource("/console/invoices/{id}/pay").route(web::post().to(invoices::pay)))
    .service(web::resource("/console/invoices/{id}/credit").route(web::post().to(invoices::credit)))
    .service(web::resource("/console/limits").route(web::get().to(limits::overview)))
    .service(
        web::resource("/console/limits/{id}")
            .route(web::get().to(limits::show))
            .route(web::post().to(limits::change)),
    )
    .service(web::resource("/console/estimates").route(web::get().to(estimates::list)))
    .service(web::resource("/console/impact").route(web::get().to(impact::show)))
    .service(
        web::resource("/console/client-accounts")
            .route(web::get().to(client_accounts::list))
            .route(web::post().to(client_accounts::create)),
    )
    .service(
        web::resource("/console/offset-links")
            .route(web::get().to(offset_links::list))
            .route(web::post().to(offset_links::create)),
    )
    .service(
        web::resource("/console/offset-links/{id}/switch")
            .route(web::post().to(offset_links::switch)),
    )
    .service(
        web::resource("/console/offset-links/{id}/limits")
            .route(web::post().to(offset_links::limits)),
    )
    .service(web::resource("/console/offset-links/{id}").route(web::get().to(offset_links::show)))
    .service(web::resource("/console/estimates/{id}").route(web::get().to(estimates::show)))
    .service(web::resource("/console/shipments").route(web::get().to(shipments::list)))
    .service(
        web::resource("/console/shipments/batches")
            .route(web::get().to(shipment_batches::batches))
            .route(web::post().to(shipment_batches::upload)),
    )
    .service(
        web::resource("/console/shipments/batches/{id}")
            .route(web::get().to(shipment_batches::batch)),
    )
    .service(
        web::resource("/console/shipments/template.csv")
            .route(web::get().to(shipment_batches::template)),
    )
    .service(
        web::resource("/console/shipments/report").route(web::get().to(shipment_report::report)),
    )
    .service(web::resource("/console/shipments/{id}").route(web::get().to(shipments::show)))
    .service(web::resource("/console/catalogue").route(web::get().to(catalogue::list)))
    .service(web::resource("/console/catalogue/import").route(web::post().to(catalogue::import)))
    .service(web::resource("/console/catalogue/{id}").route(web::get().to(catalogue::show)))
    .service(web::resource("/console/catalogue/{id}/stock").route(web::post().to(catalogue::stock)))
    .service(web::resource("/console/catalogue/{id}/edit").route(web::post().to(catalogue::edit)))
    .service(
        web::resource("/console/catalogue/{id}/state").route(web::post().to(catalogue::set_state)),
    )
    .service(web::resource("/console/sign-out").route(web::post().to(auth::sign_out)))
    .service(
        web::resource("/console/setup/{token}")
            .route(web::get().to(auth::setup_page))
            .route(web::post().to(auth::setup)),
    )
    .service(
        web::resource("/console/keys")
            .route(web::get().to(keys::list))
            .route(web::post().to(keys::create)),
    )
    .service(web::resource("/console/keys/{id}/revoke").route(web::post().to(keys::revoke)))
    .service(
        web::resource("/console/pact")
            .route(web::get().to(pact::list))
            .route(web::post().to(pact::create)),
    )
    .service(web::resource("/console/pact/{id}/revoke").route(web::post().to(pact::revoke)))
    .service(
        web::resource("/console/webhooks")
            .route(web::get().to(webhooks::list))
            .route(web::post().to(webhook_settings::create)),
    )
    .service(
        web::resource("/console/webhooks/{id}/edit").route(web::post().to(webhook_settings::edit)),
    )
    .service(
        web::resource("/console/webhooks/{id}/rotate")
            .route(web::post().to(webhook_settings::rotate)),
    )
    .service(
        web::resource("/console/webhooks/{id}/test").route(web::post().to(webhook_settings::test)),
    )
    .service(
        web::resource("/console/webhooks/{id}/delete")
            .route(web::post().to(webhook_settings::delete)),
    )
    .service(web::resource("/console/webhooks/{id}").route(web::get().to(webhooks::show)))
    .service(
        web::resource("/console/webhooks/{id}/recover").route(web::post().to(webhooks::recover)),
    )
    .service(
        web::resource("/console/webhooks/{id}/skip")
            .route(web::post().to(installation_webhooks::skip)),
    )
    .service(
        web::resource("/console/webhooks/{id}/enable")
            .route(web::post().to(installation_webhooks::enable)),
    )
    .service(
        web::resource("/console/organisations")
            .route(web::get().to(organisations::list))
            .route(web::post().to(organisations::create)),
    )
    .service(web::resource("/console/organisations/{id}").route(web::get().to(organisations::show)))
    .service(
        web::resource("/console/organisations/{id}/accounts/{account}")
            .route(web::get().to(selections::show))
            .route(web::post().to(selections::set)),
    )
    .service(
        web::resource("/console/organisations/{id}/members")
            .route(web::post().to(organisations::invite)),
    )
    .service(web::resource("/console/orders").route(web::get().to(orders::queue)))
    .service(web::resource("/console/orders/{id}").route(web::get().to(orders::show)))
    .service(web::resource("/console/orders/{id}/advance").route(web::post().to(orders::advance)))
    .service(web::resource("/console/orders/{id}/records").route(web::post().to(orders::records)));
}
