//! A project of the file: its place, registry, media and facts (crediting
//! dates, protocol, reductions…), each checked.

use anyhow::{anyhow, ensure};
use rust_decimal::Decimal;
use time::OffsetDateTime;
use tonne_ordering::{Media, Project, ProjectFacts, Registry};

use crate::file::{FileDoc, FileProject};
use crate::ids::{bundle_id, project_id};

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

pub(crate) fn project_of(
    doc: &FileDoc,
    p: &FileProject,
    at: OffsetDateTime,
) -> anyhow::Result<Project> {
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
