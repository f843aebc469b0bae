//! The offset-link wire types: `OffsetLink`, its page, the create and update
//! requests, the analytics answer, and their rendering from the domain's links.

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use tonne_links::{Analytics, LinkDetails, LinkStatus};
use utoipa::{IntoResponses, ToSchema};

use crate::error::ApiError;
use crate::routes::catalogue::{BundleResponse, bundle_body};
use crate::state::AppState;
use crate::wire::{ErrorsResponse, paginated, rfc3339};

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
#[schema(as = OffsetLinkBody)]
pub struct OffsetLinkResponse {
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
    PaginatedOffsetLinks of OffsetLinkResponse
}

/// The contract's `OffsetLinkRequest`.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
pub struct OffsetLinkRequest {
    pub(super) name: String,
    #[schema(nullable = false)]
    pub(super) title: Option<String>,
    #[schema(nullable = false)]
    pub(super) description: Option<String>,
    /// 1 to 24 distinct bundle ids.
    pub(super) bundles: Vec<String>,
    /// A fixed amount per order, a decimal string in the account's currency.
    #[schema(nullable = false)]
    pub(super) value: Option<String>,
    /// Who may order (anyone when absent or empty).
    #[schema(nullable = false)]
    pub(super) emails: Option<Vec<String>>,
    /// RFC 3339, in the future.
    #[schema(nullable = false)]
    pub(super) expires_at: Option<String>,
    pub(super) use_logo: bool,
    /// Card payment on the hosted page (fixed at creation).
    #[schema(nullable = false)]
    pub(super) require_payment: Option<bool>,
}

/// The contract's `OffsetLinkUpdateRequest`, plus `status` and an unchanged
/// `require_payment` (Tonne's extensions). Absent optional fields keep their value.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
pub struct OffsetLinkUpdateRequest {
    pub(super) name: String,
    #[schema(nullable = false)]
    pub(super) title: Option<String>,
    #[schema(nullable = false)]
    pub(super) description: Option<String>,
    #[schema(nullable = false)]
    pub(super) bundles: Option<Vec<String>>,
    #[schema(nullable = false)]
    pub(super) value: Option<String>,
    #[schema(nullable = false)]
    pub(super) emails: Option<Vec<String>>,
    #[schema(nullable = false)]
    pub(super) expires_at: Option<String>,
    pub(super) use_logo: bool,
    /// Must equal the link's: it cannot be changed (400 otherwise).
    #[schema(nullable = false)]
    pub(super) require_payment: Option<bool>,
    /// Switches the link off and on.
    #[schema(nullable = false)]
    pub(super) status: Option<OffsetLinkStatus>,
}

/// One bundle of an analytics order.
#[derive(Debug, Serialize, ToSchema)]
pub struct OffsetLinkOrderBundle {
    bundle_id: String,
    bundle_name: String,
}

/// The contract's `OffsetLinkOrder`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = OffsetLinkOrderBody)]
pub struct OffsetLinkOrderResponse {
    order_id: String,
    created_at: String,
    email: String,
    bundles: Vec<OffsetLinkOrderBundle>,
}

/// The contract's `OffsetLinkAnalytics`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = OffsetLinkAnalyticsBody)]
pub struct OffsetLinkAnalyticsResponse {
    id: String,
    unique_visitors: u64,
    placed_orders: u64,
    orders: Vec<OffsetLinkOrderResponse>,
}

pub(super) fn timestamp(
    field: &str,
    raw: Option<String>,
) -> Result<Option<OffsetDateTime>, ApiError> {
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

pub(super) fn link_body(
    state: &AppState,
    d: &LinkDetails,
    logo: Option<String>,
) -> OffsetLinkResponse {
    let l = &d.link;
    let now = state.links.now();
    OffsetLinkResponse {
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

pub(super) fn analytics_body(a: &Analytics) -> OffsetLinkAnalyticsResponse {
    OffsetLinkAnalyticsResponse {
        id: a.link_id.to_string(),
        unique_visitors: a.unique_visitors,
        placed_orders: a.placed_orders,
        orders: a
            .orders
            .iter()
            .map(|o| OffsetLinkOrderResponse {
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

/// 404 of a route on one link.
#[derive(IntoResponses)]
pub enum NoSuchLink {
    /// No link of the acting account has this id
    #[response(status = 404)]
    NotFound(ErrorsResponse),
}

/// 409 of a route that names a link.
#[derive(IntoResponses)]
pub enum NameTaken {
    /// Another link of the account has this name
    #[response(status = 409)]
    Taken(ErrorsResponse),
}
