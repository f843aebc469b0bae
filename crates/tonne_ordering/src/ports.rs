//! Ports of the ordering domain.

use async_trait::async_trait;
use time::OffsetDateTime;
use tonne_kernel::{
    AccountId, AccountMode, Actor, AuditEntry, Currency, Cursor, Money, Page, PageRequest,
};

pub use tonne_kernel::StoreError;

use crate::allocation_events::AllocationEvent;
use crate::catalogue::{Bundle, BundleId, BundlePortfolio, BundlePortfolioId, Project, ProjectId};
use crate::commands::{MassRequest, OrderRequest, ValueRequest};
use crate::errors::{
    CatalogueError, CreateOrderError, PlaceError, QuoteError, ReadOrderError, RecordError,
    TransitionError,
};
use crate::orders::{
    AwaitingFilter, IdempotencyKey, NewEvent, Order, OrderId, OrderStatus, ProjectAllocation,
    RetirementRecord,
};
use crate::perimeter::Perimeter;
use crate::quote::Quote;
use crate::selection::SelectionEntry;
use crate::stats::OrderStats;
use crate::stock::{
    BundleEdit, BundleEditError, StockChange, StockEntry, StockEntryId, StockError, StockReason,
};
use crate::views::{AccountHolder, BundleView, Certificate, ProjectView};

/// Which catalogue items a list returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Visibility {
    /// Also include items disabled at or after this instant (`recently_disabled=true`).
    pub disabled_since: Option<OffsetDateTime>,
}

/// A whole catalogue, as imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalogue {
    pub projects: Vec<Project>,
    /// Bundles (their `project_ids` name projects of this catalogue).
    pub bundles: Vec<Bundle>,
    /// Bundle portfolios (their selections name bundles of this catalogue).
    pub portfolios: Vec<BundlePortfolio>,
    /// The perimeters of projects of this catalogue that have one; an
    /// imported project not named here has none (a previous one is removed).
    pub perimeters: Vec<(ProjectId, Perimeter)>,
}

/// What an import changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ImportSummary {
    /// Projects inserted.
    pub projects_created: usize,
    /// Projects updated in place.
    pub projects_updated: usize,
    /// Bundles inserted.
    pub bundles_created: usize,
    /// Bundles updated in place.
    pub bundles_updated: usize,
    /// Bundle portfolios inserted.
    pub portfolios_created: usize,
    /// Bundle portfolios updated in place.
    pub portfolios_updated: usize,
}

/// Storage of the catalogue.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait CatalogueRepository: Send + Sync {
    /// Projects in id order after the cursor: enabled ones, plus disabled ones per `visibility`.
    async fn list_projects(
        &self,
        visibility: Visibility,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Project>, StoreError>;
    /// A project by id (disabled included), or `None`.
    async fn project(&self, id: ProjectId) -> Result<Option<Project>, StoreError>;
    /// A project by slug (disabled included), or `None`.
    async fn project_by_slug(&self, slug: &str) -> Result<Option<Project>, StoreError>;
    /// A project's perimeter, or `None` (no such project, or none recorded).
    async fn perimeter(&self, id: ProjectId) -> Result<Option<Perimeter>, StoreError>;
    /// Bundles in id order after the cursor, as for projects.
    async fn list_bundles(
        &self,
        visibility: Visibility,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Bundle>, StoreError>;
    /// The projects with these ids that exist (disabled included), in any order.
    async fn projects(&self, ids: &[ProjectId]) -> Result<Vec<Project>, StoreError>;
    /// The bundles with these ids that exist (disabled included), in any order.
    async fn bundles(&self, ids: &[BundleId]) -> Result<Vec<Bundle>, StoreError>;
    /// The catalogue's default selection: enabled bundles with a default share.
    async fn default_selection(&self) -> Result<Vec<Bundle>, StoreError>;
    /// The account's own default selection as `(bundle, share in hundredths)`, in
    /// its order; when it has none but follows a bundle portfolio that exists,
    /// that portfolio's selection; else empty.
    async fn account_selection(&self, account: AccountId)
    -> Result<Vec<(Bundle, u32)>, StoreError>;
    /// Replaces the account's default selection (empty clears it) and stops it
    /// following a bundle portfolio (its `bundle_portfolio_id` becomes null), in
    /// one transaction.
    /// The audit entry, when given, is written in the same transaction.
    async fn set_account_selection(
        &self,
        account: AccountId,
        selection: &[(BundleId, u32)],
        audit: Option<AuditEntry>,
    ) -> Result<(), StoreError>;
    /// Every bundle portfolio, in identifier order.
    async fn portfolios(&self) -> Result<Vec<BundlePortfolio>, StoreError>;
    /// A bundle portfolio by id, or `None`.
    async fn portfolio(&self, id: BundlePortfolioId)
    -> Result<Option<BundlePortfolio>, StoreError>;
    /// Makes the account follow the portfolio: clears its own selection and sets
    /// its `bundle_portfolio_id`, in one transaction. MUST return `NotFound` when
    /// the account does not exist.
    async fn set_account_portfolio(
        &self,
        account: AccountId,
        portfolio: BundlePortfolioId,
    ) -> Result<(), StoreError>;
    /// Whether the catalogue is empty.
    async fn is_empty(&self) -> Result<bool, StoreError>;
    /// In one transaction: changes a limited bundle's available grams by
    /// `entry.delta_grams` only if the result is not below zero, and writes the
    /// ledger row (its `available_after` as stored) and the audit entry (with
    /// `available` before and after added). `Ok(None)` when the bundle is
    /// unlimited or the change would go below zero (nothing written);
    /// `NotFound` when there is no such bundle.
    async fn adjust_stock(
        &self,
        entry: StockEntry,
        audit: AuditEntry,
    ) -> Result<Option<StockEntry>, StoreError>;
    /// A bundle's ledger, newest first, strictly older than the cursor.
    /// `NotFound` when the cursor names no row of this bundle.
    async fn stock_ledger(
        &self,
        bundle: BundleId,
        page: &PageRequest<StockEntryId>,
    ) -> Result<Page<StockEntry>, StoreError>;
    /// Sets a bundle's description and the price in each given currency (the
    /// bundle must already be sold in it), with the audit entry, in one
    /// transaction. `NotFound` when there is no such bundle.
    async fn update_bundle(
        &self,
        bundle: BundleId,
        edit: BundleEdit,
        at: OffsetDateTime,
        audit: AuditEntry,
    ) -> Result<(), StoreError>;
    /// Disables a bundle at `at` (`Some`) or enables it (`None`), with the audit
    /// entry, in one transaction. `NotFound` when there is no such bundle.
    async fn set_bundle_disabled(
        &self,
        bundle: BundleId,
        at: Option<OffsetDateTime>,
        audit: AuditEntry,
    ) -> Result<(), StoreError>;
    /// Inserts or updates every item in one transaction (idempotent: ids are stable).
    /// The audit entry, when given, is written in the same transaction with
    /// the summary's counts added.
    async fn import(
        &self,
        catalogue: &Catalogue,
        at: OffsetDateTime,
        audit: Option<AuditEntry>,
    ) -> Result<ImportSummary, StoreError>;
}

/// Storage of orders and their event outbox.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait OrderRepository: Send + Sync {
    /// In one transaction: reserves inventory for each line (a conditional update
    /// that never takes a bundle below zero; a line it cannot cover is flagged
    /// `insufficient_available_quantity` and reserves nothing), inserts the order
    /// and its lines, and appends the `event` to the outbox with the account's next
    /// sequence number and the final order as its snapshot. Returns the order as
    /// stored. MUST return `IdempotencyKeyTaken` when the account already has an
    /// order with the same idempotency key, and `EstimateAlreadyOrdered` when the
    /// order names an estimate that is ordered already or whose mass is no longer
    /// the order's (the store's constraints decide, inside the transaction, not a read;
    /// when both apply, the key is named).
    async fn place(&self, order: &Order, event: NewEvent) -> Result<Order, PlaceError>;
    /// The order, or `None`.
    async fn get(&self, id: OrderId) -> Result<Option<Order>, StoreError>;
    /// The account's order with this idempotency key, or `None`.
    async fn by_idempotency_key(
        &self,
        account: AccountId,
        key: &IdempotencyKey,
    ) -> Result<Option<Order>, StoreError>;
    /// The account's orders, most recent first, strictly after the cursor order.
    /// MUST return `NotFound` when the cursor names no order of the account.
    async fn list(
        &self,
        account: AccountId,
        offset_link_id: Option<String>,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Order>, StoreError>;
    /// Live orders in the filter's statuses, of every account (or the filter's
    /// organisation's), most recent first, strictly after the cursor order.
    /// MUST return `NotFound` when the cursor names no such order.
    async fn awaiting(
        &self,
        filter: AwaitingFilter,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Order>, StoreError>;
    /// An organisation's orders of one mode (every account and client account of
    /// it), most recent first, strictly after the cursor order. MUST return
    /// `NotFound` when the cursor names no such order.
    async fn of_organisation(
        &self,
        organisation: tonne_kernel::OrganisationId,
        mode: tonne_kernel::AccountMode,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Order>, StoreError>;
    /// The order, if one of the organisation's accounts placed it.
    async fn in_organisation(
        &self,
        organisation: tonne_kernel::OrganisationId,
        id: OrderId,
    ) -> Result<Option<Order>, StoreError>;
    /// In one transaction: moves the order from `from` to `event.status` only if it
    /// is still in `from`, and appends the event to the outbox. MUST return
    /// `NotFound` when the order does not exist or is no longer in `from`. When
    /// `projects` is given (on entering `retiring`), the order's per-project
    /// allocation is stored in the same transaction, and so is `audit` when a
    /// person or the command line made the move. `allocations` are appended to
    /// the outbox right after the order's event, in their order, each with the
    /// allocation's snapshot as the move left it (an id the order does not
    /// have is an error, and nothing is written).
    async fn transition(
        &self,
        id: OrderId,
        from: OrderStatus,
        event: NewEvent,
        projects: Option<Vec<ProjectAllocation>>,
        allocations: Vec<AllocationEvent>,
        audit: Option<AuditEntry>,
    ) -> Result<Order, StoreError>;
    /// Live orders created at or after `since`, not cancelled or failed: per
    /// UTC day (days without orders left out), and their total cost per
    /// currency. One grouped query each, whatever the number of orders.
    async fn live_stats(&self, since: OffsetDateTime) -> Result<OrderStats, StoreError>;
    /// In one transaction: records the processor's event id (with its type
    /// and `at`) unless it is recorded already — then `Repeated`, and nothing
    /// else is done — and, with `hold`, puts the order whose
    /// `payment_reference` is its first element on hold with its second as
    /// the reason.
    /// In one transaction: clears the order's hold and writes `audit`;
    /// the order as it is now, or `None` when it was not held (nothing written).
    async fn release_hold(
        &self,
        id: OrderId,
        audit: AuditEntry,
    ) -> Result<Option<Order>, StoreError>;
    async fn apply_payment_event(
        &self,
        id: &str,
        kind: &str,
        at: OffsetDateTime,
        hold: Option<(String, String)>,
    ) -> Result<crate::PaymentEventApplied, StoreError>;
    /// Sets each record's serial and record address (where given) on the
    /// order's project rows, appends `allocations` to the outbox (as for
    /// `transition`) and writes the audit entry, in one transaction.
    /// `NotFound` when the order does not exist.
    async fn record_retirement(
        &self,
        id: OrderId,
        records: Vec<RetirementRecord>,
        allocations: Vec<AllocationEvent>,
        audit: AuditEntry,
    ) -> Result<Order, StoreError>;
    /// Test-mode orders not final and unchanged since `updated_before`, oldest first.
    async fn stale_test_orders(
        &self,
        updated_before: time::OffsetDateTime,
        limit: u32,
    ) -> Result<Vec<Order>, StoreError>;
}

/// What a payment attempt decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PaymentOutcome {
    /// Collected: the order becomes `paid`.
    Paid,
    /// Refused: the order becomes `failed`.
    Declined { reason: String },
}

/// Collects payment for an order about to become `paid`.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait PaymentGateway: Send + Sync {
    /// Collects (or confirms) payment of the order's total cost.
    async fn collect(&self, order: &Order) -> Result<PaymentOutcome, anyhow::Error>;
    /// Gives back what was taken or held for an order with a card processor's
    /// reference that is becoming `cancelled` or `failed`: a hold released, a
    /// captured payment refunded in full. Called before the transition, so a
    /// failure leaves the order where it was (and the step can be retried).
    async fn give_back(&self, order: &Order) -> Result<(), anyhow::Error>;
}

/// Retires credits at the carbon registry for an order about to become `retiring`.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait CarbonRegistry: Send + Sync {
    /// Retires each allocation; returns one serial number per allocation, in order
    /// (`None` while the registry has not issued one). `reference` is what the
    /// operator supplied, if anything.
    async fn retire(
        &self,
        order: &Order,
        projects: &[ProjectAllocation],
        reference: Option<String>,
    ) -> Result<Vec<Option<String>>, anyhow::Error>;
}

/// The payment and registry adapters used for one mode.
#[derive(Clone)]
pub struct Fulfilment {
    pub payments: std::sync::Arc<dyn PaymentGateway>,
    /// The registry.
    pub registry: std::sync::Arc<dyn CarbonRegistry>,
}

/// What ordering needs to know about accounts.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait AccountDirectory: Send + Sync {
    /// The account's currency, or `None` if there is no such account.
    async fn currency(&self, account: AccountId) -> Result<Option<Currency>, StoreError>;
    /// The account as certificates present it (name, beneficiary, logo), or
    /// `None` if there is no such account.
    async fn holder(&self, account: AccountId) -> Result<Option<AccountHolder>, StoreError>;
}

/// The ordering use cases.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait OrderingService: Send + Sync {
    /// Projects (`recently_disabled` adds those disabled in the last 30 days).
    async fn list_projects(
        &self,
        recently_disabled: bool,
        page: PageRequest<Cursor>,
    ) -> Result<Page<ProjectView>, CatalogueError>;
    /// A project by id.
    async fn project(&self, id: &str) -> Result<ProjectView, CatalogueError>;
    /// A project by slug.
    async fn project_by_slug(&self, slug: &str) -> Result<ProjectView, CatalogueError>;
    /// A project's perimeter: `NotFound` for an unknown id and for a project
    /// without one (Tonne never makes one up).
    async fn project_perimeter(&self, id: &str) -> Result<Perimeter, CatalogueError>;
    /// Bundles, as for projects.
    async fn list_bundles(
        &self,
        recently_disabled: bool,
        page: PageRequest<Cursor>,
    ) -> Result<Page<BundleView>, CatalogueError>;
    /// A bundle by id.
    async fn bundle(&self, id: &str) -> Result<BundleView, CatalogueError>;
    /// A bundle's price per tonne in a currency, and with commission, if it is sold in it.
    fn display_price(&self, bundle: &Bundle, currency: Currency) -> Option<(Money, Money)>;
    /// Prices an order by mass for an account, storing nothing.
    async fn quote_by_mass(
        &self,
        account: AccountId,
        request: MassRequest,
    ) -> Result<Quote, QuoteError>;
    /// Prices many orders by mass for one account, storing nothing: the answers
    /// are those of [`OrderingService::quote_by_mass`] in request order, but the
    /// account and each distinct selection are read once (batches of estimates).
    async fn quote_many_by_mass(
        &self,
        account: AccountId,
        requests: Vec<MassRequest>,
    ) -> Vec<Result<Quote, QuoteError>>;
    /// Prices an order by value for an account, storing nothing.
    async fn quote_by_value(
        &self,
        account: AccountId,
        request: ValueRequest,
    ) -> Result<Quote, QuoteError>;
    /// Places an order (by mass or by value) on an account.
    async fn create_order(
        &self,
        account: AccountId,
        mode: AccountMode,
        request: OrderRequest,
    ) -> Result<Order, CreateOrderError>;
    /// An order by id (anyone holding the id may read it).
    async fn order(&self, id: &str) -> Result<Order, ReadOrderError>;
    /// The account's order with this idempotency key.
    async fn order_by_idempotency_key(
        &self,
        account: AccountId,
        key: &str,
    ) -> Result<Order, ReadOrderError>;
    /// The account's orders, most recent first.
    async fn list_orders(
        &self,
        account: AccountId,
        offset_link_id: Option<String>,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Order>, ReadOrderError>;
    /// An organisation's orders of one mode, most recent first (the console's members).
    async fn organisation_orders(
        &self,
        organisation: tonne_kernel::OrganisationId,
        mode: tonne_kernel::AccountMode,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Order>, ReadOrderError>;
    /// An order of the organisation: `NotFound` for any other id.
    async fn organisation_order(
        &self,
        organisation: tonne_kernel::OrganisationId,
        id: &str,
    ) -> Result<Order, ReadOrderError>;
    /// An order as an API key of `organisation` and `mode` may read it:
    /// `NotFound` for any other id (another organisation's, the other mode's,
    /// or none), so a caller learns nothing of orders not theirs.
    async fn key_order(
        &self,
        organisation: tonne_kernel::OrganisationId,
        mode: tonne_kernel::AccountMode,
        id: &str,
    ) -> Result<Order, ReadOrderError>;
    /// Operator: the live orders waiting for action (see [`AwaitingFilter`]).
    async fn orders_awaiting(
        &self,
        filter: AwaitingFilter,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Order>, ReadOrderError>;
    /// Operator: moves an order forward step by step up to `to` (default: one step),
    /// or to `cancelled`/`failed`; each step is its own transition and event,
    /// and its own audit entry naming `by`.
    async fn advance(
        &self,
        id: &str,
        to: Option<OrderStatus>,
        registry_serial: Option<String>,
        by: &Actor,
    ) -> Result<Order, TransitionError>;
    /// Operator: records each project's serial number and the address of its
    /// record at the registry, on an order that is retiring or complete
    /// (blank fields leave what is there); audited as done `by`.
    async fn record_retirement(
        &self,
        id: &str,
        records: Vec<RetirementRecord>,
        by: &Actor,
    ) -> Result<Order, RecordError>;
    /// The certificate of a complete order (anyone holding the id may read it):
    /// `NotFound` for an unknown id or an order not complete yet.
    async fn certificate(&self, id: &str) -> Result<Certificate, ReadOrderError>;
    /// Cancels an order still `received` (a hosted-page order nobody confirmed
    /// in time), releasing its reserved inventory with its `order.cancelled`
    /// event, in one transition; not audited (an automatic step, like the test
    /// pipeline's). `Illegal` once it moved on, `Conflict` when it moves concurrently.
    async fn cancel_unconfirmed(&self, id: OrderId) -> Result<Order, TransitionError>;
    /// Moves an order still `received` whose card was authorised through
    /// `placed` to `paid`, collecting it through the mode's `PaymentGateway`
    /// (a declined capture makes it `failed`); not audited (automatic steps,
    /// each with its event). `Illegal` once it moved on or when it has no
    /// card authorisation.
    async fn collect_authorised(&self, id: OrderId) -> Result<Order, TransitionError>;
    /// The card processor's event (authenticated by the caller), acted on
    /// once: a dispute puts its order on hold, which no step but `cancelled`
    /// or `failed` passes until the operator releases it.
    async fn payment_event(
        &self,
        event: crate::PaymentEvent,
    ) -> Result<crate::PaymentEventApplied, anyhow::Error>;
    /// Operator: releases an order's hold (the dispute was won), audited as
    /// done `by` (`order.hold_released`); an order not held is `Illegal`.
    async fn release_hold(&self, id: &str, by: &Actor) -> Result<Order, TransitionError>;
    /// Moves every test-mode order unchanged for `step` one step forward; returns how many moved.
    async fn advance_test_orders(
        &self,
        step: time::Duration,
        limit: u32,
    ) -> Result<usize, TransitionError>;
    /// Operator: sets (or, with an empty list, clears) an account's default selection;
    /// it is validated like a request's `bundle_selection`. Returns the shares set.
    /// Audited as done `by`.
    async fn set_account_selection(
        &self,
        account: &str,
        entries: Vec<SelectionEntry>,
        by: &Actor,
    ) -> Result<Vec<(BundleId, u32)>, QuoteError>;
    /// The account's default bundle selection as `(bundle, share in hundredths)`
    /// summing to 10,000: what an order naming no bundles is split by (its own
    /// selection, else its portfolio's, else the catalogue's), in its currency.
    async fn bundle_selection(
        &self,
        account: AccountId,
    ) -> Result<Vec<(BundleId, u32)>, QuoteError>;
    /// Sets the account's own default selection from a request's entries
    /// (validated like an order's `bundle_selection`; at least one entry).
    /// Returns the selection now in force.
    async fn set_bundle_selection(
        &self,
        account: AccountId,
        entries: Vec<SelectionEntry>,
    ) -> Result<Vec<(BundleId, u32)>, QuoteError>;
    /// Every bundle portfolio.
    async fn bundle_portfolios(&self) -> Result<Vec<BundlePortfolio>, CatalogueError>;
    /// Makes the account follow a bundle portfolio (`Invalid` on an unknown id,
    /// `BundleInvalid` when one of its bundles cannot be sold to the account).
    async fn set_bundle_portfolio(
        &self,
        account: AccountId,
        portfolio: &str,
    ) -> Result<BundlePortfolio, QuoteError>;
    /// Imports a catalogue (operator), in one transaction, audited as done `by`.
    async fn import_catalogue(
        &self,
        catalogue: Catalogue,
        by: &Actor,
    ) -> Result<ImportSummary, CatalogueError>;
    /// Operator: live orders of the last `days` days (today included), every
    /// day present, and revenue per currency.
    async fn live_stats(&self, days: u16) -> Result<OrderStats, ReadOrderError>;
    /// Operator: every bundle, enabled or not, in id order.
    async fn all_bundles(&self, page: PageRequest<Cursor>) -> Result<Page<Bundle>, CatalogueError>;
    /// Operator: adds or removes stock of a limited bundle, with a reason; one
    /// ledger row and one audit entry naming `by`.
    async fn adjust_stock(
        &self,
        bundle: &str,
        change: StockChange,
        reason: StockReason,
        by: &Actor,
    ) -> Result<StockEntry, StockError>;
    /// Operator: a bundle's stock ledger, newest first.
    async fn stock_ledger(
        &self,
        bundle: &str,
        page: PageRequest<StockEntryId>,
    ) -> Result<Page<StockEntry>, StockError>;
    /// Operator: changes a bundle's description and prices (only in the
    /// currencies it is sold in); an edit that changes nothing writes nothing.
    async fn edit_bundle(
        &self,
        bundle: &str,
        edit: BundleEdit,
        by: &Actor,
    ) -> Result<Bundle, BundleEditError>;
    /// Operator: enables or disables a bundle (a disabled bundle takes no
    /// orders); setting what is already set changes nothing.
    async fn set_bundle_enabled(
        &self,
        bundle: &str,
        enabled: bool,
        by: &Actor,
    ) -> Result<Bundle, CatalogueError>;
}
