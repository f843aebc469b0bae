//! `/v1/offset-links`: the contract's five routes, plus
//! `GET /v1/offset-links/{id}/analytics/chart.svg` (an extension, docs/API.md).

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use tonne_links::{Analytics, LimitsDraft, LinkChanges, LinkDetails, LinkDraft, LinkStatus};
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody, PageQuery};
use crate::routes::catalogue::{BundleResponse, bundle_body};
use crate::state::AppState;
use crate::wire::{BodyErrors, ErrorsDoc, KeyErrors, paginated, rfc3339};

/// The contract's `OffsetLinkStatus`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum OffsetLinkStatus {
    /// The hosted page takes orders.
    Enabled,
    /// Switched off, or expired.
    Disabled,
}

/// The contract's `OffsetLink`.
#[derive(Debug, Serialize, ToSchema)]
pub struct OffsetLinkBody {
    id: String,
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    /// The account's logo, when `use_logo` and the account has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    logo: Option<String>,
    use_logo: bool,
    /// The hosted page (absolute, on `TONNE_PUBLIC_URL`).
    url: String,
    /// The fixed amount per order, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<String>,
    currency: String,
    emails: Vec<String>,
    bundles: Vec<BundleResponse>,
    created_at: String,
    status: OffsetLinkStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    expires_at: Option<String>,
    require_payment: bool,
}

paginated! {
    /// A page of offset links, newest first.
    PaginatedOffsetLinks of OffsetLinkBody
}

/// The contract's `OffsetLinkRequest`.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
pub struct OffsetLinkRequest {
    name: String,
    #[schema(nullable = false)]
    title: Option<String>,
    #[schema(nullable = false)]
    description: Option<String>,
    /// 1 to 24 distinct bundle ids.
    bundles: Vec<String>,
    /// A fixed amount per order, a decimal string in the account's currency.
    #[schema(nullable = false)]
    value: Option<String>,
    /// Who may order (anyone when absent or empty).
    #[schema(nullable = false)]
    emails: Option<Vec<String>>,
    /// RFC 3339, in the future.
    #[schema(nullable = false)]
    expires_at: Option<String>,
    use_logo: bool,
    /// Card payment on the hosted page (fixed at creation).
    #[schema(nullable = false)]
    require_payment: Option<bool>,
}

/// The contract's `OffsetLinkUpdateRequest`, plus `status` and an unchanged
/// `require_payment` (Tonne's extensions). Absent optional fields keep their value.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
pub struct OffsetLinkUpdateRequest {
    name: String,
    #[schema(nullable = false)]
    title: Option<String>,
    #[schema(nullable = false)]
    description: Option<String>,
    #[schema(nullable = false)]
    bundles: Option<Vec<String>>,
    #[schema(nullable = false)]
    value: Option<String>,
    #[schema(nullable = false)]
    emails: Option<Vec<String>>,
    #[schema(nullable = false)]
    expires_at: Option<String>,
    use_logo: bool,
    /// Must equal the link's: it cannot be changed (400 otherwise).
    #[schema(nullable = false)]
    require_payment: Option<bool>,
    /// Switches the link off and on.
    #[schema(nullable = false)]
    status: Option<OffsetLinkStatus>,
}

/// One bundle of an analytics order.
#[derive(Debug, Serialize, ToSchema)]
pub struct OffsetLinkOrderBundle {
    bundle_id: String,
    bundle_name: String,
}

/// The contract's `OffsetLinkOrder`.
#[derive(Debug, Serialize, ToSchema)]
pub struct OffsetLinkOrderBody {
    order_id: String,
    created_at: String,
    email: String,
    bundles: Vec<OffsetLinkOrderBundle>,
}

/// The contract's `OffsetLinkAnalytics`.
#[derive(Debug, Serialize, ToSchema)]
pub struct OffsetLinkAnalyticsBody {
    id: String,
    unique_visitors: u64,
    placed_orders: u64,
    orders: Vec<OffsetLinkOrderBody>,
}

fn timestamp(field: &str, raw: Option<String>) -> Result<Option<OffsetDateTime>, ApiError> {
    raw.map(|r| {
        OffsetDateTime::parse(&r, &Rfc3339)
            .map_err(|_| ApiError::validation(field, "must be an RFC 3339 timestamp"))
    })
    .transpose()
}

/// The hosted page of a link.
pub(crate) fn page_url(state: &AppState, id: &str) -> String {
    format!("{}/l/{id}", state.pages.public_url)
}

fn link_body(state: &AppState, d: &LinkDetails, logo: Option<String>) -> OffsetLinkBody {
    let l = &d.link;
    let now = state.links.now();
    OffsetLinkBody {
        id: l.id.to_string(),
        name: l.name.clone(),
        title: l.title.clone(),
        description: l.description.clone(),
        logo: logo.filter(|_| l.use_logo),
        use_logo: l.use_logo,
        url: page_url(state, &l.id.to_string()),
        value: l.value.map(|v| v.to_decimal_string()),
        currency: l.currency.code().to_owned(),
        emails: l.emails.iter().map(|e| e.as_str().to_owned()).collect(),
        bundles: d
            .bundles
            .iter()
            .map(|b| bundle_body(state, b, l.currency))
            .collect(),
        created_at: rfc3339(l.created_at),
        status: match l.status(now) {
            LinkStatus::Enabled => OffsetLinkStatus::Enabled,
            LinkStatus::Disabled => OffsetLinkStatus::Disabled,
        },
        expires_at: l.expires_at.map(rfc3339),
        require_payment: l.require_payment,
    }
}

async fn account_logo(state: &AppState, who: &Authenticated) -> Result<Option<String>, ApiError> {
    Ok(state.accounts.me(&who.0).await?.logo)
}

fn analytics_body(a: &Analytics) -> OffsetLinkAnalyticsBody {
    OffsetLinkAnalyticsBody {
        id: a.link_id.to_string(),
        unique_visitors: a.unique_visitors,
        placed_orders: a.placed_orders,
        orders: a
            .orders
            .iter()
            .map(|o| OffsetLinkOrderBody {
                order_id: o.order_id.clone(),
                created_at: rfc3339(o.created_at),
                email: o.email.clone(),
                bundles: o
                    .bundles
                    .iter()
                    .map(|(id, name)| OffsetLinkOrderBundle {
                        bundle_id: id.clone(),
                        bundle_name: name.clone(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// The acting account's offset links, newest first.
#[utoipa::path(get, path = "/v1/offset-links", tag = "Offset links", operation_id = "listOffsetLinks",
    security(("BearerAuth" = [])),
    params(
        PageQuery,
    ),
    responses(
        (status = 200, description = "OK", body = PaginatedOffsetLinks),
        (status = 400, description = "Invalid parameter", body = ErrorsDoc),
        KeyErrors,
    ))]
pub async fn list(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<PageQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = state.links.list(who.0.account_id, query.page()?).await?;
    let logo = account_logo(&state, &who).await?;
    Ok(HttpResponse::Ok().json(PaginatedOffsetLinks::of(
        &page,
        |d| d.link.id.to_string(),
        |d| link_body(&state, d, logo.clone()),
    )))
}

/// Creates an offset link on the acting account.
#[utoipa::path(post, path = "/v1/offset-links", tag = "Offset links", operation_id = "createOffsetLink",
    security(("BearerAuth" = [])),
    request_body = OffsetLinkRequest,
    responses(
        (status = 200, description = "OK", body = OffsetLinkBody),
        (status = 400, description = "Invalid body, bundle_id_invalid or offset_link_bundles_size_invalid", body = ErrorsDoc),
        (status = 409, description = "Another link of the account has this name", body = ErrorsDoc),
        KeyErrors,
        BodyErrors,
    ))]
pub async fn create(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<OffsetLinkRequest>,
) -> Result<HttpResponse, ApiError> {
    let b = body.0;
    let draft = LinkDraft {
        name: b.name,
        title: b.title,
        description: b.description,
        bundles: b.bundles,
        value: b.value,
        emails: b.emails,
        expires_at: timestamp("expires_at", b.expires_at)?,
        use_logo: b.use_logo,
        require_payment: b.require_payment.unwrap_or(false),
        // the contract has no limits: a link made over the API takes the
        // server's defaults; its owner changes them in the console
        limits: LimitsDraft::default(),
    };
    let details = state.links.create(who.0.account_id, draft).await?;
    let logo = account_logo(&state, &who).await?;
    Ok(HttpResponse::Ok().json(link_body(&state, &details, logo)))
}

/// One offset link of the acting account.
#[utoipa::path(get, path = "/v1/offset-links/{id}", tag = "Offset links", operation_id = "getOffsetLink",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The offset link's id")),
    responses(
        (status = 200, description = "OK", body = OffsetLinkBody),
        (status = 404, description = "No link of the acting account has this id", body = ErrorsDoc),
        KeyErrors,
    ))]
pub async fn get(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let details = state.links.get(who.0.account_id, &id).await?;
    let logo = account_logo(&state, &who).await?;
    Ok(HttpResponse::Ok().json(link_body(&state, &details, logo)))
}

/// Changes an offset link (absent optional fields keep their value).
#[utoipa::path(put, path = "/v1/offset-links/{id}", tag = "Offset links", operation_id = "updateOffsetLink",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The offset link's id")),
    request_body = OffsetLinkUpdateRequest,
    responses(
        (status = 200, description = "OK", body = OffsetLinkBody),
        (status = 400, description = "Invalid body (including a changed require_payment)", body = ErrorsDoc),
        (status = 404, description = "No link of the acting account has this id", body = ErrorsDoc),
        (status = 409, description = "Another link of the account has this name", body = ErrorsDoc),
        KeyErrors,
        BodyErrors,
    ))]
pub async fn update(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
    body: JsonBody<OffsetLinkUpdateRequest>,
) -> Result<HttpResponse, ApiError> {
    let b = body.0;
    let changes = LinkChanges {
        name: b.name,
        title: b.title,
        description: b.description,
        bundles: b.bundles,
        value: b.value,
        emails: b.emails,
        expires_at: timestamp("expires_at", b.expires_at)?,
        use_logo: b.use_logo,
        require_payment: b.require_payment,
        status: b.status.map(|s| match s {
            OffsetLinkStatus::Enabled => LinkStatus::Enabled,
            OffsetLinkStatus::Disabled => LinkStatus::Disabled,
        }),
        // not in the contract: an update over the API keeps the link's limits
        limits: None,
    };
    let details = state.links.update(who.0.account_id, &id, changes).await?;
    let logo = account_logo(&state, &who).await?;
    Ok(HttpResponse::Ok().json(link_body(&state, &details, logo)))
}

/// Visitors and orders of an offset link.
#[utoipa::path(get, path = "/v1/offset-links/{id}/analytics", tag = "Offset links", operation_id = "getOffsetLinkAnalytics",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The offset link's id")),
    responses(
        (status = 200, description = "OK", body = OffsetLinkAnalyticsBody),
        (status = 404, description = "No link of the acting account has this id", body = ErrorsDoc),
        KeyErrors,
    ))]
pub async fn analytics(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let a = state.links.analytics(who.0.account_id, &id).await?;
    Ok(HttpResponse::Ok().json(analytics_body(&a)))
}

/// Orders and tonnes per day as an SVG chart (Tonne's extension).
#[utoipa::path(get, path = "/v1/offset-links/{id}/analytics/chart.svg", tag = "Offset links", operation_id = "getOffsetLinkAnalyticsChart",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The offset link's id")),
    responses(
        (status = 200, description = "The chart", content_type = "image/svg+xml"),
        (status = 404, description = "No link of the acting account has this id", body = ErrorsDoc),
        KeyErrors,
    ))]
pub async fn chart(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let a = state.links.analytics(who.0.account_id, &id).await?;
    let svg = crate::chart::render(&a.daily)
        .map_err(|e| ApiError::internal(&e.context("drawing an analytics chart")))?;
    Ok(HttpResponse::Ok()
        .content_type("image/svg+xml")
        .insert_header(("Cache-Control", "private, max-age=60"))
        .body(svg))
}

/// Registers the offset link routes (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/offset-links")
            .route(web::get().to(list))
            .route(web::post().to(create)),
    )
    .service(web::resource("/offset-links/{id}/analytics/chart.svg").route(web::get().to(chart)))
    .service(web::resource("/offset-links/{id}/analytics").route(web::get().to(analytics)))
    .service(
        web::resource("/offset-links/{id}")
            .route(web::get().to(get))
            .route(web::put().to(update)),
    );
}
