//! What every HTML page of Tonne shares (the console's, the hosted pages' and
//! the refusal page of [`crate::unstorable`]): the document around a page's
//! head and body, and the headers it is answered with.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::http::header;
use maud::{DOCTYPE, Markup, html};

/// An HTML document in English: `head` after the character set and the
/// viewport, `body` as its body.
pub fn document(head: Markup, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                (head)
            }
            body { (body) }
        }
    }
}

/// A page as an answer: HTML, neither stored nor sniffed, with its front
/// end's referrer and content security policies.
pub fn answer(
    status: StatusCode,
    referrer: &'static str,
    policy: &str,
    page: Markup,
) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::REFERRER_POLICY, referrer))
        .insert_header((header::CONTENT_SECURITY_POLICY, policy))
        .body(page.into_string())
}
