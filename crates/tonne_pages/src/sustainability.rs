//! The public sustainability page as HTML: `/sustainability/{type}/{slug}` and
//! `/sustainability/{organisation_id}/{type}/{handle}` — the same
//! [`PublicPage`] the API answers as JSON, with the chart drawn on the server
//! (SVG) and every figure also in a table. No script; 404 for a page that is
//! unknown, disabled or hidden.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, PreEscaped, html};
use tonne_impact::{Description, PageError, PublicPage, Title};
use tonne_kernel::AccountMode;

use tonne_http::AppState;
use tonne_http::chart;

use crate::answers::{limited, message, respond};
use crate::views::{layout, money};

/// The UN Sustainable Development Goals' short names, 1–17 (United Nations,
/// <https://sdgs.un.org/goals>).
const GOALS: [&str; 17] = [
    "No poverty",
    "Zero hunger",
    "Good health and well-being",
    "Quality education",
    "Gender equality",
    "Clean water and sanitation",
    "Affordable and clean energy",
    "Decent work and economic growth",
    "Industry, innovation and infrastructure",
    "Reduced inequalities",
    "Sustainable cities and communities",
    "Responsible consumption and production",
    "Climate action",
    "Life below water",
    "Life on land",
    "Peace, justice and strong institutions",
    "Partnerships for the goals",
];

fn goal_name(goal: u8) -> &'static str {
    usize::from(goal)
        .checked_sub(1)
        .and_then(|i| GOALS.get(i))
        .copied()
        .unwrap_or("Unknown goal")
}

fn headline(page: &PublicPage) -> String {
    let name = &page.holder.name;
    match page.title {
        Title::ByVolume(mass) => {
            format!(
                "{name} has retired {} tonnes of CO₂e",
                mass.to_tonnes_string()
            )
        }
        Title::ByPrice(value) => format!("{name} has funded {} of carbon credits", money(value)),
    }
}

/// The page.
pub fn page(page: &PublicPage, chart_svg: &str) -> Markup {
    let name = &page.holder.name;
    let by_price = matches!(page.title, Title::ByPrice(_));
    layout(
        &format!("{name} — climate impact"),
        html! {
            p class="account" {
                @if let Some(logo) = &page.holder.logo {
                    img src=(logo) alt=(format!("{name} logo"));
                }
                (name)
            }
            h1 { (headline(page)) }
            @match &page.description {
                Some(Description::ByEquivalent { flights_nyc_to_london }) => {
                    p class="lead" { "That is what " strong { (flights_nyc_to_london) } " one-way economy flights from New York to London emit, per passenger." }
                }
                Some(Description::BySupportedGoals { number_of_un_sdgs, number_of_projects }) => {
                    p class="lead" { "Supporting " strong { (number_of_un_sdgs) } " UN Sustainable Development Goals through " strong { (number_of_projects) } " projects." }
                }
                Some(Description::ByCustomDescription(Some(text))) => {
                    @for paragraph in text.split("\n\n").filter(|p| !p.trim().is_empty()) {
                        p class="lead" { (paragraph.trim()) }
                    }
                }
                Some(Description::ByCustomDescription(None)) | None => {}
            }
            @if page.holder.mode == AccountMode::Test {
                p class="notice" { "Test mode: these figures come from test orders; no credits were retired." }
            }
            h2 id="over-time" { "Over time" }
            figure class="chart" {
                (PreEscaped(chart::titled(chart_svg, "chart-title", &format!("Line chart of the {} retired so far, month by month; the table below has the same figures.", if by_price { "value" } else { "tonnes" }))))
            }
            @if !page.series.is_empty() {
                details {
                    summary { "The figures by month" }
                    table aria-labelledby="over-time" {
                        thead { tr { th scope="col" { "Month" } th scope="col" class="num" { "Tonnes CO₂e so far" } th scope="col" class="num" { "Value so far" } } }
                        tbody {
                            @for p in &page.series {
                                tr {
                                    th scope="row" { (format!("{}-{:02}", p.date.year(), u8::from(p.date.month()))) }
                                    td class="num" { (p.figures.quantity.to_tonnes_string()) }
                                    td class="num" { (money(p.figures.value)) }
                                }
                            }
                        }
                    }
                }
            }
            @if let Some(bundles) = &page.bundles {
                h2 id="bundles" { "By bundle" }
                @if bundles.is_empty() {
                    p { "Nothing retired yet." }
                } @else {
                    table class="certificate" aria-labelledby="bundles" {
                        thead { tr { th scope="col" { "Bundle" } th scope="col" { "Kind" } th scope="col" class="num" { "Tonnes CO₂e" } th scope="col" class="num" { "Share" } } }
                        tbody {
                            @for b in bundles {
                                tr {
                                    th scope="row" data-label="Bundle" { (b.bundle.name) }
                                    td data-label="Kind" { (kind(&b.bundle)) }
                                    td data-label="Tonnes CO₂e" class="num" { (b.quantity.to_tonnes_string()) }
                                    td data-label="Share" class="num" { (b.percent_of_total) " %" }
                                }
                            }
                        }
                    }
                }
            }
            @if let Some(projects) = &page.projects {
                @if !projects.is_empty() {
                    h2 id="projects" { "By project" }
                    table class="certificate" aria-labelledby="projects" {
                        thead { tr { th scope="col" { "Project" } th scope="col" { "Type" } th scope="col" { "Country" } th scope="col" { "Registry" } th scope="col" class="num" { "Tonnes CO₂e" } } }
                        tbody {
                            @for p in projects {
                                tr {
                                    th scope="row" data-label="Project" { (p.project.name) }
                                    td data-label="Type" { (p.project.project_type) }
                                    td data-label="Country" { (p.project.country_name) }
                                    td data-label="Registry" { (p.project.registry.as_str()) }
                                    td data-label="Tonnes CO₂e" class="num" { (p.quantity.to_tonnes_string()) }
                                }
                            }
                        }
                    }
                }
            }
            @if let Some(goals) = &page.un_sdg {
                h2 { "UN Sustainable Development Goals" }
                @if goals.is_empty() {
                    p { "No project funded yet." }
                } @else {
                    ul class="goals" {
                        @for g in goals {
                            li { strong { "Goal " (g.goal) ": " (goal_name(g.goal)) } " — " (g.projects) @if g.projects == 1 { " project" } @else { " projects" } }
                        }
                    }
                }
            }
            @if let Some(orders) = &page.certificates {
                h2 { "Certificates" }
                @if orders.is_empty() {
                    p { "A certificate appears here when an order's credits are retired." }
                } @else {
                    ul class="certificates" {
                        @for o in orders {
                            li {
                                a href=(format!("/certificates/{}", o.id)) {
                                    "Certificate of " (o.created_at.date()) ": " (o.quantity.to_tonnes_string()) " tonnes CO₂e"
                                }
                            }
                        }
                    }
                }
            }
            footer {
                p { "These figures count completed orders only: credits retired at their registry for " (name) ". Published with Tonne." }
            }
        },
    )
}

fn kind(bundle: &tonne_ordering::Bundle) -> String {
    let offset = match bundle.offset_type {
        Some(tonne_ordering::OffsetType::CarbonRemoval) => "Carbon removal",
        Some(tonne_ordering::OffsetType::EmissionsReduction) => "Emissions reduction",
        None => "Not classified",
    };
    let storage = match bundle.permanence {
        tonne_ordering::CarbonPermanence::LongTerm => "long-term storage",
        tonne_ordering::CarbonPermanence::ShortTerm => "short-term storage",
        tonne_ordering::CarbonPermanence::NoStorage => "no storage",
    };
    format!("{offset}, {storage}")
}

fn answer(found: Result<PublicPage, PageError>) -> HttpResponse {
    match found {
        Ok(p) => {
            let svg = match chart::cumulative(&p.series, matches!(p.title, Title::ByPrice(_))) {
                Ok(svg) => svg,
                Err(e) => {
                    tracing::warn!(error = %e, "sustainability chart");
                    String::new()
                }
            };
            respond(StatusCode::OK, page(&p, &svg))
        }
        Err(PageError::NotFound | PageError::Invalid { .. }) => not_found(),
        Err(PageError::SlugTaken | PageError::Exists) => not_found(),
        Err(PageError::Store(e)) => {
            let api = tonne_http::ApiError::from(PageError::Store(e));
            let mut response = message(
                api.status(),
                "Something went wrong",
                "We could not show this page. Please try again in a moment.",
            );
            if api.status() == StatusCode::SERVICE_UNAVAILABLE {
                response.headers_mut().insert(
                    actix_web::http::header::RETRY_AFTER,
                    actix_web::http::header::HeaderValue::from_static("1"),
                );
            }
            response
        }
    }
}

fn not_found() -> HttpResponse {
    message(
        StatusCode::NOT_FOUND,
        "Page not found",
        "There is no public sustainability page at this address.",
    )
}

/// `GET /sustainability/{type}/{slug}`.
pub async fn by_slug(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
) -> HttpResponse {
    if let Some(r) = limited(&state, &req).await {
        return r;
    }
    let (kind, slug) = path.into_inner();
    let Ok(mode) = kind.parse::<AccountMode>() else {
        return not_found();
    };
    let found = state.impact.public_by_slug(mode, &slug).await;
    answer(found)
}

/// `GET /sustainability/{organisation_id}/{type}/{handle}`.
pub async fn by_handle(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(String, String, String)>,
) -> HttpResponse {
    if let Some(r) = limited(&state, &req).await {
        return r;
    }
    let (organisation, kind, handle) = path.into_inner();
    let Ok(mode) = kind.parse::<AccountMode>() else {
        return not_found();
    };
    let found = state
        .impact
        .public_by_handle(&organisation, mode, &handle)
        .await;
    answer(found)
}
