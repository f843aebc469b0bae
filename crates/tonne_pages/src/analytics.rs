//! `GET /l/{id}/analytics`: a link's analytics page behind a signed,
//! expiring URL, and the making of that URL.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use tonne_http::AppState;
use tonne_http::chart;
use tonne_links::{CheckoutError, OffsetLinkId, PageKey};

use crate::answers::{limited, message, respond};
use crate::refusals::failure;
use crate::views;

#[derive(Debug, Deserialize)]
struct Signed {
    expires: Option<i64>,
    sig: Option<String>,
}

/// `GET /l/{id}/analytics?expires=…&sig=…`: the analytics page behind a signed URL.
pub async fn show(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
) -> HttpResponse {
    if let Some(r) = limited(&state, &req).await {
        return r;
    }
    let signed: Signed = serde_urlencoded::from_str(req.query_string()).unwrap_or(Signed {
        expires: None,
        sig: None,
    });
    let allowed = match (id.parse::<OffsetLinkId>(), signed.expires, &signed.sig) {
        (Ok(link), Some(expires), Some(sig)) => state
            .pages
            .key
            .analytics_allowed(link, expires, sig, state.links.now())
            .then_some(link),
        _ => None,
    };
    let Some(link) = allowed else {
        return message(
            StatusCode::FORBIDDEN,
            "This analytics link is not valid",
            "The link has expired or was not issued by this server. Ask for a new one (tonne offset-links analytics-url).",
        );
    };
    let figures = match state.links.analytics_of(link).await {
        Ok(a) => a,
        Err(tonne_links::LinkError::NotFound) => return failure(CheckoutError::NotFound),
        Err(e) => return failure(CheckoutError::Unexpected(anyhow::anyhow!(e))),
    };
    match chart::render(&figures.daily) {
        Ok(svg) => respond(
            StatusCode::OK,
            views::analytics(&link.to_string(), &figures, &svg),
        ),
        Err(e) => failure(CheckoutError::Unexpected(e)),
    }
}

/// The signed analytics URL of a link, valid until `expires` (unix seconds).
pub fn analytics_url(public_url: &str, key: &PageKey, link: OffsetLinkId, expires: i64) -> String {
    format!(
        "{public_url}/l/{link}/analytics?expires={expires}&sig={}",
        key.analytics_signature(link, expires)
    )
}
