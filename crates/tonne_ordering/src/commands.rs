//! The commands of the ordering use cases: what a caller asks to price or order.

use tonne_kernel::{EstimateId, Mass, MassUnit};

use crate::orders::PaymentMethod;
use crate::selection::SelectionEntry;

/// An order-by-mass request (quote or order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MassRequest {
    /// A total mass split by a selection (or the default selection).
    Split {
        /// The mass.
        mass: Mass,
        /// Bundles and percentages; `None` uses the default selection.
        selection: Option<Vec<SelectionEntry>>,
        /// Truncation unit.
        trunc: Option<MassUnit>,
    },
    /// Explicit masses per bundle.
    BundleMasses {
        /// `(bundle id as sent, mass)`.
        masses: Vec<(String, Mass)>,
        /// Truncation unit.
        trunc: Option<MassUnit>,
    },
}

/// An order-by-value request (quote or order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueRequest {
    /// The most to spend, a decimal string in the account's currency.
    pub value: String,
    /// Bundles and percentages; `None` uses the default selection.
    pub selection: Option<Vec<SelectionEntry>>,
    /// Truncation unit.
    pub trunc: Option<MassUnit>,
}

/// An order request: what to price, plus the order's own fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderRequest {
    /// By mass or by value.
    pub pricing: Pricing,
    /// The client's idempotency key (1–100 characters), if any.
    pub idempotency_key: Option<String>,
    /// Client metadata: at most 50 entries, keys 1–40 and values up to 500 characters.
    pub metadata: Vec<(String, String)>,
    /// The offset link the order is placed through (hosted pages), if any.
    pub origin: Option<LinkOrigin>,
    /// How it is paid: `Card` when the hosted checkout authorised a card,
    /// `Invoice` otherwise.
    pub payment_method: PaymentMethod,
    /// The card processor's reference when a card was authorised (a Stripe
    /// PaymentIntent id), kept on the order for its capture.
    pub payment_reference: Option<String>,
}

/// Where an order placed through an offset link came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkOrigin {
    /// The offset link's id.
    pub offset_link_id: String,
    /// The customer's email, as they entered it.
    pub email: String,
}

/// What an order prices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pricing {
    /// By mass.
    Mass(MassRequest),
    /// By value.
    Value(ValueRequest),
    /// The mass of a stored estimate (read by the caller from the estimates
    /// store); the estimate can be ordered once, enforced by the store.
    Estimate {
        /// The estimate.
        estimate_id: EstimateId,
        /// Its mass.
        mass: Mass,
        /// Bundles and percentages; `None` uses the default selection.
        selection: Option<Vec<SelectionEntry>>,
        /// Truncation unit.
        trunc: Option<MassUnit>,
    },
}
