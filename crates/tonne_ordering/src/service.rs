//! The ordering use cases behind the [`OrderingService`] port, one module
//! each: [`catalogue`] reads and imports, [`quotes`] prices, [`orders`] places
//! and reads orders, [`lifecycle`] moves them along. Each use case holds only
//! the ports it needs; [`Ordering`] wires them and answers the port.

use std::sync::Arc;

use async_trait::async_trait;
use tonne_kernel::{
    AccountId, AccountMode, Actor, Clock, Currency, Cursor, Money, Page, PageRequest,
};

use crate::catalogue::{Bundle, BundleId, BundlePortfolio};
use crate::commands::{MassRequest, OrderRequest, ValueRequest};
use crate::errors::{
    CatalogueError, CreateOrderError, QuoteError, ReadOrderError, RecordError, TransitionError,
};
use crate::orders::{AwaitingFilter, Order, OrderId, OrderStatus, RetirementRecord};
use crate::ports::{
    AccountDirectory, Catalogue, CatalogueRepository, Fulfilment, ImportSummary, OrderRepository,
    OrderingService,
};
use crate::quote::Quote;
use crate::selection::SelectionEntry;
use crate::stats::OrderStats;
use crate::stock::{
    BundleEdit, BundleEditError, StockChange, StockEntry, StockEntryId, StockError, StockReason,
};
use crate::views::{BundleView, Certificate, ProjectView};

mod catalogue;
mod invoices;
mod lifecycle;
mod orders;
mod payment_events;
mod quotes;
mod stock;
mod support;

pub use invoices::Invoicing;
pub use quotes::Settings;

/// The ordering use cases over their ports; the binary wires it over the
/// storage adapters and each mode's payment and registry adapters:
///
/// ```
/// use std::sync::Arc;
///
/// use tonne_kernel::SystemClock;
/// use tonne_ordering::ports::{
///     AccountDirectory, CatalogueRepository, Fulfilment, OrderRepository,
/// };
/// use tonne_ordering::{Ordering, OrderingService, Settings};
///
/// fn wire(
///     catalogue: Arc<dyn CatalogueRepository>,
///     orders: Arc<dyn OrderRepository>,
///     accounts: Arc<dyn AccountDirectory>,
///     live: Fulfilment,
///     test: Fulfilment,
/// ) -> Arc<dyn OrderingService> {
///     let clock = Arc::new(SystemClock);
///     Arc::new(Ordering::new(catalogue, orders, accounts, (live, test), clock, Settings::default()))
/// }
/// # let _ = wire;
/// assert_eq!(Settings::default().default_trunc, tonne_kernel::MassUnit::G);
/// ```
#[derive(Clone)]
pub struct Ordering {
    catalogue: catalogue::CatalogueReads,
    quotes: quotes::Quotes,
    orders: orders::Orders,
    lifecycle: lifecycle::Lifecycle,
}

impl Ordering {
    /// Wires the service.
    /// `live` and `test` are the payment and registry adapters for each mode.
    pub fn new(
        catalogue: Arc<dyn CatalogueRepository>,
        orders: Arc<dyn OrderRepository>,
        accounts: Arc<dyn AccountDirectory>,
        (live, test): (Fulfilment, Fulfilment),
        clock: Arc<dyn Clock>,
        settings: Settings,
    ) -> Self {
        let reads = catalogue::CatalogueReads {
            catalogue: catalogue.clone(),
            clock: clock.clone(),
        };
        let accounts_for_audit = accounts.clone();
        let quotes = quotes::Quotes {
            catalogue,
            accounts: accounts.clone(),
            settings,
            clock: clock.clone(),
        };
        Self {
            orders: orders::Orders {
                quotes: quotes.clone(),
                catalogue: reads.catalogue.clone(),
                orders: orders.clone(),
                accounts,
                clock: clock.clone(),
            },
            lifecycle: lifecycle::Lifecycle {
                live,
                test,
                orders,
                accounts: accounts_for_audit,
                catalogue: reads.clone(),
                clock,
            },
            catalogue: reads,
            quotes,
        }
    }
}

#[async_trait]
impl OrderingService for Ordering {
    async fn list_projects(
        &self,
        recently_disabled: bool,
        page: PageRequest<Cursor>,
    ) -> Result<Page<ProjectView>, CatalogueError> {
        self.catalogue.list_projects(recently_disabled, page).await
    }

    async fn project(&self, id: &str) -> Result<ProjectView, CatalogueError> {
        self.catalogue.project(id).await
    }

    async fn project_by_slug(&self, slug: &str) -> Result<ProjectView, CatalogueError> {
        self.catalogue.project_by_slug(slug).await
    }

    async fn project_perimeter(&self, id: &str) -> Result<crate::Perimeter, CatalogueError> {
        self.catalogue.perimeter(id).await
    }

    async fn list_bundles(
        &self,
        recently_disabled: bool,
        page: PageRequest<Cursor>,
    ) -> Result<Page<BundleView>, CatalogueError> {
        self.catalogue.list_bundles(recently_disabled, page).await
    }

    async fn bundle(&self, id: &str) -> Result<BundleView, CatalogueError> {
        self.catalogue.bundle(id).await
    }

    fn display_price(&self, bundle: &Bundle, currency: Currency) -> Option<(Money, Money)> {
        self.quotes.display_price(bundle, currency)
    }

    #[tracing::instrument(level = "debug", name = "quote", skip_all, fields(otel.name = "quote by mass"))]
    async fn quote_by_mass(
        &self,
        account: AccountId,
        request: MassRequest,
    ) -> Result<Quote, QuoteError> {
        self.quotes.by_mass(account, &request).await
    }

    #[tracing::instrument(level = "debug", name = "quote", skip_all, fields(otel.name = "quote many by mass"))]
    async fn quote_many_by_mass(
        &self,
        account: AccountId,
        requests: Vec<MassRequest>,
    ) -> Vec<Result<Quote, QuoteError>> {
        self.quotes.many_by_mass(account, &requests).await
    }

    #[tracing::instrument(level = "debug", name = "quote", skip_all, fields(otel.name = "quote by value"))]
    async fn quote_by_value(
        &self,
        account: AccountId,
        request: ValueRequest,
    ) -> Result<Quote, QuoteError> {
        self.quotes.by_value(account, &request).await
    }

    async fn create_order(
        &self,
        account: AccountId,
        mode: AccountMode,
        request: OrderRequest,
    ) -> Result<Order, CreateOrderError> {
        self.orders.create(account, mode, request).await
    }

    async fn order(&self, id: &str) -> Result<Order, ReadOrderError> {
        self.orders.get(id).await
    }

    async fn order_by_idempotency_key(
        &self,
        account: AccountId,
        key: &str,
    ) -> Result<Order, ReadOrderError> {
        self.orders.by_idempotency_key(account, key).await
    }

    async fn list_orders(
        &self,
        account: AccountId,
        offset_link_id: Option<String>,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Order>, ReadOrderError> {
        self.orders.list(account, offset_link_id, page).await
    }

    async fn organisation_orders(
        &self,
        organisation: tonne_kernel::OrganisationId,
        mode: tonne_kernel::AccountMode,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Order>, ReadOrderError> {
        self.orders.of_organisation(organisation, mode, page).await
    }

    async fn organisation_order(
        &self,
        organisation: tonne_kernel::OrganisationId,
        id: &str,
    ) -> Result<Order, ReadOrderError> {
        self.orders.in_organisation(organisation, id).await
    }

    async fn key_order(
        &self,
        organisation: tonne_kernel::OrganisationId,
        mode: tonne_kernel::AccountMode,
        id: &str,
    ) -> Result<Order, ReadOrderError> {
        let order = self.orders.in_organisation(organisation, id).await?;
        if order.mode == mode {
            Ok(order)
        } else {
            Err(ReadOrderError::NotFound)
        }
    }

    async fn orders_awaiting(
        &self,
        filter: AwaitingFilter,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Order>, ReadOrderError> {
        self.orders.awaiting(filter, page).await
    }

    async fn advance(
        &self,
        id: &str,
        to: Option<OrderStatus>,
        registry_serial: Option<String>,
        by: &Actor,
    ) -> Result<Order, TransitionError> {
        self.lifecycle.advance(id, to, registry_serial, by).await
    }

    async fn record_retirement(
        &self,
        id: &str,
        records: Vec<RetirementRecord>,
        by: &Actor,
    ) -> Result<Order, RecordError> {
        self.lifecycle.record_retirement(id, records, by).await
    }

    async fn cancel_unconfirmed(&self, id: OrderId) -> Result<Order, TransitionError> {
        self.lifecycle.cancel_unconfirmed(id).await
    }

    async fn collect_authorised(&self, id: OrderId) -> Result<Order, TransitionError> {
        self.lifecycle.collect_authorised(id).await
    }

    async fn payment_event(
        &self,
        event: crate::PaymentEvent,
    ) -> Result<crate::PaymentEventApplied, anyhow::Error> {
        self.lifecycle.payment_event(event).await
    }

    async fn release_hold(&self, id: &str, by: &Actor) -> Result<Order, TransitionError> {
        self.lifecycle.release_hold(id, by).await
    }

    async fn advance_test_orders(
        &self,
        step: time::Duration,
        limit: u32,
    ) -> Result<usize, TransitionError> {
        self.lifecycle.advance_test_orders(step, limit).await
    }

    async fn certificate(&self, id: &str) -> Result<Certificate, ReadOrderError> {
        self.orders.certificate(id).await
    }

    async fn set_account_selection(
        &self,
        account: &str,
        entries: Vec<SelectionEntry>,
        by: &Actor,
    ) -> Result<Vec<(BundleId, u32)>, QuoteError> {
        self.quotes
            .set_account_selection(account, entries, by)
            .await
    }

    async fn bundle_selection(
        &self,
        account: AccountId,
    ) -> Result<Vec<(BundleId, u32)>, QuoteError> {
        self.quotes.bundle_selection(account).await
    }

    async fn set_bundle_selection(
        &self,
        account: AccountId,
        entries: Vec<SelectionEntry>,
    ) -> Result<Vec<(BundleId, u32)>, QuoteError> {
        self.quotes.set_bundle_selection(account, entries).await
    }

    async fn bundle_portfolios(&self) -> Result<Vec<BundlePortfolio>, CatalogueError> {
        self.catalogue.portfolios().await
    }

    async fn set_bundle_portfolio(
        &self,
        account: AccountId,
        portfolio: &str,
    ) -> Result<BundlePortfolio, QuoteError> {
        self.quotes.set_bundle_portfolio(account, portfolio).await
    }

    async fn import_catalogue(
        &self,
        catalogue: Catalogue,
        by: &Actor,
    ) -> Result<ImportSummary, CatalogueError> {
        self.catalogue.import(catalogue, by).await
    }

    async fn live_stats(&self, days: u16) -> Result<OrderStats, ReadOrderError> {
        let today = self.orders.clock.now().date();
        let first = today - time::Duration::days(i64::from(days.max(1)) - 1);
        let since = first.midnight().assume_utc();
        let mut stats = self
            .orders
            .orders
            .live_stats(since)
            .await
            .map_err(|e| ReadOrderError::Unexpected(e.unexpected()))?;
        stats.daily = crate::stats::fill_days(&stats.daily, first, today);
        Ok(stats)
    }

    async fn all_bundles(&self, page: PageRequest<Cursor>) -> Result<Page<Bundle>, CatalogueError> {
        self.catalogue.all_bundles(page).await
    }

    async fn adjust_stock(
        &self,
        bundle: &str,
        change: StockChange,
        reason: StockReason,
        by: &Actor,
    ) -> Result<StockEntry, StockError> {
        self.catalogue
            .adjust_stock(bundle, change, reason, by)
            .await
    }

    async fn stock_ledger(
        &self,
        bundle: &str,
        page: PageRequest<StockEntryId>,
    ) -> Result<Page<StockEntry>, StockError> {
        self.catalogue.stock_ledger(bundle, page).await
    }

    async fn edit_bundle(
        &self,
        bundle: &str,
        edit: BundleEdit,
        by: &Actor,
    ) -> Result<Bundle, BundleEditError> {
        self.catalogue.edit_bundle(bundle, edit, by).await
    }

    async fn set_bundle_enabled(
        &self,
        bundle: &str,
        enabled: bool,
        by: &Actor,
    ) -> Result<Bundle, CatalogueError> {
        self.catalogue.set_bundle_enabled(bundle, enabled, by).await
    }
}

#[cfg(test)]
mod tests;
