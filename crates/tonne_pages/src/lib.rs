//! The hosted pages of offset links (`/l/{id}`), outside `/v1` and without an
//! API key: the customer's three steps (choose → confirm → placed) and the
//! analytics page behind a signed, expiring URL; and the public certificate
//! page of a complete order (`/certificates/{id}`); an account's public
//! logistics page (`/logistics/{account_id}`).
//!
//! Every form carries a CSRF token bound to a `SameSite=Strict` cookie and to the
//! link (`PageKey::csrf_token`); the confirmation form carries a one-time token
//! that becomes the order's idempotency key, so a double submit or a reload
//! places one order. Pages are rate limited per client IP.
//!
//! This crate depends on `tonne_http`, deliberately, for what every front end
//! shares: `AppState`, `ApiError`, the style sheet, the limiter, the client's
//! address, the chart and the certificate renderer; `tonne_http` never
//! depends on it. The binary registers [`configure`] after the API.

mod analytics;
mod answers;
mod certificate;
mod checkout;
mod csrf;
mod logistics;
mod pay;
mod refusals;
mod stripe_webhook;
mod sustainability;
mod views;

use actix_web::web;

pub use analytics::analytics_url;

/// `GET /assets/card.js`: the confirmation page's card step over Stripe.js.
async fn card_script() -> actix_web::HttpResponse {
    use actix_web::http::header;
    actix_web::HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .body(include_str!("../assets/card.js"))
}

/// Registers the hosted pages (at the root, outside `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/l/{id}").route(web::get().to(checkout::show)))
        .service(web::resource("/logistics/{account_id}").route(web::get().to(logistics::show)))
        .service(
            web::resource("/logistics/{account_id}/emissions.csv")
                .route(web::get().to(logistics::emissions_csv)),
        )
        .service(
            web::resource("/logistics/{account_id}/intensity.csv")
                .route(web::get().to(logistics::intensity_csv)),
        )
        .service(web::resource("/assets/card.js").route(web::get().to(card_script)))
        .service(
            web::resource("/pay/{account_id}")
                .route(web::get().to(pay::show))
                .route(web::post().to(pay::pay)),
        )
        .service(web::resource("/stripe/webhook").route(web::post().to(stripe_webhook::receive)))
        .service(web::resource("/l/{id}/quote").route(web::post().to(checkout::quote)))
        .service(web::resource("/l/{id}/order").route(web::post().to(checkout::order)))
        .service(web::resource("/l/{id}/analytics").route(web::get().to(analytics::show)))
        .service(web::resource("/certificates/{id}.pdf").route(web::get().to(certificate::pdf)))
        .service(web::resource("/certificates/{id}").route(web::get().to(certificate::show)))
        .service(
            web::resource("/sustainability/{type}/{slug}")
                .route(web::get().to(sustainability::by_slug)),
        )
        .service(
            web::resource("/sustainability/{organisation_id}/{type}/{handle}")
                .route(web::get().to(sustainability::by_handle)),
        );
}
