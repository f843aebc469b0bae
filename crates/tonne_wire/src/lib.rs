//! JSON shapes of the Lune contract shared by Tonne's adapters, so that an order
//! reads the same in an HTTP response, in its outbox snapshot and, later, in a
//! webhook. Adapter-side only: domain crates never depend on this crate.
//!
//! Response bodies are named `…Response` (one Rust type per contract schema);
//! their OpenAPI names stay those the document has always used.

pub mod allocations;
pub mod data_sheet;
pub mod invoices;
pub mod shipments;
pub mod webhook_request;

use std::collections::BTreeMap;

pub use allocations::{AllocationEventData, OrderAllocationResponse};
use serde::Serialize;
use time::format_description::well_known::Rfc3339;
use tonne_ordering::{Order, OrderStatus, ProjectAllocation, QuoteLine};

/// The contract's `OrderBundle`.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = OrderBundleBody))]
pub struct OrderBundleResponse {
    /// Bundle id.
    pub bundle_id: String,
    /// Bundle name.
    pub bundle_name: String,
    pub quantity: String,
    /// Price per tonne.
    pub unit_price: String,
    /// Price per tonne with commission.
    pub gross_unit_price: String,
    /// Quantity × unit price.
    pub offset_cost: String,
    /// The bundle's inventory could not cover this line.
    pub insufficient_available_quantity: bool,
}

impl From<&QuoteLine> for OrderBundleResponse {
    fn from(l: &QuoteLine) -> Self {
        Self {
            bundle_id: l.bundle_id.to_string(),
            bundle_name: l.bundle_name.clone(),
            quantity: l.quantity.to_tonnes_string(),
            unit_price: l.unit_price.to_decimal_string(),
            gross_unit_price: l.gross_unit_price.to_decimal_string(),
            offset_cost: l.offset_cost.to_decimal_string(),
            insufficient_available_quantity: l.insufficient_available_quantity,
        }
    }
}

/// The contract's `OrderProject`.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = OrderProjectBody))]
pub struct OrderProjectResponse {
    /// Project id.
    pub project_id: String,
    pub project_name: String,
    pub project_type: String,
    pub project_slug: String,
    /// Tonnes retired from this project.
    pub quantity: String,
    /// Price per tonne.
    pub unit_price: String,
    /// This project's share of the offset cost.
    pub offset_cost: String,
    /// `allocated`, or `retired` once the registry issued the retirement's
    /// serial number (or the order is complete).
    pub status: &'static str,
}

impl OrderProjectResponse {
    /// A project of an order in `order` status.
    pub fn of(p: &ProjectAllocation, order: OrderStatus) -> Self {
        Self {
            project_id: p.project_id.to_string(),
            project_name: p.project_name.clone(),
            project_type: p.project_type.clone(),
            project_slug: p.project_slug.clone(),
            quantity: p.quantity.to_tonnes_string(),
            unit_price: p.unit_price.to_decimal_string(),
            offset_cost: p.offset_cost.to_decimal_string(),
            status: p.status(order).as_str(),
        }
    }
}

/// Where an order's public certificate page is, on this server: made absolute
/// by [`OrderResponse::with_base`].
pub fn public_certificate_path(order: &Order) -> String {
    format!("/certificates/{}", order.id)
}

/// The contract's `Order` (`OrderByQuantity` or `OrderByValue`).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = OrderBody))]
pub struct OrderResponse {
    /// Order id.
    pub id: String,
    /// The client's idempotency key.
    pub idempotency_key: Option<String>,
    /// `quantity` or `value`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// `received`, `placed`, `paid`, `retiring`, `complete`, `cancelled` or `failed`.
    pub status: &'static str,
    /// Currency code.
    pub currency: &'static str,
    /// Net offset cost.
    pub offset_cost: Option<String>,
    /// Offset cost + commission.
    pub total_cost: Option<String>,
    pub commission: Option<String>,
    pub quantity: Option<String>,
    /// `invoice` (paid outside Tonne, confirmed by the operator) or `card`
    /// (a card authorised on the hosted checkout).
    pub payment_method: &'static str,
    /// RFC 3339.
    pub created_at: String,
    /// Per bundle.
    pub bundles: Option<Vec<OrderBundleResponse>>,
    /// Per project, once retiring (null before).
    pub projects: Option<Vec<OrderProjectResponse>>,
    /// Certificate URL once complete: a path on this server, made absolute by
    /// [`OrderResponse::with_base`] where the public URL is known (HTTP answers).
    pub certificate: Option<String>,
    /// The public certificate page once complete (null before): an HTML page
    /// anyone holding the order id can open; a path on this server, made
    /// absolute like `certificate`.
    pub public_certificate_url: Option<String>,
    /// Client metadata.
    pub metadata: BTreeMap<String, String>,
    /// Offset link id.
    pub offset_link_id: Option<String>,
    /// End-user email.
    pub email: Option<String>,
    /// Tonnes asked for (orders by mass).
    pub requested_quantity: Option<String>,
    /// Value asked for (orders by value).
    pub requested_value: Option<String>,
    /// Estimate ordered (orders by estimate).
    pub estimate_id: Option<String>,
}

impl OrderResponse {
    /// Makes the certificate URLs absolute on `base` (e.g. `https://tonne.example`).
    pub fn with_base(mut self, base: &str) -> Self {
        let base = base.trim_end_matches('/');
        if let Some(path) = self.certificate.take() {
            self.certificate = Some(format!("{base}{path}"));
        }
        if let Some(path) = self.public_certificate_url.take() {
            self.public_certificate_url = Some(format!("{base}{path}"));
        }
        self
    }
}

impl From<&Order> for OrderResponse {
    fn from(o: &Order) -> Self {
        Self {
            id: o.id.to_string(),
            idempotency_key: o.idempotency_key.as_ref().map(|k| k.as_str().to_owned()),
            kind: o.kind.as_str(),
            status: o.status.as_str(),
            currency: o.currency.code(),
            offset_cost: Some(o.offset_cost.to_decimal_string()),
            total_cost: Some(o.total_cost.to_decimal_string()),
            commission: Some(o.commission.to_decimal_string()),
            quantity: Some(o.quantity.to_tonnes_string()),
            payment_method: o.payment_method.as_str(),
            created_at: o.created_at.format(&Rfc3339).unwrap_or_default(),
            bundles: Some(o.lines.iter().map(OrderBundleResponse::from).collect()),
            projects: (!o.projects.is_empty()).then(|| {
                o.projects
                    .iter()
                    .map(|p| OrderProjectResponse::of(p, o.status))
                    .collect()
            }),
            certificate: (o.status == OrderStatus::Complete)
                .then(|| format!("/v1/orders/{}/certificate", o.id)),
            public_certificate_url: (o.status == OrderStatus::Complete)
                .then(|| public_certificate_path(o)),
            metadata: o.metadata.iter().cloned().collect(),
            offset_link_id: o.offset_link_id.clone(),
            email: o.email.clone(),
            requested_quantity: o.requested_quantity.map(|m| m.to_tonnes_string()),
            requested_value: o.requested_value.map(|m| m.to_decimal_string()),
            estimate_id: o.estimate_id.map(|e| e.to_string()),
        }
    }
}

/// The contract's `OrderEventDetails` (`WebhookEvent.data` for order events).
#[derive(Debug, Clone, Serialize)]
pub struct OrderEventData {
    /// The order as it was when the event happened.
    pub order: OrderResponse,
}
