//! The hosted pages of offset links (`/l/{id}`), outside `/v1` and without an
//! API key: the customer's three steps (choose → confirm → placed) and the
//! analytics page behind a signed, expiring URL; and the public certificate
//! page of a complete order (`/certificates/{id}`).
//!
//! Every form carries a CSRF token bound to a `SameSite=Strict` cookie and to the
//! link (`PageKey::csrf_token`); the confirmation form carries a one-time token
//! that becomes the order's idempotency key, so a double submit or a reload
//! places one order. Pages are rate limited per client IP.

mod certificate;
pub mod chart;
mod sustainability;
pub(crate) mod views;

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
use maud::Markup;
use rand::Rng as _;
use serde::Deserialize;
use tonne_links::{Amount, Card, CheckoutError, Choice, LimitReached, OffsetLinkId, PageKey};

use crate::state::AppState;
use views::Filled;

/// The cookie that CSRF tokens are bound to; over https with the `__Host-`
/// prefix (the browser then keeps it to this host, `Secure` and `Path=/`, so
/// no sibling subdomain can plant one).
const CSRF_COOKIE: &str = "tonne_csrf";
const CSRF_COOKIE_HTTPS: &str = "__Host-tonne_csrf";

fn csrf_cookie_name(state: &AppState) -> &'static str {
    if state.pages.is_https() {
        CSRF_COOKIE_HTTPS
    } else {
        CSRF_COOKIE
    }
}

#[derive(Debug, Default, Deserialize)]
struct PageForm {
    csrf: Option<String>,
    token: Option<String>,
    bundle: Option<String>,
    email: Option<String>,
    amount: Option<String>,
    unit: Option<String>,
    card: Option<String>,
}

impl PageForm {
    fn filled(&self) -> Filled {
        Filled {
            bundle: self.bundle.clone().unwrap_or_default(),
            email: self.email.clone().unwrap_or_default(),
            amount: self.amount.clone().unwrap_or_default(),
            unit: self.unit.clone().unwrap_or_default(),
        }
    }

    fn choice(&self) -> Choice {
        let amount = self.amount.clone().filter(|a| !a.trim().is_empty());
        Choice {
            bundle_id: self.bundle.clone().unwrap_or_default(),
            email: self.email.clone().unwrap_or_default(),
            amount: amount.map(|a| match self.unit.as_deref() {
                Some("tonnes") => Amount::Tonnes(a),
                _ => Amount::Money(a),
            }),
        }
    }
}

fn respond(status: StatusCode, page: Markup) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::REFERRER_POLICY, "no-referrer"))
        .insert_header((
            header::CONTENT_SECURITY_POLICY,
            "default-src 'none'; style-src 'unsafe-inline'; img-src * data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        ))
        .body(page.into_string())
}

fn message(status: StatusCode, title: &str, text: &str) -> HttpResponse {
    respond(status, views::message(title, text))
}

/// The client's address as the hosted pages see it (the rate limit, visitor
/// counts and the per-visitor order limit all read it here): the peer, or the
/// `X-Forwarded-For` a trusted proxy added (`TONNE_TRUSTED_PROXIES`).
fn client_ip(state: &AppState, req: &HttpRequest) -> String {
    crate::client_addr::client_addr(req, &state.config.trusted_proxies).to_string()
}

/// The per-IP page limit: `None` to go on, or the 429 page.
async fn limited(state: &AppState, req: &HttpRequest) -> Option<HttpResponse> {
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

fn cookie(state: &AppState, req: &HttpRequest) -> Option<String> {
    let wanted = csrf_cookie_name(state);
    req.headers()
        .get_all(header::COOKIE)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == wanted)
        .map(|(_, value)| value.to_owned())
        .filter(|v| v.len() == 32 && v.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn random_token() -> String {
    let bytes: [u8; 16] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn set_cookie(state: &AppState, response: &mut HttpResponse, value: &str) {
    let header = if state.pages.is_https() {
        format!(
            "{CSRF_COOKIE_HTTPS}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=86400; Secure"
        )
    } else {
        format!("{CSRF_COOKIE}={value}; Path=/l/; HttpOnly; SameSite=Strict; Max-Age=86400")
    };
    if let Ok(v) = HeaderValue::from_str(&header) {
        response.headers_mut().append(header::SET_COOKIE, v);
    }
}

fn failure(e: CheckoutError) -> HttpResponse {
    match e {
        CheckoutError::NotFound => message(
            StatusCode::NOT_FOUND,
            "Offset link not found",
            "This offset link does not exist. Check the address you were given.",
        ),
        CheckoutError::Gone => message(
            StatusCode::GONE,
            "This offset link has ended",
            "This offset link has expired or was switched off, so it takes no more orders.",
        ),
        CheckoutError::Unexpected(cause) => {
            tracing::error!(error = ?cause, "hosted page failed");
            message(
                StatusCode::INTERNAL_SERVER_ERROR,
                "Something went wrong",
                "We could not complete this step. Nothing was charged; please try again later.",
            )
        }
        CheckoutError::Limit(reached) => limit_reached(reached),
        other @ (CheckoutError::Invalid { .. }
        | CheckoutError::EmailNotAllowed
        | CheckoutError::Declined(_)) => message(
            status_of(&other),
            "Please check your order",
            &other.to_string(),
        ),
    }
}

/// A daily limit of the link (409: the link's own; 429 with `Retry-After`
/// until the next UTC day: this visitor's), or a per-order one (400: a smaller
/// order passes; normally shown with the form, see `refill`).
fn limit_reached(reached: LimitReached) -> HttpResponse {
    let status = status_of(&CheckoutError::Limit(reached));
    let mut response = message(
        status,
        "This offset link's limit is reached",
        &reached.to_string(),
    );
    if status == StatusCode::TOO_MANY_REQUESTS {
        let now = time::OffsetDateTime::now_utc();
        let midnight = now.date().next_day().map(|d| d.midnight().assume_utc());
        let wait = midnight.map_or(3_600, |m| (m - now).whole_seconds().max(1));
        if let Ok(v) = HeaderValue::from_str(&wait.to_string()) {
            response.headers_mut().insert(header::RETRY_AFTER, v);
        }
    }
    response
}

fn status_of(e: &CheckoutError) -> StatusCode {
    match e {
        CheckoutError::Declined(_) => StatusCode::PAYMENT_REQUIRED,
        CheckoutError::EmailNotAllowed => StatusCode::FORBIDDEN,
        CheckoutError::Invalid { .. } => StatusCode::BAD_REQUEST,
        CheckoutError::Limit(reached) => match reached {
            LimitReached::OrderMass { .. } | LimitReached::OrderValue { .. } => {
                StatusCode::BAD_REQUEST
            }
            LimitReached::DailyOrders | LimitReached::DailyMass => StatusCode::CONFLICT,
            LimitReached::VisitorOrders => StatusCode::TOO_MANY_REQUESTS,
        },
        CheckoutError::NotFound => StatusCode::NOT_FOUND,
        CheckoutError::Gone => StatusCode::GONE,
        CheckoutError::Unexpected(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// The first step after a refused choice: the form again, filled, with the reason.
async fn refill(
    state: &AppState,
    id: &str,
    csrf_cookie: &str,
    form: &PageForm,
    error: CheckoutError,
) -> HttpResponse {
    let status = status_of(&error);
    let reason = error.to_string();
    match state.links.open(id, None).await {
        Ok(link) => {
            let csrf = state
                .pages
                .key
                .csrf_token(csrf_cookie, link.details.link.id);
            respond(
                status,
                views::form(&link, &csrf, &form.filled(), Some(&reason)),
            )
        }
        Err(e) => failure(e),
    }
}

/// Parses the form and checks its CSRF token; the cookie value on success.
fn checked(
    req: &HttpRequest,
    id: &str,
    body: &[u8],
    state: &AppState,
) -> Result<(PageForm, String), Box<HttpResponse>> {
    let Ok(link) = id.parse::<OffsetLinkId>() else {
        return Err(Box::new(failure(CheckoutError::NotFound)));
    };
    let form: PageForm = serde_urlencoded::from_bytes(body).map_err(|_| {
        Box::new(message(
            StatusCode::BAD_REQUEST,
            "This form could not be read",
            "Go back to the offset link and try again.",
        ))
    })?;
    let cookie = cookie(state, req).unwrap_or_default();
    let token = form.csrf.clone().unwrap_or_default();
    if !state.pages.key.csrf_valid(&cookie, link, &token) {
        return Err(Box::new(message(
            StatusCode::FORBIDDEN,
            "This form has expired",
            "The form was not sent from this page, or your browser refused its cookie. Open the offset link again and retry.",
        )));
    }
    Ok((form, cookie))
}

/// `GET /l/{id}`: the link's page with its form (and counts the visitor).
pub async fn show(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
) -> HttpResponse {
    if let Some(r) = limited(&state, &req).await {
        return r;
    }
    let ua = req
        .headers()
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let visitor = state
        .pages
        .key
        .visitor(state.links.now().date(), &client_ip(&state, &req), &ua);
    match state.links.open(&id, Some(visitor)).await {
        Ok(link) => {
            let (value, fresh) = match cookie(&state, &req) {
                Some(v) => (v, false),
                None => (random_token(), true),
            };
            let csrf = state.pages.key.csrf_token(&value, link.details.link.id);
            let mut response = respond(
                StatusCode::OK,
                views::form(&link, &csrf, &Filled::default(), None),
            );
            if fresh {
                set_cookie(&state, &mut response, &value);
            }
            response
        }
        Err(e) => failure(e),
    }
}

/// `POST /l/{id}/quote`: prices the choice and shows the confirmation step.
pub async fn quote(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    let (form, cookie) = match limited(&state, &req)
        .await
        .map_or_else(|| checked(&req, &id, &body, &state), |r| Err(Box::new(r)))
    {
        Ok(ok) => ok,
        Err(r) => return *r,
    };
    match state.links.quote(&id, form.choice()).await {
        Ok(checkout) => {
            let csrf = state
                .pages
                .key
                .csrf_token(&cookie, checkout.link.details.link.id);
            respond(
                StatusCode::OK,
                views::confirm(&checkout, &csrf, &random_token(), &form.filled()),
            )
        }
        Err(e @ (CheckoutError::Invalid { .. } | CheckoutError::EmailNotAllowed)) => {
            refill(&state, &id, &cookie, &form, e).await
        }
        Err(CheckoutError::Limit(reached)) if reached.is_per_order() => {
            refill(&state, &id, &cookie, &form, reached.into()).await
        }
        Err(e) => failure(e),
    }
}

/// `POST /l/{id}/order`: places the order (once per token) and shows it.
pub async fn order(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    let (form, cookie) = match limited(&state, &req)
        .await
        .map_or_else(|| checked(&req, &id, &body, &state), |r| Err(Box::new(r)))
    {
        Ok(ok) => ok,
        Err(r) => return *r,
    };
    let card = form.card.as_ref().map(|c| Card {
        number: c.chars().filter(char::is_ascii_digit).collect(),
    });
    let token = form.token.clone().unwrap_or_default();
    // the one place an order reads the client's address: the per-visitor limit
    let visitor = state
        .pages
        .key
        .orderer(state.links.now().date(), &client_ip(&state, &req));
    match state
        .links
        .place(&id, form.choice(), card, &token, visitor)
        .await
    {
        Ok(placed) => respond(
            StatusCode::OK,
            views::confirmed(&placed, &state.pages.public_url),
        ),
        Err(
            e @ (CheckoutError::Invalid { .. }
            | CheckoutError::EmailNotAllowed
            | CheckoutError::Declined(_)),
        ) => refill(&state, &id, &cookie, &form, e).await,
        Err(CheckoutError::Limit(reached)) if reached.is_per_order() => {
            refill(&state, &id, &cookie, &form, reached.into()).await
        }
        Err(e) => failure(e),
    }
}

#[derive(Debug, Deserialize)]
struct Signed {
    expires: Option<i64>,
    sig: Option<String>,
}

/// `GET /l/{id}/analytics?expires=…&sig=…`: the analytics page behind a signed URL.
pub async fn analytics(
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

/// Registers the hosted pages (at the root, outside `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/l/{id}").route(web::get().to(show)))
        .service(web::resource("/l/{id}/quote").route(web::post().to(quote)))
        .service(web::resource("/l/{id}/order").route(web::post().to(order)))
        .service(web::resource("/l/{id}/analytics").route(web::get().to(analytics)))
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
