//! Use cases: a sustainability page as the public sees it, found by slug or by
//! handle: its totals, projects, bundles and flights equivalent.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use time::Date;
use tonne_kernel::{AccountMode, Currency, Mass, OrganisationId};
use tonne_ordering::BundleId;

use crate::analytics::{Figures, Metrics, Point};
use crate::errors::PageError;
use crate::pages::{
    BundleShare, Description, DescriptionFormat, MAX_CERTIFICATES, PageHolder, PageStatus,
    ProjectShare, PublicPage, Section, Slug, SustainabilityPage, Title, TitleFormat,
};
use crate::ports::Basis;
use crate::range::{DateRange, Interval};

use super::Impact;

impl Impact {
    pub(super) async fn public_by_slug(
        &self,
        mode: AccountMode,
        slug: &str,
    ) -> Result<PublicPage, PageError> {
        let slug = Slug::parse(slug).map_err(|_| PageError::NotFound)?;
        let page = self
            .repository
            .page_by_slug(mode, &slug)
            .await?
            .ok_or(PageError::NotFound)?;
        let holder = self
            .holders
            .holder(page.account_id)
            .await?
            .ok_or(PageError::NotFound)?;
        self.public(page, holder).await
    }

    pub(super) async fn public_by_handle(
        &self,
        organisation: &str,
        mode: AccountMode,
        handle: &str,
    ) -> Result<PublicPage, PageError> {
        let organisation: OrganisationId = organisation.parse().map_err(|_| PageError::NotFound)?;
        let holder = self
            .holders
            .by_handle(organisation, mode, handle)
            .await?
            .ok_or(PageError::NotFound)?;
        let page = self
            .repository
            .page(holder.account_id)
            .await?
            .ok_or(PageError::NotFound)?;
        self.public(page, holder).await
    }

    pub(super) async fn public(
        &self,
        page: SustainabilityPage,
        holder: PageHolder,
    ) -> Result<PublicPage, PageError> {
        if page.settings.status != PageStatus::Enabled || !holder.public {
            return Err(PageError::NotFound);
        }
        let account = holder.account_id;
        let today = self.today();
        let totals = self
            .repository
            .bundle_totals(account, None, today, Basis::Completed)
            .await?;
        let months = self
            .repository
            .month_totals(account, Basis::Completed)
            .await?;
        let mut total = Figures::zero(holder.currency);
        let mut by_bundle: BTreeMap<BundleId, Figures> = BTreeMap::new();
        for t in &totals {
            total.add(t.quantity.grams(), t.value_minor);
            by_bundle
                .entry(t.bundle_id)
                .or_insert_with(|| Figures::zero(holder.currency))
                .add(t.quantity.grams(), t.value_minor);
        }
        let mut by_month: BTreeMap<Date, Figures> = BTreeMap::new();
        for m in &months {
            by_month
                .entry(m.month)
                .or_insert_with(|| Figures::zero(holder.currency))
                .add(m.quantity.grams(), m.value_minor);
        }
        let series = cumulative_months(&by_month, today, holder.currency);
        let sums = self
            .repository
            .project_sums(account, None, Basis::Completed)
            .await?;
        let projects = self.projects_of(&sums).await?;
        let metrics = Metrics::of(
            sums.iter()
                .filter(|s| s.quantity.grams() > 0)
                .filter_map(|s| projects.get(&s.project_id))
                .map(|p| p.un_sdg.as_slice()),
        );
        let settings = &page.settings;
        let title = match settings.title {
            TitleFormat::ByVolume => Title::ByVolume(total.quantity),
            TitleFormat::ByPrice => Title::ByPrice(total.value),
        };
        let description = settings.description.map(|format| match format {
            DescriptionFormat::ByEquivalent => Description::ByEquivalent {
                flights_nyc_to_london: flights(total.quantity, self.flight_equivalent),
            },
            DescriptionFormat::BySupportedGoals => Description::BySupportedGoals {
                number_of_un_sdgs: u32::try_from(metrics.un_sdg.len()).unwrap_or(u32::MAX),
                number_of_projects: metrics.number_of_projects,
            },
            DescriptionFormat::ByCustomDescription => {
                Description::ByCustomDescription(settings.custom_description.clone())
            }
        });
        let (bundles, project_shares) = if settings.shows(Section::BundlesBreakdown) {
            let catalogue = self.bundles_of(by_bundle.keys().copied().collect()).await?;
            let mut shares: Vec<BundleShare> = by_bundle
                .iter()
                .filter(|(_, f)| f.quantity.grams() > 0)
                .filter_map(|(id, f)| {
                    Some(BundleShare {
                        bundle: catalogue.get(id)?.clone(),
                        quantity: f.quantity,
                        percent_of_total: percent(f.quantity, total.quantity),
                    })
                })
                .collect();
            shares.sort_by(|a, b| {
                b.quantity
                    .grams()
                    .cmp(&a.quantity.grams())
                    .then_with(|| a.bundle.name.cmp(&b.bundle.name))
            });
            let mut per_project: Vec<ProjectShare> = sums
                .iter()
                .filter(|s| s.quantity.grams() > 0)
                .filter_map(|s| {
                    Some(ProjectShare {
                        project: projects.get(&s.project_id)?.clone(),
                        quantity: s.quantity,
                    })
                })
                .collect();
            per_project.sort_by(|a, b| {
                b.quantity
                    .grams()
                    .cmp(&a.quantity.grams())
                    .then_with(|| a.project.name.cmp(&b.project.name))
            });
            (Some(shares), Some(per_project))
        } else {
            (None, None)
        };
        let certificates = if settings.shows(Section::Certificates) {
            Some(
                self.repository
                    .completed_orders(account, MAX_CERTIFICATES)
                    .await?,
            )
        } else {
            None
        };
        let un_sdg = settings.shows(Section::UnSdg).then_some(metrics.un_sdg);
        Ok(PublicPage {
            settings: page.settings,
            holder,
            total,
            title,
            description,
            bundles,
            projects: project_shares,
            un_sdg,
            certificates,
            series,
        })
    }
}

/// Whole flights (rounded down) that emit `total`.
pub(super) fn flights(total: Mass, one: Mass) -> u64 {
    if one.grams() <= 0 {
        return 0;
    }
    u64::try_from(total.grams() / one.grams()).unwrap_or(0)
}

/// `part` as a percentage of `whole`, two decimals (0 when `whole` is 0).
pub(super) fn percent(part: Mass, whole: Mass) -> Decimal {
    if whole.grams() == 0 {
        return Decimal::ZERO;
    }
    (Decimal::from(part.grams()) * Decimal::ONE_HUNDRED / Decimal::from(whole.grams())).round_dp(2)
}

/// Running totals to the end of each month, from the first month with figures
/// to `today`'s.
pub(super) fn cumulative_months(
    by_month: &BTreeMap<Date, Figures>,
    today: Date,
    currency: Currency,
) -> Vec<Point> {
    let Some(first) = by_month.keys().next().copied() else {
        return Vec::new();
    };
    let Ok(range) = DateRange::new(first, today.max(first)) else {
        // More than the longest range: start at the range's limit.
        return Vec::new();
    };
    let mut running = Figures::zero(currency);
    range
        .buckets(Interval::Month)
        .into_iter()
        .map(|month| {
            if let Some(f) = by_month.get(&month) {
                running.add(f.quantity.grams(), f.value.minor());
            }
            Point {
                date: month,
                figures: running,
            }
        })
        .collect()
}
