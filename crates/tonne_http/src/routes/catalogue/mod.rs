//! `/v1/projects` and `/v1/bundles`: the catalogue, read-only.

mod wire;
pub use wire::*;

use actix_web::{HttpResponse, web};
use rust_decimal::prelude::ToPrimitive as _;
use tonne_kernel::{Currency, Cursor, PageRequest};
use tonne_ordering::{Bundle, BundleView, Project, ProjectView};

use crate::error::ApiError;
use crate::extract::{Authenticated, MaybeAuthenticated, PageQuery};
use crate::state::AppState;
use crate::wire::{ErrorsResponse, InvalidParameter, KeyErrors, RateLimited, paginated};

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

/// What a list of the catalogue asks for: the display currency, whether
/// recently disabled items are included, and the page (checked in this order).
async fn list_terms(
    state: &AppState,
    who: &Authenticated,
    page: &PageQuery,
    query: &RecentlyDisabledQuery,
    currency: &CurrencyQuery,
) -> Result<(Currency, bool, PageRequest<Cursor>), ApiError> {
    let currency = display_currency(state, Some(&who.0), currency).await?;
    Ok((currency, query.recently_disabled()?, page.page()?))
}

/// Projects, in id order.
#[utoipa::path(get, path = "/v1/projects", tag = "Projects", operation_id = "listProjects",
    security(("BearerAuth" = [])), params(PageQuery, RecentlyDisabledQuery, CurrencyQuery),
    responses((status = 200, description = "OK", body = PaginatedProjects), InvalidParameter, KeyErrors))]
pub async fn list_projects(
    state: web::Data<AppState>,
    who: Authenticated,
    page: web::Query<PageQuery>,
    query: web::Query<RecentlyDisabledQuery>,
    currency: web::Query<CurrencyQuery>,
) -> Result<HttpResponse, ApiError> {
    let (currency, recently_disabled, page) =
        list_terms(&state, &who, &page, &query, &currency).await?;
    let page = state
        .ordering
        .list_projects(recently_disabled, page)
        .await?;
    Ok(PaginatedProjects::answer(
        &page,
        |v| v.project.id.to_string(),
        |v| project_body(&state, v, currency),
    ))
}

/// A project by id (public).
#[utoipa::path(get, path = "/v1/projects/{id}", tag = "Projects", operation_id = "getProject",
    params(("id" = String, Path, description = "The project's id")),
    responses((status = 200, description = "OK", body = ProjectResponse), NoSuchProject, RateLimited))]
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
    responses((status = 200, description = "OK", body = ProjectResponse), NoSuchProject, RateLimited))]
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
    security(("BearerAuth" = [])), params(PageQuery, RecentlyDisabledQuery, CurrencyQuery),
    responses((status = 200, description = "OK", body = PaginatedBundles), InvalidParameter, KeyErrors))]
pub async fn list_bundles(
    state: web::Data<AppState>,
    who: Authenticated,
    page: web::Query<PageQuery>,
    query: web::Query<RecentlyDisabledQuery>,
    currency: web::Query<CurrencyQuery>,
) -> Result<HttpResponse, ApiError> {
    let (currency, recently_disabled, page) =
        list_terms(&state, &who, &page, &query, &currency).await?;
    let page = state.ordering.list_bundles(recently_disabled, page).await?;
    Ok(PaginatedBundles::answer(
        &page,
        |v| v.bundle.id.to_string(),
        |v| bundle_body(&state, v, currency),
    ))
}

/// A bundle by id (public).
#[utoipa::path(get, path = "/v1/bundles/{id}", tag = "Projects", operation_id = "getBundle",
    params(("id" = String, Path, description = "The bundle's id")),
    responses((status = 200, description = "OK", body = BundleResponse), (status = 404, description = "No such bundle", body = ErrorsResponse), RateLimited))]
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
