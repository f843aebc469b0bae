//! The catalogue file format (`tonne catalogue import FILE`), documented in
//! `docs/catalogue.md`. Ids are derived from each item's `key` (UUIDv5), so
//! importing the same file again updates the same rows instead of duplicating them.

use std::collections::HashSet;

use anyhow::{Context as _, anyhow, bail, ensure};
use rust_decimal::{Decimal, RoundingStrategy};
use time::OffsetDateTime;
use tonne_kernel::{Currency, Mass, MassUnit, Money};
use tonne_ordering::ports::Catalogue;
use tonne_ordering::{
    Approach, Bundle, BundleId, BundlePortfolio, BundlePortfolioId, BundlePrice, CarbonPermanence,
    Media, OffsetType, Percentage, Project, ProjectFacts, ProjectId, Registry,
};
use uuid::Uuid;

use file::{FileBundle, FileDoc, FilePortfolio, FileProject};

mod file;
pub mod perimeter;

/// The demo catalogue shipped with Tonne and loaded into an empty database.
pub const DEMO: &str = include_str!("../catalogue/demo-catalogue.json");

const FORMAT: &str = "tonne-catalogue/1";
const NAMESPACE: Uuid = Uuid::from_u128(0x7a0e_4c2b_9d3f_4e51_8b6a_2f1c_0d9e_5a37);

/// The stable id of a project key.
pub fn project_id(key: &str) -> ProjectId {
    ProjectId::from_uuid(Uuid::new_v5(
        &NAMESPACE,
        format!("project:{key}").as_bytes(),
    ))
}

/// The stable id of a bundle portfolio key.
pub fn portfolio_id(key: &str) -> BundlePortfolioId {
    BundlePortfolioId::from_uuid(Uuid::new_v5(
        &NAMESPACE,
        format!("portfolio:{key}").as_bytes(),
    ))
}

const DATE: &[time::format_description::FormatItem<'static>] =
    time::macros::format_description!("[year]-[month]-[day]");

fn date(raw: Option<&str>, what: &str) -> anyhow::Result<Option<time::Date>> {
    raw.map(|r| {
        time::Date::parse(r, DATE).map_err(|_| anyhow!("{what}: `{r}` is not a YYYY-MM-DD date"))
    })
    .transpose()
}

fn facts(p: &FileProject, what: &str) -> anyhow::Result<ProjectFacts> {
    let text = |value: &Option<String>, field: &str| -> anyhow::Result<Option<String>> {
        if let Some(v) = value {
            ensure!(
                !v.trim().is_empty(),
                "{what}: {field} is empty (use null when unknown)"
            );
        }
        Ok(value.clone())
    };
    let list = |values: &Vec<String>, field: &str| -> anyhow::Result<Vec<String>> {
        ensure!(
            values.iter().all(|v| !v.trim().is_empty()),
            "{what}: {field} has an empty entry"
        );
        Ok(values.clone())
    };
    let start = date(
        p.crediting_start_date.as_deref(),
        &format!("{what}: crediting_start_date"),
    )?;
    let end = date(
        p.crediting_end_date.as_deref(),
        &format!("{what}: crediting_end_date"),
    )?;
    if let (Some(start), Some(end)) = (start, end) {
        ensure!(
            start <= end,
            "{what}: crediting_end_date is before crediting_start_date"
        );
    }
    let reductions = p
        .avg_annual_emission_reductions
        .as_deref()
        .map(|raw| {
            tonne_kernel::split_plain_decimal(raw).ok_or_else(|| {
                anyhow!("{what}: avg_annual_emission_reductions `{raw}` is not a plain decimal")
            })?;
            raw.parse::<Decimal>().map_err(|_| {
                anyhow!("{what}: avg_annual_emission_reductions `{raw}` is not a decimal")
            })
        })
        .transpose()?;
    ensure!(
        p.sources
            .iter()
            .all(|u| u.starts_with("https://") || u.starts_with("http://")),
        "{what}: sources must be http(s) URLs"
    );
    Ok(ProjectFacts {
        crediting_start_date: start,
        crediting_end_date: end,
        registration_date: date(
            p.registration_date.as_deref(),
            &format!("{what}: registration_date"),
        )?,
        protocol: list(&p.protocol, "protocol")?,
        methodology: text(&p.methodology, "methodology")?,
        durability: text(&p.durability, "durability")?,
        additional_standards_met: list(&p.additional_standards_met, "additional_standards_met")?,
        verifying_body: text(&p.verifying_body, "verifying_body")?,
        risk_of_reversal: text(&p.risk_of_reversal, "risk_of_reversal")?,
        risk_of_predicted_emissions: text(
            &p.risk_of_predicted_emissions,
            "risk_of_predicted_emissions",
        )?,
        avg_annual_emission_reductions: reductions,
    })
}

/// The stable id of a bundle key.
pub fn bundle_id(key: &str) -> BundleId {
    BundleId::from_uuid(Uuid::new_v5(&NAMESPACE, format!("bundle:{key}").as_bytes()))
}

fn check_key(key: &str) -> anyhow::Result<()> {
    ensure!(
        (1..=100).contains(&key.len())
            && key
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
        "key `{key}`: use 1 to 100 of a-z, 0-9 and '-' (it becomes the project's slug)"
    );
    Ok(())
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

fn coordinate(raw: &str, limit: i64, what: &str) -> anyhow::Result<Decimal> {
    let value: Decimal = raw
        .parse()
        .map_err(|_| anyhow!("{what}: `{raw}` is not a decimal"))?;
    ensure!(
        value.abs() <= Decimal::from(limit),
        "{what}: `{raw}` is out of range"
    );
    Ok(value)
}

/// Why a string holding U+0000 is refused: PostgreSQL's `TEXT` refuses it
/// where SQLite keeps it, so a file is refused alike on both stores, as the
/// HTTP door refuses it (`tonne_http::unstorable`).
pub const NUL_REFUSED: &str = "contains U+0000 (NUL), which cannot be stored";

/// The path (`projects[1].name`, `bundles[0].unit_prices.GBP`) of the first
/// string of a catalogue file (a value or an object's key) holding U+0000;
/// `None` when there is none. JSON writes a NUL only as the `\u0000` escape,
/// so a file without one costs one scan; a file that does not parse is the
/// parser's to refuse.
fn nul_in(text: &str) -> Option<String> {
    if !text.contains("\\u0000") {
        return None;
    }
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let mut path = String::new();
    nul_at(&value, &mut path).then(|| {
        if path.is_empty() {
            "file".to_owned()
        } else {
            path
        }
    })
}

/// Whether `value` holds a NUL; if so `path` names where.
fn nul_at(value: &serde_json::Value, path: &mut String) -> bool {
    use serde_json::Value;
    use std::fmt::Write as _;
    match value {
        Value::String(s) => s.contains('\0'),
        Value::Array(items) => items.iter().enumerate().any(|(i, item)| {
            let len = path.len();
            let _ = write!(path, "[{i}]");
            let found = nul_at(item, path);
            if !found {
                path.truncate(len);
            }
            found
        }),
        Value::Object(fields) => fields.iter().any(|(key, item)| {
            let len = path.len();
            if !path.is_empty() {
                path.push('.');
            }
            if key.contains('\0') {
                path.push_str(&key.escape_debug().to_string());
                return true;
            }
            path.push_str(key);
            let found = nul_at(item, path);
            if !found {
                path.truncate(len);
            }
            found
        }),
        Value::Null | Value::Bool(_) | Value::Number(_) => false,
    }
}

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

fn project_of(doc: &FileDoc, p: &FileProject, at: OffsetDateTime) -> anyhow::Result<Project> {
    let what = format!("project `{}`", p.key);
    ensure!(
        p.country_code.len() == 3 && p.country_code.bytes().all(|b| b.is_ascii_uppercase()),
        "{what}: country_code must be ISO 3166-1 alpha-3"
    );
    ensure!(
        p.un_sdg.iter().all(|g| (1..=17).contains(g)),
        "{what}: un_sdg goals are 1 to 17"
    );
    let bundle_ids = doc
        .bundles
        .iter()
        .filter(|b| b.projects.contains(&p.key))
        .map(|b| bundle_id(&b.key))
        .collect();
    Ok(Project {
        id: project_id(&p.key),
        slug: p.key.clone(),
        name: p.name.clone(),
        short_name: p.short_name.clone().unwrap_or_else(|| p.name.clone()),
        description: p.description.clone(),
        project_type: p.project_type.clone(),
        registry: Registry::parse(&p.registry_name).ok_or_else(|| {
            anyhow!(
                "{what}: registry_name `{}` is not one of the contract's registries",
                p.registry_name
            )
        })?,
        registry_link: p.registry_link.clone(),
        latitude: coordinate(&p.latitude, 90, &format!("{what}: latitude"))?,
        longitude: coordinate(&p.longitude, 180, &format!("{what}: longitude"))?,
        country_name: p.country_name.clone(),
        country_code: p.country_code.clone(),
        region: p.region.clone(),
        logo: p.logo.clone(),
        primary_image: p.primary_image.clone(),
        thumbnail_image: p.thumbnail_image.clone(),
        results: p.results.clone(),
        un_sdg: p.un_sdg.clone(),
        media: p
            .media
            .iter()
            .map(|m| Media {
                kind: m.kind.clone(),
                url: m.url.clone(),
                attribution_text: m.attribution_text.clone(),
                attribution_url: m.attribution_url.clone(),
            })
            .collect(),
        disabled: p.disabled,
        disabled_at: p.disabled.then_some(at),
        facts: facts(p, &what)?,
        bundle_ids,
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

fn portfolio_of(doc: &FileDoc, p: &FilePortfolio) -> anyhow::Result<BundlePortfolio> {
    let what = format!("portfolio `{}`", p.key);
    ensure!(!p.label.trim().is_empty(), "{what}: label is empty");
    ensure!(!p.bundles.is_empty(), "{what}: names no bundles");
    let mut selection: Vec<(BundleId, u32)> = Vec::with_capacity(p.bundles.len());
    for share in &p.bundles {
        ensure!(
            doc.bundles.iter().any(|b| b.key == share.bundle),
            "{what}: bundle `{}` is not in the file",
            share.bundle
        );
        let id = bundle_id(&share.bundle);
        ensure!(
            selection.iter().all(|(seen, _)| *seen != id),
            "{what}: bundle `{}` appears twice",
            share.bundle
        );
        let hundredths = Percentage::parse(&share.percentage)
            .map(Percentage::hundredths)
            .map_err(|e| anyhow!("{what}: {e}"))?;
        ensure!(
            hundredths > 0,
            "{what}: bundle `{}` has a zero share",
            share.bundle
        );
        selection.push((id, hundredths));
    }
    let total: u32 = selection.iter().map(|(_, s)| s).sum();
    ensure!(
        total == 10_000,
        "{what}: percentages sum to {}, not 100",
        Decimal::new(i64::from(total), 2)
    );
    Ok(BundlePortfolio {
        id: portfolio_id(&p.key),
        identifier: p.key.clone(),
        label: p.label.clone(),
        selection,
    })
}

#[cfg(test)]
mod tests;
