//! `/health`, `/ready` and `/metrics` (outside `/v1`, no auth, no rate limit).

use actix_web::{HttpResponse, ResponseError as _, web};
use serde_json::json;

use crate::error::ApiError;
use crate::state::AppState;

/// The process is up.
pub async fn health() -> HttpResponse {
    HttpResponse::Ok().json(json!({ "status": "ok" }))
}

/// Ready for traffic: the database answers and the server is not draining.
pub async fn ready(state: web::Data<AppState>) -> HttpResponse {
    match state.readiness.check().await {
        Ok(()) => HttpResponse::Ok().json(json!({ "status": "ready" })),
        Err(reason) => {
            tracing::warn!(%reason, "not ready");
            let message = if reason.starts_with("draining") {
                "draining: the server is shutting down"
            } else {
                "database unreachable"
            };
            ApiError::unavailable(message, 1).error_response()
        }
    }
}

/// Prometheus text exposition.
pub async fn metrics(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4")
        .body(state.metrics.render(state.readiness.pool()))
}

/// `/docs` leads to the API docs at `/docs/` (a permanent redirect).
pub async fn docs_redirect() -> HttpResponse {
    HttpResponse::PermanentRedirect()
        .insert_header((actix_web::http::header::LOCATION, "/docs/"))
        .finish()
}
