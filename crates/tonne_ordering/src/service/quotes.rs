//! Use case: pricing — quotes by mass (one or many) and by value, the
//! selection a request stands for, and an account's own default selection.

use std::sync::Arc;

use anyhow::anyhow;
use tonne_kernel::{
    AccountId, Actor, AuditEntry, Clock, Currency, Mass, MassUnit, Money, Snapshot,
};

use crate::catalogue::{Bundle, BundleId, BundlePortfolio, BundlePortfolioId};
use crate::commands::{MassRequest, ValueRequest};
use crate::errors::QuoteError;
use crate::ports::{AccountDirectory, CatalogueRepository, StoreError};
use crate::pricing::CommissionRate;
use crate::quote::{self, Quote};
use crate::selection::{MAX_SELECTION, SelectionEntry, shares};

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

/// Parses a money amount: a positive decimal with at most the currency's minor digits.
fn parse_value(raw: &str, currency: Currency) -> Result<Money, QuoteError> {
    Money::parse_positive(raw, currency)
        .map_err(|why| QuoteError::QuantityInvalid(format!("value: `{raw}` {why}")))
}

/// (selection as sent, the bundles and shares it resolved to)
type Resolved = (Option<Vec<SelectionEntry>>, Vec<(Bundle, u32)>);

/// The quote engine shared by quotes and orders.
#[derive(Clone)]
pub(super) struct Quotes {
    pub(super) catalogue: Arc<dyn CatalogueRepository>,
    pub(super) accounts: Arc<dyn AccountDirectory>,
    pub(super) settings: Settings,
    pub(super) clock: Arc<dyn Clock>,
}

impl Quotes {
    async fn currency(&self, account: AccountId) -> Result<Currency, QuoteError> {
        self.accounts
            .currency(account)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or_else(|| QuoteError::Unexpected(anyhow!("acting account {account} vanished")))
    }

    /// Checks that every bundle exists, is enabled and is sold in the currency; keeps request order.
    async fn usable_bundles(
        &self,
        ids: &[BundleId],
        currency: Currency,
    ) -> Result<Vec<Bundle>, QuoteError> {
        let found = self
            .catalogue
            .bundles(ids)
            .await
            .map_err(StoreError::unexpected)?;
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
        if let Some(entries) = entries {
            let shares = shares(entries)?;
            let ids: Vec<BundleId> = shares.iter().map(|(id, _)| *id).collect();
            let bundles = self.usable_bundles(&ids, currency).await?;
            return Ok(bundles
                .into_iter()
                .zip(shares.into_iter().map(|(_, s)| s))
                .collect());
        }
        // The account's own default first (its usable bundles keep their
        // relative shares), then the catalogue's.
        let own: Vec<(Bundle, u32)> = self
            .catalogue
            .account_selection(account)
            .await
            .map_err(StoreError::unexpected)?
            .into_iter()
            .filter(|(b, share)| !b.disabled && *share > 0 && b.price_in(currency).is_some())
            .collect();
        if !own.is_empty() {
            return Ok(own);
        }
        let defaults: Vec<Bundle> = self
            .catalogue
            .default_selection()
            .await
            .map_err(StoreError::unexpected)?
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

    /// [`Self::by_mass`] for many requests of one account: the currency and
    /// each distinct selection are read once.
    pub(super) async fn many_by_mass(
        &self,
        account: AccountId,
        requests: &[MassRequest],
    ) -> Vec<Result<Quote, QuoteError>> {
        let mut out = Vec::with_capacity(requests.len());
        let Ok(currency) = self.currency(account).await else {
            for r in requests {
                out.push(self.by_mass(account, r).await);
            }
            return out;
        };
        let mut resolved: Vec<Resolved> = Vec::new();
        for r in requests {
            let MassRequest::Split {
                mass,
                selection,
                trunc,
            } = r
            else {
                out.push(self.by_mass(account, r).await);
                continue;
            };
            if mass.grams() == 0 {
                out.push(Err(zero_mass()));
                continue;
            }
            let index = match resolved.iter().position(|(sel, _)| sel == selection) {
                Some(i) => i,
                None => match self
                    .selection(account, selection.as_deref(), currency)
                    .await
                {
                    Ok(chosen) => {
                        resolved.push((selection.clone(), chosen));
                        resolved.len() - 1
                    }
                    Err(e) => {
                        out.push(Err(e));
                        continue;
                    }
                },
            };
            out.push(match resolved.get(index) {
                Some((_, chosen)) => self.split_quote(chosen, *mass, *trunc, currency),
                None => Err(QuoteError::Unexpected(anyhow!("selection cache miss"))),
            });
        }
        out
    }

    /// Prices an order by mass: split by a selection, or explicit masses per bundle.
    pub(super) async fn by_mass(
        &self,
        account: AccountId,
        request: &MassRequest,
    ) -> Result<Quote, QuoteError> {
        let currency = self.currency(account).await?;
        match request {
            MassRequest::Split {
                mass,
                selection,
                trunc,
            } => {
                if mass.grams() == 0 {
                    return Err(zero_mass());
                }
                let chosen = self
                    .selection(account, selection.as_deref(), currency)
                    .await?;
                self.split_quote(&chosen, *mass, *trunc, currency)
            }
            MassRequest::BundleMasses { masses, trunc } => {
                self.bundle_masses(masses, *trunc, currency).await
            }
        }
    }

    async fn bundle_masses(
        &self,
        masses: &[(String, Mass)],
        trunc: Option<MassUnit>,
        currency: Currency,
    ) -> Result<Quote, QuoteError> {
        let trunc = trunc.unwrap_or(self.settings.default_trunc);
        if masses.is_empty() || masses.len() > MAX_SELECTION {
            return Err(QuoteError::Invalid {
                field: "bundle_masses",
                reason: format!("must name 1 to {MAX_SELECTION} bundles"),
            });
        }
        let mut ids: Vec<BundleId> = Vec::with_capacity(masses.len());
        for (raw, mass) in masses {
            let id: BundleId = raw.parse().map_err(|_| {
                QuoteError::BundleInvalid(format!("bundle_masses: `{raw}` is not a bundle id"))
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
        let quantities: Vec<Mass> = masses.iter().map(|(_, m)| m.truncate_to(trunc)).collect();
        let mut quote = quote::price(&refs, &quantities, currency, self.settings.commission_rate)?;
        quote.requested_quantity = Some(Mass::from_grams(
            masses.iter().map(|(_, m)| m.grams()).sum(),
        ));
        Ok(quote)
    }

    /// Prices an order by value: the most mass the value buys.
    pub(super) async fn by_value(
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

    /// A bundle's unit price in a currency, net and with commission.
    pub(super) fn display_price(
        &self,
        bundle: &Bundle,
        currency: Currency,
    ) -> Option<(Money, Money)> {
        let unit = bundle.price_in(currency)?;
        let gross = crate::pricing::gross_unit_price(unit, self.settings.commission_rate).ok()?;
        Some((unit, gross))
    }

    /// Sets (or, with no entries, clears) an account's own default selection
    /// (operator; the account is named by its id as typed).
    pub(super) async fn set_account_selection(
        &self,
        account: &str,
        entries: Vec<SelectionEntry>,
        by: &Actor,
    ) -> Result<Vec<(BundleId, u32)>, QuoteError> {
        let account: AccountId = account.parse().map_err(|_| QuoteError::Invalid {
            field: "account",
            reason: "not an account id".into(),
        })?;
        self.store_selection(account, entries, Some(by)).await
    }

    /// Validates entries (none clears) and stores them as the account's own selection.
    async fn store_selection(
        &self,
        account: AccountId,
        entries: Vec<SelectionEntry>,
        by: Option<&Actor>,
    ) -> Result<Vec<(BundleId, u32)>, QuoteError> {
        let currency = self
            .accounts
            .currency(account)
            .await
            .map_err(StoreError::unexpected)?
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
        let audit = match by {
            Some(by) => Some(self.selection_audit(account, &chosen, by).await?),
            None => None,
        };
        self.catalogue
            .set_account_selection(account, &chosen, audit)
            .await
            .map_err(StoreError::unexpected)?;
        Ok(chosen)
    }

    /// The audit entry of an operator's selection change: the shares set.
    async fn selection_audit(
        &self,
        account: AccountId,
        chosen: &[(BundleId, u32)],
        by: &Actor,
    ) -> Result<AuditEntry, QuoteError> {
        let shown = if chosen.is_empty() {
            "the catalogue's default".to_owned()
        } else {
            chosen
                .iter()
                .map(|(id, share)| {
                    let pct = rust_decimal::Decimal::new(i64::from(*share), 2);
                    format!("{id} {}%", pct.normalize())
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let entry = AuditEntry::new(
            self.clock.now(),
            by.clone(),
            "account.selection_set",
            "account",
            account,
        )
        .after(Snapshot::new().with("selection", shown));
        let holder = self
            .accounts
            .holder(account)
            .await
            .map_err(StoreError::unexpected)?;
        Ok(match holder {
            Some(h) => entry.in_organisation(h.organisation_id),
            None => entry,
        })
    }

    /// Sets the account's own selection from a request: at least one entry.
    pub(super) async fn set_bundle_selection(
        &self,
        account: AccountId,
        entries: Vec<SelectionEntry>,
    ) -> Result<Vec<(BundleId, u32)>, QuoteError> {
        if entries.is_empty() {
            // `shares` explains it with the contract's code.
            shares(&entries)?;
        }
        self.store_selection(account, entries, None).await
    }

    /// What an order naming no bundles is split by, as shares summing to 10,000.
    pub(super) async fn bundle_selection(
        &self,
        account: AccountId,
    ) -> Result<Vec<(BundleId, u32)>, QuoteError> {
        let currency = self.currency(account).await?;
        let chosen = self.selection(account, None, currency).await?;
        let weights: Vec<u32> = chosen.iter().map(|(_, share)| *share).collect();
        let parts = crate::allocation::split(10_000, &weights);
        Ok(chosen
            .into_iter()
            .zip(parts)
            .map(|((bundle, _), part)| (bundle.id, u32::try_from(part).unwrap_or(0)))
            .collect())
    }

    /// Makes the account follow a bundle portfolio, once its bundles are
    /// known to be sold to the account.
    pub(super) async fn set_bundle_portfolio(
        &self,
        account: AccountId,
        raw: &str,
    ) -> Result<BundlePortfolio, QuoteError> {
        let unknown = || QuoteError::Invalid {
            field: "bundle_portfolio_id",
            reason: format!("`{raw}` is not a bundle portfolio"),
        };
        let id: BundlePortfolioId = raw.parse().map_err(|_| unknown())?;
        let portfolio = self
            .catalogue
            .portfolio(id)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or_else(unknown)?;
        let currency = self.currency(account).await?;
        let ids: Vec<BundleId> = portfolio.selection.iter().map(|(id, _)| *id).collect();
        self.usable_bundles(&ids, currency).await?;
        self.catalogue
            .set_account_portfolio(account, id)
            .await
            .map_err(StoreError::unexpected)?;
        Ok(portfolio)
    }
}

fn zero_mass() -> QuoteError {
    QuoteError::QuantityInvalid("mass: must be greater than zero".into())
}
