//! The console's common answers: a page, a redirect, the error pages without
//! internals, and the cursor of a list page.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::http::header;
use maud::Markup;
use tonne_accounts::users::Principal;
use tonne_kernel::{Cursor, Limit, PageRequest};

use crate::views;

pub(crate) fn respond(status: StatusCode, page: Markup) -> HttpResponse {
    tonne_http::html_page::answer(
        status,
        "same-origin",
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        page,
    )
}

pub(crate) fn see_other(to: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, to))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish()
}

/// A page that failed for a reason that is not the visitor's (the store is
/// down): a page without internals.
pub(crate) fn unavailable(e: impl std::fmt::Display) -> HttpResponse {
    store_failed(e);
    unavailable_page()
}

/// Logs a store failure (the page never shows it).
pub(crate) fn store_failed(e: impl std::fmt::Display) {
    tracing::warn!(error = %e, "console: store failure");
}

/// The page of [`unavailable`], the failure already logged.
pub(crate) fn unavailable_page() -> HttpResponse {
    respond(
        StatusCode::SERVICE_UNAVAILABLE,
        views::message(
            "Temporarily unavailable",
            "The console cannot reach its database just now. Try again in a moment.",
        ),
    )
}

pub(crate) fn forbidden() -> HttpResponse {
    respond(
        StatusCode::FORBIDDEN,
        views::message(
            "This form has expired",
            "Nothing was changed. Go back, reload the page and submit the form again.",
        ),
    )
}

pub(crate) fn not_found(who: &Principal) -> HttpResponse {
    respond(StatusCode::NOT_FOUND, not_found_page(who))
}

/// The page of [`not_found`]: the visitor's navigation bar and nothing else.
pub(crate) fn not_found_page(who: &Principal) -> Markup {
    views::page(
        who,
        "Not found",
        None,
        maud::html! { p { "There is nothing here, or it is not yours to see." } },
    )
}

/// The query of a console list page: the cursor it starts after.
#[derive(Debug, Default, serde::Deserialize)]
pub(super) struct ListQuery {
    pub after: Option<String>,
}

/// Items on a console list page.
pub(super) const PAGE_SIZE: u8 = 25;

/// A console list's page after `after`: an absent, empty or malformed cursor is
/// the first page (links are the console's own; a hand-edited one starts over).
pub(super) fn page_after(after: Option<&str>) -> PageRequest<Cursor> {
    PageRequest {
        limit: Limit::new(PAGE_SIZE).unwrap_or_default(),
        after: after
            .filter(|a| !a.is_empty())
            .and_then(|a| a.parse::<Cursor>().ok()),
    }
}

/// A console list's page after an already parsed cursor.
pub(super) fn page_from(after: Option<Cursor>) -> PageRequest<Cursor> {
    PageRequest {
        limit: Limit::new(PAGE_SIZE).unwrap_or_default(),
        after,
    }
}
