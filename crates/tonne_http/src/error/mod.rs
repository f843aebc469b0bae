//! The one error type of the HTTP adapter: its constructors and its rendering
//! as the contract's `Errors` body (the `ResponseError` of actix). The code
//! catalogue lives in [`codes`], the mapping from every domain error in
//! `from_domain`.

mod from_domain;

pub mod codes;

use std::borrow::Cow;

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;

/// An error as the API answers it: a status and the contract's `Errors` body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: Cow<'static, str>,
    retry_after_secs: Option<u64>,
}

/// The 2024 `ErrorResponse`: `error` for today's clients, and the same element
/// alone in `errors` for the clients of 2023.
#[derive(Serialize)]
struct ErrorsResponse<'a> {
    error: ErrorItem<'a>,
    errors: [ErrorItem<'a>; 1],
}

#[derive(Serialize, Clone, Copy)]
struct ErrorItem<'a> {
    error_code: &'a str,
    message: &'a str,
}

impl ApiError {
    /// Any status, code and message.
    pub fn new(
        status: StatusCode,
        code: &'static str,
        message: impl Into<Cow<'static, str>>,
    ) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            retry_after_secs: None,
        }
    }

    /// 400 `validation_error` naming the field.
    pub fn validation(field: &str, reason: impl std::fmt::Display) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            codes::VALIDATION_ERROR,
            format!("{field}: {reason}"),
        )
    }

    /// 401.
    pub fn unauthorised(message: &'static str) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, codes::UNAUTHORISED, message)
    }

    /// 404.
    pub fn not_found(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::NOT_FOUND, codes::NOT_FOUND, message)
    }

    /// 429 with `Retry-After`.
    pub fn rate_limited(retry_after_secs: u64) -> Self {
        Self {
            retry_after_secs: Some(retry_after_secs),
            ..Self::new(
                StatusCode::TOO_MANY_REQUESTS,
                codes::RATE_LIMITED,
                "too many requests; retry later",
            )
        }
    }

    /// The same error answered with `Retry-After`.
    pub fn retry_after(mut self, secs: u64) -> Self {
        self.retry_after_secs = Some(secs);
        self
    }

    /// 503 `service_unavailable` with `Retry-After`.
    pub fn unavailable(message: &'static str, retry_after_secs: u64) -> Self {
        Self {
            retry_after_secs: Some(retry_after_secs),
            ..Self::new(
                StatusCode::SERVICE_UNAVAILABLE,
                codes::SERVICE_UNAVAILABLE,
                message,
            )
        }
    }

    /// Logs the full cause and answers a generic 500: internals never reach the
    /// client. A store that is only busy or unreachable for now
    /// ([`tonne_kernel::Unavailable`] in the chain) answers 503 with
    /// `Retry-After: 1` instead.
    pub fn internal(cause: &anyhow::Error) -> Self {
        if cause.chain().any(|e| e.is::<tonne_kernel::Unavailable>()) {
            tracing::warn!(error = %format!("{cause:#}"), "store unavailable; answering 503");
            return Self::unavailable("the service is busy; retry in a moment", 1);
        }
        tracing::error!(error = ?cause, "unexpected error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            codes::INTERNAL_ERROR,
            "internal error; the request id identifies it in the logs",
        )
    }

    /// The `Errors` body as a JSON value (for errors inside a 200 answer:
    /// an estimate's `quote`, a batch entry).
    pub fn body_json(&self) -> serde_json::Value {
        serde_json::to_value(self.body()).unwrap_or(serde_json::Value::Null)
    }

    fn body(&self) -> ErrorsResponse<'_> {
        let item = ErrorItem {
            error_code: self.code,
            message: &self.message,
        };
        ErrorsResponse {
            error: item,
            errors: [item],
        }
    }

    /// The status.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The error code.
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The message (what the body says).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.status.as_u16(),
            self.code,
            self.message
        )
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status);
        if let Some(secs) = self.retry_after_secs {
            response.insert_header((header::RETRY_AFTER, HeaderValue::from(secs)));
        }
        response.json(self.body())
    }
}
