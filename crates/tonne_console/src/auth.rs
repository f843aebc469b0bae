//! Signing in and out, and choosing a password from a setup link.

use crate::ConsoleState;
use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use tonne_accounts::users::{
    AttemptSource, Password, PasswordRuleError, SessionToken, SetupToken, SignInError, UserError,
};
use tonne_http::client_addr::client_addr;
use tonne_http::token::random_token;

use crate::answers::{respond, see_other, unavailable};
use crate::error::ConsoleError;
use crate::session::{Cookie, SignedForm, set_cookie};
use crate::views;

/// The sign-in page, with a fresh double-submit pair: a random value in a
/// `SameSite=Strict` cookie and, in the form, its HMAC under the page key.
pub(super) async fn sign_in_page(
    state: web::Data<ConsoleState>,
) -> Result<HttpResponse, ConsoleError> {
    let value = random_token();
    let token = state.pages.key.sign_in_token(&value);
    let mut response = respond(StatusCode::OK, views::sign_in(&token, "", None));
    set_cookie(
        &mut response,
        Cookie::SignIn.set(&state, &value, Some(3600)),
    );
    Ok(response)
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct SignInForm {
    csrf: Option<String>,
    email: Option<String>,
    password: Option<String>,
}

/// A wait as people say it, rounded up.
fn how_long(wait: time::Duration) -> String {
    let seconds = wait.whole_seconds().max(1);
    let up = |unit: i64| seconds.saturating_add(unit - 1) / unit;
    match seconds {
        1 => "1 second".to_owned(),
        s if s < 60 => format!("{s} seconds"),
        s if s <= 60 => "1 minute".to_owned(),
        s if s < 2 * 3600 => format!("{} minutes", up(60)),
        _ => format!("{} hours", up(3600)),
    }
}

/// Signs in: a new session (a new token) on success; one message for every
/// wrong email or password. Failures are counted per email and address, per
/// email and per network (`UsersService::sign_in`, docs/console.md); requests
/// are also limited per address and second (the hosted pages' limiter), which
/// bounds the password hashing one address can ask for.
pub(super) async fn sign_in(
    state: web::Data<ConsoleState>,
    req: HttpRequest,
    form: web::Form<SignInForm>,
) -> Result<HttpResponse, ConsoleError> {
    let bound = Cookie::SignIn.read(&state, &req).unwrap_or_default();
    let csrf = form.csrf.clone().unwrap_or_default();
    if !state.pages.key.sign_in_valid(&bound, &csrf) {
        return Err(ConsoleError::Forbidden);
    }
    let email = form.email.clone().unwrap_or_default();
    let password = form.password.clone().unwrap_or_default();
    let from = client_addr(&req, &state.config.trusted_proxies);
    let by_ip = state
        .pages
        .limiter
        .check(&format!("sign-in:ip:{from}"))
        .await;
    if !by_ip.allowed {
        let wait =
            time::Duration::seconds(i64::try_from(by_ip.retry_after_secs.max(1)).unwrap_or(1));
        return Ok(too_many(&csrf, &email, wait, "Too many attempts"));
    }
    Ok(
        match state
            .users
            .sign_in(&email, &password, &AttemptSource::of(from))
            .await
        {
            Ok((token, _)) => {
                let mut response = see_other("/console/");
                set_cookie(
                    &mut response,
                    Cookie::Session.set(&state, token.expose(), None),
                );
                response
            }
            Err(SignInError::Refused) => respond(
                StatusCode::UNAUTHORIZED,
                views::sign_in(&csrf, &email, Some("The email or password is wrong.")),
            ),
            Err(SignInError::TooManyFailures { wait }) => {
                too_many(&csrf, &email, wait, "Too many failed sign-ins")
            }
            Err(SignInError::Store(e)) => unavailable(e),
        },
    )
}

/// 429, the form again with how long to wait, and `Retry-After`.
fn too_many(csrf: &str, email: &str, wait: time::Duration, what: &str) -> HttpResponse {
    let mut response = respond(
        StatusCode::TOO_MANY_REQUESTS,
        views::sign_in(
            csrf,
            email,
            Some(&format!("{what}. Wait {} and try again.", how_long(wait))),
        ),
    );
    if let Ok(v) = header::HeaderValue::from_str(&wait.whole_seconds().max(1).to_string()) {
        response.headers_mut().insert(header::RETRY_AFTER, v);
    }
    response
}

/// Signs out: the session is deleted on the server and the cookie cleared.
pub(super) async fn sign_out(
    state: web::Data<ConsoleState>,
    req: HttpRequest,
    _: SignedForm<()>,
) -> Result<HttpResponse, ConsoleError> {
    if let Some(token) = Cookie::Session.read(&state, &req)
        && let Err(e) = state
            .users
            .sign_out(&SessionToken::from_cookie(&token))
            .await
    {
        return Err(ConsoleError::unavailable(e));
    }
    let mut response = see_other("/console/sign-in");
    set_cookie(&mut response, Cookie::Session.set(&state, "", Some(0)));
    Ok(response)
}

/// The page of a setup link: choose a password. The link itself is the
/// secret (its token is consumed on use), so the form needs no other token. A
/// used, expired or made-up link shows "This link no longer works", never the
/// form.
pub(super) async fn setup_page(
    state: web::Data<ConsoleState>,
    token: web::Path<String>,
) -> Result<HttpResponse, ConsoleError> {
    Ok(
        match state
            .users
            .setup_link_works(&SetupToken::from_link(&token))
            .await
        {
            Ok(true) => respond(StatusCode::OK, views::setup(&token, None)),
            Ok(false) => link_no_longer_works(),
            Err(e) => unavailable(e),
        },
    )
}

fn link_no_longer_works() -> HttpResponse {
    respond(
        StatusCode::NOT_FOUND,
        views::message(
            "This link no longer works",
            "It has expired or was used already. Ask your operator for a new one.",
        ),
    )
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct SetupForm {
    password: Option<String>,
    confirm: Option<String>,
}

/// Sets the password of a setup link (once).
pub(super) async fn setup(
    state: web::Data<ConsoleState>,
    token: web::Path<String>,
    form: web::Form<SetupForm>,
) -> Result<HttpResponse, ConsoleError> {
    let password = form.password.clone().unwrap_or_default();
    if form.confirm.as_deref() != Some(password.as_str()) {
        return Ok(respond(
            StatusCode::BAD_REQUEST,
            views::setup(&token, Some("The two passwords differ.")),
        ));
    }
    let password = match Password::new(&password) {
        Ok(p) => p,
        Err(e) => {
            return Ok(respond(
                StatusCode::BAD_REQUEST,
                views::setup(&token, Some(&refusal(e))),
            ));
        }
    };
    Ok(
        match state
            .users
            .choose_password(&SetupToken::from_link(&token), password)
            .await
        {
            Ok(_) => respond(
                StatusCode::OK,
                views::message_with_link(
                    "Password set",
                    "Your password is set. Sign in with your email and the new password.",
                    "/console/sign-in",
                    "Sign in",
                ),
            ),
            Err(UserError::Password(e)) => respond(
                StatusCode::BAD_REQUEST,
                views::setup(&token, Some(&refusal(e))),
            ),
            Err(UserError::SetupLinkInvalid | UserError::NoSuchUser) => link_no_longer_works(),
            Err(e) => unavailable(e),
        },
    )
}

/// Why a password was refused, as a sentence.
fn refusal(e: PasswordRuleError) -> String {
    format!("{}.", capitalised(&e.to_string()))
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
