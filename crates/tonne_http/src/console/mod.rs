//! The console (`/console/…`): server-rendered pages for the people who run
//! Tonne (operators) and for the members of client organisations.
//!
//! An adapter like the API: handlers call the domains' driving ports
//! (`UsersService` for people and sessions, `OrderingService` for orders) and
//! hold no SQL and no business rule. Pages are maud templates (compile-time
//! checked, every value escaped) in the offset-link pages' style, with no
//! script.
//!
//! Sessions: an opaque random token in the `tonne_session` cookie (`HttpOnly`,
//! `SameSite=Lax`, `Path=/console`, `Secure` when `TONNE_PUBLIC_URL` is
//! https); the store keeps its SHA-256. Every form of a session carries the
//! session's CSRF token; the sign-in form, before any session, a double-submit
//! token bound to a `SameSite=Strict` cookie. A POST without the right token
//! is 403 and changes nothing.

mod audit;
mod auth;
mod catalogue;
mod installation_webhooks;
mod keys;
mod orders;
mod organisations;
mod views;
mod webhooks;

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
use maud::Markup;
use subtle::ConstantTimeEq as _;
use tonne_accounts::users::{Principal, SessionToken};
use tonne_kernel::{Cursor, Limit, PageRequest};

use crate::state::AppState;

/// The session cookie.
const SESSION_COOKIE: &str = "tonne_session";
/// The sign-in form's double-submit cookie.
const SIGN_IN_COOKIE: &str = "tonne_sign_in";

pub(crate) fn respond(status: StatusCode, page: Markup) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::REFERRER_POLICY, "same-origin"))
        .insert_header((
            header::CONTENT_SECURITY_POLICY,
            "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        ))
        .body(page.into_string())
}

fn see_other(to: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, to))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish()
}

/// A page that failed for a reason that is not the visitor's (the store is
/// down): a page without internals.
fn unavailable(e: impl std::fmt::Display) -> HttpResponse {
    tracing::warn!(error = %e, "console: store failure");
    respond(
        StatusCode::SERVICE_UNAVAILABLE,
        views::message(
            "Temporarily unavailable",
            "The console cannot reach its database just now. Try again in a moment.",
        ),
    )
}

fn cookie(req: &HttpRequest, name: &str) -> Option<String> {
    req.headers()
        .get_all(header::COOKIE)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, _)| *n == name)
        .map(|(_, value)| value.to_owned())
        .filter(|v| !v.is_empty() && v.len() <= 128)
}

fn secure(state: &AppState) -> &'static str {
    if state.pages.public_url.starts_with("https://") {
        "; Secure"
    } else {
        ""
    }
}

fn set_cookie(response: &mut HttpResponse, value: String) {
    if let Ok(v) = HeaderValue::from_str(&value) {
        response.headers_mut().append(header::SET_COOKIE, v);
    }
}

/// Whether two tokens are equal (constant time).
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// The signed-in person, or the answer for a visitor who is not: a redirect
/// to the sign-in page (or the error page when the store fails).
async fn signed_in(state: &AppState, req: &HttpRequest) -> Result<Principal, HttpResponse> {
    let Some(token) = cookie(req, SESSION_COOKIE) else {
        return Err(see_other("/console/sign-in"));
    };
    match state
        .users
        .principal(&SessionToken::from_cookie(&token))
        .await
    {
        Ok(Some(p)) => Ok(p),
        Ok(None) => Err(see_other("/console/sign-in")),
        Err(e) => Err(unavailable(e)),
    }
}

/// The signed-in operator, or the answer for anyone else (members get 404).
async fn operator(state: &AppState, req: &HttpRequest) -> Result<Principal, HttpResponse> {
    let who = signed_in(state, req).await?;
    if who.user.role == tonne_accounts::users::Role::Operator {
        Ok(who)
    } else {
        Err(not_found(&who))
    }
}

/// The signed-in operator for a form (CSRF checked first), or the answer for
/// anyone else (members get 404).
async fn operator_form(
    state: &AppState,
    req: &HttpRequest,
    csrf: Option<&str>,
) -> Result<Principal, HttpResponse> {
    let who = signed_in_form(state, req, csrf).await?;
    if who.user.role == tonne_accounts::users::Role::Operator {
        Ok(who)
    } else {
        Err(not_found(&who))
    }
}

/// The signed-in person, if the form's CSRF token is the session's; else 403
/// (nothing runs).
async fn signed_in_form(
    state: &AppState,
    req: &HttpRequest,
    csrf: Option<&str>,
) -> Result<Principal, HttpResponse> {
    let who = signed_in(state, req).await?;
    if csrf.is_some_and(|c| same(c, &who.session.csrf_token)) {
        Ok(who)
    } else {
        Err(forbidden())
    }
}

fn forbidden() -> HttpResponse {
    respond(
        StatusCode::FORBIDDEN,
        views::message(
            "This form has expired",
            "Nothing was changed. Go back, reload the page and submit the form again.",
        ),
    )
}

fn not_found(who: &Principal) -> HttpResponse {
    respond(
        StatusCode::NOT_FOUND,
        views::page(
            who,
            "Not found",
            None,
            maud::html! { p { "There is nothing here, or it is not yours to see." } },
        ),
    )
}

/// Items on a console list page.
const PAGE_SIZE: u8 = 25;

/// A console list's page after `after`: an absent, empty or malformed cursor is
/// the first page (links are the console's own; a hand-edited one starts over).
fn page_after(after: Option<&str>) -> PageRequest<Cursor> {
    PageRequest {
        limit: Limit::new(PAGE_SIZE).unwrap_or_default(),
        after: after
            .filter(|a| !a.is_empty())
            .and_then(|a| a.parse::<Cursor>().ok()),
    }
}

/// A console list's page after an already parsed cursor.
fn page_from(after: Option<Cursor>) -> PageRequest<Cursor> {
    PageRequest {
        limit: Limit::new(PAGE_SIZE).unwrap_or_default(),
        after,
    }
}

/// Days the operator's overview looks back.
const OVERVIEW_DAYS: u16 = 90;

async fn overview(state: web::Data<AppState>, req: HttpRequest) -> HttpResponse {
    let who = match signed_in(&state, &req).await {
        Ok(who) => who,
        Err(answer) => return answer,
    };
    if who.user.role != tonne_accounts::users::Role::Operator {
        return respond(StatusCode::OK, views::overview(&who));
    }
    let week_ago = time::OffsetDateTime::now_utc() - time::Duration::days(7);
    let bundles = PageRequest {
        limit: Limit::new(100).unwrap_or_default(),
        after: None,
    };
    let (orders, estimates, attempts, bundles) = futures_util::join!(
        state.ordering.live_stats(OVERVIEW_DAYS),
        state.estimates.daily_counts(OVERVIEW_DAYS),
        state.webhooks.attempt_counts(week_ago),
        state.ordering.all_bundles(bundles),
    );
    let (orders, estimates, attempts, bundles) = match (orders, estimates, attempts, bundles) {
        (Ok(o), Ok(e), Ok(a), Ok(b)) => (o, e, a, b),
        (Err(e), ..) => return unavailable(e),
        (_, Err(e), ..) => return unavailable(e),
        (_, _, Err(e), _) => return unavailable(e),
        (.., Err(e)) => return unavailable(e),
    };
    let chart_svg = match crate::pages::chart::render(&orders.daily) {
        Ok(svg) => svg,
        Err(e) => return unavailable(e),
    };
    let page = views::OperatorOverview {
        days: OVERVIEW_DAYS,
        orders: &orders,
        chart_svg: &chart_svg,
        estimates: &estimates,
        attempts,
        bundles: &bundles.items,
    };
    respond(StatusCode::OK, views::operator_overview(&who, &page))
}

/// Registers the console's routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/console").route(web::get().to(|| async { see_other("/console/") })),
    )
    .service(web::resource("/console/").route(web::get().to(overview)))
    .service(
        web::resource("/console/sign-in")
            .route(web::get().to(auth::sign_in_page))
            .route(web::post().to(auth::sign_in)),
    )
    .service(web::resource("/console/audit").route(web::get().to(audit::list)))
    .service(web::resource("/console/catalogue").route(web::get().to(catalogue::list)))
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
    .service(web::resource("/console/webhooks").route(web::get().to(webhooks::list)))
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
        web::resource("/console/organisations/{id}/members")
            .route(web::post().to(organisations::invite)),
    )
    .service(web::resource("/console/orders").route(web::get().to(orders::queue)))
    .service(web::resource("/console/orders/{id}").route(web::get().to(orders::show)))
    .service(web::resource("/console/orders/{id}/advance").route(web::post().to(orders::advance)));
}
