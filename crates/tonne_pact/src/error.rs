//! PACT's error answers: `{"code", "message"}` with the code the
//! specification names for each status.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;

/// An error as PACT answers it.
#[derive(Debug)]
pub(crate) struct PactError {
    status: StatusCode,
    code: &'static str,
    message: String,
}

#[derive(Serialize)]
struct Body<'a> {
    code: &'a str,
    message: &'a str,
}

impl PactError {
    /// 400 `BadRequest`.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self {
            status: StatusCode::BAD_REQUEST,
            code: "BadRequest",
            message: message.into(),
        }
    }

    /// 401 `BadRequest`: no token, or one Tonne does not know (the
    /// conformance tests expect this code with 400 or 401).
    pub fn invalid_token() -> Self {
        Self {
            status: StatusCode::UNAUTHORIZED,
            code: "BadRequest",
            message: "The access token is missing or not valid".into(),
        }
    }

    /// 401 `TokenExpired`.
    pub fn token_expired() -> Self {
        Self {
            status: StatusCode::UNAUTHORIZED,
            code: "TokenExpired",
            message: "The access token has expired".into(),
        }
    }

    /// 404 `NoSuchFootprint`.
    pub fn no_such_footprint() -> Self {
        Self {
            status: StatusCode::NOT_FOUND,
            code: "NoSuchFootprint",
            message: "The requested footprint could not be found".into(),
        }
    }

    /// 429 with PACT's `BadRequest` (its codes have none for "later") and
    /// `Retry-After`: the account's requests waiting for their answer are
    /// at their bound.
    pub fn too_many(message: impl Into<String>) -> Self {
        Self {
            status: StatusCode::TOO_MANY_REQUESTS,
            code: "BadRequest",
            message: message.into(),
        }
    }

    /// 500 `InternalError`; the cause is logged, never shown.
    pub fn internal(cause: &dyn std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "PACT request failed");
        Self {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            code: "InternalError",
            message: "An internal error occurred".into(),
        }
    }
}

impl std::fmt::Display for PactError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl ResponseError for PactError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let mut res = HttpResponse::build(self.status);
        if self.status == StatusCode::UNAUTHORIZED {
            res.insert_header(("WWW-Authenticate", "Bearer realm=\"pact\""));
        }
        if self.status == StatusCode::TOO_MANY_REQUESTS {
            res.insert_header(("Retry-After", "60"));
        }
        res.json(Body {
            code: self.code,
            message: &self.message,
        })
    }
}
