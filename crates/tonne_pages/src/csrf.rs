//! The hosted pages' CSRF cookie: every form carries a token bound to a
//! `SameSite=Strict` cookie and to the link (`PageKey::csrf_token`); this
//! module reads and sets the cookie (its values come from
//! `tonne_http::token::random_token`).

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse};
use tonne_http::AppState;

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

pub(crate) fn cookie(state: &AppState, req: &HttpRequest) -> Option<String> {
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

/// Sets the CSRF cookie for the pages under `scope` (`/l/` or `/pay/`; over
/// https the `__Host-` cookie is the whole site's, as that prefix requires).
pub(crate) fn set_cookie(state: &AppState, response: &mut HttpResponse, value: &str, scope: &str) {
    let header = if state.pages.is_https() {
        format!(
            "{CSRF_COOKIE_HTTPS}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=86400; Secure"
        )
    } else {
        format!("{CSRF_COOKIE}={value}; Path={scope}; HttpOnly; SameSite=Strict; Max-Age=86400")
    };
    if let Ok(v) = HeaderValue::from_str(&header) {
        response.headers_mut().append(header::SET_COOKIE, v);
    }
}
