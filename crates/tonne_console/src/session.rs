//! Who is asking: the session cookie, the signed-in person (or operator), and
//! the CSRF check of every form.

use crate::ConsoleState;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse};
use subtle::ConstantTimeEq as _;
use tonne_accounts::users::{Principal, SessionToken};

use crate::error::ConsoleError;

/// The console's two cookies: the session, and the sign-in form's
/// double-submit value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cookie {
    Session,
    SignIn,
}

impl Cookie {
    /// Its name: with the `__Host-` prefix over https (the browser then
    /// keeps it only if it is `Secure`, for `Path=/` and without `Domain`,
    /// so no other site of the domain can set or shadow it).
    pub(super) fn name(self, state: &ConsoleState) -> &'static str {
        match (self, state.pages.is_https()) {
            (Self::Session, true) => "__Host-tonne_session",
            (Self::Session, false) => "tonne_session",
            (Self::SignIn, true) => "__Host-tonne_sign_in",
            (Self::SignIn, false) => "tonne_sign_in",
        }
    }

    /// Its `Set-Cookie` value; `max_age` in seconds (0 clears it). Always
    /// `HttpOnly`; the session `SameSite=Lax` (links into the console keep
    /// it), the sign-in value `Strict`; over https `Secure` and `Path=/`,
    /// else the console's own path.
    pub(super) fn set(self, state: &ConsoleState, value: &str, max_age: Option<u32>) -> String {
        let (same_site, path) = match self {
            Self::Session => ("Lax", "/console"),
            Self::SignIn => ("Strict", "/console/sign-in"),
        };
        let (path, secure) = if state.pages.is_https() {
            ("/", "; Secure")
        } else {
            (path, "")
        };
        let age = max_age
            .map(|s| format!("; Max-Age={s}"))
            .unwrap_or_default();
        format!(
            "{}={value}; Path={path}; HttpOnly; SameSite={same_site}{age}{secure}",
            self.name(state)
        )
    }

    /// Its value in a request.
    pub(super) fn read(self, state: &ConsoleState, req: &HttpRequest) -> Option<String> {
        cookie(req, self.name(state))
    }
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

pub(super) fn set_cookie(response: &mut HttpResponse, value: String) {
    if let Ok(v) = HeaderValue::from_str(&value) {
        response.headers_mut().append(header::SET_COOKIE, v);
    }
}

/// Whether two tokens are equal (constant time).
pub(super) fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// The signed-in person, or the answer for a visitor who is not: a redirect
/// to the sign-in page (or the error page when the store fails).
pub(super) async fn signed_in(
    state: &ConsoleState,
    req: &HttpRequest,
) -> Result<Principal, ConsoleError> {
    let Some(token) = Cookie::Session.read(state, req) else {
        return Err(ConsoleError::SignIn);
    };
    match state
        .users
        .principal(&SessionToken::from_cookie(&token))
        .await
    {
        Ok(Some(p)) => Ok(p),
        Ok(None) => Err(ConsoleError::SignIn),
        Err(e) => Err(ConsoleError::unavailable(e)),
    }
}

/// The signed-in operator, or the answer for anyone else (members get 404).
pub(super) async fn operator(
    state: &ConsoleState,
    req: &HttpRequest,
) -> Result<Principal, ConsoleError> {
    let who = signed_in(state, req).await?;
    if who.user.role == tonne_accounts::users::Role::Operator {
        Ok(who)
    } else {
        Err(ConsoleError::not_found(&who))
    }
}

/// The signed-in operator for a form (CSRF checked first), or the answer for
/// anyone else (members get 404).
pub(super) async fn operator_form(
    state: &ConsoleState,
    req: &HttpRequest,
    csrf: Option<&str>,
) -> Result<Principal, ConsoleError> {
    let who = signed_in_form(state, req, csrf).await?;
    if who.user.role == tonne_accounts::users::Role::Operator {
        Ok(who)
    } else {
        Err(ConsoleError::not_found(&who))
    }
}

/// The signed-in person, if the form's CSRF token is the session's; else 403
/// (nothing runs).
pub(super) async fn signed_in_form(
    state: &ConsoleState,
    req: &HttpRequest,
    csrf: Option<&str>,
) -> Result<Principal, ConsoleError> {
    let who = signed_in(state, req).await?;
    if csrf.is_some_and(|c| same(c, &who.session.csrf_token)) {
        Ok(who)
    } else {
        Err(ConsoleError::Forbidden)
    }
}
