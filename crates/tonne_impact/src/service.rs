//! [`Impact`]: the impact use cases over the repository, the accounts and the
//! catalogue, one module each: the analytics ([`series`], [`metrics`],
//! [`aggregates`], [`estimates`], [`public_shipping`]) and the sustainability
//! pages ([`page_settings`], [`public_page`]).

use std::sync::Arc;

use async_trait::async_trait;
use tonne_kernel::{AccountMode, Clock, Mass};
use tonne_ordering::ports::CatalogueRepository;

use crate::analytics::{Aggregates, BundleSeries, EstimateMetrics, Metrics};
use crate::errors::{AnalyticsError, PageError};
use crate::pages::{PageHolder, PageSettings, PublicPage, SustainabilityPage};
use crate::ports::{AskedRange, ImpactRepository, ImpactService, PageHolders, Viewer};
use crate::range::{DateRange, Interval};

mod aggregates;
mod estimates;
mod metrics;
mod page_settings;
mod public_page;
mod public_shipping;
mod series;
mod support;
#[cfg(test)]
mod tests;

/// The impact use cases.
///
/// `Impact::new` takes the ports in the order of the fields, then
/// `flight_equivalent`: what one passenger's one-way economy flight New York
/// (JFK) → London (LHR) emits, the unit of the `by_equivalent` description
/// (the binary asks the estimation engine).
#[derive(derive_more::Constructor)]
pub struct Impact {
    repository: Arc<dyn ImpactRepository>,
    holders: Arc<dyn PageHolders>,
    catalogue: Arc<dyn CatalogueRepository>,
    clock: Arc<dyn Clock>,
    flight_equivalent: Mass,
}

#[async_trait]
impl ImpactService for Impact {
    async fn cumulative_per_bundle(
        &self,
        viewer: Viewer,
        asked: AskedRange,
    ) -> Result<Vec<BundleSeries>, AnalyticsError> {
        self.cumulative_per_bundle(viewer, asked).await
    }

    async fn metrics(&self, viewer: Viewer, asked: AskedRange) -> Result<Metrics, AnalyticsError> {
        self.metrics(viewer, asked).await
    }

    async fn aggregated(
        &self,
        viewer: Viewer,
        asked: AskedRange,
    ) -> Result<Aggregates, AnalyticsError> {
        self.aggregated(viewer, asked).await
    }

    async fn emission_calculations(
        &self,
        viewer: Viewer,
        asked: AskedRange,
        interval: Interval,
        all_accounts: bool,
    ) -> Result<EstimateMetrics, AnalyticsError> {
        self.emission_calculations(viewer, asked, interval, all_accounts)
            .await
    }

    async fn public_shipping(
        &self,
        account: &str,
        asked: AskedRange,
    ) -> Result<(PageHolder, DateRange), AnalyticsError> {
        self.public_shipping(account, asked).await
    }

    async fn create_page(
        &self,
        viewer: Viewer,
        settings: PageSettings,
    ) -> Result<SustainabilityPage, PageError> {
        self.create_page(viewer, settings).await
    }

    async fn update_page(
        &self,
        viewer: Viewer,
        settings: PageSettings,
    ) -> Result<SustainabilityPage, PageError> {
        self.update_page(viewer, settings).await
    }

    async fn current_page(&self, viewer: Viewer) -> Result<SustainabilityPage, PageError> {
        self.current_page(viewer).await
    }

    async fn public_by_slug(&self, mode: AccountMode, slug: &str) -> Result<PublicPage, PageError> {
        self.public_by_slug(mode, slug).await
    }

    async fn public_by_handle(
        &self,
        organisation: &str,
        mode: AccountMode,
        handle: &str,
    ) -> Result<PublicPage, PageError> {
        self.public_by_handle(organisation, mode, handle).await
    }
}
