//! Extractors: a strict JSON body, list parameters, and the authenticated caller.

use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::http::header;
use actix_web::{FromRequest, HttpMessage as _, HttpRequest, web};
use futures_util::future::{LocalBoxFuture, Ready, ready};
use futures_util::{FutureExt as _, StreamExt as _};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use tonne_accounts::Caller;
use tonne_kernel::{Cursor, Limit, PageRequest};

use crate::error::{ApiError, codes};
use crate::state::AppState;

/// A JSON request body: `Content-Type: application/json` (else 415), at most the
/// configured size (else 413), valid UTF-8 JSON of the exact shape with no unknown
/// fields and no string holding U+0000 (else 400 `validation_error` naming the
/// field; see [`crate::unstorable`]).
#[derive(Debug)]
pub struct JsonBody<T>(pub T);

/// The media type of a request's body (its `Content-Type` without parameters).
fn media_type(req: &HttpRequest) -> Option<&str> {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(str::trim)
}

/// Whether a request's body is a `multipart/form-data` form.
pub(crate) fn is_multipart(req: &HttpRequest) -> bool {
    media_type(req).is_some_and(|essence| essence.eq_ignore_ascii_case("multipart/form-data"))
}

pub(crate) fn is_json_content_type(req: &HttpRequest) -> bool {
    media_type(req).is_some_and(|essence| {
        essence.eq_ignore_ascii_case("application/json")
            || (essence.len() > 5
                && essence
                    .get(essence.len() - 5..)
                    .is_some_and(|s| s.eq_ignore_ascii_case("+json")))
    })
}

fn too_large(limit: usize) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        codes::PAYLOAD_TOO_LARGE,
        format!("body: larger than the {limit}-byte limit"),
    )
}

/// A JSON request body on a route whose contract lists no 415 (`PUT
/// /webhooks/{id}`): the same rules as [`JsonBody`], except that a body that is
/// not `application/json` (or no body at all) is 400 `validation_error`.
#[derive(Debug)]
pub struct JsonBodyWithout415<T>(pub T);

/// Answers a request whose body is not JSON.
#[derive(Clone, Copy)]
enum WrongMediaType {
    /// 415 `unsupported_media_type`, where the contract lists 415.
    Unsupported,
    /// 400 `validation_error`, where it does not.
    Invalid,
}

impl WrongMediaType {
    fn error(self) -> ApiError {
        match self {
            Self::Unsupported => ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                codes::UNSUPPORTED_MEDIA_TYPE,
                "Content-Type: the body must be application/json",
            ),
            Self::Invalid => ApiError::validation(
                "body",
                "a JSON body with Content-Type: application/json is required",
            ),
        }
    }
}

fn read_json<T: DeserializeOwned + Send + 'static>(
    req: &HttpRequest,
    payload: &mut Payload,
    wrong_type: WrongMediaType,
) -> LocalBoxFuture<'static, Result<T, ApiError>> {
    let limit = req
        .app_data::<web::Data<AppState>>()
        .map_or(crate::state::DEFAULT_BODY_LIMIT, |s| {
            s.config.body_limit_bytes
        });
    read_json_up_to(req, payload, wrong_type, limit)
}

fn read_json_up_to<T: DeserializeOwned + Send + 'static>(
    req: &HttpRequest,
    payload: &mut Payload,
    wrong_type: WrongMediaType,
    limit: usize,
) -> LocalBoxFuture<'static, Result<T, ApiError>> {
    if !is_json_content_type(req) {
        return ready(Err(wrong_type.error())).boxed_local();
    }
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|len| len > limit) {
        return ready(Err(too_large(limit))).boxed_local();
    }
    let mut payload = payload.take();
    async move {
        let mut body = web::BytesMut::new();
        while let Some(chunk) = payload.next().await {
            let chunk = chunk.map_err(|e| ApiError::validation("body", e))?;
            if body.len().saturating_add(chunk.len()) > limit {
                return Err(too_large(limit));
            }
            body.extend_from_slice(&chunk);
        }
        if body.len() <= PARSE_INLINE_UP_TO {
            return parse_json(&body);
        }
        // A large body (a shipment batch runs to megabytes) is parsed on the
        // blocking pool: this worker's other requests must not wait for it.
        web::block(move || parse_json(&body))
            .await
            .map_err(|e| ApiError::internal(&anyhow::anyhow!(e)))?
    }
    .boxed_local()
}

/// Bodies up to this size are parsed on the request's worker; larger ones on
/// the blocking pool (parsing 64 KiB of JSON takes well under a millisecond).
const PARSE_INLINE_UP_TO: usize = 64 * 1024;

/// `FromRequest` of a JSON body type under the server's size limit, with its
/// answer to a body that is not JSON.
macro_rules! json_body {
    ($body:ident, $wrong_type:expr) => {
        impl<T: DeserializeOwned + Send + 'static> FromRequest for $body<T> {
            type Error = ApiError;
            type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

            fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
                read_json(req, payload, $wrong_type)
                    .map(|r| r.map($body))
                    .boxed_local()
            }
        }
    };
}

json_body!(JsonBody, WrongMediaType::Unsupported);
json_body!(JsonBodyWithout415, WrongMediaType::Invalid);

/// A JSON body under a route's own size limit `LIMIT` (bytes) instead of the
/// server's: otherwise the rules of [`JsonBody`]. For the one route whose
/// contract carries large bodies (`POST /v1/shipments/batches`).
#[derive(Debug)]
pub struct JsonBodyUpTo<T, const LIMIT: usize>(pub T);

impl<T: DeserializeOwned + Send + 'static, const LIMIT: usize> FromRequest
    for JsonBodyUpTo<T, LIMIT>
{
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        read_json_up_to(req, payload, WrongMediaType::Unsupported, LIMIT)
            .map(|r| r.map(JsonBodyUpTo))
            .boxed_local()
    }
}

/// Parses a whole body, naming the offending field on failure.
pub(crate) fn parse_json<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::validation("body", "a JSON body is required"));
    }
    if let Some(field) = crate::unstorable::nul_in_json(body) {
        return Err(ApiError::validation(&field, crate::unstorable::NUL_REFUSED));
    }
    let mut de = serde_json::Deserializer::from_slice(body);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." || path == "?" {
            "body".to_owned()
        } else {
            path
        };
        ApiError::validation(&field, e.into_inner())
    })?;
    de.end().map_err(|e| ApiError::validation("body", e))?;
    Ok(value)
}

/// `limit` and `after`: the page of every list (each route adds its own
/// filters as a second query type). Unknown parameters are ignored.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// 1 to 100, default 10
    #[param(pattern = r"^\d+$")]
    limit: Option<String>,
    /// `next_cursor` of the previous page
    after: Option<String>,
}

/// A `limit` parameter, or 400 `pagination_limit_invalid`.
pub fn parse_limit(raw: &str) -> Result<Limit, ApiError> {
    raw.parse().map_err(|e: tonne_kernel::LimitError| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            codes::PAGINATION_LIMIT_INVALID,
            format!("limit: {e}"),
        )
    })
}

impl PageQuery {
    /// The page request, or 400 (`pagination_limit_invalid` for a bad limit,
    /// `validation_error` for a bad cursor).
    pub fn page(&self) -> Result<PageRequest<Cursor>, ApiError> {
        let limit = match &self.limit {
            None => Limit::default(),
            Some(raw) => parse_limit(raw)?,
        };
        // An empty `after=` is the first page, like an absent one.
        let after = match self.after.as_deref().filter(|raw| !raw.is_empty()) {
            None => None,
            Some(raw) => Some(
                raw.parse::<Cursor>()
                    .map_err(|e| ApiError::validation("after", e))?,
            ),
        };
        Ok(PageRequest { limit, after })
    }
}

/// The outcome of authentication, put in the request's extensions by the auth middleware.
#[derive(Debug, Clone)]
pub(crate) struct AuthOutcome(pub Result<Caller, ApiError>);

/// The authenticated caller. Extracting it from a request without a valid key answers 401.
#[derive(Debug, Clone)]
pub struct Authenticated(pub Caller);

impl FromRequest for Authenticated {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let outcome = req.extensions().get::<AuthOutcome>().cloned();
        ready(match outcome {
            Some(AuthOutcome(result)) => result.map(Authenticated),
            None => Err(ApiError::internal(&anyhow::anyhow!(
                "route is outside the auth middleware"
            ))),
        })
    }
}

impl Authenticated {
    /// The account the caller acts as.
    pub fn account_id(&self) -> tonne_kernel::AccountId {
        self.0.account_id
    }

    /// The impact domain's view of the caller: its acting account, organisation
    /// and mode, and whether that account is a client account.
    pub fn viewer(&self) -> tonne_impact::Viewer {
        tonne_impact::Viewer {
            account_id: self.0.account_id,
            organisation_id: self.0.organisation_id,
            mode: self.0.mode,
            client_account: self.0.scope == tonne_accounts::AccountScope::ClientAccount,
        }
    }
}

/// The caller if the request carried a valid key, else `None`: for public routes,
/// which never answer 401.
#[derive(Debug, Clone)]
pub struct MaybeAuthenticated(pub Option<Caller>);

impl FromRequest for MaybeAuthenticated {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let caller = req
            .extensions()
            .get::<AuthOutcome>()
            .and_then(|AuthOutcome(r)| r.as_ref().ok().cloned());
        ready(Ok(MaybeAuthenticated(caller)))
    }
}

/// An `Option<T>` field of a `#[tonne_http_macros::request]` body: absent is
/// `None` (by `default`), `null` is refused, a value is `Some`.
pub fn non_null<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    T::deserialize(d).map(Some)
}

/// An `Option<Option<T>>` field of a `#[tonne_http_macros::request]` body (a
/// `PATCH` field that `null` clears): absent is `None`, `null` is `Some(None)`.
pub fn nullable<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

#[cfg(test)]
mod tests {
    use super::parse_json;

    /// A body with the three kinds of field of the strict-field rule.
    #[tonne_http_macros::request]
    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Probe {
        required: String,
        optional: Option<u32>,
        clearable: Option<Option<String>>,
    }

    fn parse(body: &str) -> Result<Probe, String> {
        parse_json::<Probe>(body.as_bytes()).map_err(|e| e.to_string())
    }

    #[test]
    fn absent_optional_and_clearable_fields_are_none() {
        let p = parse(r#"{"required":"x"}"#).unwrap();
        assert_eq!((p.optional, p.clearable), (None, None));
    }

    #[test]
    fn null_clears_a_clearable_field_only() {
        let p = parse(r#"{"required":"x","clearable":null}"#).unwrap();
        assert_eq!(p.clearable, Some(None));
        let p = parse(r#"{"required":"x","clearable":"c","optional":3}"#).unwrap();
        assert_eq!((p.optional, p.clearable), (Some(3), Some(Some("c".into()))));
    }

    #[test]
    fn null_in_an_optional_or_required_field_is_refused_naming_it() {
        let e = parse(r#"{"required":"x","optional":null}"#).unwrap_err();
        assert!(e.contains("optional"), "{e}");
        let e = parse(r#"{"required":null}"#).unwrap_err();
        assert!(e.contains("required"), "{e}");
    }

    #[test]
    fn a_missing_required_field_and_an_unknown_field_are_refused() {
        assert!(parse(r#"{}"#).unwrap_err().contains("required"));
        let e = parse(r#"{"required":"x","surprise":1}"#).unwrap_err();
        assert!(e.contains("surprise"), "{e}");
    }
}
