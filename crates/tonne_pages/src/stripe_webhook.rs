//! `POST /stripe/webhook`: Stripe's events about the hosted pages' card
//! payments. No API key: the body is accepted only with a `Stripe-Signature`
//! made with one of the configured signing secrets (live's, test's) within
//! five minutes; each event id acts once (the ordering domain records it in
//! the same transaction as what it does). A new dispute
//! (`charge.dispute.created`) puts its order on hold; other events are
//! recorded and acknowledged. Without a signing secret the route is 404.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::json;
use tonne_http::AppState;
use tonne_ordering::PaymentEvent;
use tonne_stripe::{DEFAULT_TOLERANCE, Event, verify_signature};

fn answer(status: StatusCode, message: &str) -> HttpResponse {
    HttpResponse::build(status).json(json!({ "message": message }))
}

/// Receives one event.
pub async fn receive(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Bytes,
) -> HttpResponse {
    let secrets = &state.pages.stripe_webhook_secrets;
    if secrets.is_empty() {
        return answer(StatusCode::NOT_FOUND, "not found");
    }
    let Some(header) = req
        .headers()
        .get("stripe-signature")
        .and_then(|v| v.to_str().ok())
    else {
        return answer(
            StatusCode::BAD_REQUEST,
            "the Stripe-Signature header is missing",
        );
    };
    let now = state.links.now();
    let verified = secrets
        .iter()
        .any(|secret| verify_signature(&body, header, secret, now, DEFAULT_TOLERANCE).is_ok());
    if !verified {
        return answer(
            StatusCode::BAD_REQUEST,
            "the Stripe-Signature does not match the body, or is too old",
        );
    }
    let Ok(event) = Event::parse(&body) else {
        return answer(StatusCode::BAD_REQUEST, "the body is not a Stripe event");
    };
    let disputed_payment = (event.kind == "charge.dispute.created")
        .then(|| event.object_str("payment_intent").map(str::to_owned))
        .flatten();
    let recorded = state
        .ordering
        .payment_event(PaymentEvent {
            id: event.id.clone(),
            kind: event.kind.clone(),
            disputed_payment,
        })
        .await;
    match recorded {
        Ok(_) => HttpResponse::Ok().json(json!({ "received": true })),
        Err(e) => {
            tracing::error!(event = %event.id, error = %e, "a Stripe event could not be recorded; Stripe will send it again");
            answer(StatusCode::SERVICE_UNAVAILABLE, "try again later")
        }
    }
}
