//! Middleware: request ids, logs and metrics; authentication and rate limits;
//! and the fallback that turns any non-JSON error into the contract's `Errors` body.

use std::time::Instant;

use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::{ErrorHandlerResponse, Next};
use actix_web::{HttpMessage as _, ResponseError as _, web};
use tracing::Instrument as _;

use tonne_accounts::versions::ApiVersion;

use crate::error::{ApiError, codes};
use crate::extract::AuthOutcome;
use crate::metrics;
use crate::state::AppState;

/// The request id header, echoed or generated.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");
/// Acts as another account of the same organisation and mode.
pub const LUNE_ACCOUNT: HeaderName = HeaderName::from_static("lune-account");
/// The API version asked for, and (in the response) the one used.
pub const LUNE_VERSION: HeaderName = HeaderName::from_static("lune-version");

fn valid_request_id(value: &HeaderValue) -> Option<String> {
    let text = value.to_str().ok()?;
    let ok = (1..=128).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    ok.then(|| text.to_owned())
}

/// Answers 503 `service_unavailable` with `Retry-After: 1` when a request is not
/// answered within [`HttpConfig::request_timeout`](crate::HttpConfig): a client
/// that sends its body slowly, or work stuck behind a busy store, cannot hold a
/// worker longer. The dropped handler may still finish storage work it had
/// started (each write is one transaction: all or nothing); a retry with the
/// same idempotency key is safe.
pub async fn deadline(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let limit = req
        .app_data::<web::Data<AppState>>()
        .map_or(crate::state::DEFAULT_REQUEST_TIMEOUT, |s| {
            s.config.request_timeout
        });
    // The request cannot be kept to build the answer (actix's router needs it
    // unshared), so the 503 travels as an error that actix renders with
    // `ApiError`'s own response (body and `Retry-After`).
    match actix_web::rt::time::timeout(limit, next.call(req)).await {
        Ok(answer) => answer,
        Err(_) => {
            tracing::warn!(
                timeout_ms = limit.as_millis(),
                "request deadline passed; answering 503"
            );
            Err(ApiError::unavailable("the request took too long; retry in a moment", 1).into())
        }
    }
}

/// Whether the request matched a registered pattern, as [`observe`] found it
/// (the inner layers read it rather than matching the path again).
#[derive(Debug, Clone, Copy)]
struct Routed(bool);

/// Gives every request an id (a client's `X-Request-Id` if well formed), runs it
/// inside a tracing span carrying that id, logs its outcome, records metrics, and
/// returns the id in the response.
///
/// A method the server does not know (anything but [`metrics::METHODS`],
/// whatever its length) is answered 501 `not_implemented` here, before
/// routing (TRACE and CONNECT, which HTTP defines, are routed and counted as
/// `other`), and counted under the labels `other` and `unmatched`: no label,
/// log field or allocation follows the method's text.
pub async fn observe<B: MessageBody + 'static>(
    req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<EitherBody<B>>, actix_web::Error> {
    let request_id = req
        .headers()
        .get(&REQUEST_ID)
        .and_then(valid_request_id)
        .unwrap_or_else(|| uuid::Uuid::new_v4().simple().to_string());
    let state = req.app_data::<web::Data<AppState>>().cloned();
    // HTTP's own TRACE and CONNECT are routed like any method (a route that
    // does not take them answers 405 with `Allow`), counted as `other`.
    let known = metrics::method_label(req.method()).or_else(|| {
        (req.method() == Method::TRACE || req.method() == Method::CONNECT)
            .then_some(metrics::OTHER_METHOD)
    });
    let Some(method) = known else {
        let status = StatusCode::NOT_IMPLEMENTED;
        if let Some(state) = &state {
            state.metrics.observe(
                metrics::OTHER_METHOD,
                "unmatched",
                status.as_u16(),
                std::time::Duration::ZERO,
            );
        }
        tracing::info!(request_id = %request_id, "unknown method refused (501)");
        let mut response = req.error_response(ApiError::new(
            status,
            codes::NOT_IMPLEMENTED,
            "the method is not one this server implements",
        ));
        if let Ok(value) = HeaderValue::from_str(&request_id) {
            response.headers_mut().insert(REQUEST_ID, value);
        }
        return Ok(response.map_into_right_body());
    };
    // Logs and traces name the route's pattern (`/console/setup/{token}`),
    // never the raw path: some paths carry a secret (a setup link's token).
    let pattern = req.match_pattern();
    req.extensions_mut().insert(Routed(pattern.is_some()));
    let route = pattern.unwrap_or_else(|| "unmatched".to_owned());
    let span = tracing::info_span!(
        "request",
        request_id = %request_id,
        method = %method,
        path = %route,
        otel.kind = "server",
        http.response.status_code = tracing::field::Empty,
    );
    // A caller's W3C trace context makes this request a part of its trace.
    if let Some(parent) = req
        .headers()
        .get(tonne_telemetry::TRACEPARENT)
        .and_then(|v| v.to_str().ok())
    {
        tonne_telemetry::adopt_parent(&span, parent);
    }
    let started = Instant::now();
    let mut response = match next.call(req).instrument(span.clone()).await {
        Ok(response) => response,
        Err(error) => {
            // Inner services answer errors as responses; an `Err` here is rare. It is
            // logged and counted, and actix renders it (the JSON fallback applies).
            let status = error.as_response_error().status_code().as_u16();
            if let Some(state) = &state {
                state
                    .metrics
                    .observe(method, "unmatched", status, started.elapsed());
            }
            span.in_scope(
                || tracing::warn!(status, error = %error, "request failed in middleware"),
            );
            return Err(error);
        }
    };
    let elapsed = started.elapsed();
    let status = response.status().as_u16();
    if let Some(state) = &state {
        state.metrics.observe(method, &route, status, elapsed);
    }
    tonne_telemetry::rename(&span, format_args!("{method} {route}"));
    span.record("http.response.status_code", status);
    span.in_scope(|| {
        tracing::info!(status, route = %route, latency_us = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX), "request finished");
    });
    if let Ok(value) = HeaderValue::from_str(&request_id) {
        response.headers_mut().insert(REQUEST_ID, value);
    }
    Ok(response.map_into_left_body())
}

/// Whether a path is the `/v1` scope's, whose own middleware
/// ([`authenticate_and_limit`]) charges every request, matched or not: under
/// `/v1`, but for the OpenAPI document, which is served beside the scope.
fn under_api_scope(path: &str) -> bool {
    path != OPENAPI_PATH
        && path
            .strip_prefix("/v1")
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// Where the API's OpenAPI document is served (beside the `/v1` scope).
pub const OPENAPI_PATH: &str = "/v1/openapi.json";

/// The probes a load balancer or a container runtime calls.
const PROBES: [&str; 2] = ["/health", "/ready"];

/// The hosted pages' paths (`tonne_pages`): their handlers charge each
/// request against the hosted pages' own per-address limit and answer 429
/// with a page, so a request routed to one is charged here only when no
/// handler ran (405).
const HOSTED_PAGES: [&str; 4] = ["/l/", "/certificates/", "/sustainability/", "/logistics/"];

/// When a request outside the `/v1` scope is charged, and to which budget.
enum Charge {
    /// Before it runs, to this budget (`ip:…`, `key:…`, `probe:…`).
    Before(String),
    /// After, to the client address's budget, if no handler ran (405).
    IfNotHandled,
}

/// Charges every request outside the `/v1` scope (whose own middleware
/// charges its requests) against the API's rate limit; past it, 429 with
/// `Retry-After` before anything else runs:
///
/// - a path no route matches: the presented key's budget when the key is
///   valid, else the client address's (a flood of 404s costs its sender as
///   any other request does);
/// - `/health` and `/ready`: a budget of the client address apart from its
///   other requests (`probe:`, the same size), so clients sending through a
///   balancer's address cannot make its health checks fail, nor probes eat
///   the clients' budget;
/// - the hosted pages: charged by their handlers (their own per-address
///   limit, a 429 page); here only when no handler ran (405, the address's
///   budget);
/// - anything else (the console, the API's documentation and OpenAPI
///   document, `/logos/…`, a 405 on any of them): the client address's
///   budget.
pub async fn limit_outside_api<B: MessageBody + 'static>(
    req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<EitherBody<B>>, actix_web::Error> {
    let routed = req
        .extensions()
        .get::<Routed>()
        .map_or_else(|| req.match_pattern().is_some(), |r| r.0);
    let state = req.app_data::<web::Data<AppState>>().cloned();
    let (false, Some(state)) = (under_api_scope(req.path()), state) else {
        return Ok(next.call(req).await?.map_into_left_body());
    };
    let address =
        crate::client_addr::client_addr(req.request(), &state.config.trusted_proxies).to_string();
    let path = req.path();
    let charge = if PROBES.contains(&path) {
        Charge::Before(format!("probe:{address}"))
    } else if !routed {
        Charge::Before(match presented_key(&req) {
            Presented::Nothing => format!("ip:{address}"),
            Presented::Key(key) => match state.accounts.authenticate(Some(key), None).await {
                Ok(caller) => format!("key:{}", caller.key_id),
                Err(_) => format!("ip:{address}"),
            },
        })
    } else if HOSTED_PAGES.iter().any(|prefix| path.starts_with(prefix)) {
        Charge::IfNotHandled
    } else {
        Charge::Before(format!("ip:{address}"))
    };
    let rate_key = match charge {
        Charge::Before(rate_key) => rate_key,
        Charge::IfNotHandled => {
            let response = next.call(req).await?;
            if response.status() != StatusCode::METHOD_NOT_ALLOWED {
                return Ok(response.map_into_left_body());
            }
            let decision = state.limiter.check(&format!("ip:{address}")).await;
            if decision.allowed {
                return Ok(response.map_into_left_body());
            }
            let (req, _) = response.into_parts();
            let refused = ApiError::rate_limited(decision.retry_after_secs).error_response();
            let mut response = ServiceResponse::new(req, refused);
            rate_headers(&mut response, state.limiter.policy(), decision);
            return Ok(response.map_into_right_body());
        }
    };
    let decision = state.limiter.check(&rate_key).await;
    if decision.allowed {
        return Ok(next.call(req).await?.map_into_left_body());
    }
    let mut response = req.error_response(ApiError::rate_limited(decision.retry_after_secs));
    rate_headers(&mut response, state.limiter.policy(), decision);
    Ok(response.map_into_right_body())
}

/// The `RateLimit-Policy` and `RateLimit` headers of a decision.
fn rate_headers<B>(
    response: &mut ServiceResponse<B>,
    policy: crate::rate_limit::RatePolicy,
    decision: crate::rate_limit::RateDecision,
) {
    let policy_header = format!("{};w=1;burst={}", policy.per_second, policy.burst);
    let limit_header = format!(
        "limit={}, remaining={}, reset={}",
        policy.burst, decision.remaining, decision.reset_secs
    );
    let headers = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&policy_header) {
        headers.insert(HeaderName::from_static("ratelimit-policy"), v);
    }
    if let Ok(v) = HeaderValue::from_str(&limit_header) {
        headers.insert(HeaderName::from_static("ratelimit"), v);
    }
}

/// The API documentation's pages (`/docs/…`, Swagger UI) carry the console's
/// security headers: no sniffing, no framing, no referrer beyond the origin,
/// and a policy that lets only this server's own scripts, styles, images and
/// requests run (Swagger UI's scripts are files, not inline).
pub async fn docs_headers(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let docs = req.path() == "/docs" || req.path().starts_with("/docs/");
    let mut response = next.call(req).await?;
    if docs {
        let headers = response.headers_mut();
        headers.insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        headers.insert(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        );
        headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(
                "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
            ),
        );
    }
    Ok(response)
}

enum Presented {
    Nothing,
    Key(String),
}

fn presented_key(req: &ServiceRequest) -> Presented {
    let Some(value) = req.headers().get(header::AUTHORIZATION) else {
        return Presented::Nothing;
    };
    let text = value.to_str().unwrap_or_default().trim();
    match text.split_once(' ') {
        Some((scheme, key)) if scheme.eq_ignore_ascii_case("bearer") => {
            Presented::Key(key.trim().to_owned())
        }
        // Present but not a bearer token: authenticate it as an (invalid) key, so it is a 401.
        _ => Presented::Key(text.to_owned()),
    }
}

/// The `Lune-Version` header as text (`Some("")` when present but not text, so
/// that it is refused rather than ignored).
fn asked_version(req: &ServiceRequest) -> Option<String> {
    req.headers()
        .get(&LUNE_VERSION)
        .map(|v| v.to_str().map(str::to_owned).unwrap_or_default())
}

/// Authenticates the request (the result waits in the extensions for routes that
/// need it), then counts it against the rate limit of its key — or of its client
/// IP when it has no valid key — and answers 429 when the budget is spent; then
/// chooses the API version it runs under (`Lune-Version`, else the caller's
/// organisation's pinned version, else the latest; an invalid header is 400
/// `api_version_invalid` before anything runs). The chosen [`ApiVersion`] waits in
/// the extensions and is named in the response's `Lune-Version` header.
pub async fn authenticate_and_limit(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let Some(state) = req.app_data::<web::Data<AppState>>().cloned() else {
        let error = ApiError::internal(&anyhow::anyhow!("application state missing"));
        return Ok(req.error_response(error));
    };
    let asked = asked_version(&req);
    if let Some(Err(invalid)) = asked.as_deref().map(str::parse::<ApiVersion>) {
        let mut response = req.error_response(ApiError::from(invalid));
        name_version(&mut response, ApiVersion::LATEST);
        return Ok(response);
    }
    let acting_as = req.headers().get(&LUNE_ACCOUNT).map(|v| {
        v.to_str()
            .map(str::to_owned)
            .unwrap_or_else(|_| "invalid".to_owned())
    });
    let outcome = match presented_key(&req) {
        Presented::Nothing => Err(ApiError::from(tonne_accounts::AuthError::MissingKey)),
        Presented::Key(key) => state
            .accounts
            .authenticate(Some(key), acting_as)
            .instrument(tracing::debug_span!("authenticate"))
            .await
            .map_err(ApiError::from),
    };
    let rate_key = match &outcome {
        Ok(caller) => format!("key:{}", caller.key_id),
        Err(_) => format!(
            "ip:{}",
            crate::client_addr::client_addr(req.request(), &state.config.trusted_proxies)
        ),
    };
    let decision = state
        .limiter
        .check(&rate_key)
        .instrument(tracing::debug_span!("rate_limit"))
        .await;
    let organisation = outcome.as_ref().ok().map(|caller| caller.organisation_id);
    let (mut response, version) = if !decision.allowed {
        let response = req.error_response(ApiError::rate_limited(decision.retry_after_secs));
        (response, ApiVersion::LATEST)
    } else {
        match state
            .versions
            .choose(asked.as_deref(), organisation)
            .await
            .map_err(ApiError::from)
        {
            Ok(version) => {
                req.extensions_mut().insert(AuthOutcome(outcome));
                req.extensions_mut().insert(version);
                (next.call(req).await?.map_into_boxed_body(), version)
            }
            Err(error) => (req.error_response(error), ApiVersion::LATEST),
        }
    };
    name_version(&mut response, version);
    rate_headers(&mut response, state.limiter.policy(), decision);
    Ok(response)
}

/// Names the version a response was made under.
fn name_version<B>(response: &mut ServiceResponse<B>, version: ApiVersion) {
    response
        .headers_mut()
        .insert(LUNE_VERSION, HeaderValue::from_static(version.as_str()));
}

fn code_for(status: StatusCode) -> &'static str {
    match status {
        StatusCode::NOT_FOUND => codes::NOT_FOUND,
        StatusCode::METHOD_NOT_ALLOWED => codes::METHOD_NOT_ALLOWED,
        StatusCode::PAYLOAD_TOO_LARGE => codes::PAYLOAD_TOO_LARGE,
        StatusCode::UNSUPPORTED_MEDIA_TYPE => codes::UNSUPPORTED_MEDIA_TYPE,
        StatusCode::TOO_MANY_REQUESTS => codes::RATE_LIMITED,
        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => codes::UNAUTHORISED,
        StatusCode::SERVICE_UNAVAILABLE => codes::SERVICE_UNAVAILABLE,
        StatusCode::NOT_IMPLEMENTED => codes::NOT_IMPLEMENTED,
        s if s.is_server_error() => codes::INTERNAL_ERROR,
        _ => codes::VALIDATION_ERROR,
    }
}

/// Rewrites any error response that is not already JSON (actix's own plain-text
/// errors) into the contract's `Errors` body, keeping the status.
pub fn jsonify_errors<B: MessageBody + 'static>(
    res: ServiceResponse<B>,
) -> actix_web::Result<ErrorHandlerResponse<B>> {
    // JSON errors are already the contract's; hosted pages answer their own HTML.
    let keep = res.headers().get(header::CONTENT_TYPE).is_some_and(|v| {
        v.as_bytes().starts_with(b"application/json")
            || v.as_bytes().starts_with(b"text/html; charset=utf-8")
    });
    if keep {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let status = res.status();
    let reason = status
        .canonical_reason()
        .unwrap_or("error")
        .to_ascii_lowercase();
    let error = ApiError::new(status, code_for(status), reason);
    let (req, original) = res.into_parts();
    let mut replacement = error.error_response();
    for (name, value) in original.headers() {
        // Keep what the outer layers said (`Allow`, `Retry-After`, `Lune-Version`,
        // rate-limit headers); only the body and its own headers are replaced.
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            replacement
                .headers_mut()
                .insert(name.clone(), value.clone());
        }
    }
    Ok(ErrorHandlerResponse::Response(
        ServiceResponse::new(req, replacement).map_into_right_body(),
    ))
}
