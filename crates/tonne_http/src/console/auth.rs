//! Signing in and out, and choosing a password from a setup link.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use rand::Rng as _;
use serde::Deserialize;
use tonne_accounts::users::{Password, SessionToken, SetupToken, SignInError, UserError};

use super::answers::{forbidden, respond, see_other, unavailable};
use super::session::{
    SESSION_COOKIE, SIGN_IN_COOKIE, cookie, same, secure, set_cookie, signed_in_form,
};
use super::views;
use crate::state::AppState;

fn random_token() -> String {
    let bytes: [u8; 16] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The sign-in page, with a fresh double-submit token.
pub(super) async fn sign_in_page(state: web::Data<AppState>) -> HttpResponse {
    let token = random_token();
    let mut response = respond(StatusCode::OK, views::sign_in(&token, "", None));
    set_cookie(
        &mut response,
        format!(
            "{SIGN_IN_COOKIE}={token}; Path=/console/sign-in; HttpOnly; SameSite=Strict; Max-Age=3600{}",
            secure(&state)
        ),
    );
    response
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct SignInForm {
    csrf: Option<String>,
    email: Option<String>,
    password: Option<String>,
}

fn client_ip(req: &HttpRequest) -> String {
    req.peer_addr()
        .map(|a| a.ip().to_string())
        .unwrap_or_default()
}

/// Signs in: a new session (a new token) on success; one message for every
/// wrong email or password; attempts limited per client address and per email.
pub(super) async fn sign_in(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<SignInForm>,
) -> HttpResponse {
    let bound = cookie(&req, SIGN_IN_COOKIE).unwrap_or_default();
    let csrf = form.csrf.clone().unwrap_or_default();
    if bound.is_empty() || !same(&bound, &csrf) {
        return forbidden();
    }
    let email = form.email.clone().unwrap_or_default();
    let password = form.password.clone().unwrap_or_default();
    let by_ip = state
        .pages
        .limiter
        .check(&format!("sign-in:ip:{}", client_ip(&req)))
        .await;
    let by_email = state
        .pages
        .limiter
        .check(&format!("sign-in:email:{}", email.trim().to_lowercase()))
        .await;
    if !by_ip.allowed || !by_email.allowed {
        let wait = by_ip.retry_after_secs.max(by_email.retry_after_secs).max(1);
        return respond(
            StatusCode::TOO_MANY_REQUESTS,
            views::sign_in(
                &csrf,
                &email,
                Some(&format!(
                    "Too many attempts. Wait {wait} seconds and try again."
                )),
            ),
        );
    }
    match state.users.sign_in(&email, &password).await {
        Ok((token, _)) => {
            let mut response = see_other("/console/");
            set_cookie(
                &mut response,
                format!(
                    "{SESSION_COOKIE}={}; Path=/console; HttpOnly; SameSite=Lax{}",
                    token.expose(),
                    secure(&state)
                ),
            );
            response
        }
        Err(SignInError::Refused) => respond(
            StatusCode::UNAUTHORIZED,
            views::sign_in(&csrf, &email, Some("The email or password is wrong.")),
        ),
        Err(SignInError::Store(e)) => unavailable(e),
    }
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct CsrfForm {
    csrf: Option<String>,
}

/// Signs out: the session is deleted on the server and the cookie cleared.
pub(super) async fn sign_out(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<CsrfForm>,
) -> HttpResponse {
    if let Err(answer) = signed_in_form(&state, &req, form.csrf.as_deref()).await {
        return answer;
    }
    if let Some(token) = cookie(&req, SESSION_COOKIE)
        && let Err(e) = state
            .users
            .sign_out(&SessionToken::from_cookie(&token))
            .await
    {
        return unavailable(e);
    }
    let mut response = see_other("/console/sign-in");
    set_cookie(
        &mut response,
        format!(
            "{SESSION_COOKIE}=; Path=/console; HttpOnly; SameSite=Lax; Max-Age=0{}",
            secure(&state)
        ),
    );
    response
}

/// The page of a setup link: choose a password. The link itself is the
/// secret (its token is consumed on use), so the form needs no other token. A
/// used, expired or made-up link shows "This link no longer works", never the
/// form.
pub(super) async fn setup_page(
    state: web::Data<AppState>,
    token: web::Path<String>,
) -> HttpResponse {
    match state
        .users
        .setup_link_works(&SetupToken::from_link(&token))
        .await
    {
        Ok(true) => respond(StatusCode::OK, views::setup(&token, None)),
        Ok(false) => link_no_longer_works(),
        Err(e) => unavailable(e),
    }
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
    state: web::Data<AppState>,
    token: web::Path<String>,
    form: web::Form<SetupForm>,
) -> HttpResponse {
    let password = form.password.clone().unwrap_or_default();
    if form.confirm.as_deref() != Some(password.as_str()) {
        return respond(
            StatusCode::BAD_REQUEST,
            views::setup(&token, Some("The two passwords differ.")),
        );
    }
    let password = match Password::new(&password) {
        Ok(p) => p,
        Err(e) => {
            return respond(
                StatusCode::BAD_REQUEST,
                views::setup(&token, Some(&format!("{}.", capitalised(&e.to_string())))),
            );
        }
    };
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
        Err(UserError::SetupLinkInvalid | UserError::NoSuchUser) => link_no_longer_works(),
        Err(e) => unavailable(e),
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
