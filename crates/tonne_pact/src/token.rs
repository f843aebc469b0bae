//! `POST /pact/auth/token`: OAuth 2 client credentials (RFC 6749, 4.4). The
//! client authenticates with HTTP Basic (`client_secret_basic`) or, as the
//! RFC also allows, with `client_id` and `client_secret` in the form; the
//! form must say `grant_type=client_credentials`. Errors are OAuth's
//! (`{"error", "error_description"}`, RFC 6749, 5.2).

use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};
use tonne_accounts::pact::TokenError;

use crate::state::PactState;

#[derive(Deserialize, Default)]
struct Form {
    grant_type: Option<String>,
    client_id: Option<String>,
    client_secret: Option<String>,
}

#[derive(Serialize)]
struct Granted<'a> {
    access_token: &'a str,
    token_type: &'static str,
    expires_in: u32,
}

#[derive(Serialize)]
struct Refused {
    error: &'static str,
    error_description: &'static str,
}

fn refuse(status: StatusCode, error: &'static str, description: &'static str) -> HttpResponse {
    let mut res = HttpResponse::build(status);
    res.insert_header((header::CACHE_CONTROL, "no-store"));
    if status == StatusCode::UNAUTHORIZED {
        res.insert_header((header::WWW_AUTHENTICATE, "Basic realm=\"pact\""));
    }
    res.json(Refused {
        error,
        error_description: description,
    })
}

/// Undoes RFC 6749, appendix B's form encoding of a credential: `+` is a
/// space, `%XX` a byte; anything else malformed (a stray `%`, text that is
/// not UTF-8) is no credential at all.
fn form_decoded(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes.get(i + 1..i + 3)?;
                let hex = std::str::from_utf8(hex).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            _ => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// `client_id:client_secret` from `Authorization: Basic …`, each
/// form-decoded as RFC 6749, 2.3.1 says.
fn basic(req: &HttpRequest) -> Option<(String, String)> {
    let value = req.headers().get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, encoded) = value.split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = STANDARD.decode(encoded.trim()).ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (id, secret) = text.split_once(':')?;
    Some((form_decoded(id)?, form_decoded(secret)?))
}

/// Whether the request says its body is a form.
fn is_form(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|m| {
            m.trim()
                .eq_ignore_ascii_case("application/x-www-form-urlencoded")
        })
}

pub(crate) async fn issue(
    req: HttpRequest,
    body: web::Bytes,
    state: web::Data<PactState>,
) -> HttpResponse {
    let parsed = if is_form(&req) {
        serde_urlencoded::from_bytes::<Form>(&body).ok()
    } else {
        None
    };
    let form = match parsed {
        Some(form) => form,
        None => {
            return refuse(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                "the body must be a form (application/x-www-form-urlencoded)",
            );
        }
    };
    match form.grant_type.as_deref() {
        Some("client_credentials") => {}
        None => {
            return refuse(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                "grant_type is required",
            );
        }
        Some(_) => {
            return refuse(
                StatusCode::BAD_REQUEST,
                "unsupported_grant_type",
                "only grant_type=client_credentials is supported",
            );
        }
    }
    let credentials = match (basic(&req), form.client_id, form.client_secret) {
        (Some(pair), None, None) => pair,
        (None, Some(id), Some(secret)) => (id, secret),
        _ => {
            return refuse(
                StatusCode::UNAUTHORIZED,
                "invalid_client",
                "authenticate the client with HTTP Basic (client_id:client_secret)",
            );
        }
    };
    match state
        .clients
        .issue_token(&credentials.0, &credentials.1)
        .await
    {
        Ok(issued) => HttpResponse::Ok()
            .insert_header((header::CACHE_CONTROL, "no-store"))
            .insert_header((header::PRAGMA, "no-cache"))
            .json(Granted {
                access_token: issued.token.expose(),
                token_type: "Bearer",
                expires_in: issued.expires_in,
            }),
        Err(TokenError::InvalidClient) => refuse(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "client authentication failed",
        ),
        Err(TokenError::Store(e)) => {
            tracing::error!(error = %e, "issuing a PACT token failed");
            refuse(
                StatusCode::INTERNAL_SERVER_ERROR,
                "server_error",
                "the token could not be issued",
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::form_decoded;

    #[test]
    fn credentials_are_form_decoded_exactly() {
        assert_eq!(form_decoded("abc").as_deref(), Some("abc"));
        assert_eq!(form_decoded("a%2Fb+c").as_deref(), Some("a/b c"));
        assert_eq!(
            form_decoded("tonne_pact_x&y=z").as_deref(),
            Some("tonne_pact_x&y=z")
        );
        for bad in ["%", "%4", "%zz", "%FF"] {
            assert_eq!(form_decoded(bad), None, "{bad}");
        }
    }
}
