//! A refused checkout as a page: the status of each `CheckoutError` and the
//! message page that says it (a daily limit with its `Retry-After`).

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use tonne_links::{CheckoutError, LimitReached};

use crate::answers::message;

pub(crate) fn failure(e: CheckoutError) -> HttpResponse {
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

pub(crate) fn status_of(e: &CheckoutError) -> StatusCode {
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
