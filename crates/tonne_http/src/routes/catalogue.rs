//! `/v1/projects` and `/v1/bundles`: the catalogue, read-only.

use actix_web::{HttpResponse, web};
use rust_decimal::prelude::ToPrimitive as _;
use serde::{Deserialize, Serialize};
use tonne_kernel::Currency;
use tonne_ordering::{Bundle, BundleView, Project, ProjectView};
use utoipa::{IntoParams, ToSchema};

use crate::error::ApiError;
use crate::extract::{Authenticated, MaybeAuthenticated, PageQuery};
use crate::state::AppState;
use crate::wire::{ErrorsResponse, KeyErrors, RateLimited, paginated};

/// The contract's `BundleSummary`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = BundleSummaryBody)]
pub struct BundleSummaryResponse {
    id: String,
    name: String,
    /// Price per tonne in `currency`, before commission.
    unit_price: String,
    /// Price per tonne including commission.
    gross_unit_price: String,
    currency: String,
    background_colour: Option<String>,
    primary_image: Option<String>,
    large_image: Option<String>,
    primary_image_hires: Option<String>,
    small_thumbnail: Option<String>,
    description: Option<String>,
    disabled: bool,
    /// Tonnes left; null is unlimited.
    available_quantity: Option<String>,
    offset_type: Option<&'static str>,
    /// `traditional` or `innovative` (2024), or null.
    approach: Option<&'static str>,
    /// `long_term`, `short_term` or `no_storage` (2024: never null).
    carbon_permanence: &'static str,
}

/// The contract's `Media`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = MediaBody)]
pub struct MediaResponse {
    #[serde(rename = "type")]
    kind: String,
    url: String,
    attribution_text: Option<String>,
    attribution_url: Option<String>,
}

/// The contract's `ProjectSummary`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ProjectSummaryBody)]
pub struct ProjectSummaryResponse {
    id: String,
    name: String,
    short_name: String,
    slug: String,
    description: String,
    project_type: String,
    registry_name: &'static str,
    registry_link: Option<String>,
    latitude: f64,
    longitude: f64,
    country_name: String,
    country_code: String,
    region: Option<String>,
    logo: Option<String>,
    primary_image: Option<String>,
    thumbnail_image: Option<String>,
    results: Vec<String>,
    un_sdg: Vec<u8>,
    media: Vec<MediaResponse>,
    disabled: bool,
    /// Crediting period start, `YYYY-MM-DD`, or null when unknown.
    crediting_start_date: Option<String>,
    /// Crediting period end, `YYYY-MM-DD`, or null when unknown.
    crediting_end_date: Option<String>,
    /// Registration date, `YYYY-MM-DD`, or null when unknown.
    registration_date: Option<String>,
    /// Standards followed, or null when unknown.
    protocol: Option<Vec<String>>,
    methodology: Option<String>,
    durability: Option<String>,
    /// Other standards met, or null when unknown.
    additional_standards_met: Option<Vec<String>>,
    verifying_body: Option<String>,
    risk_of_reversal: Option<String>,
    risk_of_predicted_emissions: Option<String>,
    /// Tonnes CO2e per year, a decimal string, or null when unknown.
    avg_annual_emission_reductions: Option<String>,
}

/// The contract's `Project`. The 2024 sections Tonne's catalogue does not
/// hold (impact summary, datasets, quality assessment, links and news,
/// carbon credits, timeline, carbon storage over time) are `null`, which the
/// contract defines as "no data or the section is disabled".
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ProjectBody)]
pub struct ProjectResponse {
    #[serde(flatten)]
    summary: ProjectSummaryResponse,
    bundles: Vec<BundleSummaryResponse>,
    #[schema(value_type = Option<Vec<Object>>)]
    impact_summary: Option<Unpublished>,
    #[schema(value_type = Option<Vec<Object>>)]
    datasets: Option<Unpublished>,
    #[schema(value_type = Option<Object>)]
    quality_assessment: Option<Unpublished>,
    #[schema(value_type = Option<Object>)]
    links_and_news: Option<Unpublished>,
    #[schema(value_type = Option<Object>)]
    carbon_credits: Option<Unpublished>,
    #[schema(value_type = Option<Vec<Object>>)]
    timeline: Option<Unpublished>,
    #[schema(value_type = Option<Vec<Object>>)]
    carbon_storage_over_time: Option<Unpublished>,
}

/// A section the catalogue has no data for: it has no value, so the field is always `null`.
#[derive(Debug, Serialize)]
pub enum Unpublished {}

/// The contract's `Bundle`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = BundleBody)]
pub struct BundleResponse {
    #[serde(flatten)]
    summary: BundleSummaryResponse,
    projects: Vec<ProjectSummaryResponse>,
}

paginated! {
    /// The contract's `PaginatedProjects`, with `next_cursor`.
    PaginatedProjects of ProjectResponse
}

paginated! {
    /// The contract's `PaginatedBundles`, with `next_cursor`.
    PaginatedBundles of BundleResponse
}

fn bundle_summary(state: &AppState, b: &Bundle, currency: Currency) -> BundleSummaryResponse {
    // Priced in the caller's currency; a bundle not sold in it shows its first price.
    let price = state.ordering.display_price(b, currency).or_else(|| {
        b.prices
            .first()
            .and_then(|p| state.ordering.display_price(b, p.unit_price.currency()))
    });
    let (unit, gross, shown) = match price {
        Some((unit, gross)) => (
            unit.to_decimal_string(),
            gross.to_decimal_string(),
            unit.currency(),
        ),
        None => ("0.00".to_owned(), "0.00".to_owned(), currency),
    };
    BundleSummaryResponse {
        id: b.id.to_string(),
        name: b.name.clone(),
        unit_price: unit,
        gross_unit_price: gross,
        currency: shown.code().to_owned(),
        background_colour: b.background_colour.clone(),
        primary_image: b.primary_image.clone(),
        large_image: b.large_image.clone(),
        primary_image_hires: b.primary_image_hires.clone(),
        small_thumbnail: b.small_thumbnail.clone(),
        description: b.description.clone(),
        disabled: b.disabled,
        available_quantity: b.available.map(|m| m.to_tonnes_string()),
        offset_type: b.offset_type.map(|t| t.as_str()),
        approach: b.approach.map(|a| a.as_str()),
        carbon_permanence: b.permanence.as_str(),
    }
}

fn project_summary(p: &Project) -> ProjectSummaryResponse {
    ProjectSummaryResponse {
        id: p.id.to_string(),
        name: p.name.clone(),
        short_name: p.short_name.clone(),
        slug: p.slug.clone(),
        description: p.description.clone(),
        project_type: p.project_type.clone(),
        registry_name: p.registry.as_str(),
        registry_link: p.registry_link.clone(),
        latitude: p.latitude.to_f64().unwrap_or_default(),
        longitude: p.longitude.to_f64().unwrap_or_default(),
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
            .map(|m| MediaResponse {
                kind: m.kind.clone(),
                url: m.url.clone(),
                attribution_text: m.attribution_text.clone(),
                attribution_url: m.attribution_url.clone(),
            })
            .collect(),
        disabled: p.disabled,
        crediting_start_date: p.facts.crediting_start_date.map(iso_date),
        crediting_end_date: p.facts.crediting_end_date.map(iso_date),
        registration_date: p.facts.registration_date.map(iso_date),
        protocol: known(&p.facts.protocol),
        methodology: p.facts.methodology.clone(),
        durability: p.facts.durability.clone(),
        additional_standards_met: known(&p.facts.additional_standards_met),
        verifying_body: p.facts.verifying_body.clone(),
        risk_of_reversal: p.facts.risk_of_reversal.clone(),
        risk_of_predicted_emissions: p.facts.risk_of_predicted_emissions.clone(),
        avg_annual_emission_reductions: p
            .facts
            .avg_annual_emission_reductions
            .map(|d| d.normalize().to_string()),
    }
}

/// `YYYY-MM-DD` (the contract's `format: date`).
fn iso_date(d: time::Date) -> String {
    format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day())
}

/// An empty list is a fact the catalogue does not know: `null`.
fn known(values: &[String]) -> Option<Vec<String>> {
    (!values.is_empty()).then(|| values.to_vec())
}

fn project_body(state: &AppState, v: &ProjectView, currency: Currency) -> ProjectResponse {
    ProjectResponse {
        summary: project_summary(&v.project),
        bundles: v
            .bundles
            .iter()
            .map(|b| bundle_summary(state, b, currency))
            .collect(),
        impact_summary: None,
        datasets: None,
        quality_assessment: None,
        links_and_news: None,
        carbon_credits: None,
        timeline: None,
        carbon_storage_over_time: None,
    }
}

pub(crate) fn bundle_body(state: &AppState, v: &BundleView, currency: Currency) -> BundleResponse {
    BundleResponse {
        summary: bundle_summary(state, &v.bundle, currency),
        projects: v.projects.iter().map(project_summary).collect(),
    }
}

/// `?currency=`: the prices' currency when no key says which.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CurrencyQuery {
    /// a `CurrencyCode`; without a key, prices are in this currency (default GBP)
    currency: Option<String>,
}

impl CurrencyQuery {
    /// The currency asked for, or 400.
    fn currency(&self) -> Result<Option<Currency>, ApiError> {
        self.currency
            .as_deref()
            .map(|c| c.parse().map_err(|e| ApiError::validation("currency", e)))
            .transpose()
    }
}

/// The filter of the project and bundle lists.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RecentlyDisabledQuery {
    /// `true`: also list items disabled in the last 30 days
    #[param(value_type = Option<bool>)]
    recently_disabled: Option<String>,
}

impl RecentlyDisabledQuery {
    /// `recently_disabled` (`true`/`false`, default false), or 400.
    fn recently_disabled(&self) -> Result<bool, ApiError> {
        match self.recently_disabled.as_deref() {
            None | Some("false") => Ok(false),
            Some("true") => Ok(true),
            Some(_) => Err(ApiError::validation(
                "recently_disabled",
                "must be `true` or `false`",
            )),
        }
    }
}

/// Prices are shown in the acting account's currency; without a key, in `?currency=` (default GBP).
async fn display_currency(
    state: &AppState,
    who: Option<&tonne_accounts::Caller>,
    query: &CurrencyQuery,
) -> Result<Currency, ApiError> {
    if let Some(asked) = query.currency()? {
        return Ok(asked);
    }
    match who {
        Some(caller) => Ok(state.accounts.me(caller).await?.currency),
        None => Ok(Currency::Gbp),
    }
}

/// Projects, in id order.
#[utoipa::path(get, path = "/v1/projects", tag = "Projects", operation_id = "listProjects",
    security(("BearerAuth" = [])),
    params(
        PageQuery,
        RecentlyDisabledQuery,
        CurrencyQuery,
    ),
    responses(
        (status = 200, description = "OK", body = PaginatedProjects),
        (status = 400, description = "Invalid parameter", body = ErrorsResponse),
        KeyErrors,
    ))]
pub async fn list_projects(
    state: web::Data<AppState>,
    who: Authenticated,
    page: web::Query<PageQuery>,
    query: web::Query<RecentlyDisabledQuery>,
    currency: web::Query<CurrencyQuery>,
) -> Result<HttpResponse, ApiError> {
    let currency = display_currency(&state, Some(&who.0), &currency).await?;
    let page = state
        .ordering
        .list_projects(query.recently_disabled()?, page.page()?)
        .await?;
    Ok(HttpResponse::Ok().json(PaginatedProjects::of(
        &page,
        |v| v.project.id.to_string(),
        |v| project_body(&state, v, currency),
    )))
}

/// A project by id (public).
#[utoipa::path(get, path = "/v1/projects/{id}", tag = "Projects", operation_id = "getProject",
    params(("id" = String, Path, description = "The project's id")),
    responses(
        (status = 200, description = "OK", body = ProjectResponse),
        (status = 404, description = "No such project", body = ErrorsResponse),
        RateLimited,
    ))]
pub async fn get_project(
    state: web::Data<AppState>,
    who: MaybeAuthenticated,
    id: web::Path<String>,
    query: web::Query<CurrencyQuery>,
) -> Result<HttpResponse, ApiError> {
    let currency = display_currency(&state, who.0.as_ref(), &query).await?;
    let view = state.ordering.project(&id).await?;
    Ok(HttpResponse::Ok().json(project_body(&state, &view, currency)))
}

/// A project by slug (public).
#[utoipa::path(get, path = "/v1/projects/by-slug/{slug}", tag = "Projects", operation_id = "getProjectBySlug",
    params(("slug" = String, Path, description = "The project's slug")),
    responses(
        (status = 200, description = "OK", body = ProjectResponse),
        (status = 404, description = "No such project", body = ErrorsResponse),
        RateLimited,
    ))]
pub async fn get_project_by_slug(
    state: web::Data<AppState>,
    who: MaybeAuthenticated,
    slug: web::Path<String>,
    query: web::Query<CurrencyQuery>,
) -> Result<HttpResponse, ApiError> {
    let currency = display_currency(&state, who.0.as_ref(), &query).await?;
    let view = state.ordering.project_by_slug(&slug).await?;
    Ok(HttpResponse::Ok().json(project_body(&state, &view, currency)))
}

/// Bundles, in id order.
#[utoipa::path(get, path = "/v1/bundles", tag = "Projects", operation_id = "listBundles",
    security(("BearerAuth" = [])),
    params(
        PageQuery,
        RecentlyDisabledQuery,
        CurrencyQuery,
    ),
    responses(
        (status = 200, description = "OK", body = PaginatedBundles),
        (status = 400, description = "Invalid parameter", body = ErrorsResponse),
        KeyErrors,
    ))]
pub async fn list_bundles(
    state: web::Data<AppState>,
    who: Authenticated,
    page: web::Query<PageQuery>,
    query: web::Query<RecentlyDisabledQuery>,
    currency: web::Query<CurrencyQuery>,
) -> Result<HttpResponse, ApiError> {
    let currency = display_currency(&state, Some(&who.0), &currency).await?;
    let page = state
        .ordering
        .list_bundles(query.recently_disabled()?, page.page()?)
        .await?;
    Ok(HttpResponse::Ok().json(PaginatedBundles::of(
        &page,
        |v| v.bundle.id.to_string(),
        |v| bundle_body(&state, v, currency),
    )))
}

/// A bundle by id (public).
#[utoipa::path(get, path = "/v1/bundles/{id}", tag = "Projects", operation_id = "getBundle",
    params(("id" = String, Path, description = "The bundle's id")),
    responses(
        (status = 200, description = "OK", body = BundleResponse),
        (status = 404, description = "No such bundle", body = ErrorsResponse),
        RateLimited,
    ))]
pub async fn get_bundle(
    state: web::Data<AppState>,
    who: MaybeAuthenticated,
    id: web::Path<String>,
    query: web::Query<CurrencyQuery>,
) -> Result<HttpResponse, ApiError> {
    let currency = display_currency(&state, who.0.as_ref(), &query).await?;
    let view = state.ordering.bundle(&id).await?;
    Ok(HttpResponse::Ok().json(bundle_body(&state, &view, currency)))
}

/// Registers the catalogue routes (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/projects").route(web::get().to(list_projects)))
        .service(
            web::resource("/projects/by-slug/{slug}").route(web::get().to(get_project_by_slug)),
        )
        .service(web::resource("/projects/{id}").route(web::get().to(get_project)))
        .service(web::resource("/bundles").route(web::get().to(list_bundles)))
        .service(web::resource("/bundles/{id}").route(web::get().to(get_bundle)));
}
