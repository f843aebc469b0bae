//! The emission-factor catalogue: every emission factor the engines use,
//! listed with the 2024 contract's fields, searchable and filterable, and
//! usable on its own in a factor estimate (activity × factor).
//!
//! Built once from the crate's own tables (DESNZ 2025, Ember grid
//! intensities, US EPA USEEIO v1.3.0, Tonne's transcribed and assumed
//! factors) and answered from memory.
//!
//! **Ids** are stable: `{dataset}.{name}`, where the dataset names the
//! publication and its version or data year (`desnz-2025.RAIL_NATIONAL`,
//! `ember-2024.grid.DEU`, `useeio-1.3.0.naics.722511`). A factor's id never
//! changes meaning; a new edition of a table gives new ids.
//!
//! ```
//! use tonne_estimation::catalogue::{self, FactorQuery, LogicalUnit};
//!
//! let all = catalogue::catalogue();
//! let rail = all.get("desnz-2025.RAIL_NATIONAL").unwrap();
//! assert_eq!(rail.denominator, "person*km");
//! assert_eq!(rail.kg_co2e.to_string(), "0.03546");
//! let query = FactorQuery { name: Some("national rail".into()), ..FactorQuery::default() };
//! let found = all.search(&query);
//! assert_eq!(found.first().map(|f| f.id.as_str()), Some("desnz-2025.RAIL_NATIONAL"));
//! assert!(found.iter().all(|f| f.logical_unit == LogicalUnit::PersonDistance || f.name.to_lowercase().contains("rail")));
//! ```

use std::collections::HashMap;
use std::sync::OnceLock;

mod entries;
mod factor;

pub use factor::{CatalogueFactor, FactorSource, LogicalUnit};

pub use crate::countries::country_name;

/// A denominator the catalogue uses, as `&'static str` (how a stored
/// factor's unit is read back).
pub fn denominator_unit(unit: &str) -> Option<&'static str> {
    entries::denominator_unit(unit)
}

/// The version of the factor set this build carries: estimates record it.
pub const FACTOR_SET_VERSION: &str = "2026.12";

/// The factors, their index by id, and the regions they cover.
#[derive(Debug)]
pub struct Catalogue {
    factors: Vec<CatalogueFactor>,
    by_id: HashMap<String, usize>,
    by_engine_id: HashMap<String, usize>,
    regions: Vec<String>,
    /// Each factor's name, region and category folded once (what a search
    /// compares), in the factors' order.
    folded: Vec<Folded>,
}

/// A factor's searchable texts, case-folded.
#[derive(Debug)]
struct Folded {
    name: String,
    region: String,
    category: String,
}

/// What a listing asks for (the contract's query parameters).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FactorQuery {
    /// Words that must all appear in the name or category (any case).
    pub name: Option<String>,
    /// Any of these sources (all when empty).
    pub sources: Vec<FactorSource>,
    /// Any of these publication years (all when empty).
    pub years: Vec<u16>,
    /// Any of these regions, by name, any case (all when empty).
    pub regions: Vec<String>,
    /// Whether factors of related regions are included (`region_fallback=always`):
    /// for a country outside the EXIOBASE countries, its rest-of-world region;
    /// for any region, the `World` factors.
    pub region_fallback: bool,
    /// Only this dimension.
    pub unit: Option<LogicalUnit>,
}

fn fold(s: &str) -> String {
    s.to_lowercase()
}

/// Whether `phrase` occurs in `text` starting at a word's start.
fn has_phrase(text: &str, phrase: &str) -> bool {
    !phrase.is_empty()
        && text.match_indices(phrase).any(|(i, _)| {
            text.get(..i)
                .and_then(|before| before.chars().next_back())
                .is_none_or(|c| !c.is_alphanumeric())
        })
}

impl Catalogue {
    fn new(factors: Vec<CatalogueFactor>) -> Self {
        let by_id = factors
            .iter()
            .enumerate()
            .map(|(i, f)| (f.id.clone(), i))
            .collect();
        let by_engine_id = factors
            .iter()
            .enumerate()
            .map(|(i, f)| (f.engine_id.clone(), i))
            .collect();
        let mut regions: Vec<String> = factors.iter().map(|f| f.region.clone()).collect();
        regions.sort();
        regions.dedup();
        let folded = factors
            .iter()
            .map(|f| Folded {
                name: fold(&f.name),
                region: fold(&f.region),
                category: fold(f.category.as_deref().unwrap_or_default()),
            })
            .collect();
        Self {
            factors,
            by_id,
            by_engine_id,
            regions,
            folded,
        }
    }

    /// Every factor, by id.
    pub fn all(&self) -> &[CatalogueFactor] {
        &self.factors
    }

    /// The factor with this id.
    pub fn get(&self, id: &str) -> Option<&CatalogueFactor> {
        self.by_id.get(id).and_then(|&i| self.factors.get(i))
    }

    /// The factor the engines call `engine_id` (`RAIL_NATIONAL`, `grid:DEU`).
    pub fn by_engine_id(&self, engine_id: &str) -> Option<&CatalogueFactor> {
        self.by_engine_id
            .get(engine_id)
            .and_then(|&i| self.factors.get(i))
    }

    /// A page of [`Catalogue::search`]: at most `limit` factors after the one
    /// named `after` (its id), and whether more follow. An `after` that is not
    /// in the results is `Invalid` (field `after`).
    pub fn page(
        &self,
        query: &FactorQuery,
        after: Option<&str>,
        limit: usize,
    ) -> Result<tonne_kernel::Page<CatalogueFactor>, crate::errors::EstimateError> {
        let found = self.search(query);
        let start = match after {
            None => 0,
            Some(id) => found.iter().position(|f| f.id == id).ok_or_else(|| {
                crate::errors::EstimateError::invalid(
                    "after",
                    "no factor of this listing has that id (pass the previous page's next_cursor)",
                )
            })? + 1,
        };
        let rest = found.get(start..).unwrap_or_default();
        Ok(tonne_kernel::Page {
            items: rest.iter().take(limit).map(|f| (*f).clone()).collect(),
            has_more: rest.len() > limit,
        })
    }

    /// The catalogue factor behind an explanation's factor id: the engine's
    /// name (`RAIL_NATIONAL`, `grid:DEU`, `naics:722511`), a merchant category
    /// (`mcc:5812`, through its NAICS industry or the median), or a
    /// catalogue id itself.
    pub fn of_engine_factor(&self, id: &str) -> Option<&CatalogueFactor> {
        if let Some(code) = id.strip_prefix("mcc:") {
            let category = crate::transaction::category(code)?;
            return if category.naics.is_empty() {
                self.by_engine_id("useeio:median")
            } else {
                self.by_engine_id(&format!("naics:{}", category.naics))
            };
        }
        self.by_engine_id(id).or_else(|| self.get(id))
    }

    /// Every region some factor covers, sorted.
    pub fn regions(&self) -> &[String] {
        &self.regions
    }

    /// The factors that pass the query, best match first: with a name, those
    /// whose name (or its last part) is it, then those whose name has it as a
    /// phrase from a word's start, then those whose name has every word, then
    /// those whose name and category have them; each group by id. Without a
    /// name, by id.
    pub fn search(&self, query: &FactorQuery) -> Vec<&CatalogueFactor> {
        let mut regions: Vec<String> = query.regions.iter().map(|r| fold(r)).collect();
        if query.region_fallback {
            // a country outside the EXIOBASE countries falls back to its
            // rest-of-world region too (and every region to the World)
            let rest: Vec<String> = query
                .regions
                .iter()
                .filter_map(|r| crate::countries::alpha3_of_name(r))
                .filter_map(crate::exiobase::region_of)
                .filter(|r| r.starts_with('W'))
                .map(|r| fold(crate::exiobase::region_name(r)))
                .collect();
            regions.extend(rest);
        }
        let wanted = |f: &CatalogueFactor, folded: &Folded| {
            (query.sources.is_empty() || query.sources.contains(&f.source))
                && (query.years.is_empty() || query.years.contains(&f.publication_year))
                && query.unit.is_none_or(|u| u == f.logical_unit)
                && (regions.is_empty()
                    || regions.contains(&folded.region)
                    || (query.region_fallback && f.region == "World"))
        };
        let needle = query.name.as_deref().map(fold).unwrap_or_default();
        let words: Vec<&str> = needle.split_whitespace().collect();
        let mut ranked: Vec<(u8, &CatalogueFactor)> = self
            .factors
            .iter()
            .zip(&self.folded)
            .filter(|(f, folded)| wanted(f, folded))
            .filter_map(|(f, folded)| {
                if words.is_empty() {
                    return Some((0, f));
                }
                let name = &folded.name;
                let phrase = needle.trim();
                let last = name.rsplit(" / ").next().unwrap_or_default();
                if name == phrase || last == phrase {
                    return Some((0, f));
                }
                if has_phrase(name, phrase) {
                    return Some((1, f));
                }
                if words.iter().all(|w| name.contains(w)) {
                    return Some((2, f));
                }
                let category = &folded.category;
                words
                    .iter()
                    .all(|w| name.contains(w) || category.contains(w))
                    .then_some((3, f))
            })
            .collect();
        ranked.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.id.cmp(&b.1.id)));
        ranked.into_iter().map(|(_, f)| f).collect()
    }
}

/// The catalogue, built on first use.
pub fn catalogue() -> &'static Catalogue {
    static BUILT: OnceLock<Catalogue> = OnceLock::new();
    BUILT.get_or_init(|| Catalogue::new(entries::build()))
}

#[cfg(test)]
mod tests;
