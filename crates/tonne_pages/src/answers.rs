//! The hosted pages' answers: an HTML page with their security headers, a
//! message page, and the per-IP limit every page checks first (the client's
//! address as a trusted proxy names it).

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse};
use maud::Markup;
use tonne_http::AppState;

use crate::views;

/// The pages' policy: no scripts, nothing loaded from elsewhere but images.
const POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src * data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

pub(crate) fn respond(status: StatusCode, page: Markup) -> HttpResponse {
    respond_with_policy(status, page, POLICY)
}

/// A checkout page with its card step: where the processor takes the card,
/// its script, Tonne's `/assets/card.js`, and the frames and calls of the
/// processor's origins, nothing else; otherwise the pages' policy.
pub(crate) fn respond_with_card(
    status: StatusCode,
    page: Markup,
    card: &tonne_links::CardForm,
) -> HttpResponse {
    let Some(processor) = card.processor() else {
        return respond(status, page);
    };
    let origins = &processor.origins;
    let origins: Vec<&str> = origins
        .iter()
        .map(String::as_str)
        // an origin is scheme://host[:port]; anything else would widen the policy
        .filter(|o| {
            !o.is_empty()
                && o.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-.:/[]".contains(&b))
        })
        .collect();
    let them = origins.join(" ");
    respond_with_policy(
        status,
        page,
        &format!(
            "default-src 'none'; script-src 'self' {them}; connect-src {them}; frame-src {them}; style-src 'unsafe-inline'; img-src * data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        ),
    )
}

fn respond_with_policy(status: StatusCode, page: Markup, policy: &str) -> HttpResponse {
    tonne_http::html_page::answer(status, "no-referrer", policy, page)
}

pub(crate) fn message(status: StatusCode, title: &str, text: &str) -> HttpResponse {
    respond(status, views::message(title, text))
}

/// The client's address as the hosted pages see it (the rate limit, visitor
/// counts and the per-visitor order limit all read it here): the peer, or the
/// `X-Forwarded-For` a trusted proxy added (`TONNE_TRUSTED_PROXIES`).
pub(crate) fn client_ip(state: &AppState, req: &HttpRequest) -> String {
    tonne_http::client_addr::client_addr(req, &state.config.trusted_proxies).to_string()
}

/// The per-IP page limit: `None` to go on, or the 429 page.
pub(crate) async fn limited(state: &AppState, req: &HttpRequest) -> Option<HttpResponse> {
    let decision = state
        .pages
        .limiter
        .check(&format!("page:{}", client_ip(state, req)))
        .await;
    if decision.allowed {
        return None;
    }
    let mut response = message(
        StatusCode::TOO_MANY_REQUESTS,
        "Too many requests",
        "Please wait a moment and try again.",
    );
    if let Ok(v) = HeaderValue::from_str(&decision.retry_after_secs.max(1).to_string()) {
        response.headers_mut().insert(header::RETRY_AFTER, v);
    }
    Some(response)
}
