//! Lune Pay's page: `GET /pay/{account_id}?quantity=&bundle_id=&redirect_url=
//! &redirect_label=&external_id=` shows what the platform asks the buyer to
//! pay (checked and priced by the links domain) with the card step; `POST
//! /pay/{account_id}` pays — once per page, its one-time token the order's
//! idempotency key — and answers 303 to the platform's return address with
//! `external_id` and `temporary_id` added. The return address must be on one
//! of the account's allowed origins, so the page redirects nowhere else.

use actix_web::http::StatusCode;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use tonne_http::AppState;
use tonne_http::token::random_token;
use tonne_kernel::AccountId;
use tonne_links::pay::{PayCheckout, PayRequest};
use tonne_links::{Card, CheckoutError};

use crate::answers::{limited, message, respond_with_card};
use crate::checkout::card_of;
use crate::csrf::{cookie, set_cookie};
use crate::refusals::{failure, status_of};
use crate::views::pay_page;

/// The platform's parameters, in the query or the form.
#[derive(Debug, Default, Deserialize)]
struct PayFields {
    quantity: Option<String>,
    bundle_id: Option<String>,
    redirect_url: Option<String>,
    redirect_label: Option<String>,
    external_id: Option<String>,
    csrf: Option<String>,
    token: Option<String>,
    card: Option<String>,
    payment_method: Option<String>,
}

impl PayFields {
    fn request(&self) -> PayRequest {
        PayRequest {
            quantity: self.quantity.clone().unwrap_or_default(),
            bundle_id: self.bundle_id.clone().unwrap_or_default(),
            redirect_url: self.redirect_url.clone().unwrap_or_default(),
            redirect_label: self.redirect_label.clone(),
            external_id: self.external_id.clone(),
        }
    }

    fn card(&self) -> Option<Card> {
        card_of(self.payment_method.as_deref(), self.card.as_deref())
    }
}

fn unreadable() -> HttpResponse {
    message(
        StatusCode::BAD_REQUEST,
        "This payment link could not be read",
        "Go back to the site that sent you and try again.",
    )
}

/// The page for a checked request, with a fresh one-time token (and the
/// reason of a refused attempt, if any).
async fn page(
    state: &AppState,
    checkout: &PayCheckout,
    cookie_value: &str,
    status: StatusCode,
    error: Option<&str>,
) -> HttpResponse {
    let token = random_token();
    let card = match state.links.pay_card_form(checkout, &token).await {
        Ok(card) => card,
        Err(e) => return failure(e),
    };
    let csrf = state.pages.key.pay_token(cookie_value, checkout.account_id);
    let markup = pay_page(checkout, &csrf, &token, &card, error);
    respond_with_card(status, markup, &card)
}

/// `GET /pay/{account_id}`: what the platform asks the buyer to pay.
pub async fn show(
    state: web::Data<AppState>,
    req: HttpRequest,
    account: web::Path<String>,
) -> HttpResponse {
    if let Some(r) = limited(&state, &req).await {
        return r;
    }
    let Ok(fields) = serde_urlencoded::from_str::<PayFields>(req.query_string()) else {
        return unreadable();
    };
    let checkout = match state.links.pay_page(&account, fields.request()).await {
        Ok(c) => c,
        Err(e) => return failure(e),
    };
    let (value, fresh) = match cookie(&state, &req) {
        Some(v) => (v, false),
        None => (random_token(), true),
    };
    let mut response = page(&state, &checkout, &value, StatusCode::OK, None).await;
    if fresh {
        set_cookie(&state, &mut response, &value, "/pay/");
    }
    response
}

/// `POST /pay/{account_id}`: pays, then back to the platform.
pub async fn pay(
    state: web::Data<AppState>,
    req: HttpRequest,
    account: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    if let Some(r) = limited(&state, &req).await {
        return r;
    }
    let Ok(account_id) = account.parse::<AccountId>() else {
        return failure(CheckoutError::NotFound);
    };
    let Ok(fields) = serde_urlencoded::from_bytes::<PayFields>(&body) else {
        return unreadable();
    };
    let value = cookie(&state, &req).unwrap_or_default();
    let csrf = fields.csrf.clone().unwrap_or_default();
    if !state.pages.key.pay_valid(&value, account_id, &csrf) {
        return message(
            StatusCode::FORBIDDEN,
            "This form has expired",
            "The form was not sent from this page, or your browser refused its cookie. Go back to the site that sent you and start again.",
        );
    }
    let token = fields.token.clone().unwrap_or_default();
    match state
        .links
        .pay(&account, fields.request(), fields.card(), &token)
        .await
    {
        Ok(paid) => HttpResponse::SeeOther()
            .insert_header((header::LOCATION, paid.redirect))
            .insert_header((header::CACHE_CONTROL, "no-store"))
            .insert_header((header::REFERRER_POLICY, "no-referrer"))
            .finish(),
        Err(e @ (CheckoutError::Declined(_) | CheckoutError::Invalid { field: "token", .. })) => {
            // the same request again, with a new token and the reason
            let status = status_of(&e);
            match state.links.pay_page(&account, fields.request()).await {
                Ok(checkout) => page(&state, &checkout, &value, status, Some(&e.to_string())).await,
                Err(e) => failure(e),
            }
        }
        Err(e) => failure(e),
    }
}
