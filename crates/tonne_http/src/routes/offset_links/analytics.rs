//! `GET /v1/offset-links/{id}/analytics` and its SVG chart (Tonne's extension).

use actix_web::{HttpResponse, web};

use super::wire::{NoSuchLink, OffsetLinkAnalyticsResponse, analytics_body};
use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;
use crate::wire::KeyErrors;

/// Visitors and orders of an offset link.
#[utoipa::path(get, path = "/v1/offset-links/{id}/analytics", tag = "Offset links", operation_id = "getOffsetLinkAnalytics",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The offset link's id")),
    responses((status = 200, description = "OK", body = OffsetLinkAnalyticsResponse), NoSuchLink, KeyErrors))]
pub async fn analytics(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let a = state.links.analytics(who.account_id(), &id).await?;
    Ok(HttpResponse::Ok().json(analytics_body(&a)))
}

/// Orders and tonnes per day as an SVG chart (Tonne's extension).
#[utoipa::path(get, path = "/v1/offset-links/{id}/analytics/chart.svg", tag = "Offset links", operation_id = "getOffsetLinkAnalyticsChart",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The offset link's id")),
    responses((status = 200, description = "The chart", content_type = "image/svg+xml"), NoSuchLink, KeyErrors))]
pub async fn chart(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let a = state.links.analytics(who.account_id(), &id).await?;
    let svg = crate::chart::render(&a.daily)
        .map_err(|e| ApiError::internal(&e.context("drawing an analytics chart")))?;
    Ok(HttpResponse::Ok()
        .content_type("image/svg+xml")
        .insert_header(("Cache-Control", "private, max-age=60"))
        .body(svg))
}
