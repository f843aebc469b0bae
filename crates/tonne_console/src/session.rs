//! Who is asking: the session cookie, the signed-in person (or operator), and
//! the CSRF check of every form; as the extractors the handlers take
//! ([`SignedIn`], [`Operator`], [`SignedForm`], [`OperatorForm`]), and as
//! functions for the forms read otherwise (as a map or as pairs, their fields
//! not known in advance or repeated; raw; multipart).

use crate::ConsoleState;
use actix_web::dev::Payload;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{FromRequest, HttpRequest, HttpResponse, web};
use futures_util::future::LocalBoxFuture;
use serde::de::DeserializeOwned;
use subtle::ConstantTimeEq as _;
use tonne_accounts::users::{Principal, Role, SessionToken};

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

/// `who`, if an operator; else the answer (members get 404).
fn only_operator(who: Principal) -> Result<Principal, ConsoleError> {
    if who.user.role == Role::Operator {
        Ok(who)
    } else {
        Err(ConsoleError::not_found(&who))
    }
}

/// The signed-in operator, or the answer for anyone else (members get 404).
pub(super) async fn operator(
    state: &ConsoleState,
    req: &HttpRequest,
) -> Result<Principal, ConsoleError> {
    only_operator(signed_in(state, req).await?)
}

/// The signed-in operator for a form (CSRF checked first), or the answer for
/// anyone else (members get 404).
pub(super) async fn operator_form(
    state: &ConsoleState,
    req: &HttpRequest,
    csrf: Option<&str>,
) -> Result<Principal, ConsoleError> {
    only_operator(signed_in_form(state, req, csrf).await?)
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

/// The console's state of a request (registered by the binary).
pub(crate) fn state_of(req: &HttpRequest) -> Result<&web::Data<ConsoleState>, actix_web::Error> {
    req.app_data::<web::Data<ConsoleState>>()
        .ok_or_else(|| actix_web::error::ErrorInternalServerError("no console state"))
}

/// An extractor's future.
pub(crate) type Extracted<T> = LocalBoxFuture<'static, Result<T, actix_web::Error>>;

/// The signed-in person ([`signed_in`]) as a handler's argument. It comes
/// after the path and query among the arguments: actix extracts them in that
/// order, so that a malformed path or query answers before the session is read.
pub(crate) struct SignedIn(pub Principal);

impl FromRequest for SignedIn {
    type Error = actix_web::Error;
    type Future = Extracted<Self>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { Ok(Self(signed_in(state_of(&req)?, &req).await?)) })
    }
}

/// The signed-in operator ([`operator`]) as a handler's argument, last like
/// [`SignedIn`].
pub(crate) struct Operator(pub Principal);

impl FromRequest for Operator {
    type Error = actix_web::Error;
    type Future = Extracted<Self>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { Ok(Self(operator(state_of(&req)?, &req).await?)) })
    }
}

/// What a console form sends: the session's CSRF token and its own fields.
#[derive(serde::Deserialize)]
struct Sent<T> {
    csrf: Option<String>,
    #[serde(flatten)]
    fields: T,
}

/// A form's fields (`T`, without its `csrf`) and the person who sent them
/// with the session's token, in the order [`signed_in_form`] checks them:
/// the body read as `web::Form` reads it (its size limit, its answer to a
/// malformed form), then the session (the sign-in page), then the token
/// (403), all before the handler runs. The last of a handler's arguments.
pub(crate) struct SignedForm<T>(pub Principal, pub T);

impl<T: DeserializeOwned + 'static> FromRequest for SignedForm<T> {
    type Error = actix_web::Error;
    type Future = Extracted<Self>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let sent = web::Form::<Sent<T>>::from_request(req, payload);
        let req = req.clone();
        Box::pin(async move {
            let Sent { csrf, fields } = sent.await?.into_inner();
            let who = signed_in_form(state_of(&req)?, &req, csrf.as_deref()).await?;
            Ok(Self(who, fields))
        })
    }
}

/// A form an operator sent ([`SignedForm`], then [`operator_form`]'s 404 for
/// a member).
pub(crate) struct OperatorForm<T>(pub Principal, pub T);

impl<T: DeserializeOwned + 'static> FromRequest for OperatorForm<T> {
    type Error = actix_web::Error;
    type Future = Extracted<Self>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let sent = SignedForm::<T>::from_request(req, payload);
        Box::pin(async move {
            let SignedForm(who, fields) = sent.await?;
            Ok(Self(only_operator(who)?, fields))
        })
    }
}
