//! The catalogue on either backend.

use std::collections::HashMap;

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use time::{OffsetDateTime, PrimitiveDateTime};
use tonne_kernel::{
    AccountId, AuditEntry, Currency, Cursor, Mass, Money, Page, PageRequest, StoreError,
};
use tonne_ordering::ports::{Catalogue, CatalogueRepository, ImportSummary, Visibility};
use tonne_ordering::{
    Approach, Bundle, BundleEdit, BundleId, BundlePortfolio, BundlePortfolioId, BundlePrice,
    CarbonPermanence, Media, OffsetType, Project, ProjectFacts, ProjectId, Registry, StockEntry,
    StockEntryId,
};

use crate::db::{AnyConnection, Db};
use crate::error::{corrupt, decode_error, encode_error, store_error};
use crate::mapping::{from_sql_time, parse_id, to_sql_time};
use crate::schema::{
    account_bundle_selections, accounts, bundle_portfolio_bundles, bundle_portfolios,
    bundle_prices, bundle_projects, bundles, projects,
};

const DATE: &[time::format_description::FormatItem<'static>] =
    time::macros::format_description!("[year]-[month]-[day]");

/// A project's `facts` column.
#[derive(Serialize, Deserialize, Default)]
#[serde(default)]
struct FactsJson {
    crediting_start_date: Option<String>,
    crediting_end_date: Option<String>,
    registration_date: Option<String>,
    protocol: Vec<String>,
    methodology: Option<String>,
    durability: Option<String>,
    additional_standards_met: Vec<String>,
    verifying_body: Option<String>,
    risk_of_reversal: Option<String>,
    risk_of_predicted_emissions: Option<String>,
    avg_annual_emission_reductions: Option<String>,
}

fn date_to_sql(date: Option<time::Date>) -> Result<Option<String>, DieselError> {
    date.map(|d| {
        d.format(DATE)
            .map_err(|e| DieselError::SerializationError(Box::new(e)))
    })
    .transpose()
}

fn date_from_sql(what: &str, raw: Option<&str>) -> Result<Option<time::Date>, DieselError> {
    raw.map(|r| time::Date::parse(r, DATE).map_err(|_| corrupt(what, r)))
        .transpose()
}

fn encode_facts(f: &ProjectFacts) -> Result<String, DieselError> {
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

fn decode_facts(raw: &str) -> Result<ProjectFacts, DieselError> {
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

/// Projects, bundles, prices and memberships on either backend.
#[derive(Debug, Clone)]
pub struct CatalogueStore {
    db: Db,
}

impl CatalogueStore {
    /// A repository over a pool.
    pub fn new(db: Db) -> Self {
        Self { db }
    }
}

#[derive(Serialize, Deserialize)]
struct MediaJson {
    #[serde(rename = "type")]
    kind: String,
    url: String,
    attribution_text: Option<String>,
    attribution_url: Option<String>,
}

#[derive(Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = projects, treat_none_as_null = true)]
struct ProjectRow {
    id: String,
    slug: String,
    name: String,
    short_name: String,
    description: String,
    project_type: String,
    registry_name: String,
    registry_link: Option<String>,
    latitude: String,
    longitude: String,
    country_name: String,
    country_code: String,
    region: Option<String>,
    logo: Option<String>,
    primary_image: Option<String>,
    thumbnail_image: Option<String>,
    results: String,
    un_sdg: String,
    media: String,
    disabled: bool,
    disabled_at: Option<PrimitiveDateTime>,
    #[diesel(skip_update)]
    created_at: PrimitiveDateTime,
    updated_at: PrimitiveDateTime,
    facts: String,
}

impl ProjectRow {
    fn from_domain(p: &Project, at: OffsetDateTime) -> Result<Self, DieselError> {
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

    fn into_domain(self, bundle_ids: Vec<BundleId>) -> Result<Project, DieselError> {
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
struct BundleRow {
    id: String,
    name: String,
    description: Option<String>,
    background_colour: Option<String>,
    primary_image: Option<String>,
    large_image: Option<String>,
    primary_image_hires: Option<String>,
    small_thumbnail: Option<String>,
    available_grams: Option<i64>,
    offset_type: Option<String>,
    carbon_permanence: Option<String>,
    disabled: bool,
    disabled_at: Option<PrimitiveDateTime>,
    default_share: Option<i32>,
    #[diesel(skip_update)]
    created_at: PrimitiveDateTime,
    updated_at: PrimitiveDateTime,
    approach: Option<String>,
}

impl BundleRow {
    fn from_domain(b: &Bundle, at: OffsetDateTime) -> Self {
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

    fn into_domain(
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
fn memberships_of_projects(
    conn: &mut AnyConnection,
    ids: &[String],
) -> QueryResult<HashMap<String, Vec<BundleId>>> {
    let rows: Vec<(String, String)> = bundle_projects::table
        .filter(bundle_projects::project_id.eq_any(ids))
        .order((
            bundle_projects::bundle_id.asc(),
            bundle_projects::position.asc(),
        ))
        .select((bundle_projects::project_id, bundle_projects::bundle_id))
        .load(conn)?;
    let mut out: HashMap<String, Vec<BundleId>> = HashMap::new();
    for (project, bundle) in rows {
        out.entry(project)
            .or_default()
            .push(parse_id("bundle id", &bundle)?);
    }
    Ok(out)
}

fn load_projects(conn: &mut AnyConnection, rows: Vec<ProjectRow>) -> QueryResult<Vec<Project>> {
    let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    let mut members = memberships_of_projects(conn, &ids)?;
    rows.into_iter()
        .map(|r| {
            let bundles = members.remove(&r.id).unwrap_or_default();
            r.into_domain(bundles)
        })
        .collect()
}

fn load_bundles(conn: &mut AnyConnection, rows: Vec<BundleRow>) -> QueryResult<Vec<Bundle>> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    let price_rows: Vec<(String, String, i64)> = bundle_prices::table
        .filter(bundle_prices::bundle_id.eq_any(&ids))
        .order((
            bundle_prices::bundle_id.asc(),
            bundle_prices::currency.asc(),
        ))
        .select((
            bundle_prices::bundle_id,
            bundle_prices::currency,
            bundle_prices::unit_price_minor,
        ))
        .load(conn)?;
    let mut prices: HashMap<String, Vec<BundlePrice>> = HashMap::new();
    for (bundle, currency, minor) in price_rows {
        let currency: Currency = currency
            .parse()
            .map_err(|_| corrupt("currency", &currency))?;
        prices.entry(bundle).or_default().push(BundlePrice {
            unit_price: Money::from_minor(minor, currency),
        });
    }
    let member_rows: Vec<(String, String)> = bundle_projects::table
        .filter(bundle_projects::bundle_id.eq_any(&ids))
        .order((
            bundle_projects::bundle_id.asc(),
            bundle_projects::position.asc(),
        ))
        .select((bundle_projects::bundle_id, bundle_projects::project_id))
        .load(conn)?;
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
fn load_portfolios(
    conn: &mut AnyConnection,
    rows: Vec<(String, String, String)>,
) -> QueryResult<Vec<BundlePortfolio>> {
    let ids: Vec<String> = rows.iter().map(|(id, _, _)| id.clone()).collect();
    let entries: Vec<(String, String, i32)> = bundle_portfolio_bundles::table
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
        .load(conn)?;
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

#[async_trait]
impl CatalogueRepository for CatalogueStore {
    async fn list_projects(
        &self,
        visibility: Visibility,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Project>, StoreError> {
        let after = page.after.as_ref().map(|c| c.as_str().to_owned());
        let limit = page.limit;
        let since = visibility.disabled_since.map(to_sql_time);
        self.db
            .read(move |conn| {
                let mut q = projects::table.select(ProjectRow::as_select()).into_boxed();
                q = match since {
                    Some(since) => q.filter(
                        projects::disabled
                            .eq(false)
                            .or(projects::disabled_at.ge(since)),
                    ),
                    None => q.filter(projects::disabled.eq(false)),
                };
                if let Some(after) = after {
                    q = q.filter(projects::id.gt(after));
                }
                let rows: Vec<ProjectRow> = q
                    .order(projects::id.asc())
                    .limit(i64::from(limit.get()) + 1)
                    .load(conn)?;
                Ok(Page::from_overfetch(load_projects(conn, rows)?, limit))
            })
            .await
            .map_err(|e| store_error(e, "listing projects"))
    }

    async fn project(&self, id: ProjectId) -> Result<Option<Project>, StoreError> {
        let id = id.to_string();
        self.db
            .read(move |conn| {
                let rows: Vec<ProjectRow> = projects::table
                    .find(id)
                    .select(ProjectRow::as_select())
                    .load(conn)?;
                Ok(load_projects(conn, rows)?.into_iter().next())
            })
            .await
            .map_err(|e| store_error(e, "reading a project"))
    }

    async fn project_by_slug(&self, slug: &str) -> Result<Option<Project>, StoreError> {
        let slug = slug.to_owned();
        self.db
            .read(move |conn| {
                let rows: Vec<ProjectRow> = projects::table
                    .filter(projects::slug.eq(slug))
                    .select(ProjectRow::as_select())
                    .load(conn)?;
                Ok(load_projects(conn, rows)?.into_iter().next())
            })
            .await
            .map_err(|e| store_error(e, "reading a project by slug"))
    }

    async fn list_bundles(
        &self,
        visibility: Visibility,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Bundle>, StoreError> {
        let after = page.after.as_ref().map(|c| c.as_str().to_owned());
        let limit = page.limit;
        let since = visibility.disabled_since.map(to_sql_time);
        self.db
            .read(move |conn| {
                let mut q = bundles::table.select(BundleRow::as_select()).into_boxed();
                q = match since {
                    Some(since) => q.filter(
                        bundles::disabled
                            .eq(false)
                            .or(bundles::disabled_at.ge(since)),
                    ),
                    None => q.filter(bundles::disabled.eq(false)),
                };
                if let Some(after) = after {
                    q = q.filter(bundles::id.gt(after));
                }
                let rows: Vec<BundleRow> = q
                    .order(bundles::id.asc())
                    .limit(i64::from(limit.get()) + 1)
                    .load(conn)?;
                Ok(Page::from_overfetch(load_bundles(conn, rows)?, limit))
            })
            .await
            .map_err(|e| store_error(e, "listing bundles"))
    }

    async fn projects(&self, ids: &[ProjectId]) -> Result<Vec<Project>, StoreError> {
        let ids: Vec<String> = ids.iter().map(ToString::to_string).collect();
        self.db
            .read(move |conn| {
                let rows: Vec<ProjectRow> = projects::table
                    .filter(projects::id.eq_any(&ids))
                    .select(ProjectRow::as_select())
                    .load(conn)?;
                load_projects(conn, rows)
            })
            .await
            .map_err(|e| store_error(e, "reading projects"))
    }

    async fn bundles(&self, ids: &[BundleId]) -> Result<Vec<Bundle>, StoreError> {
        let ids: Vec<String> = ids.iter().map(ToString::to_string).collect();
        self.db
            .read(move |conn| {
                let rows: Vec<BundleRow> = bundles::table
                    .filter(bundles::id.eq_any(&ids))
                    .select(BundleRow::as_select())
                    .load(conn)?;
                load_bundles(conn, rows)
            })
            .await
            .map_err(|e| store_error(e, "reading bundles"))
    }

    async fn default_selection(&self) -> Result<Vec<Bundle>, StoreError> {
        self.db
            .read(move |conn| {
                let rows: Vec<BundleRow> = bundles::table
                    .filter(bundles::default_share.is_not_null())
                    .filter(bundles::disabled.eq(false))
                    .order(bundles::id.asc())
                    .select(BundleRow::as_select())
                    .load(conn)?;
                load_bundles(conn, rows)
            })
            .await
            .map_err(|e| store_error(e, "reading the default selection"))
    }

    async fn account_selection(
        &self,
        account: AccountId,
    ) -> Result<Vec<(Bundle, u32)>, StoreError> {
        let account = account.to_string();
        self.db
            .read(move |conn| {
                // Prepared (cached) statements: the account's own selection,
                // else the portfolio it follows, joined in one query (an id
                // naming no portfolio selects nothing).
                let mut chosen: Vec<(String, i32)> = account_bundle_selections::table
                    .filter(account_bundle_selections::account_id.eq(&account))
                    .order(account_bundle_selections::position.asc())
                    .select((
                        account_bundle_selections::bundle_id,
                        account_bundle_selections::share,
                    ))
                    .load(conn)?;
                if chosen.is_empty() {
                    chosen = accounts::table
                        .inner_join(
                            bundle_portfolio_bundles::table.on(accounts::bundle_portfolio_id
                                .eq(bundle_portfolio_bundles::portfolio_id.nullable())),
                        )
                        .filter(accounts::id.eq(&account))
                        .order(bundle_portfolio_bundles::position.asc())
                        .select((
                            bundle_portfolio_bundles::bundle_id,
                            bundle_portfolio_bundles::share,
                        ))
                        .load(conn)?;
                }
                if chosen.is_empty() {
                    return Ok(Vec::new());
                }
                let ids: Vec<String> = chosen.iter().map(|(id, _)| id.clone()).collect();
                let rows: Vec<BundleRow> = bundles::table
                    .filter(bundles::id.eq_any(&ids))
                    .select(BundleRow::as_select())
                    .load(conn)?;
                let found = load_bundles(conn, rows)?;
                Ok(chosen
                    .into_iter()
                    .filter_map(|(id, share)| {
                        let bundle = found.iter().find(|b| b.id.to_string() == id)?.clone();
                        Some((bundle, u32::try_from(share).unwrap_or(0)))
                    })
                    .collect())
            })
            .await
            .map_err(|e| store_error(e, "reading an account's selection"))
    }

    async fn set_account_selection(
        &self,
        account: AccountId,
        selection: &[(BundleId, u32)],
        audit: Option<AuditEntry>,
    ) -> Result<(), StoreError> {
        let account = account.to_string();
        let rows: Vec<(String, i32)> = selection
            .iter()
            .map(|(id, share)| (id.to_string(), i32::try_from(*share).unwrap_or(0)))
            .collect();
        self.db
            .write(move |conn| {
                diesel::delete(
                    account_bundle_selections::table
                        .filter(account_bundle_selections::account_id.eq(&account)),
                )
                .execute(conn)?;
                diesel::update(accounts::table.find(&account))
                    .set(accounts::bundle_portfolio_id.eq(None::<String>))
                    .execute(conn)?;
                for (position, (bundle, share)) in rows.iter().enumerate() {
                    diesel::insert_into(account_bundle_selections::table)
                        .values((
                            account_bundle_selections::account_id.eq(&account),
                            account_bundle_selections::bundle_id.eq(bundle),
                            account_bundle_selections::position
                                .eq(i32::try_from(position).unwrap_or(i32::MAX)),
                            account_bundle_selections::share.eq(share),
                        ))
                        .execute(conn)?;
                }
                crate::audit::record(conn, &audit)
            })
            .await
            .map_err(|e| store_error(e, "setting an account's selection"))
    }

    async fn portfolios(&self) -> Result<Vec<BundlePortfolio>, StoreError> {
        self.db
            .read(move |conn| {
                let rows: Vec<(String, String, String)> = bundle_portfolios::table
                    .order(bundle_portfolios::identifier.asc())
                    .select((
                        bundle_portfolios::id,
                        bundle_portfolios::identifier,
                        bundle_portfolios::label,
                    ))
                    .load(conn)?;
                load_portfolios(conn, rows)
            })
            .await
            .map_err(|e| store_error(e, "listing bundle portfolios"))
    }

    async fn portfolio(
        &self,
        id: BundlePortfolioId,
    ) -> Result<Option<BundlePortfolio>, StoreError> {
        let id = id.to_string();
        self.db
            .read(move |conn| {
                let rows: Vec<(String, String, String)> = bundle_portfolios::table
                    .find(&id)
                    .select((
                        bundle_portfolios::id,
                        bundle_portfolios::identifier,
                        bundle_portfolios::label,
                    ))
                    .load(conn)?;
                Ok(load_portfolios(conn, rows)?.into_iter().next())
            })
            .await
            .map_err(|e| store_error(e, "reading a bundle portfolio"))
    }

    async fn set_account_portfolio(
        &self,
        account: AccountId,
        portfolio: BundlePortfolioId,
    ) -> Result<(), StoreError> {
        let account = account.to_string();
        let portfolio = portfolio.to_string();
        self.db
            .write(move |conn| {
                let updated = diesel::update(accounts::table.find(&account))
                    .set(accounts::bundle_portfolio_id.eq(Some(&portfolio)))
                    .execute(conn)?;
                if updated == 0 {
                    return Err(DieselError::NotFound);
                }
                diesel::delete(
                    account_bundle_selections::table
                        .filter(account_bundle_selections::account_id.eq(&account)),
                )
                .execute(conn)?;
                Ok(())
            })
            .await
            .map_err(|e| store_error(e, "setting an account's bundle portfolio"))
    }

    async fn adjust_stock(
        &self,
        entry: StockEntry,
        audit: AuditEntry,
    ) -> Result<Option<StockEntry>, StoreError> {
        crate::stock::adjust(&self.db, entry, audit).await
    }

    async fn stock_ledger(
        &self,
        bundle: BundleId,
        page: &PageRequest<StockEntryId>,
    ) -> Result<Page<StockEntry>, StoreError> {
        crate::stock::ledger(&self.db, bundle, page).await
    }

    async fn update_bundle(
        &self,
        bundle: BundleId,
        edit: BundleEdit,
        at: OffsetDateTime,
        audit: AuditEntry,
    ) -> Result<(), StoreError> {
        crate::stock::update(&self.db, bundle, edit, at, audit).await
    }

    async fn set_bundle_disabled(
        &self,
        bundle: BundleId,
        at: Option<OffsetDateTime>,
        audit: AuditEntry,
    ) -> Result<(), StoreError> {
        crate::stock::set_disabled(&self.db, bundle, at, audit).await
    }

    async fn is_empty(&self) -> Result<bool, StoreError> {
        self.db
            .read(|conn| {
                diesel::select(diesel::dsl::not(diesel::dsl::exists(
                    bundles::table.select(bundles::id),
                )))
                .get_result(conn)
            })
            .await
            .map_err(|e| store_error(e, "checking the catalogue"))
    }

    async fn import(
        &self,
        catalogue: &Catalogue,
        at: OffsetDateTime,
        audit: Option<AuditEntry>,
    ) -> Result<ImportSummary, StoreError> {
        let project_rows = catalogue
            .projects
            .iter()
            .map(|p| ProjectRow::from_domain(p, at))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| {
                StoreError::Unexpected(anyhow::anyhow!(e).context("encoding a project"))
            })?;
        let bundles_in: Vec<(BundleRow, Vec<(String, i64)>, Vec<String>)> = catalogue
            .bundles
            .iter()
            .map(|b| {
                (
                    BundleRow::from_domain(b, at),
                    b.prices
                        .iter()
                        .map(|p| {
                            (
                                p.unit_price.currency().code().to_owned(),
                                p.unit_price.minor(),
                            )
                        })
                        .collect(),
                    b.project_ids.iter().map(ToString::to_string).collect(),
                )
            })
            .collect();
        let portfolios_in: Vec<(String, String, String, Vec<(String, i32)>)> = catalogue
            .portfolios
            .iter()
            .map(|p| {
                (
                    p.id.to_string(),
                    p.identifier.clone(),
                    p.label.clone(),
                    p.selection
                        .iter()
                        .map(|(id, share)| (id.to_string(), i32::try_from(*share).unwrap_or(0)))
                        .collect(),
                )
            })
            .collect();
        let stamp = to_sql_time(at);
        self.db
            .write(move |conn| {
                let mut summary = ImportSummary::default();
                for row in &project_rows {
                    let updated = diesel::update(projects::table.find(&row.id))
                        .set(row)
                        .execute(conn)?;
                    if updated == 0 {
                        diesel::insert_into(projects::table)
                            .values(row)
                            .execute(conn)?;
                        summary.projects_created += 1;
                    } else {
                        summary.projects_updated += 1;
                    }
                }
                for (row, prices, members) in &bundles_in {
                    let updated = diesel::update(bundles::table.find(&row.id))
                        .set(row)
                        .execute(conn)?;
                    if updated == 0 {
                        diesel::insert_into(bundles::table)
                            .values(row)
                            .execute(conn)?;
                        summary.bundles_created += 1;
                    } else {
                        summary.bundles_updated += 1;
                    }
                    diesel::delete(
                        bundle_prices::table.filter(bundle_prices::bundle_id.eq(&row.id)),
                    )
                    .execute(conn)?;
                    for (currency, minor) in prices {
                        diesel::insert_into(bundle_prices::table)
                            .values((
                                bundle_prices::bundle_id.eq(&row.id),
                                bundle_prices::currency.eq(currency),
                                bundle_prices::unit_price_minor.eq(minor),
                            ))
                            .execute(conn)?;
                    }
                    diesel::delete(
                        bundle_projects::table.filter(bundle_projects::bundle_id.eq(&row.id)),
                    )
                    .execute(conn)?;
                    for (position, project) in members.iter().enumerate() {
                        diesel::insert_into(bundle_projects::table)
                            .values((
                                bundle_projects::bundle_id.eq(&row.id),
                                bundle_projects::project_id.eq(project),
                                bundle_projects::position
                                    .eq(i32::try_from(position).unwrap_or(i32::MAX)),
                            ))
                            .execute(conn)?;
                    }
                }
                for (id, identifier, label, selection) in &portfolios_in {
                    let updated = diesel::update(bundle_portfolios::table.find(id))
                        .set((
                            bundle_portfolios::identifier.eq(identifier),
                            bundle_portfolios::label.eq(label),
                            bundle_portfolios::updated_at.eq(stamp),
                        ))
                        .execute(conn)?;
                    if updated == 0 {
                        diesel::insert_into(bundle_portfolios::table)
                            .values((
                                bundle_portfolios::id.eq(id),
                                bundle_portfolios::identifier.eq(identifier),
                                bundle_portfolios::label.eq(label),
                                bundle_portfolios::created_at.eq(stamp),
                                bundle_portfolios::updated_at.eq(stamp),
                            ))
                            .execute(conn)?;
                        summary.portfolios_created += 1;
                    } else {
                        summary.portfolios_updated += 1;
                    }
                    diesel::delete(
                        bundle_portfolio_bundles::table
                            .filter(bundle_portfolio_bundles::portfolio_id.eq(id)),
                    )
                    .execute(conn)?;
                    for (position, (bundle, share)) in selection.iter().enumerate() {
                        diesel::insert_into(bundle_portfolio_bundles::table)
                            .values((
                                bundle_portfolio_bundles::portfolio_id.eq(id),
                                bundle_portfolio_bundles::bundle_id.eq(bundle),
                                bundle_portfolio_bundles::position
                                    .eq(i32::try_from(position).unwrap_or(i32::MAX)),
                                bundle_portfolio_bundles::share.eq(share),
                            ))
                            .execute(conn)?;
                    }
                }
                if let Some(audit) = &audit {
                    let mut entry = audit.clone();
                    entry.after = entry
                        .after
                        .with("projects created", summary.projects_created)
                        .with("projects updated", summary.projects_updated)
                        .with("bundles created", summary.bundles_created)
                        .with("bundles updated", summary.bundles_updated);
                    crate::audit::record(conn, [&entry])?;
                }
                Ok(summary)
            })
            .await
            .map_err(|e| store_error(e, "importing the catalogue"))
    }
}
