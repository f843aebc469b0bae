//! Orders and their lifecycle.

use time::OffsetDateTime;
use tonne_kernel::{AccountId, AccountMode, Currency, EstimateId, Mass, Money};
use uuid::Uuid;

use crate::catalogue::{Project, ProjectId, Registry};
use crate::ids::AllocationId;
use crate::quote::{Quote, QuoteLine};

mod status;

tonne_kernel::define_id!(
    /// Identifies an order: a random (v4) UUID, so that holding the id is what
    /// grants reading the order, like a receipt link.
    OrderId
);

pub use status::{OrderKind, OrderStatus, PaymentMethod, ProjectStatus};

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

/// The tonnes of one project retired for an order, set when the order enters `retiring`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectAllocation {
    /// The allocation's id (the contract's `OrderAllocation.id`).
    pub id: AllocationId,
    /// When the order's tonnes were allocated to the project (entering `retiring`).
    pub allocated_at: OffsetDateTime,
    pub project_id: ProjectId,
    pub project_name: String,
    pub project_type: String,
    pub project_slug: String,
    /// Registry the credits are retired on.
    pub registry: Registry,
    pub quantity: Mass,
    /// The bundle's unit price.
    pub unit_price: Money,
    /// This project's share of the line's offset cost (shares sum to the line's cost).
    pub offset_cost: Money,
    /// Registry serial number of the retirement, once known.
    pub serial: Option<String>,
    /// Address of the retirement's record at the registry, once known.
    pub registry_record: Option<String>,
}

/// The longest registry serial number Tonne keeps, in characters (registries'
/// serial blocks are well under 100; the bound keeps rows and certificates sane).
pub const MAX_SERIAL_CHARS: usize = 200;

/// A registry serial number as given (a flag, a form): trimmed; `None` when
/// blank; refused when longer than [`MAX_SERIAL_CHARS`] or with control
/// characters. The one rule for every way a serial arrives.
///
/// ```
/// use tonne_ordering::{MAX_SERIAL_CHARS, registry_serial};
/// assert_eq!(registry_serial(" VCS-1-2 "), Ok(Some("VCS-1-2".to_owned())));
/// assert_eq!(registry_serial("  "), Ok(None));
/// assert!(registry_serial(&"9".repeat(MAX_SERIAL_CHARS + 1)).is_err());
/// assert!(registry_serial("VCS\n1").is_err());
/// ```
pub fn registry_serial(raw: &str) -> Result<Option<String>, &'static str> {
    let serial = raw.trim();
    if serial.chars().count() > MAX_SERIAL_CHARS {
        return Err("at most 200 characters");
    }
    if serial.chars().any(char::is_control) {
        return Err("no control characters");
    }
    Ok((!serial.is_empty()).then(|| serial.to_owned()))
}

/// What an operator records of one project's retirement at the registry.
///
/// ```
/// use tonne_ordering::{ProjectId, RetirementRecord};
/// let p = ProjectId::from_uuid(uuid::Uuid::from_u128(1));
/// let r = RetirementRecord::parse(p, " VCS-1-2 ", "https://registry.example/r/1").unwrap();
/// assert_eq!(r.serial.as_deref(), Some("VCS-1-2"));
/// assert!(RetirementRecord::parse(p, "x", "javascript:alert(1)").is_err());
/// assert!(RetirementRecord::parse(p, &"x".repeat(201), "").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetirementRecord {
    pub project_id: ProjectId,
    /// The serial number (blank: left as it is).
    pub serial: Option<String>,
    /// An http(s) address of the record (blank: left as it is).
    pub url: Option<String>,
}

impl RetirementRecord {
    /// Trims and checks both fields: a serial of at most 200 characters, an
    /// `http://` or `https://` address of at most 500.
    pub fn parse(project_id: ProjectId, serial: &str, url: &str) -> Result<Self, String> {
        let (serial, url) = (serial.trim(), url.trim());
        if serial.chars().count() > MAX_SERIAL_CHARS {
            return Err("serial: at most 200 characters".into());
        }
        if !url.is_empty()
            && (url.chars().count() > 500
                || !(url.starts_with("https://") || url.starts_with("http://"))
                || url.contains(char::is_whitespace))
        {
            return Err("record: an http(s) address of at most 500 characters".into());
        }
        Ok(Self {
            project_id,
            serial: (!serial.is_empty()).then(|| serial.to_owned()),
            url: (!url.is_empty()).then(|| url.to_owned()),
        })
    }
}

impl ProjectAllocation {
    /// Retired once the registry has issued the retirement's serial number, or
    /// once the order is complete (an operator may complete a live order without
    /// recording serials: completion is their word that the credits are retired);
    /// allocated before.
    pub fn status(&self, order: OrderStatus) -> ProjectStatus {
        if self.serial.is_some() || order == OrderStatus::Complete {
            ProjectStatus::Retired
        } else {
            ProjectStatus::Allocated
        }
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
    /// The estimate ordered (orders by estimate).
    pub estimate_id: Option<EstimateId>,
    /// How it is paid.
    pub payment_method: PaymentMethod,
    /// The card processor's reference for an authorised card payment (a
    /// Stripe PaymentIntent id), captured when the order becomes `paid`.
    pub payment_reference: Option<String>,
    /// Why the order is on hold (a disputed card payment), if it is: no step
    /// but `cancelled` or `failed` passes a hold.
    pub held: Option<String>,
    /// Per project, from `retiring` on (empty before).
    pub projects: Vec<ProjectAllocation>,
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
            estimate_id: None,
            payment_method: PaymentMethod::Invoice,
            payment_reference: None,
            held: None,
            projects: Vec::new(),
            created_at: at,
            updated_at: at,
        }
    }
}

/// Splits each bundle line across the bundle's (enabled) projects in equal shares,
/// quantities and costs by the largest-remainder method, so that per line the
/// projects' tonnes and costs sum exactly to the line's. `projects_of` gives a
/// bundle's projects; a bundle with none keeps its line unallocated. Serial
/// numbers are left to the registry.
pub fn allocate_projects(
    order: &Order,
    at: OffsetDateTime,
    projects_of: impl Fn(crate::BundleId) -> Vec<Project>,
) -> Vec<ProjectAllocation> {
    let mut out = Vec::new();
    for line in &order.lines {
        let projects: Vec<Project> = projects_of(line.bundle_id)
            .into_iter()
            .filter(|p| !p.disabled)
            .collect();
        if projects.is_empty() {
            continue;
        }
        let weights = vec![1; projects.len()];
        let grams = crate::allocation::split(line.quantity.grams(), &weights);
        let cents = crate::allocation::split(line.offset_cost.minor(), &weights);
        for ((project, g), c) in projects.into_iter().zip(grams).zip(cents) {
            if g == 0 {
                continue;
            }
            out.push(ProjectAllocation {
                id: AllocationId::from_uuid(Uuid::new_v4()),
                allocated_at: at,
                project_id: project.id,
                project_name: project.name,
                project_type: project.project_type,
                project_slug: project.slug,
                registry: project.registry,
                quantity: Mass::from_grams(g),
                unit_price: line.unit_price,
                offset_cost: Money::from_minor(c, line.offset_cost.currency()),
                serial: None,
                registry_record: None,
            });
        }
    }
    out
}

/// An event to record with a change, in the same transaction (the outbox).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewEvent {
    /// Unique event id (receivers deduplicate on it).
    pub event_id: Uuid,
    /// The status the order entered; the event type follows from it.
    pub status: OrderStatus,
    pub at: OffsetDateTime,
}

/// The live orders an operator has to act on: `received`, `placed`, `paid`
/// or `retiring` (or one of them), of every organisation or one.
///
/// ```
/// use tonne_ordering::{AwaitingFilter, OrderStatus};
///
/// let all = AwaitingFilter::default();
/// assert_eq!(all.statuses(), AwaitingFilter::STATUSES);
/// let paid = AwaitingFilter { status: Some(OrderStatus::Paid), ..all };
/// assert_eq!(paid.statuses(), &[OrderStatus::Paid]);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AwaitingFilter {
    /// Only this organisation's accounts.
    pub organisation: Option<tonne_kernel::OrganisationId>,
    /// Only this status (one of [`AwaitingFilter::STATUSES`]).
    pub status: Option<OrderStatus>,
}

impl AwaitingFilter {
    /// The statuses that wait for the operator.
    pub const STATUSES: &'static [OrderStatus] = &[
        OrderStatus::Received,
        OrderStatus::Placed,
        OrderStatus::Paid,
        OrderStatus::Retiring,
    ];

    /// The statuses to list.
    pub fn statuses(&self) -> &[OrderStatus] {
        match self.status {
            None => Self::STATUSES,
            Some(s) => Self::STATUSES
                .iter()
                .position(|x| *x == s)
                .and_then(|i| Self::STATUSES.get(i..=i))
                .unwrap_or(&[]),
        }
    }
}

#[cfg(test)]
impl Order {
    /// A test order (the crate's tests) of nothing, in pounds, of `account`
    /// in `mode`, created at `at`, in `status`.
    pub(crate) fn sample(
        status: OrderStatus,
        (account, mode): (AccountId, AccountMode),
        at: OffsetDateTime,
    ) -> Self {
        let quote = crate::quote::price(
            &[],
            &[],
            Currency::Gbp,
            crate::pricing::CommissionRate::TEN_PERCENT,
        )
        .unwrap();
        let mut order =
            Order::from_quote(quote, OrderKind::Quantity, account, mode, None, vec![], at);
        order.status = status;
        order
    }
}

#[cfg(test)]
impl ProjectAllocation {
    /// A test allocation (the crate's tests) of half a tonne of project `n`
    /// at 10.00 a tonne, allocated at `at`, with `serial` once retired.
    pub(crate) fn sample(n: u128, serial: Option<&str>, at: OffsetDateTime) -> Self {
        Self {
            id: AllocationId::from_uuid(Uuid::from_u128(100 + n)),
            allocated_at: at,
            project_id: ProjectId::from_uuid(Uuid::from_u128(n)),
            project_name: format!("P{n}"),
            project_type: "Biochar".into(),
            project_slug: format!("p{n}"),
            registry: Registry::PuroEarth,
            quantity: Mass::from_grams(500_000),
            unit_price: Money::from_minor(1000, Currency::Gbp),
            offset_cost: Money::from_minor(500, Currency::Gbp),
            serial: serial.map(str::to_owned),
            registry_record: None,
        }
    }
}

#[cfg(test)]
mod tests;
