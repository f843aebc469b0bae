//! Orders and their lifecycle.

use time::OffsetDateTime;
use tonne_kernel::{AccountId, AccountMode, Currency, Mass, Money};
use uuid::Uuid;

use crate::quote::{Quote, QuoteLine};

tonne_kernel::define_id!(
    /// Identifies an order: a random (v4) UUID, so that holding the id is what
    /// grants reading the order, like a receipt link.
    OrderId
);

/// Where an order is in its life.
///
/// ```text
/// received → placed → paid → retiring → complete
///     ↓         ↓       ↓        ↓
///  cancelled cancelled failed  failed        (received and placed may also fail)
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OrderStatus {
    /// Accepted, inventory reserved.
    Received,
    /// Allocated to bundles and confirmed.
    Placed,
    /// Paid for.
    Paid,
    /// Credits being retired at the registry.
    Retiring,
    /// Credits retired; the certificate is available.
    Complete,
    /// Cancelled before payment.
    Cancelled,
    /// Could not be fulfilled.
    Failed,
}

impl OrderStatus {
    /// Every status.
    pub const ALL: [OrderStatus; 7] = [
        OrderStatus::Received,
        OrderStatus::Placed,
        OrderStatus::Paid,
        OrderStatus::Retiring,
        OrderStatus::Complete,
        OrderStatus::Cancelled,
        OrderStatus::Failed,
    ];

    /// The contract's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            OrderStatus::Received => "received",
            OrderStatus::Placed => "placed",
            OrderStatus::Paid => "paid",
            OrderStatus::Retiring => "retiring",
            OrderStatus::Complete => "complete",
            OrderStatus::Cancelled => "cancelled",
            OrderStatus::Failed => "failed",
        }
    }

    /// Parses the contract's spelling.
    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == value)
    }

    /// The next status on the happy path, if any.
    pub fn next(self) -> Option<OrderStatus> {
        match self {
            OrderStatus::Received => Some(OrderStatus::Placed),
            OrderStatus::Placed => Some(OrderStatus::Paid),
            OrderStatus::Paid => Some(OrderStatus::Retiring),
            OrderStatus::Retiring => Some(OrderStatus::Complete),
            OrderStatus::Complete | OrderStatus::Cancelled | OrderStatus::Failed => None,
        }
    }

    /// Whether the order can still change.
    pub fn is_final(self) -> bool {
        matches!(
            self,
            OrderStatus::Complete | OrderStatus::Cancelled | OrderStatus::Failed
        )
    }

    /// Whether `self → to` is a legal transition.
    ///
    /// ```
    /// use tonne_ordering::OrderStatus::*;
    /// assert!(Received.can_become(Placed));
    /// assert!(Placed.can_become(Cancelled));
    /// assert!(!Paid.can_become(Cancelled));
    /// assert!(!Complete.can_become(Failed));
    /// assert!(!Received.can_become(Paid));
    /// ```
    pub fn can_become(self, to: OrderStatus) -> bool {
        if self.next() == Some(to) {
            return true;
        }
        match to {
            OrderStatus::Cancelled => matches!(self, OrderStatus::Received | OrderStatus::Placed),
            OrderStatus::Failed => !self.is_final(),
            _ => false,
        }
    }

    /// The event announcing that an order entered this status.
    pub fn event_type(self) -> &'static str {
        match self {
            OrderStatus::Received => "order.received",
            OrderStatus::Placed => "order.placed",
            OrderStatus::Paid => "order.paid",
            OrderStatus::Retiring => "order.retiring",
            OrderStatus::Complete => "order.completed",
            OrderStatus::Cancelled => "order.cancelled",
            OrderStatus::Failed => "order.failed",
        }
    }
}

/// How the order was asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderKind {
    /// By mass (`type: quantity`).
    Quantity,
    /// By value (`type: value`).
    Value,
}

impl OrderKind {
    /// The contract's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            OrderKind::Quantity => "quantity",
            OrderKind::Value => "value",
        }
    }
    /// Parses the contract's spelling.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "quantity" => Some(OrderKind::Quantity),
            "value" => Some(OrderKind::Value),
            _ => None,
        }
    }
}

/// A client's idempotency key: 1–100 characters, unique per account.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IdempotencyKey(String);

impl IdempotencyKey {
    /// Validates a key.
    pub fn parse(value: &str) -> Option<Self> {
        let ok = (1..=100).contains(&value.chars().count()) && !value.chars().any(char::is_control);
        ok.then(|| Self(value.to_owned()))
    }
    /// The key.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    /// Its id.
    pub id: OrderId,
    /// The account it was placed on.
    pub account_id: AccountId,
    /// Live or test (test orders advance by themselves).
    pub mode: AccountMode,
    /// The client's key, if given.
    pub idempotency_key: Option<IdempotencyKey>,
    /// By mass or by value.
    pub kind: OrderKind,
    /// Where it is.
    pub status: OrderStatus,
    /// The account's currency.
    pub currency: Currency,
    /// Tonnes ordered (Σ lines).
    pub quantity: Mass,
    /// Σ line offset costs.
    pub offset_cost: Money,
    /// Commission.
    pub commission: Money,
    /// Offset cost + commission.
    pub total_cost: Money,
    /// Per bundle.
    pub lines: Vec<QuoteLine>,
    /// The mass asked for.
    pub requested_quantity: Option<Mass>,
    /// The value asked for.
    pub requested_value: Option<Money>,
    /// Client metadata.
    pub metadata: Vec<(String, String)>,
    /// The offset link it came through, if any.
    pub offset_link_id: Option<String>,
    /// End-user email (offset links).
    pub email: Option<String>,
    /// Creation time.
    pub created_at: OffsetDateTime,
    /// Last transition time.
    pub updated_at: OffsetDateTime,
}

impl Order {
    /// An order in `received` from a quote.
    pub(crate) fn from_quote(
        quote: Quote,
        kind: OrderKind,
        account_id: AccountId,
        mode: AccountMode,
        idempotency_key: Option<IdempotencyKey>,
        metadata: Vec<(String, String)>,
        at: OffsetDateTime,
    ) -> Self {
        Self {
            id: OrderId::from_uuid(Uuid::new_v4()),
            account_id,
            mode,
            idempotency_key,
            kind,
            status: OrderStatus::Received,
            currency: quote.currency,
            quantity: quote.quantity,
            offset_cost: quote.offset_cost,
            commission: quote.commission,
            total_cost: quote.total_cost,
            lines: quote.lines,
            requested_quantity: quote.requested_quantity,
            requested_value: quote.requested_value,
            metadata,
            offset_link_id: None,
            email: None,
            created_at: at,
            updated_at: at,
        }
    }
}

/// An event to record with a change, in the same transaction (the outbox).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewEvent {
    /// Unique event id (receivers deduplicate on it).
    pub event_id: Uuid,
    /// The status the order entered; the event type follows from it.
    pub status: OrderStatus,
    /// When.
    pub at: OffsetDateTime,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_transition_is_either_allowed_or_refused_as_specified() {
        use OrderStatus::*;
        let allowed = [
            (Received, Placed),
            (Placed, Paid),
            (Paid, Retiring),
            (Retiring, Complete),
            (Received, Cancelled),
            (Placed, Cancelled),
            (Received, Failed),
            (Placed, Failed),
            (Paid, Failed),
            (Retiring, Failed),
        ];
        for from in OrderStatus::ALL {
            for to in OrderStatus::ALL {
                assert_eq!(
                    from.can_become(to),
                    allowed.contains(&(from, to)),
                    "{from:?} → {to:?}"
                );
            }
        }
        assert_eq!(Complete.event_type(), "order.completed");
        assert_eq!(OrderStatus::parse("retiring"), Some(Retiring));
    }

    #[test]
    fn idempotency_keys_are_bounded() {
        assert!(IdempotencyKey::parse("5bd808a954e").is_some());
        assert!(IdempotencyKey::parse("").is_none());
        assert!(IdempotencyKey::parse(&"k".repeat(101)).is_none());
        assert!(IdempotencyKey::parse("a\u{0}b").is_none());
    }
}
