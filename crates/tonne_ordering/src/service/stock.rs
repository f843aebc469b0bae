//! Use case: the operator's stock changes (each a ledger row) and enabling or
//! disabling a bundle, each audited.

use tonne_kernel::{Actor, AuditEntry, Cursor, Page, PageRequest, Snapshot};

use super::catalogue::CatalogueReads;
use crate::catalogue::{Bundle, BundleId, BundlePrice};
use crate::errors::CatalogueError;
use crate::ports::{StoreError, Visibility};
use crate::stock::{
    BundleEdit, BundleEditError, FieldError, StockChange, StockEntry, StockEntryId, StockError,
    StockReason, price_field,
};

impl CatalogueReads {
    async fn one_bundle(&self, id: BundleId) -> Result<Option<Bundle>, StoreError> {
        Ok(self.catalogue.bundles(&[id]).await?.into_iter().next())
    }

    pub(super) async fn all_bundles(
        &self,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Bundle>, CatalogueError> {
        // disabled at any time since the epoch: every bundle
        let every = Visibility {
            disabled_since: Some(time::OffsetDateTime::UNIX_EPOCH),
        };
        match self.catalogue.list_bundles(every, &page).await {
            Ok(found) => Ok(found),
            Err(StoreError::NotFound) => Err(CatalogueError::NotFound),
            Err(e) => Err(CatalogueError::Unexpected(e.unexpected())),
        }
    }

    pub(super) async fn adjust_stock(
        &self,
        bundle: &str,
        change: StockChange,
        reason: StockReason,
        by: &Actor,
    ) -> Result<StockEntry, StockError> {
        let id: BundleId = bundle.parse().map_err(|_| StockError::NotFound)?;
        let current = self
            .one_bundle(id)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or(StockError::NotFound)?;
        let Some(available) = current.available else {
            return Err(StockError::Unlimited);
        };
        let now = self.clock.now();
        let entry = StockEntry {
            id: StockEntryId::from_uuid(uuid::Uuid::now_v7()),
            bundle_id: id,
            at: now,
            actor: by.clone(),
            delta_grams: change.delta_grams(),
            reason: reason.as_str().to_owned(),
            available_after: available,
        };
        let what = match change {
            StockChange::Add(m) => format!("+{} t", m.to_tonnes_string()),
            StockChange::Remove(m) => format!("−{} t", m.to_tonnes_string()),
        };
        let audit = AuditEntry::new(now, by.clone(), "bundle.stock_changed", "bundle", id).after(
            Snapshot::new()
                .with("change", what)
                .with("reason", reason.as_str()),
        );
        match self.catalogue.adjust_stock(entry, audit).await {
            Ok(Some(stored)) => Ok(stored),
            // the guard refused it: read what is left now, for the message
            Ok(None) => match self.one_bundle(id).await.map_err(StoreError::unexpected)? {
                Some(Bundle {
                    available: Some(left),
                    ..
                }) => Err(StockError::Insufficient {
                    available: left.to_tonnes_string(),
                }),
                Some(_) => Err(StockError::Unlimited),
                None => Err(StockError::NotFound),
            },
            Err(StoreError::NotFound) => Err(StockError::NotFound),
            Err(e) => Err(StockError::Unexpected(e.unexpected())),
        }
    }

    pub(super) async fn stock_ledger(
        &self,
        bundle: &str,
        page: PageRequest<StockEntryId>,
    ) -> Result<Page<StockEntry>, StockError> {
        let id: BundleId = bundle.parse().map_err(|_| StockError::NotFound)?;
        match self.catalogue.stock_ledger(id, &page).await {
            Ok(found) => Ok(found),
            Err(StoreError::NotFound) => Err(StockError::NotFound),
            Err(e) => Err(StockError::Unexpected(e.unexpected())),
        }
    }

    pub(super) async fn edit_bundle(
        &self,
        bundle: &str,
        edit: BundleEdit,
        by: &Actor,
    ) -> Result<Bundle, BundleEditError> {
        let unexpected_store = |e: StoreError| BundleEditError::Unexpected(e.unexpected());
        let id: BundleId = bundle.parse().map_err(|_| BundleEditError::NotFound)?;
        let mut current = self
            .one_bundle(id)
            .await
            .map_err(unexpected_store)?
            .ok_or(BundleEditError::NotFound)?;
        let (mut before, mut after) = (Snapshot::new(), Snapshot::new());
        let shown = |d: &Option<String>| d.clone().unwrap_or_else(|| "(none)".to_owned());
        if current.description != edit.description {
            before = before.with("description", shown(&current.description));
            after = after.with("description", shown(&edit.description));
        }
        for price in &edit.prices {
            let field = price_field(price.currency());
            let Some(old) = current.price_in(price.currency()) else {
                return Err(FieldError {
                    field,
                    reason: format!("this bundle is not sold in {}", price.currency().code()),
                }
                .into());
            };
            if old != *price {
                before = before.with(field, old.to_decimal_string());
                after = after.with(field, price.to_decimal_string());
            }
        }
        if after.is_empty() {
            // nothing changes (a double submit, an unchanged form): nothing to write
            return Ok(current);
        }
        let now = self.clock.now();
        let audit = AuditEntry::new(now, by.clone(), "bundle.edited", "bundle", id)
            .before(before)
            .after(after);
        match self
            .catalogue
            .update_bundle(id, edit.clone(), now, audit)
            .await
        {
            Ok(()) => {
                current.description = edit.description;
                for price in edit.prices {
                    if let Some(slot) = current
                        .prices
                        .iter_mut()
                        .find(|p| p.unit_price.currency() == price.currency())
                    {
                        *slot = BundlePrice { unit_price: price };
                    }
                }
                Ok(current)
            }
            Err(StoreError::NotFound) => Err(BundleEditError::NotFound),
            Err(e) => Err(unexpected_store(e)),
        }
    }

    pub(super) async fn set_bundle_enabled(
        &self,
        bundle: &str,
        enabled: bool,
        by: &Actor,
    ) -> Result<Bundle, CatalogueError> {
        let store = |e: StoreError| CatalogueError::Unexpected(e.unexpected());
        let id: BundleId = bundle.parse().map_err(|_| CatalogueError::NotFound)?;
        let mut current = self
            .one_bundle(id)
            .await
            .map_err(store)?
            .ok_or(CatalogueError::NotFound)?;
        if current.disabled != enabled {
            // already so (a double submit, another operator): nothing to do
            return Ok(current);
        }
        let now = self.clock.now();
        let at = (!enabled).then_some(now);
        let state = |disabled: bool| if disabled { "disabled" } else { "enabled" };
        let action = if enabled {
            "bundle.enabled"
        } else {
            "bundle.disabled"
        };
        let audit = AuditEntry::new(now, by.clone(), action, "bundle", id)
            .before(Snapshot::new().with("state", state(current.disabled)))
            .after(Snapshot::new().with("state", state(!enabled)));
        match self.catalogue.set_bundle_disabled(id, at, audit).await {
            Ok(()) => {
                current.disabled = !enabled;
                current.disabled_at = at;
                Ok(current)
            }
            Err(StoreError::NotFound) => Err(CatalogueError::NotFound),
            Err(e) => Err(store(e)),
        }
    }
}
