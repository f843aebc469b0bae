//! JSON shapes of the Lune contract shared by Tonne's adapters, so that an order
//! reads the same in an HTTP response, in its outbox snapshot and, later, in a
//! webhook. Adapter-side only: domain crates never depend on this crate.

use std::collections::BTreeMap;

use serde::Serialize;
use time::format_description::well_known::Rfc3339;
use tonne_ordering::{Order, OrderStatus, ProjectAllocation, QuoteLine};

/// The contract's `OrderBundle`.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OrderBundleBody {
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

impl From<&QuoteLine> for OrderBundleBody {
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
pub struct OrderProjectBody {
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
}

impl From<&ProjectAllocation> for OrderProjectBody {
    fn from(p: &ProjectAllocation) -> Self {
        Self {
            project_id: p.project_id.to_string(),
            project_name: p.project_name.clone(),
            project_type: p.project_type.clone(),
            project_slug: p.project_slug.clone(),
            quantity: p.quantity.to_tonnes_string(),
            unit_price: p.unit_price.to_decimal_string(),
            offset_cost: p.offset_cost.to_decimal_string(),
        }
    }
}

/// The contract's `Order` (`OrderByQuantity` or `OrderByValue`).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OrderBody {
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
    /// RFC 3339.
    pub created_at: String,
    /// Per bundle.
    pub bundles: Option<Vec<OrderBundleBody>>,
    /// Per project, once retiring (null before).
    pub projects: Option<Vec<OrderProjectBody>>,
    /// Certificate URL once complete: a path on this server, made absolute by
    /// [`OrderBody::with_base`] where the public URL is known (HTTP answers).
    pub certificate: Option<String>,
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

impl OrderBody {
    /// Makes the certificate URL absolute on `base` (e.g. `https://tonne.example`).
    pub fn with_base(mut self, base: &str) -> Self {
        if let Some(path) = self.certificate.take() {
            self.certificate = Some(format!("{}{path}", base.trim_end_matches('/')));
        }
        self
    }
}

impl From<&Order> for OrderBody {
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
            created_at: o.created_at.format(&Rfc3339).unwrap_or_default(),
            bundles: Some(o.lines.iter().map(OrderBundleBody::from).collect()),
            projects: (!o.projects.is_empty())
                .then(|| o.projects.iter().map(OrderProjectBody::from).collect()),
            certificate: (o.status == OrderStatus::Complete)
                .then(|| format!("/v1/orders/{}/certificate", o.id)),
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
    pub order: OrderBody,
}
