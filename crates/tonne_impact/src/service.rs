//! [`Impact`]: the impact use cases over the repository, the accounts and the
//! catalogue.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use async_trait::async_trait;
use rust_decimal::Decimal;
use time::Date;
use tonne_kernel::{AccountMode, Clock, Currency, Mass, OrganisationId, StoreError};
use tonne_ordering::ports::CatalogueRepository;
use tonne_ordering::{BundleId, ProjectId};

use crate::analytics::{
    Aggregates, BundleSeries, CountPoint, EstimateMetrics, Figures, KindTotal, Location, Metrics,
    Point, RegistryName, oxford_type,
};
use crate::continents::continent_of;
use crate::errors::{AnalyticsError, PageError, PageWriteError};
use crate::pages::{
    BundleShare, Description, DescriptionFormat, MAX_CERTIFICATES, PageHolder, PageSettings,
    PageStatus, ProjectShare, PublicPage, Section, Slug, SustainabilityPage, Title, TitleFormat,
};
use crate::ports::{
    AskedRange, Basis, ImpactRepository, ImpactService, PageHolders, ProjectSum, Viewer,
};
use crate::range::{DateRange, Interval};

/// The impact use cases.
pub struct Impact {
    repository: Arc<dyn ImpactRepository>,
    holders: Arc<dyn PageHolders>,
    catalogue: Arc<dyn CatalogueRepository>,
    clock: Arc<dyn Clock>,
    flight_equivalent: Mass,
}

impl Impact {
    /// Wires the use cases. `flight_equivalent` is what one passenger's one-way
    /// economy flight New York (JFK) → London (LHR) emits, the unit of the
    /// `by_equivalent` description (the binary asks the estimation engine).
    pub fn new(
        repository: Arc<dyn ImpactRepository>,
        holders: Arc<dyn PageHolders>,
        catalogue: Arc<dyn CatalogueRepository>,
        clock: Arc<dyn Clock>,
        flight_equivalent: Mass,
    ) -> Self {
        Self {
            repository,
            holders,
            catalogue,
            clock,
            flight_equivalent,
        }
    }

    fn today(&self) -> Date {
        self.clock.now().date()
    }

    fn range(&self, asked: AskedRange) -> Result<DateRange, AnalyticsError> {
        Ok(DateRange::resolve(asked.from, asked.through, self.today())?)
    }

    async fn currency(&self, viewer: &Viewer) -> Result<Currency, StoreError> {
        Ok(self
            .holders
            .holder(viewer.account_id)
            .await?
            .ok_or_else(|| {
                StoreError::Unexpected(anyhow::anyhow!(
                    "acting account {} vanished",
                    viewer.account_id
                ))
            })?
            .currency)
    }

    async fn projects_of(
        &self,
        sums: &[ProjectSum],
    ) -> Result<HashMap<ProjectId, tonne_ordering::Project>, StoreError> {
        let ids: Vec<ProjectId> = sums.iter().map(|s| s.project_id).collect();
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        Ok(self
            .catalogue
            .projects(&ids)
            .await?
            .into_iter()
            .map(|p| (p.id, p))
            .collect())
    }

    async fn bundles_of(
        &self,
        ids: Vec<BundleId>,
    ) -> Result<HashMap<BundleId, tonne_ordering::Bundle>, StoreError> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        Ok(self
            .catalogue
            .bundles(&ids)
            .await?
            .into_iter()
            .map(|b| (b.id, b))
            .collect())
    }

    async fn public(
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
fn flights(total: Mass, one: Mass) -> u64 {
    if one.grams() <= 0 {
        return 0;
    }
    u64::try_from(total.grams() / one.grams()).unwrap_or(0)
}

/// `part` as a percentage of `whole`, two decimals (0 when `whole` is 0).
fn percent(part: Mass, whole: Mass) -> Decimal {
    if whole.grams() == 0 {
        return Decimal::ZERO;
    }
    (Decimal::from(part.grams()) * Decimal::ONE_HUNDRED / Decimal::from(whole.grams())).round_dp(2)
}

/// Running totals to the end of each month, from the first month with figures
/// to `today`'s.
fn cumulative_months(
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

#[cfg(test)]
mod tests;

#[async_trait]
impl ImpactService for Impact {
    async fn cumulative_per_bundle(
        &self,
        viewer: Viewer,
        asked: AskedRange,
    ) -> Result<Vec<BundleSeries>, AnalyticsError> {
        let range = self.range(asked)?;
        let currency = self.currency(&viewer).await?;
        let before = match range.from().previous_day() {
            Some(eve) => {
                self.repository
                    .bundle_totals(viewer.account_id, None, eve, Basis::Placed)
                    .await?
            }
            None => Vec::new(),
        };
        let rows = self
            .repository
            .bundle_days(
                viewer.account_id,
                Some(range.from()),
                range.through(),
                Basis::Placed,
            )
            .await?;
        struct Acc {
            name: (Date, String),
            before: Figures,
            days: HashMap<Date, Figures>,
        }
        let mut bundles: BTreeMap<BundleId, Acc> = BTreeMap::new();
        for t in before {
            let mut figures = Figures::zero(currency);
            figures.add(t.quantity.grams(), t.value_minor);
            bundles.insert(
                t.bundle_id,
                Acc {
                    name: (t.last_day, t.bundle_name),
                    before: figures,
                    days: HashMap::new(),
                },
            );
        }
        for row in rows {
            let acc = bundles.entry(row.bundle_id).or_insert_with(|| Acc {
                name: (row.day, row.bundle_name.clone()),
                before: Figures::zero(currency),
                days: HashMap::new(),
            });
            if row.day >= acc.name.0 {
                acc.name = (row.day, row.bundle_name.clone());
            }
            acc.days
                .entry(row.day)
                .or_insert_with(|| Figures::zero(currency))
                .add(row.quantity.grams(), row.value_minor);
        }
        let days = range.buckets(Interval::Day);
        let mut out: Vec<BundleSeries> = bundles
            .into_iter()
            .map(|(bundle_id, acc)| {
                let mut running = acc.before;
                let points = days
                    .iter()
                    .map(|day| {
                        if let Some(f) = acc.days.get(day) {
                            running.add(f.quantity.grams(), f.value.minor());
                        }
                        Point {
                            date: *day,
                            figures: running,
                        }
                    })
                    .collect();
                BundleSeries {
                    bundle_id,
                    bundle_name: acc.name.1,
                    points,
                }
            })
            .collect();
        out.sort_by(|a, b| a.bundle_name.cmp(&b.bundle_name));
        Ok(out)
    }

    async fn metrics(&self, viewer: Viewer, asked: AskedRange) -> Result<Metrics, AnalyticsError> {
        let range = self.range(asked)?;
        let sums = self
            .repository
            .project_sums(viewer.account_id, Some(range), Basis::Placed)
            .await?;
        let projects = self.projects_of(&sums).await?;
        Ok(Metrics::of(
            sums.iter()
                .filter(|s| s.quantity.grams() > 0)
                .filter_map(|s| projects.get(&s.project_id))
                .map(|p| p.un_sdg.as_slice()),
        ))
    }

    async fn aggregated(
        &self,
        viewer: Viewer,
        asked: AskedRange,
    ) -> Result<Aggregates, AnalyticsError> {
        let range = self.range(asked)?;
        let currency = self.currency(&viewer).await?;
        let totals = self
            .repository
            .bundle_totals(
                viewer.account_id,
                Some(range.from()),
                range.through(),
                Basis::Placed,
            )
            .await?;
        let mut total = Figures::zero(currency);
        let mut by_bundle: BTreeMap<BundleId, (String, Figures)> = BTreeMap::new();
        for t in totals {
            total.add(t.quantity.grams(), t.value_minor);
            let entry = by_bundle
                .entry(t.bundle_id)
                .or_insert_with(|| (t.bundle_name.clone(), Figures::zero(currency)));
            entry.0 = t.bundle_name;
            entry.1.add(t.quantity.grams(), t.value_minor);
        }
        let catalogue = self.bundles_of(by_bundle.keys().copied().collect()).await?;
        let mut oxford: BTreeMap<u8, Figures> = BTreeMap::new();
        let mut offset_types: Vec<(Option<tonne_ordering::OffsetType>, Figures)> = Vec::new();
        for (id, (_, figures)) in &by_bundle {
            let Some(bundle) = catalogue.get(id) else {
                continue;
            };
            if let Some(kind) = oxford_type(bundle.offset_type, bundle.permanence) {
                oxford
                    .entry(kind)
                    .or_insert_with(|| Figures::zero(currency))
                    .add(figures.quantity.grams(), figures.value.minor());
            }
            match offset_types
                .iter_mut()
                .find(|(t, _)| *t == bundle.offset_type)
            {
                Some((_, f)) => f.add(figures.quantity.grams(), figures.value.minor()),
                None => offset_types.push((bundle.offset_type, *figures)),
            }
        }
        let sums = self
            .repository
            .project_sums(viewer.account_id, Some(range), Basis::Placed)
            .await?;
        let projects = self.projects_of(&sums).await?;
        let mut allocated = Figures::zero(currency);
        let mut locations: BTreeMap<Location, Figures> = BTreeMap::new();
        let mut registries: Vec<(RegistryName, Figures)> = Vec::new();
        for sum in &sums {
            allocated.add(sum.quantity.grams(), sum.value_minor);
            let project = projects.get(&sum.project_id);
            let location = project
                .and_then(|p| continent_of(&p.country_code))
                .map_or(Location::NotYetAllocated, Location::Continent);
            locations
                .entry(location)
                .or_insert_with(|| Figures::zero(currency))
                .add(sum.quantity.grams(), sum.value_minor);
            let registry = project.map_or(RegistryName::NotYetAllocated, |p| {
                RegistryName::Registry(p.registry)
            });
            match registries.iter_mut().find(|(r, _)| *r == registry) {
                Some((_, f)) => f.add(sum.quantity.grams(), sum.value_minor),
                None => {
                    let mut f = Figures::zero(currency);
                    f.add(sum.quantity.grams(), sum.value_minor);
                    registries.push((registry, f));
                }
            }
        }
        let unallocated_grams = (total.quantity.grams() - allocated.quantity.grams()).max(0);
        let unallocated_minor = (total.value.minor() - allocated.value.minor()).max(0);
        if unallocated_grams > 0 || unallocated_minor > 0 {
            locations
                .entry(Location::NotYetAllocated)
                .or_insert_with(|| Figures::zero(currency))
                .add(unallocated_grams, unallocated_minor);
            let mut f = Figures::zero(currency);
            f.add(unallocated_grams, unallocated_minor);
            match registries
                .iter_mut()
                .find(|(r, _)| *r == RegistryName::NotYetAllocated)
            {
                Some((_, existing)) => existing.add(unallocated_grams, unallocated_minor),
                None => registries.push((RegistryName::NotYetAllocated, f)),
            }
        }
        let mut bundle: Vec<(BundleId, String, Figures)> = by_bundle
            .into_iter()
            .map(|(id, (name, figures))| (id, name, figures))
            .collect();
        bundle.sort_by(|a, b| {
            b.2.quantity
                .grams()
                .cmp(&a.2.quantity.grams())
                .then_with(|| a.1.cmp(&b.1))
        });
        registries.sort_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
        offset_types.sort_by_key(|(t, _)| t.map(|t| t.as_str()));
        Ok(Aggregates {
            bundle,
            location: locations.into_iter().collect(),
            registry: registries,
            oxford_offsetting_principles: oxford.into_iter().collect(),
            offset_type: offset_types,
        })
    }

    async fn emission_calculations(
        &self,
        viewer: Viewer,
        asked: AskedRange,
        interval: Interval,
        all_accounts: bool,
    ) -> Result<EstimateMetrics, AnalyticsError> {
        let range = self.range(asked)?;
        let accounts = if all_accounts && !viewer.client_account {
            self.holders
                .accounts(viewer.organisation_id, viewer.mode)
                .await?
        } else {
            vec![viewer.account_id]
        };
        let rows = self.repository.estimate_days(accounts, range).await?;
        let mut buckets: BTreeMap<Date, u64> = range
            .buckets(interval)
            .into_iter()
            .map(|d| (d, 0))
            .collect();
        let mut kinds: BTreeMap<String, (u64, i64)> = BTreeMap::new();
        for row in rows.into_iter().filter(|r| range.contains(r.day)) {
            *buckets.entry(interval.bucket_of(row.day)).or_default() += row.count;
            let kind = kinds.entry(row.kind).or_default();
            kind.0 += row.count;
            kind.1 = kind.1.saturating_add(row.mass.grams());
        }
        Ok(EstimateMetrics {
            timeseries: buckets
                .into_iter()
                .map(|(date, count)| CountPoint { date, count })
                .collect(),
            by_kind: kinds
                .into_iter()
                .map(|(kind, (count, grams))| KindTotal {
                    kind,
                    count,
                    mass: Mass::from_grams(grams),
                })
                .collect(),
        })
    }

    async fn public_shipping(
        &self,
        account: &str,
        asked: AskedRange,
    ) -> Result<(PageHolder, DateRange), AnalyticsError> {
        let account = account.parse().map_err(|_| AnalyticsError::NotPublic)?;
        let holder = self
            .holders
            .holder(account)
            .await?
            .filter(|h| h.public)
            .ok_or(AnalyticsError::NotPublic)?;
        Ok((holder, self.range(asked)?))
    }

    async fn create_page(
        &self,
        viewer: Viewer,
        settings: PageSettings,
    ) -> Result<SustainabilityPage, PageError> {
        let now = self.clock.now();
        let page = SustainabilityPage {
            account_id: viewer.account_id,
            organisation_id: viewer.organisation_id,
            mode: viewer.mode,
            settings,
            created_at: now,
            updated_at: now,
        };
        match self.repository.save_page(&page, true).await {
            Ok(()) => Ok(page),
            Err(PageWriteError::SlugTaken) => Err(PageError::SlugTaken),
            Err(PageWriteError::Conflict) => Err(PageError::Exists),
            Err(PageWriteError::Store(e)) => Err(e.into()),
        }
    }

    async fn update_page(
        &self,
        viewer: Viewer,
        settings: PageSettings,
    ) -> Result<SustainabilityPage, PageError> {
        let existing = self
            .repository
            .page(viewer.account_id)
            .await?
            .ok_or(PageError::NotFound)?;
        let page = SustainabilityPage {
            settings,
            updated_at: self.clock.now(),
            ..existing
        };
        match self.repository.save_page(&page, false).await {
            Ok(()) => Ok(page),
            Err(PageWriteError::SlugTaken) => Err(PageError::SlugTaken),
            Err(PageWriteError::Conflict) => Err(PageError::NotFound),
            Err(PageWriteError::Store(e)) => Err(e.into()),
        }
    }

    async fn current_page(&self, viewer: Viewer) -> Result<SustainabilityPage, PageError> {
        self.repository
            .page(viewer.account_id)
            .await?
            .ok_or(PageError::NotFound)
    }

    async fn public_by_slug(&self, mode: AccountMode, slug: &str) -> Result<PublicPage, PageError> {
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

    async fn public_by_handle(
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
}
