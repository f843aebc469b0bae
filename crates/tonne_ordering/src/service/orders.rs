//! Use case: placing orders (by mass, by value, by estimate, through an offset
//! link) and reading them back.

use std::sync::Arc;

use tonne_kernel::{AccountId, AccountMode, Clock, Cursor, Page, PageRequest};

use super::quotes::Quotes;
use super::support::event;
use crate::commands::{MassRequest, OrderRequest, Pricing};
use crate::errors::{CreateOrderError, PlaceError, QuoteError, ReadOrderError};
use crate::orders::{AwaitingFilter, IdempotencyKey, Order, OrderId, OrderKind, OrderStatus};
use crate::ports::{AccountDirectory, CatalogueRepository, OrderRepository, StoreError};
use crate::views::{Certificate, CertifiedProject};

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

/// Order placement and reads.
#[derive(Clone)]
pub(super) struct Orders {
    pub(super) quotes: Quotes,
    pub(super) catalogue: Arc<dyn CatalogueRepository>,
    pub(super) orders: Arc<dyn OrderRepository>,
    pub(super) accounts: Arc<dyn AccountDirectory>,
    pub(super) clock: Arc<dyn Clock>,
}

impl Orders {
    pub(super) async fn create(
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
                self.quotes.by_mass(account, m).await?,
                OrderKind::Quantity,
                None,
            ),
            Pricing::Value(v) => (
                self.quotes.by_value(account, v).await?,
                OrderKind::Value,
                None,
            ),
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
                    self.quotes.by_mass(account, &m).await?,
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
        order.payment_method = request.payment_method;
        order.payment_reference = request.payment_reference;
        if let Some(origin) = request.origin {
            order.offset_link_id = Some(origin.offset_link_id);
            order.email = Some(origin.email);
        }
        let received = event(self.clock.as_ref(), OrderStatus::Received);
        match self.orders.place(&order, received).await {
            Ok(order) => Ok(order),
            Err(PlaceError::IdempotencyKeyTaken) => Err(CreateOrderError::IdempotencyKeyExists),
            Err(PlaceError::EstimateAlreadyOrdered) => {
                Err(CreateOrderError::EstimateAlreadyOrdered)
            }
            Err(PlaceError::Unexpected(e)) => Err(QuoteError::Unexpected(e).into()),
        }
    }

    pub(super) async fn get(&self, id: &str) -> Result<Order, ReadOrderError> {
        let id: OrderId = id.parse().map_err(|_| ReadOrderError::NotFound)?;
        self.orders
            .get(id)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or(ReadOrderError::NotFound)
    }

    pub(super) async fn by_idempotency_key(
        &self,
        account: AccountId,
        key: &str,
    ) -> Result<Order, ReadOrderError> {
        let key = IdempotencyKey::parse(key).ok_or(ReadOrderError::NotFound)?;
        self.orders
            .by_idempotency_key(account, &key)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or(ReadOrderError::NotFound)
    }

    pub(super) async fn list(
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
            Err(e) => Err(e.unexpected().into()),
        }
    }

    pub(super) async fn of_organisation(
        &self,
        organisation: tonne_kernel::OrganisationId,
        mode: tonne_kernel::AccountMode,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Order>, ReadOrderError> {
        match self.orders.of_organisation(organisation, mode, &page).await {
            Ok(page) => Ok(page),
            Err(StoreError::NotFound) => Err(ReadOrderError::Invalid {
                field: "after",
                reason: "no order of this list has that id".into(),
            }),
            Err(e) => Err(e.unexpected().into()),
        }
    }

    pub(super) async fn in_organisation(
        &self,
        organisation: tonne_kernel::OrganisationId,
        id: &str,
    ) -> Result<Order, ReadOrderError> {
        let id: OrderId = id.parse().map_err(|_| ReadOrderError::NotFound)?;
        self.orders
            .in_organisation(organisation, id)
            .await
            .map_err(|e| ReadOrderError::from(e.unexpected()))?
            .ok_or(ReadOrderError::NotFound)
    }

    pub(super) async fn awaiting(
        &self,
        filter: AwaitingFilter,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Order>, ReadOrderError> {
        match self.orders.awaiting(filter, &page).await {
            Ok(page) => Ok(page),
            Err(StoreError::NotFound) => Err(ReadOrderError::Invalid {
                field: "after",
                reason: "no order of this list has that id".into(),
            }),
            Err(e) => Err(e.unexpected().into()),
        }
    }

    /// The certificate of a complete order: its account as certificates show
    /// it, and each project with its country and registry record from the
    /// catalogue.
    pub(super) async fn certificate(&self, id: &str) -> Result<Certificate, ReadOrderError> {
        let order = self.get(id).await?;
        if order.status != OrderStatus::Complete {
            return Err(ReadOrderError::NotFound);
        }
        let holder = self
            .accounts
            .holder(order.account_id)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or_else(|| {
                ReadOrderError::Unexpected(anyhow::anyhow!(
                    "order {} names account {} which does not exist",
                    order.id,
                    order.account_id
                ))
            })?;
        let ids: Vec<_> = order.projects.iter().map(|p| p.project_id).collect();
        let catalogue = self
            .catalogue
            .projects(&ids)
            .await
            .map_err(StoreError::unexpected)?;
        let projects = order
            .projects
            .iter()
            .map(|allocation| {
                let known = catalogue.iter().find(|p| p.id == allocation.project_id);
                CertifiedProject {
                    allocation: allocation.clone(),
                    status: allocation.status(order.status),
                    country_name: known.map(|p| p.country_name.clone()),
                    registry_link: known.and_then(|p| p.registry_link.clone()),
                }
            })
            .collect();
        Ok(Certificate {
            order,
            holder,
            projects,
        })
    }
}
