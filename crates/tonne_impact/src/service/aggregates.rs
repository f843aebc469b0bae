//! Use case: the aggregates of a date range: projects, locations, registries,
//! Oxford principles and offset types.

use std::collections::BTreeMap;

use tonne_ordering::BundleId;

use crate::analytics::{Aggregates, Figures, Location, RegistryName, oxford_type};
use crate::continents::continent_of;
use crate::errors::AnalyticsError;
use crate::ports::{AskedRange, Basis, Viewer};

use super::Impact;

impl Impact {
    pub(super) async fn aggregated(
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
}
