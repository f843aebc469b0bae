use std::sync::Arc;

use anyhow::anyhow;
use async_trait::async_trait;
use rust_decimal::Decimal;
use time::Duration;
use tonne_kernel::{AccountId, Clock, Currency, Cursor, Mass, MassUnit, Money, Page, PageRequest};

use crate::catalogue::ProjectId;
use crate::catalogue::{Bundle, BundleId, Project};
use crate::errors::{CatalogueError, QuoteError};
use crate::ports::{
    AccountDirectory, Catalogue, CatalogueRepository, ImportSummary, OrderingService, StoreError,
    Visibility,
};
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

/// The ordering use cases over their ports.
#[derive(Clone)]
pub struct Service {
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
    let bad = |why: &str| QuoteError::QuantityInvalid(format!("value: `{raw}` {why}"));
    let (whole, fraction) = raw.split_once('.').unwrap_or((raw, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty()
        || !digits(whole)
        || !digits(fraction)
        || (raw.contains('.') && fraction.is_empty())
    {
        return Err(bad("must be a decimal string such as \"12.50\""));
    }
    if fraction.len() > usize::try_from(currency.minor_digits()).unwrap_or(2) {
        return Err(bad("has more decimals than the currency's minor unit"));
    }
    if whole.len() > 12 {
        return Err(bad("is too large"));
    }
    let amount: Decimal = raw.parse().map_err(|_| bad("is not a number"))?;
    let money = Money::from_decimal(amount, currency, rust_decimal::RoundingStrategy::ToZero)
        .map_err(|_| bad("is too large"))?;
    if money.minor() <= 0 {
        return Err(bad("must be greater than zero"));
    }
    Ok(money)
}

impl Service {
    /// Wires the service.
    pub fn new(
        catalogue: Arc<dyn CatalogueRepository>,
        accounts: Arc<dyn AccountDirectory>,
        clock: Arc<dyn Clock>,
        settings: Settings,
    ) -> Self {
        Self {
            catalogue,
            accounts,
            clock,
            settings,
        }
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
                let trunc = trunc.unwrap_or(self.settings.default_trunc);
                let chosen = self.selection(selection.as_deref(), currency).await?;
                let refs: Vec<(&Bundle, u32)> = chosen.iter().map(|(b, s)| (b, *s)).collect();
                let mut quote = quote::by_shares(&refs, *mass, trunc, currency, rate)?;
                if quote.quantity.grams() == 0 {
                    return Err(QuoteError::QuantityInvalid(format!(
                        "mass: {} truncated to whole {} is zero",
                        mass,
                        trunc.as_str()
                    )));
                }
                quote.requested_quantity = Some(*mass);
                Ok(quote)
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
            .selection(request.selection.as_deref(), currency)
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

    async fn quote_by_value(
        &self,
        account: AccountId,
        request: ValueRequest,
    ) -> Result<Quote, QuoteError> {
        self.price_value(account, &request).await
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
