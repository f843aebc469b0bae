//! The ordering use cases, as other crates call them.

use async_trait::async_trait;

use super::catalogue::{Catalogue, ImportSummary};
use tonne_kernel::{AccountId, AccountMode, Actor, Currency, Cursor, Money, Page, PageRequest};

use crate::catalogue::{Bundle, BundleId, BundlePortfolio};
use crate::commands::{MassRequest, OrderRequest, ValueRequest};
use crate::errors::{
    CatalogueError, CreateOrderError, QuoteError, ReadOrderError, RecordError, TransitionError,
};
use crate::orders::{AwaitingFilter, Order, OrderId, OrderStatus, RetirementRecord};
use crate::perimeter::Perimeter;
use crate::quote::Quote;
use crate::selection::SelectionEntry;
use crate::stats::OrderStats;
use crate::stock::{
    BundleEdit, BundleEditError, StockChange, StockEntry, StockEntryId, StockError, StockReason,
};
use crate::views::{BundleView, Certificate, ProjectView};

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
