//! What a hosted checkout deals in: the customer's [`Choice`], the
//! [`PublicLink`] its page shows, the priced [`Checkout`] awaiting
//! confirmation and the [`Confirmed`] order.

use tonne_kernel::Money;
use tonne_ordering::{BundleView, Order, Quote};

use crate::models::{AccountProfile, Email, LinkDetails};

/// How much the customer asks for, as typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Amount {
    /// Money in the account's currency, e.g. `"25.00"`.
    Money(String),
    /// Tonnes of CO₂e, e.g. `"1.5"`.
    Tonnes(String),
}

/// What the customer chose on the hosted page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The bundle, as submitted.
    pub bundle_id: String,
    /// The customer's email, as submitted.
    pub email: String,
    /// The amount; ignored (and may be `None`) when the link fixes a value.
    pub amount: Option<Amount>,
}

/// A link as its hosted page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicLink {
    /// The link and its bundles.
    pub details: LinkDetails,
    /// The account orders are placed on.
    pub account: AccountProfile,
    /// Per bundle (same order), the price per tonne with commission, if sold in the currency.
    pub prices: Vec<Option<Money>>,
}

/// A priced choice awaiting confirmation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkout {
    /// The link.
    pub link: PublicLink,
    /// The chosen bundle.
    pub bundle: BundleView,
    /// The customer's address.
    pub email: Email,
    /// The price, from the same code as the API's quotes.
    pub quote: Quote,
}

/// A placed order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confirmed {
    /// The link.
    pub link: PublicLink,
    /// The order.
    pub order: Order,
    /// Whether payment waits for the operator (live links with `require_payment`
    /// and no card processor connected).
    pub awaiting_payment: bool,
}
