//! Text that a store cannot keep is refused at the door, alike on both
//! stores: PostgreSQL's `TEXT` (and `JSONB`) refuse U+0000 where SQLite keeps
//! it, so a NUL that got in would fail later, in a worker, on one store only.
//! Every decoded string of a request is checked before anything runs, and the
//! answer is 400 `validation_error` naming the field:
//!
//! - JSON bodies ([`crate::extract::JsonBody`] and its kin): a scan of the raw
//!   bytes for the `\u0000` escape (the only way JSON can carry a NUL), and
//!   only when it is there, a walk of the parsed value for the field's path
//!   (`rows[3].shipment_id`). Lone surrogates (`\ud800`) never decode:
//!   `serde_json` refuses them as invalid JSON, naming the field.
//! - the path and the query string ([`refuse_unstorable`]): `%00` in the path
//!   is 400 naming `path`; in the query, the parameter is named.
//! - urlencoded form bodies outside `/v1` (the console's and the hosted
//!   pages' forms, [`refuse_unstorable`]): read before their handler (at most
//!   the body limit) and checked field by field. A person sent the form from
//!   a browser: the answer is a page (400, HTML, in the front ends' style)
//!   naming the field in plain words, not the API's JSON; so is a `%00` in
//!   the address of a page a browser asked for (`Accept: text/html`) outside
//!   `/v1`.
//! - multipart uploads and data sheets check their own fields and cells
//!   ([`crate::data_sheets`], `tonne_wire::data_sheet`).
//!
//! Raw NUL bytes cannot reach a header, a path or a query (the HTTP parser
//! refuses them); any other Unicode scalar value is storable on both stores.

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::{StatusCode, header};
use actix_web::middleware::Next;
use actix_web::{HttpMessage as _, HttpResponse, web};
use futures_util::StreamExt as _;
use maud::{PreEscaped, html};
use serde_json::Value;
use tonne_catalogue_file::nul_at;

use crate::error::ApiError;
use crate::html_page::{answer, document};
use crate::state::AppState;

/// Why a string with U+0000 is refused.
pub const NUL_REFUSED: &str = "contains U+0000 (NUL), which cannot be stored";

/// Whether `bytes` hold `needle`.
fn contains(bytes: &[u8], needle: &[u8]) -> bool {
    bytes.windows(needle.len()).any(|w| w == needle)
}

/// The path of the first string of a JSON body (a value or an object's key)
/// holding U+0000, in the notation of the strict-field errors
/// (`rows[3].shipment_id`; `body` for a top-level string); `None` when there
/// is none. The common body, without a `\u0000` escape, costs one scan.
pub fn nul_in_json(body: &[u8]) -> Option<String> {
    if !contains(body, b"\\u0000") {
        return None;
    }
    // An escaped backslash (`\\u0000`) matches the scan too: the parsed
    // value decides. A body that does not parse is the parser's to refuse.
    let value: Value = serde_json::from_slice(body).ok()?;
    let mut path = String::new();
    nul_at(&value, &mut path).then(|| {
        if path.is_empty() {
            "body".to_owned()
        } else {
            path
        }
    })
}

/// The first field of an urlencoded text (a query string or a form body)
/// whose name or value decodes to a text with U+0000: its name (escaped).
pub fn nul_in_urlencoded(text: &[u8]) -> Option<String> {
    // `%00` is the only way to write a NUL (a raw one is not sent); the
    // common text without it costs one scan.
    if !contains(text, b"%00") {
        return None;
    }
    url::form_urlencoded::parse(text)
        .find(|(name, value)| name.contains('\0') || value.contains('\0'))
        .map(|(name, _)| name.escape_debug().to_string())
}

/// Whether a request's body is an urlencoded form.
fn is_form(req: &ServiceRequest) -> bool {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| {
            essence
                .trim()
                .eq_ignore_ascii_case("application/x-www-form-urlencoded")
        })
}

/// Whether a browser asked for a page (`Accept` names `text/html`).
fn wants_page(req: &ServiceRequest) -> bool {
    req.headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| {
            accept.split(',').any(|item| {
                item.split(';')
                    .next()
                    .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("text/html"))
            })
        })
}

/// Where a NUL was found, as the page says it.
enum Place<'a> {
    /// The page's address (its path).
    Address,
    /// A field: of the address's query, or of a form.
    Field(&'a str),
}

/// The page a person gets for a NUL in a form or a page's address: 400,
/// the front ends' style sheet and security headers, what was wrong in plain
/// words, nothing changed.
fn refusal_page(place: Place<'_>) -> HttpResponse {
    let (title, what) = match place {
        Place::Address => (
            "This address cannot be opened",
            "The page's address holds a character that cannot be stored: the null character (U+0000, written %00 in an address).".to_owned(),
        ),
        Place::Field(field) => (
            "This form could not be sent",
            format!(
                "The field “{field}” holds a character that cannot be stored: the null character (U+0000), often pasted in by accident from another program."
            ),
        ),
    };
    let page = document(
        html! {
            title { (title) " · Tonne" }
            style { (PreEscaped(crate::style::STYLE)) }
        },
        html! {
            main id="main" {
                h1 { (title) }
                p { (what) }
                p { "Nothing was changed. Go back, remove that character and try again." }
            }
        },
    );
    answer(
        StatusCode::BAD_REQUEST,
        "same-origin",
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        page,
    )
}

/// Refuses a request whose path, query string or urlencoded form body
/// (outside `/v1`, which takes none) decodes to a text holding U+0000: 400
/// `validation_error` naming the field, or for a person (a form, or a page a
/// browser asked for, outside `/v1`) the [`refusal_page`] naming it. A form
/// body is read here (413 past the body limit) and handed on whole to its
/// handler.
pub async fn refuse_unstorable<B: MessageBody + 'static>(
    mut req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<EitherBody<B>>, actix_web::Error> {
    let api = req
        .path()
        .strip_prefix("/v1")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'));
    let in_path = contains(req.uri().path().as_bytes(), b"%00");
    let refusal = if in_path {
        Some("path".to_owned())
    } else {
        req.uri()
            .query()
            .and_then(|q| nul_in_urlencoded(q.as_bytes()))
    };
    if let Some(field) = refusal {
        if !api && wants_page(&req) {
            let place = if in_path {
                Place::Address
            } else {
                Place::Field(&field)
            };
            let page = refusal_page(place);
            return Ok(req.into_response(page).map_into_right_body());
        }
        let error = ApiError::validation(&field, NUL_REFUSED);
        return Ok(req.error_response(error).map_into_right_body());
    }
    if api || !is_form(&req) {
        return Ok(next.call(req).await?.map_into_left_body());
    }
    let limit = req
        .app_data::<web::Data<AppState>>()
        .map_or(crate::state::DEFAULT_BODY_LIMIT, |s| {
            s.config.body_limit_bytes
        });
    let mut payload = req.take_payload();
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = match chunk {
            Ok(chunk) => chunk,
            Err(e) => {
                let error = ApiError::validation("body", e);
                return Ok(req.error_response(error).map_into_right_body());
            }
        };
        if body.len().saturating_add(chunk.len()) > limit {
            let error = ApiError::new(
                actix_web::http::StatusCode::PAYLOAD_TOO_LARGE,
                crate::error::codes::PAYLOAD_TOO_LARGE,
                format!("body: larger than the {limit}-byte limit"),
            );
            return Ok(req.error_response(error).map_into_right_body());
        }
        body.extend_from_slice(&chunk);
    }
    if let Some(field) = nul_in_urlencoded(&body) {
        let page = refusal_page(Place::Field(&field));
        return Ok(req.into_response(page).map_into_right_body());
    }
    req.set_payload(Payload::from(body.freeze()));
    Ok(next.call(req).await?.map_into_left_body())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_nul_is_named_by_its_path() {
        let body = br#"{"rows":[{"a":"x"},{"shipment_id":"a\u0000b"}]}"#;
        assert_eq!(nul_in_json(body).as_deref(), Some("rows[1].shipment_id"));
        assert_eq!(nul_in_json(br#""\u0000""#).as_deref(), Some("body"));
        assert_eq!(
            nul_in_json(br#"{"a":{"k\u0000":1}}"#).as_deref(),
            Some("a.k\\0")
        );
    }

    #[test]
    fn an_escaped_backslash_and_other_escapes_pass() {
        assert_eq!(nul_in_json(br#"{"a":"\\u0000","b":"\u0001"}"#), None);
        assert_eq!(nul_in_json(br#"{"a":"plain"}"#), None);
    }

    #[test]
    fn an_urlencoded_nul_names_its_field() {
        assert_eq!(
            nul_in_urlencoded(b"a=1&name=x%00y").as_deref(),
            Some("name")
        );
        assert_eq!(nul_in_urlencoded(b"a=%2500"), None);
        assert_eq!(nul_in_urlencoded(b"a=1"), None);
    }
}
