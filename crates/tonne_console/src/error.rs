//! The console's error: why a handler answers another page than the one asked
//! for (sign in first, a form that expired, nothing here for this visitor, the
//! store down), rendered as the console's error pages, without internals.

use std::fmt;

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use maud::Markup;
use tonne_accounts::users::Principal;

use crate::answers::{
    forbidden, not_found_page, respond, see_other, store_failed, unavailable_page,
};

/// What stops a console handler; its page is [`ResponseError::error_response`].
#[derive(Debug)]
pub(crate) enum ConsoleError {
    /// No session, or one that ended: 303 to the sign-in page.
    SignIn,
    /// A form without the session's CSRF token: 403, nothing changed.
    Forbidden,
    /// Nothing here, or not the visitor's to see: 404, the page drawn with
    /// the visitor's navigation bar.
    NotFound(Markup),
    /// The store failed (logged when made): 503 without internals.
    Unavailable,
}

impl ConsoleError {
    /// Nothing here for `who`.
    pub(crate) fn not_found(who: &Principal) -> Self {
        Self::NotFound(not_found_page(who))
    }

    /// The store failed with `e` (logged here; the page says nothing of it).
    pub(crate) fn unavailable(e: impl fmt::Display) -> Self {
        store_failed(e);
        Self::Unavailable
    }
}

impl fmt::Display for ConsoleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::SignIn => "sign in first",
            Self::Forbidden => "the form expired",
            Self::NotFound(_) => "not found",
            Self::Unavailable => "temporarily unavailable",
        })
    }
}

impl ResponseError for ConsoleError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::SignIn => StatusCode::SEE_OTHER,
            Self::Forbidden => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    fn error_response(&self) -> HttpResponse {
        match self {
            Self::SignIn => see_other("/console/sign-in"),
            Self::Forbidden => forbidden(),
            Self::NotFound(page) => respond(StatusCode::NOT_FOUND, page.clone()),
            Self::Unavailable => unavailable_page(),
        }
    }
}
