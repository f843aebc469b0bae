//! The customer's three steps on an offset link's page: `GET /l/{id}` (the
//! form), `POST /l/{id}/quote` (the confirmation) and `POST /l/{id}/order`
//! (the order placed, once per one-time token, which becomes the order's
//! idempotency key, so a double submit or a reload places one order).

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::error::InternalError;
use actix_web::http::StatusCode;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, HttpResponse, web};
use serde::Deserialize;
use tonne_http::AppState;
use tonne_links::{Amount, Card, CheckoutError, Choice, OffsetLinkId};

use crate::answers::{client_ip, limited, message, respond, respond_with_card};
use crate::csrf::{cookie, set_cookie};
use crate::refusals::{failure, status_of};
use crate::views::{self, Filled};
use tonne_http::token::random_token;

#[derive(Debug, Default, Deserialize)]
struct PageForm {
    csrf: Option<String>,
    token: Option<String>,
    bundle: Option<String>,
    email: Option<String>,
    amount: Option<String>,
    unit: Option<String>,
    card: Option<String>,
    payment_method: Option<String>,
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

/// A step's form past the rate limit and [`checked`], and its cookie, as a
/// handler's argument (its last): a form refused is answered with its page
/// before the handler runs.
pub(crate) struct Admitted(PageForm, String);

impl FromRequest for Admitted {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let body = web::Bytes::from_request(req, payload);
        let id = web::Path::<String>::extract(req);
        let req = req.clone();
        Box::pin(async move {
            let (body, id) = (body.await?, id.await?);
            let state = web::Data::<AppState>::extract(&req).await?;
            let refused = |page: HttpResponse| -> actix_web::Error {
                InternalError::from_response("refused", page).into()
            };
            if let Some(r) = limited(&state, &req).await {
                return Err(refused(r));
            }
            match checked(&req, &id, &body, &state) {
                Ok((form, cookie)) => Ok(Self(form, cookie)),
                Err(page) => Err(refused(*page)),
            }
        })
    }
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
                set_cookie(&state, &mut response, &value, "/l/");
            }
            response
        }
        Err(e) => failure(e),
    }
}

/// `POST /l/{id}/quote`: prices the choice and shows the confirmation step.
pub async fn quote(
    state: web::Data<AppState>,
    id: web::Path<String>,
    Admitted(form, cookie): Admitted,
) -> HttpResponse {
    match state.links.quote(&id, form.choice()).await {
        Ok(checkout) => {
            let csrf = state
                .pages
                .key
                .csrf_token(&cookie, checkout.link.details.link.id);
            let token = random_token();
            let card = match state.links.card_form(&checkout, &token).await {
                Ok(card) => card,
                Err(e) => return failure(e),
            };
            let page = views::confirm(&checkout, &csrf, &token, &form.filled(), &card);
            respond_with_card(StatusCode::OK, page, &card)
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

/// The card a form hands over: the processor's PaymentMethod (Stripe.js
/// filled it in) before a number typed into the test simulator's field.
pub(crate) fn card_of(payment_method: Option<&str>, number: Option<&str>) -> Option<Card> {
    match (payment_method.map(str::trim), number) {
        (Some(pm), _) if !pm.is_empty() => Some(Card::PaymentMethod(pm.to_owned())),
        (_, Some(n)) => Some(Card::Number(
            n.chars().filter(char::is_ascii_digit).collect(),
        )),
        _ => None,
    }
}

/// `POST /l/{id}/order`: places the order (once per token) and shows it.
pub async fn order(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
    Admitted(form, cookie): Admitted,
) -> HttpResponse {
    let card = card_of(form.payment_method.as_deref(), form.card.as_deref());
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
