//! `/v1/sustainability-pages`: an account's public page of what it has
//! retired — its settings (create, change, read) and the public page itself as
//! the contract's JSON. The same page is served as HTML by the hosted pages
//! (`/sustainability/{type}/{slug}`); each settings answer names that address
//! in Tonne's `url`.

mod wire;
pub use wire::*;

use actix_web::{HttpResponse, web};
use tonne_impact::{
    Description, DescriptionFormat, PageSettings, PageStatus, PublicPage, Section, Slug,
    SustainabilityPage, Title, TitleFormat,
};
use tonne_kernel::AccountMode;

use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::state::AppState;
use crate::wire::{BodyErrors, ErrorsResponse, KeyErrors, RateLimited, sustainability_page_url};

fn settings(body: PageRequest) -> Result<PageSettings, ApiError> {
    let status = PageStatus::parse(&body.status)
        .ok_or_else(|| ApiError::validation("status", "must be enabled or disabled"))?;
    let slug = Slug::parse(&body.slug)?;
    let title = TitleFormat::parse(&body.title)
        .ok_or_else(|| ApiError::validation("title", "must be by_volume or by_price"))?;
    let description = body
        .description
        .flatten()
        .map(|d| {
            DescriptionFormat::parse(&d).ok_or_else(|| {
                ApiError::validation(
                    "description",
                    "must be by_equivalent, by_supported_goals, by_custom_description or null",
                )
            })
        })
        .transpose()?;
    if body.sections.len() > 3 {
        return Err(ApiError::validation("sections", "at most 3 sections"));
    }
    let sections = body
        .sections
        .iter()
        .map(|s| {
            Section::parse(s).ok_or_else(|| {
                ApiError::validation(
                    "sections",
                    "each must be bundles_breakdown, certificates or unsdg",
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(PageSettings::new(
        status,
        slug,
        title,
        description,
        body.custom_description.flatten(),
        sections,
    )?)
}

fn page_response(state: &AppState, page: &SustainabilityPage) -> PageResponse {
    let s = &page.settings;
    PageResponse {
        status: s.status.as_str(),
        slug: s.slug.as_str().to_owned(),
        title: s.title.as_str(),
        description: s.description.map(DescriptionFormat::as_str),
        custom_description: s.custom_description.clone(),
        sections: s.sections.iter().map(|s| s.as_str()).collect(),
        url: sustainability_page_url(&state.pages.public_url, page.mode, &s.slug),
    }
}

/// Creates the acting account's sustainability page (one per account).
#[utoipa::path(post, path = "/v1/sustainability-pages", tag = "Sustainability page", operation_id = "createSustainabilityPage",
    security(("BearerAuth" = [])), request_body = PageRequest,
    responses((status = 200, description = "OK", body = PageResponse), InvalidField, (status = 409, description = "The account has a page (sustainability_page_exists), or the slug is taken (sustainability_page_slug_not_unique)", body = ErrorsResponse), KeyErrors, BodyErrors))]
pub async fn create(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<PageRequest>,
) -> Result<HttpResponse, ApiError> {
    let settings = settings(body.0)?;
    let page = state.impact.create_page(who.viewer(), settings).await?;
    Ok(HttpResponse::Ok().json(page_response(&state, &page)))
}

/// Replaces the acting account's page settings (404 when it has no page).
#[utoipa::path(put, path = "/v1/sustainability-pages", tag = "Sustainability page", operation_id = "updateSustainabilityPage",
    security(("BearerAuth" = [])), request_body = PageRequest,
    responses((status = 200, description = "OK", body = PageResponse), InvalidField, NoPage, (status = 409, description = "The slug is taken (sustainability_page_slug_not_unique)", body = ErrorsResponse), KeyErrors, BodyErrors))]
pub async fn update(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<PageRequest>,
) -> Result<HttpResponse, ApiError> {
    let settings = settings(body.0)?;
    let page = state.impact.update_page(who.viewer(), settings).await?;
    Ok(HttpResponse::Ok().json(page_response(&state, &page)))
}

/// The acting account's page settings.
#[utoipa::path(get, path = "/v1/sustainability-pages/current-account", tag = "Sustainability page", operation_id = "getSustainabilityPage",
    security(("BearerAuth" = [])),
    responses((status = 200, description = "OK", body = PageResponse), NoPage, KeyErrors))]
pub async fn current(
    state: web::Data<AppState>,
    who: Authenticated,
) -> Result<HttpResponse, ApiError> {
    let page = state.impact.current_page(who.viewer()).await?;
    Ok(HttpResponse::Ok().json(page_response(&state, &page)))
}

/// The public JSON of a page.
pub fn public_response(public_url: &str, page: &PublicPage) -> PublicPageResponse {
    use rust_decimal::prelude::ToPrimitive as _;
    PublicPageResponse {
        title: match page.title {
            Title::ByVolume(mass) => PublicTitle::ByVolume {
                quantity: mass.to_tonnes_string(),
            },
            Title::ByPrice(money) => PublicTitle::ByPrice {
                currency: money.currency().code(),
                value: money.to_decimal_string(),
            },
        },
        description: page.description.as_ref().map(|d| match d {
            Description::ByEquivalent {
                flights_nyc_to_london,
            } => PublicDescription::ByEquivalent {
                flights_nyc_to_london: *flights_nyc_to_london,
            },
            Description::BySupportedGoals {
                number_of_un_sdgs,
                number_of_projects,
            } => PublicDescription::BySupportedGoals {
                number_of_un_sdgs: *number_of_un_sdgs,
                number_of_projects: *number_of_projects,
            },
            Description::ByCustomDescription(text) => PublicDescription::ByCustomDescription {
                custom_description: text.clone(),
            },
        }),
        include_certificates: page.settings.shows(Section::Certificates),
        bundles: page.bundles.as_ref().map(|shares| {
            shares
                .iter()
                .map(|s| PublicBundleShare {
                    percent_of_total: s.percent_of_total.to_f64().unwrap_or(0.0),
                    quantity: s.quantity.to_tonnes_string(),
                    bundle: PublicBundle {
                        name: s.bundle.name.clone(),
                        background_colour: s.bundle.background_colour.clone(),
                        primary_image: s.bundle.primary_image.clone(),
                        primary_image_hires: s.bundle.primary_image_hires.clone(),
                        small_thumbnail: s.bundle.small_thumbnail.clone(),
                        description: s.bundle.description.clone(),
                        offset_type: s.bundle.offset_type.map(|t| t.as_str()),
                        carbon_permanence: s.bundle.permanence.as_str(),
                    },
                })
                .collect()
        }),
        un_sdg: page.un_sdg.as_ref().map(|goals| {
            goals
                .iter()
                .map(|g| PublicSdg {
                    un_sdg_number: g.goal,
                    occurrences: g.projects,
                })
                .collect()
        }),
        logo: page.holder.logo.clone(),
        organisation_logo: None,
        account_name: page.holder.name.clone(),
        url: sustainability_page_url(public_url, page.holder.mode, &page.settings.slug),
        certificates: page.certificates.as_ref().map(|orders| {
            orders
                .iter()
                .map(|o| PublicCertificate {
                    order_id: o.id.to_string(),
                    quantity: o.quantity.to_tonnes_string(),
                    created_at: crate::wire::rfc3339(o.created_at),
                    url: format!("{public_url}/certificates/{}", o.id),
                })
                .collect()
        }),
    }
}

/// `live` or `test` from a path, else 404 (the contract's `AccountType`).
fn mode_of(raw: &str) -> Result<AccountMode, ApiError> {
    raw.parse()
        .map_err(|_| ApiError::not_found("sustainability page not found"))
}

/// A public page by its slug (no key needed).
#[utoipa::path(get, path = "/v1/sustainability-pages/public/{type}/{slug}", tag = "Sustainability page", operation_id = "getPublicSustainabilityPageBySlug",
    params(("type" = String, Path, description = "live or test"), ("slug" = String, Path, description = "The page's slug")),
    responses((status = 200, description = "OK", body = PublicPageResponse), NoPublicPage, RateLimited))]
pub async fn public_by_slug(
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (kind, slug) = path.into_inner();
    let page = state.impact.public_by_slug(mode_of(&kind)?, &slug).await?;
    Ok(HttpResponse::Ok().json(public_response(&state.pages.public_url, &page)))
}

/// A public page by its account's organisation and handle (no key needed).
#[utoipa::path(get, path = "/v1/sustainability-pages/public/{organisation_id}/{type}/{handle}", tag = "Sustainability page", operation_id = "getPublicSustainabilityPageByHandle",
    params(("organisation_id" = String, Path, description = "The account's organisation"), ("type" = String, Path, description = "live or test"), ("handle" = String, Path, description = "The account's handle")),
    responses((status = 200, description = "OK", body = PublicPageResponse), NoPublicPage, RateLimited))]
pub async fn public_by_handle(
    state: web::Data<AppState>,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (organisation, kind, handle) = path.into_inner();
    let page = state
        .impact
        .public_by_handle(&organisation, mode_of(&kind)?, &handle)
        .await?;
    Ok(HttpResponse::Ok().json(public_response(&state.pages.public_url, &page)))
}

/// Registers the routes (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/sustainability-pages")
            .route(web::post().to(create))
            .route(web::put().to(update)),
    )
    .route(
        "/sustainability-pages/current-account",
        web::get().to(current),
    )
    .route(
        "/sustainability-pages/public/{type}/{slug}",
        web::get().to(public_by_slug),
    )
    .route(
        "/sustainability-pages/public/{organisation_id}/{type}/{handle}",
        web::get().to(public_by_handle),
    )
    // The path of the January 2023 client (2.2.7's `getPublicSustainabilityPage`),
    // before the reference moved it under `/public`.
    .route(
        "/sustainability-pages/{type}/{slug}",
        web::get().to(public_by_slug),
    );
}
