use std::sync::Arc;

use anyhow::anyhow;
use async_trait::async_trait;
use time::Duration;
use tonne_kernel::{
    AccountId, AccountMode, Clock, Currency, Cursor, Mass, MassUnit, Money, Page, PageRequest,
};

use crate::catalogue::ProjectId;
use crate::catalogue::{Bundle, BundleId, Project};
use crate::commands::{MassRequest, OrderRequest, Pricing, ValueRequest};
use crate::errors::{
    CatalogueError, CreateOrderError, PlaceError, QuoteError, ReadOrderError, TransitionError,
};
use crate::orders::{
    IdempotencyKey, NewEvent, Order, OrderId, OrderKind, OrderStatus, ProjectAllocation,
    allocate_projects,
};
use crate::ports::{
    AccountDirectory, Catalogue, CatalogueRepository, ImportSummary, OrderRepository,
    OrderingService, StoreError, Visibility,
};
use crate::ports::{Fulfilment, PaymentOutcome};
use crate::pricing::CommissionRate;
use crate::quote::{self, Quote};
use crate::selection::{SelectionEntry, shares};
use crate::views::{BundleView, ProjectView};

/// Ordering settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// Commission on the offset cost.
    pub commission_rate: CommissionRate,
    /// `quantity_trunc` when a request gives none.
    pub default_trunc: MassUnit,
}

impl Default for Settings {
    /// 10 % commission; quantities truncated to the gram (that is, not at all).
    fn default() -> Self {
        Self {
            commission_rate: CommissionRate::TEN_PERCENT,
            default_trunc: MassUnit::G,
        }
    }
}

fn check_metadata(metadata: &[(String, String)]) -> Result<(), QuoteError> {
    let invalid = |reason: String| QuoteError::Invalid {
        field: "metadata",
        reason,
    };
    if metadata.len() > 50 {
        return Err(invalid("at most 50 entries".into()));
    }
    for (key, value) in metadata {
        if !(1..=40).contains(&key.chars().count()) {
            return Err(invalid(format!("key `{key}` must be 1 to 40 characters")));
        }
        if value.chars().count() > 500 {
            return Err(invalid(format!(
                "value of `{key}` must be at most 500 characters"
            )));
        }
    }
    Ok(())
}

/// The ordering use cases over their ports.
#[derive(Clone)]
pub struct Service {
    live: Fulfilment,
    test: Fulfilment,
    orders: Arc<dyn OrderRepository>,
    catalogue: Arc<dyn CatalogueRepository>,
    accounts: Arc<dyn AccountDirectory>,
    clock: Arc<dyn Clock>,
    settings: Settings,
}

fn unexpected(e: StoreError) -> anyhow::Error {
    match e {
        StoreError::Unexpected(e) => e,
        other => anyhow!(other),
    }
}

/// Parses a money amount: a positive decimal with at most the currency's minor digits.
fn parse_value(raw: &str, currency: Currency) -> Result<Money, QuoteError> {
    Money::parse_positive(raw, currency)
        .map_err(|why| QuoteError::QuantityInvalid(format!("value: `{raw}` {why}")))
}

impl Service {
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
        Self {
            live,
            test,
            orders,
            catalogue,
            accounts,
            clock,
            settings,
        }
    }

    fn event(&self, status: OrderStatus) -> NewEvent {
        NewEvent {
            event_id: uuid::Uuid::new_v4(),
            status,
            at: self.clock.now(),
        }
    }

    async fn step(
        &self,
        order: &Order,
        to: OrderStatus,
        reference: Option<&str>,
    ) -> Result<Order, TransitionError> {
        if !order.status.can_become(to) {
            return Err(TransitionError::Illegal {
                from: order.status.as_str(),
                to: to.as_str(),
            });
        }
        let fulfilment = match order.mode {
            AccountMode::Live => &self.live,
            AccountMode::Test => &self.test,
        };
        let (to, projects) = match to {
            OrderStatus::Paid => match fulfilment.payments.collect(order).await? {
                PaymentOutcome::Paid => (OrderStatus::Paid, None),
                PaymentOutcome::Declined { .. } => (OrderStatus::Failed, None),
            },
            OrderStatus::Retiring => {
                let mut projects = self.allocation(order).await?;
                let serials = fulfilment
                    .registry
                    .retire(order, &projects, reference.map(str::to_owned))
                    .await?;
                for (project, serial) in projects.iter_mut().zip(serials) {
                    project.serial = serial;
                }
                (OrderStatus::Retiring, Some(projects))
            }
            other => (other, None),
        };
        match self
            .orders
            .transition(order.id, order.status, self.event(to), projects)
            .await
        {
            Ok(order) => Ok(order),
            Err(StoreError::NotFound) => Err(TransitionError::Conflict),
            Err(e) => Err(unexpected(e).into()),
        }
    }

    /// The per-project split of an order entering `retiring`.
    async fn allocation(&self, order: &Order) -> Result<Vec<ProjectAllocation>, TransitionError> {
        let ids: Vec<BundleId> = order.lines.iter().map(|l| l.bundle_id).collect();
        let views = self
            .bundle_views(self.catalogue.bundles(&ids).await.map_err(unexpected)?)
            .await
            .map_err(|e| anyhow!(e))?;
        Ok(allocate_projects(order, |bundle| {
            views
                .iter()
                .find(|v| v.bundle.id == bundle)
                .map(|v| v.projects.clone())
                .unwrap_or_default()
        }))
    }

    fn visibility(&self, recently_disabled: bool) -> Visibility {
        Visibility {
            disabled_since: recently_disabled.then(|| self.clock.now() - Duration::days(30)),
        }
    }

    async fn currency(&self, account: AccountId) -> Result<Currency, QuoteError> {
        self.accounts
            .currency(account)
            .await
            .map_err(unexpected)?
            .ok_or_else(|| QuoteError::Unexpected(anyhow!("acting account {account} vanished")))
    }

    /// Checks that every bundle exists, is enabled and is sold in the currency; keeps request order.
    async fn usable_bundles(
        &self,
        ids: &[BundleId],
        currency: Currency,
    ) -> Result<Vec<Bundle>, QuoteError> {
        let found = self.catalogue.bundles(ids).await.map_err(unexpected)?;
        ids.iter()
            .map(|id| {
                let bundle = found.iter().find(|b| b.id == *id).ok_or_else(|| {
                    QuoteError::BundleInvalid(format!("bundle {id} does not exist"))
                })?;
                if bundle.disabled {
                    return Err(QuoteError::BundleInvalid(format!(
                        "bundle {id} is disabled"
                    )));
                }
                if bundle.price_in(currency).is_none() {
                    return Err(QuoteError::BundleInvalid(format!(
                        "bundle {id} is not sold in {currency}"
                    )));
                }
                Ok(bundle.clone())
            })
            .collect()
    }

    /// The bundles and shares (hundredths) a request's selection, or the default, stands for.
    async fn selection(
        &self,
        account: AccountId,
        entries: Option<&[SelectionEntry]>,
        currency: Currency,
    ) -> Result<Vec<(Bundle, u32)>, QuoteError> {
        match entries {
            Some(entries) => {
                let shares = shares(entries)?;
                let ids: Vec<BundleId> = shares.iter().map(|(id, _)| *id).collect();
                let bundles = self.usable_bundles(&ids, currency).await?;
                Ok(bundles
                    .into_iter()
                    .zip(shares.into_iter().map(|(_, s)| s))
                    .collect())
            }
            None => {
                // The account's own default first (its usable bundles keep their
                // relative shares), then the catalogue's.
                let own: Vec<(Bundle, u32)> = self
                    .catalogue
                    .account_selection(account)
                    .await
                    .map_err(unexpected)?
                    .into_iter()
                    .filter(|(b, share)| {
                        !b.disabled && *share > 0 && b.price_in(currency).is_some()
                    })
                    .collect();
                if !own.is_empty() {
                    return Ok(own);
                }
                let defaults: Vec<Bundle> = self
                    .catalogue
                    .default_selection()
                    .await
                    .map_err(unexpected)?
                    .into_iter()
                    .filter(|b| !b.disabled && b.price_in(currency).is_some())
                    .collect();
                if defaults.is_empty() {
                    return Err(QuoteError::BundleInvalid(format!(
                        "bundle_selection: the catalogue has no default selection priced in {currency}; send a bundle_selection"
                    )));
                }
                let weights: Vec<u32> = defaults
                    .iter()
                    .map(|b| b.default_share.unwrap_or(0))
                    .collect();
                Ok(defaults.into_iter().zip(weights).collect())
            }
        }
    }

    /// Prices a mass split over chosen bundles (no I/O).
    fn split_quote(
        &self,
        chosen: &[(Bundle, u32)],
        mass: Mass,
        trunc: Option<MassUnit>,
        currency: Currency,
    ) -> Result<Quote, QuoteError> {
        let trunc = trunc.unwrap_or(self.settings.default_trunc);
        let refs: Vec<(&Bundle, u32)> = chosen.iter().map(|(b, s)| (b, *s)).collect();
        let mut quote =
            quote::by_shares(&refs, mass, trunc, currency, self.settings.commission_rate)?;
        if quote.quantity.grams() == 0 {
            return Err(QuoteError::QuantityInvalid(format!(
                "mass: {} truncated to whole {} is zero",
                mass,
                trunc.as_str()
            )));
        }
        quote.requested_quantity = Some(mass);
        Ok(quote)
    }

    /// [`Self::price_mass`] for many requests of one account: the currency and
    /// each distinct selection are read once.
    pub async fn price_many(
        &self,
        account: AccountId,
        requests: &[MassRequest],
    ) -> Vec<Result<Quote, QuoteError>> {
        let currency = match self.currency(account).await {
            Ok(c) => c,
            Err(_) => {
                let mut out = Vec::with_capacity(requests.len());
                for r in requests {
                    out.push(self.price_mass(account, r).await);
                }
                return out;
            }
        };
        // (selection as sent, the bundles and shares it resolved to)
        type Resolved = (Option<Vec<SelectionEntry>>, Vec<(Bundle, u32)>);
        let mut chosen_for: Vec<Resolved> = Vec::new();
        let mut out = Vec::with_capacity(requests.len());
        for r in requests {
            let MassRequest::Split {
                mass,
                selection,
                trunc,
            } = r
            else {
                out.push(self.price_mass(account, r).await);
                continue;
            };
            if mass.grams() == 0 {
                out.push(Err(QuoteError::QuantityInvalid(
                    "mass: must be greater than zero".into(),
                )));
                continue;
            }
            let known = chosen_for.iter().position(|(sel, _)| sel == selection);
            let index = match known {
                Some(i) => i,
                None => match self
                    .selection(account, selection.as_deref(), currency)
                    .await
                {
                    Ok(chosen) => {
                        chosen_for.push((selection.clone(), chosen));
                        chosen_for.len() - 1
                    }
                    Err(e) => {
                        out.push(Err(e));
                        continue;
                    }
                },
            };
            out.push(match chosen_for.get(index) {
                Some((_, chosen)) => self.split_quote(chosen, *mass, *trunc, currency),
                None => Err(QuoteError::Unexpected(anyhow!("selection cache miss"))),
            });
        }
        out
    }

    /// The quote engine shared by quotes and orders.
    pub async fn price_mass(
        &self,
        account: AccountId,
        request: &MassRequest,
    ) -> Result<Quote, QuoteError> {
        let currency = self.currency(account).await?;
        let rate = self.settings.commission_rate;
        match request {
            MassRequest::Split {
                mass,
                selection,
                trunc,
            } => {
                if mass.grams() == 0 {
                    return Err(QuoteError::QuantityInvalid(
                        "mass: must be greater than zero".into(),
                    ));
                }
                let chosen = self
                    .selection(account, selection.as_deref(), currency)
                    .await?;
                self.split_quote(&chosen, *mass, *trunc, currency)
            }
            MassRequest::BundleMasses { masses, trunc } => {
                let trunc = trunc.unwrap_or(self.settings.default_trunc);
                if masses.is_empty() || masses.len() > crate::selection::MAX_SELECTION {
                    return Err(QuoteError::Invalid {
                        field: "bundle_masses",
                        reason: format!(
                            "must name 1 to {} bundles",
                            crate::selection::MAX_SELECTION
                        ),
                    });
                }
                let mut ids: Vec<BundleId> = Vec::with_capacity(masses.len());
                for (raw, mass) in masses {
                    let id: BundleId = raw.parse().map_err(|_| {
                        QuoteError::BundleInvalid(format!(
                            "bundle_masses: `{raw}` is not a bundle id"
                        ))
                    })?;
                    if ids.contains(&id) {
                        return Err(QuoteError::BundleInvalid(format!(
                            "bundle_masses: bundle {id} appears twice"
                        )));
                    }
                    if mass.truncate_to(trunc).grams() == 0 {
                        return Err(QuoteError::QuantityInvalid(format!(
                            "bundle_masses: the mass for bundle {id} truncated to whole {} is zero",
                            trunc.as_str()
                        )));
                    }
                    ids.push(id);
                }
                let bundles = self.usable_bundles(&ids, currency).await?;
                let refs: Vec<&Bundle> = bundles.iter().collect();
                let quantities: Vec<Mass> =
                    masses.iter().map(|(_, m)| m.truncate_to(trunc)).collect();
                let mut quote = quote::price(&refs, &quantities, currency, rate)?;
                quote.requested_quantity = Some(Mass::from_grams(
                    masses.iter().map(|(_, m)| m.grams()).sum(),
                ));
                Ok(quote)
            }
        }
    }

    /// The quote engine for orders by value.
    pub async fn price_value(
        &self,
        account: AccountId,
        request: &ValueRequest,
    ) -> Result<Quote, QuoteError> {
        let currency = self.currency(account).await?;
        let value = parse_value(&request.value, currency)?;
        let trunc = request.trunc.unwrap_or(self.settings.default_trunc);
        let chosen = self
            .selection(account, request.selection.as_deref(), currency)
            .await?;
        let refs: Vec<(&Bundle, u32)> = chosen.iter().map(|(b, s)| (b, *s)).collect();
        quote::by_value(&refs, value, trunc, self.settings.commission_rate)
    }
}

fn not_found_or(e: StoreError) -> CatalogueError {
    CatalogueError::Unexpected(unexpected(e))
}

impl Service {
    async fn project_views(
        &self,
        projects: Vec<Project>,
    ) -> Result<Vec<ProjectView>, CatalogueError> {
        let mut ids: Vec<BundleId> = projects
            .iter()
            .flat_map(|p| p.bundle_ids.iter().copied())
            .collect();
        ids.sort();
        ids.dedup();
        let bundles = if ids.is_empty() {
            Vec::new()
        } else {
            self.catalogue.bundles(&ids).await.map_err(not_found_or)?
        };
        Ok(projects
            .into_iter()
            .map(|project| {
                let mut own: Vec<Bundle> = bundles
                    .iter()
                    .filter(|b| project.bundle_ids.contains(&b.id))
                    .cloned()
                    .collect();
                own.sort_by_key(|b| b.id);
                ProjectView {
                    project,
                    bundles: own,
                }
            })
            .collect())
    }

    async fn bundle_views(&self, bundles: Vec<Bundle>) -> Result<Vec<BundleView>, CatalogueError> {
        let mut ids: Vec<ProjectId> = bundles
            .iter()
            .flat_map(|b| b.project_ids.iter().copied())
            .collect();
        ids.sort();
        ids.dedup();
        let projects = if ids.is_empty() {
            Vec::new()
        } else {
            self.catalogue.projects(&ids).await.map_err(not_found_or)?
        };
        Ok(bundles
            .into_iter()
            .map(|bundle| {
                let own = bundle
                    .project_ids
                    .iter()
                    .filter_map(|id| projects.iter().find(|p| p.id == *id).cloned())
                    .collect();
                BundleView {
                    bundle,
                    projects: own,
                }
            })
            .collect())
    }

    async fn one_project(&self, found: Option<Project>) -> Result<ProjectView, CatalogueError> {
        let project = found.ok_or(CatalogueError::NotFound)?;
        self.project_views(vec![project])
            .await?
            .into_iter()
            .next()
            .ok_or(CatalogueError::NotFound)
    }
}

#[async_trait]
impl OrderingService for Service {
    async fn list_projects(
        &self,
        recently_disabled: bool,
        page: PageRequest<Cursor>,
    ) -> Result<Page<ProjectView>, CatalogueError> {
        let found = self
            .catalogue
            .list_projects(self.visibility(recently_disabled), &page)
            .await
            .map_err(not_found_or)?;
        let has_more = found.has_more;
        Ok(Page {
            items: self.project_views(found.items).await?,
            has_more,
        })
    }

    async fn project(&self, id: &str) -> Result<ProjectView, CatalogueError> {
        let id = id.parse().map_err(|_| CatalogueError::NotFound)?;
        let found = self.catalogue.project(id).await.map_err(not_found_or)?;
        self.one_project(found).await
    }

    async fn project_by_slug(&self, slug: &str) -> Result<ProjectView, CatalogueError> {
        if slug.is_empty() || slug.len() > 200 {
            return Err(CatalogueError::NotFound);
        }
        let found = self
            .catalogue
            .project_by_slug(slug)
            .await
            .map_err(not_found_or)?;
        self.one_project(found).await
    }

    async fn list_bundles(
        &self,
        recently_disabled: bool,
        page: PageRequest<Cursor>,
    ) -> Result<Page<BundleView>, CatalogueError> {
        let found = self
            .catalogue
            .list_bundles(self.visibility(recently_disabled), &page)
            .await
            .map_err(not_found_or)?;
        let has_more = found.has_more;
        Ok(Page {
            items: self.bundle_views(found.items).await?,
            has_more,
        })
    }

    async fn bundle(&self, id: &str) -> Result<BundleView, CatalogueError> {
        let id: BundleId = id.parse().map_err(|_| CatalogueError::NotFound)?;
        let bundle = self
            .catalogue
            .bundles(&[id])
            .await
            .map_err(not_found_or)?
            .into_iter()
            .next()
            .ok_or(CatalogueError::NotFound)?;
        self.bundle_views(vec![bundle])
            .await?
            .into_iter()
            .next()
            .ok_or(CatalogueError::NotFound)
    }

    fn display_price(&self, bundle: &Bundle, currency: Currency) -> Option<(Money, Money)> {
        let unit = bundle.price_in(currency)?;
        let gross = crate::pricing::gross_unit_price(unit, self.settings.commission_rate).ok()?;
        Some((unit, gross))
    }

    async fn quote_by_mass(
        &self,
        account: AccountId,
        request: MassRequest,
    ) -> Result<Quote, QuoteError> {
        self.price_mass(account, &request).await
    }

    async fn quote_many_by_mass(
        &self,
        account: AccountId,
        requests: Vec<MassRequest>,
    ) -> Vec<Result<Quote, QuoteError>> {
        self.price_many(account, &requests).await
    }

    async fn quote_by_value(
        &self,
        account: AccountId,
        request: ValueRequest,
    ) -> Result<Quote, QuoteError> {
        self.price_value(account, &request).await
    }

    async fn create_order(
        &self,
        account: AccountId,
        mode: AccountMode,
        request: OrderRequest,
    ) -> Result<Order, CreateOrderError> {
        let key = request
            .idempotency_key
            .as_deref()
            .map(|k| {
                IdempotencyKey::parse(k).ok_or_else(|| QuoteError::Invalid {
                    field: "idempotency_key",
                    reason: "must be 1 to 100 characters without control characters".into(),
                })
            })
            .transpose()?;
        check_metadata(&request.metadata)?;
        let (quote, kind, estimate_id) = match &request.pricing {
            Pricing::Mass(m) => (
                self.price_mass(account, m).await?,
                OrderKind::Quantity,
                None,
            ),
            Pricing::Value(v) => (self.price_value(account, v).await?, OrderKind::Value, None),
            Pricing::Estimate {
                estimate_id,
                mass,
                selection,
                trunc,
            } => {
                let m = MassRequest::Split {
                    mass: *mass,
                    selection: selection.clone(),
                    trunc: *trunc,
                };
                (
                    self.price_mass(account, &m).await?,
                    OrderKind::Quantity,
                    Some(*estimate_id),
                )
            }
        };
        let mut order = Order::from_quote(
            quote,
            kind,
            account,
            mode,
            key,
            request.metadata,
            self.clock.now(),
        );
        order.estimate_id = estimate_id;
        if let Some(origin) = request.origin {
            order.offset_link_id = Some(origin.offset_link_id);
            order.email = Some(origin.email);
        }
        match self
            .orders
            .place(&order, self.event(OrderStatus::Received))
            .await
        {
            Ok(order) => Ok(order),
            Err(PlaceError::IdempotencyKeyTaken) => Err(CreateOrderError::IdempotencyKeyExists),
            Err(PlaceError::EstimateAlreadyOrdered) => {
                Err(CreateOrderError::EstimateAlreadyOrdered)
            }
            Err(PlaceError::Unexpected(e)) => Err(QuoteError::Unexpected(e).into()),
        }
    }

    async fn order(&self, id: &str) -> Result<Order, ReadOrderError> {
        let id: OrderId = id.parse().map_err(|_| ReadOrderError::NotFound)?;
        self.orders
            .get(id)
            .await
            .map_err(unexpected)?
            .ok_or(ReadOrderError::NotFound)
    }

    async fn order_by_idempotency_key(
        &self,
        account: AccountId,
        key: &str,
    ) -> Result<Order, ReadOrderError> {
        let key = IdempotencyKey::parse(key).ok_or(ReadOrderError::NotFound)?;
        self.orders
            .by_idempotency_key(account, &key)
            .await
            .map_err(unexpected)?
            .ok_or(ReadOrderError::NotFound)
    }

    async fn list_orders(
        &self,
        account: AccountId,
        offset_link_id: Option<String>,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Order>, ReadOrderError> {
        match self.orders.list(account, offset_link_id, &page).await {
            Ok(page) => Ok(page),
            Err(StoreError::NotFound) => Err(ReadOrderError::Invalid {
                field: "after",
                reason: "no order of this account has that id".into(),
            }),
            Err(e) => Err(unexpected(e).into()),
        }
    }

    async fn advance(
        &self,
        id: &str,
        to: Option<OrderStatus>,
        registry_serial: Option<String>,
    ) -> Result<Order, TransitionError> {
        let serial = registry_serial.as_deref();
        let id: OrderId = id.parse().map_err(|_| TransitionError::NotFound)?;
        let mut order = self
            .orders
            .get(id)
            .await
            .map_err(unexpected)?
            .ok_or(TransitionError::NotFound)?;
        let illegal = |from: OrderStatus, to: &'static str| TransitionError::Illegal {
            from: from.as_str(),
            to,
        };
        let target = match to {
            Some(target) => target,
            None => order
                .status
                .next()
                .ok_or_else(|| illegal(order.status, "a next status"))?,
        };
        if matches!(target, OrderStatus::Cancelled | OrderStatus::Failed) {
            return self.step(&order, target, serial).await;
        }
        if order.status == target {
            return Err(illegal(order.status, target.as_str()));
        }
        // Walk the happy path one recorded step at a time.
        while order.status != target {
            let next = order
                .status
                .next()
                .ok_or_else(|| illegal(order.status, target.as_str()))?;
            order = self.step(&order, next, serial).await?;
            if order.status == OrderStatus::Failed {
                // A declined payment ends the walk: the order failed instead.
                return Ok(order);
            }
        }
        Ok(order)
    }

    async fn advance_test_orders(
        &self,
        step: time::Duration,
        limit: u32,
    ) -> Result<usize, TransitionError> {
        let due = self
            .orders
            .stale_test_orders(self.clock.now() - step, limit)
            .await
            .map_err(unexpected)?;
        let mut moved = 0;
        for order in due {
            let Some(next) = order.status.next() else {
                continue;
            };
            match self.step(&order, next, None).await {
                Ok(_) => moved += 1,
                // Another process moved it first: fine.
                Err(TransitionError::Conflict) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(moved)
    }

    async fn completed_order(&self, id: &str) -> Result<(Order, String), ReadOrderError> {
        let order = self.order(id).await?;
        if order.status != OrderStatus::Complete {
            return Err(ReadOrderError::NotFound);
        }
        let beneficiary = self
            .accounts
            .beneficiary(order.account_id)
            .await
            .map_err(unexpected)?
            .unwrap_or_default();
        Ok((order, beneficiary))
    }

    async fn set_account_selection(
        &self,
        account: &str,
        entries: Vec<SelectionEntry>,
    ) -> Result<Vec<(BundleId, u32)>, QuoteError> {
        let account: AccountId = account.parse().map_err(|_| QuoteError::Invalid {
            field: "account",
            reason: "not an account id".into(),
        })?;
        let currency = self
            .accounts
            .currency(account)
            .await
            .map_err(unexpected)?
            .ok_or_else(|| QuoteError::Invalid {
                field: "account",
                reason: "no such account".into(),
            })?;
        let chosen = if entries.is_empty() {
            Vec::new()
        } else {
            let chosen = shares(&entries)?;
            let ids: Vec<BundleId> = chosen.iter().map(|(id, _)| *id).collect();
            self.usable_bundles(&ids, currency).await?;
            chosen
        };
        self.catalogue
            .set_account_selection(account, &chosen)
            .await
            .map_err(unexpected)?;
        Ok(chosen)
    }

    async fn import_catalogue(
        &self,
        catalogue: Catalogue,
    ) -> Result<ImportSummary, CatalogueError> {
        self.catalogue
            .import(&catalogue, self.clock.now())
            .await
            .map_err(not_found_or)
    }
}

#[cfg(test)]
mod tests;
