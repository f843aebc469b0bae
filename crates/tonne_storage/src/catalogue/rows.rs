//! The catalogue's rows and how they become domain values (bundles with
//! their prices and projects, projects with their bundles, portfolios).

use std::collections::HashMap;

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::RunQueryDsl;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use time::{OffsetDateTime, PrimitiveDateTime};
use tonne_kernel::{Currency, Mass, Money};
use tonne_ordering::{
    Approach, Bundle, BundleId, BundlePortfolio, BundlePortfolioId, BundlePrice, CarbonPermanence,
    Media, OffsetType, Project, ProjectFacts, ProjectId, Registry,
};

use crate::db::Conn;
use crate::db::error::{corrupt, decode_error, encode_error};
use crate::mapping::{from_sql_time, parse_id, to_sql_time};
use crate::schema::{bundle_portfolio_bundles, bundle_projects, bundles, projects};

pub(super) const DATE: &[time::format_description::FormatItem<'static>] =
    time::macros::format_description!("[year]-[month]-[day]");

/// A project's `facts` column.
#[derive(Serialize, Deserialize, Default)]
#[serde(default)]
pub(super) struct FactsJson {
    pub(super) crediting_start_date: Option<String>,
    pub(super) crediting_end_date: Option<String>,
    pub(super) registration_date: Option<String>,
    pub(super) protocol: Vec<String>,
    pub(super) methodology: Option<String>,
    pub(super) durability: Option<String>,
    pub(super) additional_standards_met: Vec<String>,
    pub(super) verifying_body: Option<String>,
    pub(super) risk_of_reversal: Option<String>,
    pub(super) risk_of_predicted_emissions: Option<String>,
    pub(super) avg_annual_emission_reductions: Option<String>,
}

pub(super) fn date_to_sql(date: Option<time::Date>) -> Result<Option<String>, DieselError> {
    date.map(|d| {
        d.format(DATE)
            .map_err(|e| DieselError::SerializationError(Box::new(e)))
    })
    .transpose()
}

pub(super) fn date_from_sql(
    what: &str,
    raw: Option<&str>,
) -> Result<Option<time::Date>, DieselError> {
    raw.map(|r| time::Date::parse(r, DATE).map_err(|_| corrupt(what, r)))
        .transpose()
}

pub(super) fn encode_facts(f: &ProjectFacts) -> Result<String, DieselError> {
    let json = FactsJson {
        crediting_start_date: date_to_sql(f.crediting_start_date)?,
        crediting_end_date: date_to_sql(f.crediting_end_date)?,
        registration_date: date_to_sql(f.registration_date)?,
        protocol: f.protocol.clone(),
        methodology: f.methodology.clone(),
        durability: f.durability.clone(),
        additional_standards_met: f.additional_standards_met.clone(),
        verifying_body: f.verifying_body.clone(),
        risk_of_reversal: f.risk_of_reversal.clone(),
        risk_of_predicted_emissions: f.risk_of_predicted_emissions.clone(),
        avg_annual_emission_reductions: f
            .avg_annual_emission_reductions
            .map(|d| d.normalize().to_string()),
    };
    serde_json::to_string(&json).map_err(encode_error)
}

pub(super) fn decode_facts(raw: &str) -> Result<ProjectFacts, DieselError> {
    let f: FactsJson = serde_json::from_str(raw).map_err(decode_error)?;
    Ok(ProjectFacts {
        crediting_start_date: date_from_sql(
            "crediting start date",
            f.crediting_start_date.as_deref(),
        )?,
        crediting_end_date: date_from_sql("crediting end date", f.crediting_end_date.as_deref())?,
        registration_date: date_from_sql("registration date", f.registration_date.as_deref())?,
        protocol: f.protocol,
        methodology: f.methodology,
        durability: f.durability,
        additional_standards_met: f.additional_standards_met,
        verifying_body: f.verifying_body,
        risk_of_reversal: f.risk_of_reversal,
        risk_of_predicted_emissions: f.risk_of_predicted_emissions,
        avg_annual_emission_reductions: f
            .avg_annual_emission_reductions
            .as_deref()
            .map(|r| {
                r.parse::<Decimal>()
                    .map_err(|_| corrupt("average annual emission reductions", r))
            })
            .transpose()?,
    })
}

#[derive(Serialize, Deserialize)]
pub(super) struct MediaJson {
    #[serde(rename = "type")]
    pub(super) kind: String,
    pub(super) url: String,
    pub(super) attribution_text: Option<String>,
    pub(super) attribution_url: Option<String>,
}

#[derive(Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = projects, treat_none_as_null = true)]
pub(super) struct ProjectRow {
    pub(super) id: String,
    pub(super) slug: String,
    pub(super) name: String,
    pub(super) short_name: String,
    pub(super) description: String,
    pub(super) project_type: String,
    pub(super) registry_name: String,
    pub(super) registry_link: Option<String>,
    pub(super) latitude: String,
    pub(super) longitude: String,
    pub(super) country_name: String,
    pub(super) country_code: String,
    pub(super) region: Option<String>,
    pub(super) logo: Option<String>,
    pub(super) primary_image: Option<String>,
    pub(super) thumbnail_image: Option<String>,
    pub(super) results: String,
    pub(super) un_sdg: String,
    pub(super) media: String,
    pub(super) disabled: bool,
    pub(super) disabled_at: Option<PrimitiveDateTime>,
    #[diesel(skip_update)]
    pub(super) created_at: PrimitiveDateTime,
    pub(super) updated_at: PrimitiveDateTime,
    pub(super) facts: String,
}

impl ProjectRow {
    pub(super) fn from_domain(p: &Project, at: OffsetDateTime) -> Result<Self, DieselError> {
        let media: Vec<MediaJson> = p
            .media
            .iter()
            .map(|m| MediaJson {
                kind: m.kind.clone(),
                url: m.url.clone(),
                attribution_text: m.attribution_text.clone(),
                attribution_url: m.attribution_url.clone(),
            })
            .collect();
        Ok(Self {
            id: p.id.to_string(),
            slug: p.slug.clone(),
            name: p.name.clone(),
            short_name: p.short_name.clone(),
            description: p.description.clone(),
            project_type: p.project_type.clone(),
            registry_name: p.registry.as_str().to_owned(),
            registry_link: p.registry_link.clone(),
            latitude: p.latitude.to_string(),
            longitude: p.longitude.to_string(),
            country_name: p.country_name.clone(),
            country_code: p.country_code.clone(),
            region: p.region.clone(),
            logo: p.logo.clone(),
            primary_image: p.primary_image.clone(),
            thumbnail_image: p.thumbnail_image.clone(),
            results: serde_json::to_string(&p.results).map_err(encode_error)?,
            un_sdg: serde_json::to_string(&p.un_sdg).map_err(encode_error)?,
            media: serde_json::to_string(&media).map_err(encode_error)?,
            disabled: p.disabled,
            disabled_at: p.disabled_at.map(to_sql_time),
            created_at: to_sql_time(at),
            updated_at: to_sql_time(at),
            facts: encode_facts(&p.facts)?,
        })
    }

    pub(super) fn into_domain(self, bundle_ids: Vec<BundleId>) -> Result<Project, DieselError> {
        let media: Vec<MediaJson> = serde_json::from_str(&self.media).map_err(decode_error)?;
        let facts = decode_facts(&self.facts)?;
        Ok(Project {
            facts,
            id: parse_id::<ProjectId>("project id", &self.id)?,
            registry: Registry::parse(&self.registry_name)
                .ok_or_else(|| corrupt("registry", &self.registry_name))?,
            latitude: self
                .latitude
                .parse::<Decimal>()
                .map_err(|_| corrupt("latitude", &self.latitude))?,
            longitude: self
                .longitude
                .parse::<Decimal>()
                .map_err(|_| corrupt("longitude", &self.longitude))?,
            results: serde_json::from_str(&self.results).map_err(decode_error)?,
            un_sdg: serde_json::from_str(&self.un_sdg).map_err(decode_error)?,
            media: media
                .into_iter()
                .map(|m| Media {
                    kind: m.kind,
                    url: m.url,
                    attribution_text: m.attribution_text,
                    attribution_url: m.attribution_url,
                })
                .collect(),
            slug: self.slug,
            name: self.name,
            short_name: self.short_name,
            description: self.description,
            project_type: self.project_type,
            registry_link: self.registry_link,
            country_name: self.country_name,
            country_code: self.country_code,
            region: self.region,
            logo: self.logo,
            primary_image: self.primary_image,
            thumbnail_image: self.thumbnail_image,
            disabled: self.disabled,
            disabled_at: self.disabled_at.map(from_sql_time),
            bundle_ids,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = bundles, treat_none_as_null = true)]
pub(super) struct BundleRow {
    pub(super) id: String,
    pub(super) name: String,
    pub(super) description: Option<String>,
    pub(super) background_colour: Option<String>,
    pub(super) primary_image: Option<String>,
    pub(super) large_image: Option<String>,
    pub(super) primary_image_hires: Option<String>,
    pub(super) small_thumbnail: Option<String>,
    pub(super) available_grams: Option<i64>,
    pub(super) offset_type: Option<String>,
    pub(super) carbon_permanence: Option<String>,
    pub(super) disabled: bool,
    pub(super) disabled_at: Option<PrimitiveDateTime>,
    pub(super) default_share: Option<i32>,
    #[diesel(skip_update)]
    pub(super) created_at: PrimitiveDateTime,
    pub(super) updated_at: PrimitiveDateTime,
    pub(super) approach: Option<String>,
}

impl BundleRow {
    pub(super) fn from_domain(b: &Bundle, at: OffsetDateTime) -> Self {
        Self {
            id: b.id.to_string(),
            name: b.name.clone(),
            description: b.description.clone(),
            background_colour: b.background_colour.clone(),
            primary_image: b.primary_image.clone(),
            large_image: b.large_image.clone(),
            primary_image_hires: b.primary_image_hires.clone(),
            small_thumbnail: b.small_thumbnail.clone(),
            available_grams: b.available.map(|m| m.grams()),
            offset_type: b.offset_type.map(|t| t.as_str().to_owned()),
            // NULL is `no_storage` (the 2023 contract's null; the column's CHECK predates it).
            carbon_permanence: match b.permanence {
                CarbonPermanence::NoStorage => None,
                stored => Some(stored.as_str().to_owned()),
            },
            disabled: b.disabled,
            disabled_at: b.disabled_at.map(to_sql_time),
            default_share: b.default_share.and_then(|s| i32::try_from(s).ok()),
            created_at: to_sql_time(at),
            updated_at: to_sql_time(at),
            approach: b.approach.map(|a| a.as_str().to_owned()),
        }
    }

    pub(super) fn into_domain(
        self,
        prices: Vec<BundlePrice>,
        project_ids: Vec<ProjectId>,
    ) -> Result<Bundle, DieselError> {
        Ok(Bundle {
            id: parse_id::<BundleId>("bundle id", &self.id)?,
            offset_type: self
                .offset_type
                .as_deref()
                .map(|t| OffsetType::parse(t).ok_or_else(|| corrupt("offset type", t)))
                .transpose()?,
            permanence: match self.carbon_permanence.as_deref() {
                None => CarbonPermanence::NoStorage,
                Some(p) => CarbonPermanence::parse(p).ok_or_else(|| corrupt("permanence", p))?,
            },
            approach: self
                .approach
                .as_deref()
                .map(|a| Approach::parse(a).ok_or_else(|| corrupt("approach", a)))
                .transpose()?,
            available: self.available_grams.map(Mass::from_grams),
            default_share: self.default_share.and_then(|s| u32::try_from(s).ok()),
            name: self.name,
            description: self.description,
            background_colour: self.background_colour,
            primary_image: self.primary_image,
            large_image: self.large_image,
            primary_image_hires: self.primary_image_hires,
            small_thumbnail: self.small_thumbnail,
            disabled: self.disabled,
            disabled_at: self.disabled_at.map(from_sql_time),
            prices,
            project_ids,
        })
    }
}

/// Bundle ids per project, in membership order.
pub(super) async fn memberships_of_projects(
    conn: &mut Conn,
    ids: &[String],
) -> QueryResult<HashMap<String, Vec<BundleId>>> {
    let rows: Vec<(String, String)> = on!(conn, |c| bundle_projects::table
        .filter(bundle_projects::project_id.eq_any(ids))
        .order((
            bundle_projects::bundle_id.asc(),
            bundle_projects::position.asc(),
        ))
        .select((bundle_projects::project_id, bundle_projects::bundle_id))
        .load(c)
        .await)?;
    let mut out: HashMap<String, Vec<BundleId>> = HashMap::new();
    for (project, bundle) in rows {
        out.entry(project)
            .or_default()
            .push(parse_id("bundle id", &bundle)?);
    }
    Ok(out)
}

pub(super) async fn load_projects(
    conn: &mut Conn,
    rows: Vec<ProjectRow>,
) -> QueryResult<Vec<Project>> {
    let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    let mut members = memberships_of_projects(conn, &ids).await?;
    rows.into_iter()
        .map(|r| {
            let bundles = members.remove(&r.id).unwrap_or_default();
            r.into_domain(bundles)
        })
        .collect()
}

/// A bundle's price row: `(bundle_id, currency, unit_price_minor)`.
pub(super) type PriceRow = (String, String, i64);
/// A bundle's project row: `(bundle_id, project_id)`, in membership order.
pub(super) type MemberRow = (String, String);

/// Bundles from their rows, with their prices and projects read on `conn`
/// (sent together on PostgreSQL: neither waits for the other).
pub(super) async fn load_bundles(
    conn: &mut Conn,
    rows: Vec<BundleRow>,
) -> QueryResult<Vec<Bundle>> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    let (prices, members): (Vec<PriceRow>, Vec<MemberRow>) = match conn {
        Conn::Pg(c) => {
            let c: &diesel_async::AsyncPgConnection = c;
            crate::db::sent_together!(
                prices_of_bundles!(&ids).load(&mut &*c),
                projects_of_bundles!(&ids).load(&mut &*c),
            )?
        }
        Conn::Sqlite(c) => (
            prices_of_bundles!(&ids).load(&mut **c).await?,
            projects_of_bundles!(&ids).load(&mut **c).await?,
        ),
    };
    assemble_bundles(rows, prices, members)
}

/// Bundles from their rows and the rows of their prices and projects.
pub(super) fn assemble_bundles(
    rows: Vec<BundleRow>,
    price_rows: Vec<PriceRow>,
    member_rows: Vec<MemberRow>,
) -> QueryResult<Vec<Bundle>> {
    let mut prices: HashMap<String, Vec<BundlePrice>> = HashMap::new();
    for (bundle, currency, minor) in price_rows {
        let currency: Currency = currency
            .parse()
            .map_err(|_| corrupt("currency", &currency))?;
        prices.entry(bundle).or_default().push(BundlePrice {
            unit_price: Money::from_minor(minor, currency),
        });
    }
    let mut members: HashMap<String, Vec<ProjectId>> = HashMap::new();
    for (bundle, project) in member_rows {
        members
            .entry(bundle)
            .or_default()
            .push(parse_id("project id", &project)?);
    }
    rows.into_iter()
        .map(|r| {
            let p = prices.remove(&r.id).unwrap_or_default();
            let m = members.remove(&r.id).unwrap_or_default();
            r.into_domain(p, m)
        })
        .collect()
}

/// Portfolios from their `(id, identifier, label)` rows, with their selections in order.
pub(super) async fn load_portfolios(
    conn: &mut Conn,
    rows: Vec<(String, String, String)>,
) -> QueryResult<Vec<BundlePortfolio>> {
    let ids: Vec<String> = rows.iter().map(|(id, _, _)| id.clone()).collect();
    let entries: Vec<(String, String, i32)> = on!(conn, |c| bundle_portfolio_bundles::table
        .filter(bundle_portfolio_bundles::portfolio_id.eq_any(&ids))
        .order((
            bundle_portfolio_bundles::portfolio_id.asc(),
            bundle_portfolio_bundles::position.asc(),
        ))
        .select((
            bundle_portfolio_bundles::portfolio_id,
            bundle_portfolio_bundles::bundle_id,
            bundle_portfolio_bundles::share,
        ))
        .load(c)
        .await)?;
    let mut selections: HashMap<String, Vec<(BundleId, u32)>> = HashMap::new();
    for (portfolio, bundle, share) in entries {
        let share = u32::try_from(share).map_err(|_| corrupt("portfolio share", &portfolio))?;
        selections
            .entry(portfolio)
            .or_default()
            .push((parse_id("bundle id", &bundle)?, share));
    }
    rows.into_iter()
        .map(|(id, identifier, label)| {
            Ok(BundlePortfolio {
                selection: selections.remove(&id).unwrap_or_default(),
                id: parse_id::<BundlePortfolioId>("bundle portfolio id", &id)?,
                identifier,
                label,
            })
        })
        .collect()
}
