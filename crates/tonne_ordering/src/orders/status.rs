//! The words of an order's life: its status, its kind, how it is paid, and
//! each project's retirement status, with their wire spellings.

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

/// How an order is paid (the contract's `payment_method`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PaymentMethod {
    /// Paid outside Tonne and confirmed by the operator (`tonne orders advance
    /// --to paid`), the way an invoice is settled: API orders, offset-link orders
    /// the account pays for, and live offset-link orders awaiting the operator.
    Invoice,
    /// A card authorised on the hosted checkout page.
    Card,
}

impl PaymentMethod {
    /// Every method.
    pub const ALL: [PaymentMethod; 2] = [PaymentMethod::Invoice, PaymentMethod::Card];

    /// The contract's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            PaymentMethod::Invoice => "invoice",
            PaymentMethod::Card => "card",
        }
    }

    /// Parses the contract's spelling.
    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.as_str() == value)
    }
}

/// Where one project's credits of an order are (the contract's `OrderProject.status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProjectStatus {
    /// Set aside for the order, not retired yet.
    Allocated,
    /// Retired at the registry.
    Retired,
}

impl ProjectStatus {
    /// The contract's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ProjectStatus::Allocated => "allocated",
            ProjectStatus::Retired => "retired",
        }
    }
}
