//! The catalogue file format (`tonne catalogue import FILE`), documented in
//! `docs/catalogue.md`. Ids are derived from each item's `key` (UUIDv5), so
//! importing the same file again updates the same rows instead of duplicating them.

use std::collections::HashSet;

use anyhow::{Context as _, anyhow, bail, ensure};
use rust_decimal::{Decimal, RoundingStrategy};
use time::OffsetDateTime;
use tonne_kernel::{Currency, Mass, MassUnit, Money};
use tonne_ordering::ports::Catalogue;
use tonne_ordering::{Approach, Bundle, BundlePrice, CarbonPermanence, OffsetType, Percentage};

use file::{FileBundle, FileDoc};
use ids::check_key;
use nul::nul_in;
use portfolio::portfolio_of;
use project::project_of;

mod file;
mod ids;
mod nul;
pub mod perimeter;
mod portfolio;
mod project;

pub use ids::{bundle_id, portfolio_id, project_id};
pub use nul::{NUL_REFUSED, nul_at};

/// The demo catalogue shipped with Tonne and loaded into an empty database.
pub const DEMO: &str = include_str!("../catalogue/demo-catalogue.json");

const FORMAT: &str = "tonne-catalogue/1";

/// Why a catalogue file was refused: every problem found, each naming its
/// item (`project `x`: …`, `bundle `y`: …`), in file order. Nothing of a
/// refused file is imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileErrors(pub Vec<String>);

impl std::fmt::Display for FileErrors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.join("; "))
    }
}

impl std::error::Error for FileErrors {}

/// Parses and checks a whole catalogue file: every item is checked, and a
/// file with any problem is refused with all of them (see [`FileErrors`]).
///
/// ```
/// let at = time::OffsetDateTime::UNIX_EPOCH;
/// assert!(tonne_catalogue_file::parse(tonne_catalogue_file::DEMO, at).is_ok());
/// let bad = r#"{"format": "tonne-catalogue/1", "projects": [], "bundles": [
///     {"key": "a", "name": "A", "projects": ["nowhere"], "unit_prices": {"GBP": "-1"}},
///     {"key": "b", "name": "B", "projects": [], "unit_prices": {"XYZ": "1"}}]}"#;
/// let problems = tonne_catalogue_file::parse(bad, at).unwrap_err().0;
/// assert_eq!(problems.len(), 2, "{problems:?}");
/// assert!(problems[0].starts_with("bundle `a`") && problems[1].starts_with("bundle `b`"));
/// ```
pub fn parse(text: &str, at: OffsetDateTime) -> Result<Catalogue, FileErrors> {
    let one = |e: anyhow::Error| FileErrors(vec![format!("{e:#}")]);
    if let Some(field) = nul_in(text) {
        return Err(FileErrors(vec![format!("{field}: {NUL_REFUSED}")]));
    }
    let doc: FileDoc = serde_json::from_str(text)
        .context("the catalogue is not valid JSON of the expected shape")
        .map_err(one)?;
    if doc.format != FORMAT {
        return Err(FileErrors(vec![format!(
            "format must be `{FORMAT}`, found `{}`",
            doc.format
        )]));
    }
    let _ = (&doc.notice, doc.exchange_rates.as_ref().map(|r| &r.note));

    let mut problems = Vec::new();
    let mut keys = HashSet::new();
    let mut key_of = |kind: &str, prefix: char, key: &str, problems: &mut Vec<String>| {
        if let Err(e) = check_key(key) {
            problems.push(format!("{kind} `{key}`: {e}"));
            return false;
        }
        if !keys.insert(format!("{prefix}:{key}")) {
            problems.push(format!("{kind} key `{key}` appears twice"));
            return false;
        }
        true
    };
    let mut projects = Vec::with_capacity(doc.projects.len());
    let mut perimeters = Vec::new();
    for p in &doc.projects {
        if key_of("project", 'p', &p.key, &mut problems) {
            match project_of(&doc, p, at) {
                Ok(project) => projects.push(project),
                Err(e) => problems.push(format!("{e:#}")),
            }
            if let Some(geometry) = &p.perimeter {
                match perimeter::parse(geometry) {
                    Ok(found) => perimeters.push((project_id(&p.key), found)),
                    Err(e) => problems.push(format!("project `{}`: {e:#}", p.key)),
                }
            }
        }
    }
    let mut bundles = Vec::with_capacity(doc.bundles.len());
    for b in &doc.bundles {
        if key_of("bundle", 'b', &b.key, &mut problems) {
            match bundle_of(&doc, b, at) {
                Ok(bundle) => bundles.push(bundle),
                Err(e) => problems.push(format!("{e:#}")),
            }
        }
    }
    let default_total: u32 = bundles
        .iter()
        .filter_map(|b: &Bundle| b.default_share)
        .sum();
    if default_total != 0 && default_total != 10_000 {
        problems.push(format!(
            "default_percentage values sum to {}, not 100",
            Decimal::new(i64::from(default_total), 2)
        ));
    }
    let mut portfolios = Vec::with_capacity(doc.portfolios.len());
    for p in &doc.portfolios {
        if key_of("portfolio", 'f', &p.key, &mut problems) {
            match portfolio_of(&doc, p) {
                Ok(portfolio) => portfolios.push(portfolio),
                Err(e) => problems.push(format!("{e:#}")),
            }
        }
    }
    if !problems.is_empty() {
        return Err(FileErrors(problems));
    }
    Ok(Catalogue {
        projects,
        bundles,
        portfolios,
        perimeters,
    })
}

fn bundle_of(doc: &FileDoc, b: &FileBundle, at: OffsetDateTime) -> anyhow::Result<Bundle> {
    let what = format!("bundle `{}`", b.key);
    let mut prices = Vec::new();
    match (&b.unit_prices, &b.unit_price, &doc.exchange_rates) {
        (Some(explicit), None, _) => {
            for (code, raw) in explicit {
                let currency: Currency = code
                    .parse()
                    .map_err(|_| anyhow!("{what}: unknown currency `{code}`"))?;
                prices.push(BundlePrice {
                    unit_price: price(raw, currency, &format!("{what}: {code} price"))?,
                });
            }
        }
        (None, Some(raw), Some(rates)) => {
            let base: Currency = rates
                .base
                .parse()
                .map_err(|_| anyhow!("exchange_rates.base `{}` is not supported", rates.base))?;
            let base_price = price(raw, base, &format!("{what}: unit_price"))?;
            for (code, rate) in &rates.rates {
                let currency: Currency = code
                    .parse()
                    .map_err(|_| anyhow!("exchange_rates: unknown currency `{code}`"))?;
                let rate: Decimal = rate
                    .parse()
                    .map_err(|_| anyhow!("exchange_rates.{code}: not a decimal"))?;
                ensure!(
                    rate > Decimal::ZERO,
                    "exchange_rates.{code}: must be positive"
                );
                let converted = base_price
                    .to_decimal()
                    .checked_mul(rate)
                    .ok_or_else(|| anyhow!("{what}: price overflows"))?;
                let unit_price = Money::from_decimal(
                    converted,
                    currency,
                    RoundingStrategy::MidpointAwayFromZero,
                )
                .map_err(|e| anyhow!("{what}: {e}"))?;
                prices.push(BundlePrice { unit_price });
            }
        }
        _ => bail!(
            "{what}: give either unit_prices per currency, or unit_price with a top-level exchange_rates table"
        ),
    }
    for project in &b.projects {
        ensure!(
            doc.projects.iter().any(|p| &p.key == project),
            "{what}: project `{project}` is not in the file"
        );
    }
    let default_share = b
        .default_percentage
        .as_deref()
        .map(|p| {
            Percentage::parse(p)
                .map(Percentage::hundredths)
                .map_err(|e| anyhow!("{what}: default_percentage: {e}"))
        })
        .transpose()?;
    Ok(Bundle {
        id: bundle_id(&b.key),
        name: b.name.clone(),
        description: b.description.clone(),
        prices,
        available: b
            .available_quantity
            .as_deref()
            .map(|q| {
                Mass::parse(q, MassUnit::T).map_err(|e| anyhow!("{what}: available_quantity {e}"))
            })
            .transpose()?,
        offset_type: b
            .offset_type
            .as_deref()
            .map(|t| OffsetType::parse(t).ok_or_else(|| anyhow!("{what}: offset_type `{t}`")))
            .transpose()?,
        permanence: match b.carbon_permanence.as_deref() {
            None => CarbonPermanence::NoStorage,
            Some(t) => CarbonPermanence::parse(t)
                .ok_or_else(|| anyhow!("{what}: carbon_permanence `{t}`"))?,
        },
        approach: b
            .approach
            .as_deref()
            .map(|t| Approach::parse(t).ok_or_else(|| anyhow!("{what}: approach `{t}`")))
            .transpose()?,
        disabled: b.disabled,
        disabled_at: b.disabled.then_some(at),
        background_colour: b.background_colour.clone(),
        primary_image: b.primary_image.clone(),
        large_image: b.large_image.clone(),
        primary_image_hires: b.primary_image_hires.clone(),
        small_thumbnail: b.small_thumbnail.clone(),
        default_share,
        project_ids: b.projects.iter().map(|k| project_id(k)).collect(),
    })
}

fn price(raw: &str, currency: Currency, what: &str) -> anyhow::Result<Money> {
    let amount: Decimal = raw
        .parse()
        .map_err(|_| anyhow!("{what}: `{raw}` is not a decimal"))?;
    ensure!(amount > Decimal::ZERO, "{what}: must be positive");
    ensure!(
        amount.scale() <= currency.minor_digits(),
        "{what}: more decimals than {currency} has"
    );
    Money::from_decimal(amount, currency, RoundingStrategy::ToZero)
        .map_err(|e| anyhow!("{what}: {e}"))
}

#[cfg(test)]
mod tests;
