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
//!   the body limit) and checked field by field.
//! - multipart uploads and data sheets check their own fields and cells
//!   ([`crate::data_sheets`], `tonne_wire::data_sheet`).
//!
//! Raw NUL bytes cannot reach a header, a path or a query (the HTTP parser
//! refuses them); any other Unicode scalar value is storable on both stores.

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::header;
use actix_web::middleware::Next;
use actix_web::{HttpMessage as _, web};
use futures_util::StreamExt as _;
use serde_json::Value;
use std::fmt::Write as _;

use crate::error::ApiError;
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
    walk(&value, &mut path).then(|| {
        if path.is_empty() {
            "body".to_owned()
        } else {
            path
        }
    })
}

/// Whether `value` holds a NUL; if so `path` names where.
fn walk(value: &Value, path: &mut String) -> bool {
    match value {
        Value::String(s) => s.contains('\0'),
        Value::Array(items) => items.iter().enumerate().any(|(i, item)| {
            let len = path.len();
            let _ = write!(path, "[{i}]");
            let found = walk(item, path);
            if !found {
                path.truncate(len);
            }
            found
        }),
        Value::Object(fields) => fields.iter().any(|(key, item)| {
            let len = path.len();
            if !path.is_empty() {
                path.push('.');
            }
            if key.contains('\0') {
                path.push_str(&key.escape_debug().to_string());
                return true;
            }
            path.push_str(key);
            let found = walk(item, path);
            if !found {
                path.truncate(len);
            }
            found
        }),
        Value::Null | Value::Bool(_) | Value::Number(_) => false,
    }
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

/// Refuses, with 400 `validation_error` naming the field, a request whose
/// path, query string or urlencoded form body (outside `/v1`, which takes
/// none) decodes to a text holding U+0000. A form body is read here (413
/// past the body limit) and handed on whole to its handler.
pub async fn refuse_unstorable<B: MessageBody + 'static>(
    mut req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<EitherBody<B>>, actix_web::Error> {
    let refusal = if contains(req.uri().path().as_bytes(), b"%00") {
        Some("path".to_owned())
    } else {
        req.uri()
            .query()
            .and_then(|q| nul_in_urlencoded(q.as_bytes()))
    };
    if let Some(field) = refusal {
        let error = ApiError::validation(&field, NUL_REFUSED);
        return Ok(req.error_response(error).map_into_right_body());
    }
    let api = req
        .path()
        .strip_prefix("/v1")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'));
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
        let error = ApiError::validation(&field, NUL_REFUSED);
        return Ok(req.error_response(error).map_into_right_body());
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
