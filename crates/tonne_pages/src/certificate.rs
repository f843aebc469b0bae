//! `GET /certificates/{id}` and `GET /certificates/{id}.pdf`: the public face
//! of a complete order, readable by anyone holding the order id. They say only
//! what a certificate needs ([`Sheet`]: the account's name and logo, the
//! beneficiary, the date, tonnes and projects; never the customer's email, the
//! order's metadata or idempotency key, which only `GET /v1/orders/{id}` shows,
//! to a key of the order's organisation and mode); the page says what the PDF
//! says, in the same order; 404 for an unknown order or one not complete yet.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};
use tonne_ordering::{Certificate, ReadOrderError};

use tonne_http::AppState;
use tonne_http::certificate::{Sheet, TITLE};

use crate::answers::{limited, message, respond};
use crate::views::layout;

/// The page of a certificate.
pub fn page(sheet: &Sheet) -> Markup {
    layout(
        &format!("{TITLE} — {}", sheet.account_name),
        html! {
            p class="account" {
                @if let Some(logo) = &sheet.logo_url {
                    img src=(logo) alt=(format!("{} logo", sheet.account_name));
                }
                (sheet.account_name)
            }
            h1 { (TITLE) }
            dl class="summary" {
                dt { "Retired on behalf of" } dd { (sheet.beneficiary) }
                dt { "Date" } dd { (sheet.date) }
                dt { "Total retired" } dd { (sheet.total_tonnes) " tonnes of CO₂e" }
                dt { "Order" } dd { code { (sheet.order_id) } }
            }
            @if let Some(notice) = sheet.test_notice() {
                p class="notice" { (notice) }
            }
            h2 id="projects" { "Projects (" (sheet.rows.len()) ")" }
            table class="certificate" aria-labelledby="projects" {
                thead {
                    tr {
                        th scope="col" { "Project" }
                        th scope="col" { "Type" }
                        th scope="col" { "Country" }
                        th scope="col" { "Registry" }
                        th scope="col" { "Serial number" }
                        th scope="col" class="num" { "Tonnes CO₂e" }
                    }
                }
                tbody {
                    @for r in &sheet.rows {
                        tr {
                            th scope="row" data-label="Project" { (r.project_name) }
                            td data-label="Type" { (r.project_type) }
                            td data-label="Country" { (r.country) }
                            td data-label="Registry" { (r.registry) }
                            td data-label="Serial number" class="serial" {
                                @match (&r.serial, &r.registry_link) {
                                    (Some(serial), Some(link)) => {
                                        a href=(link) aria-label=(format!("{serial}: {} on the {} registry", r.project_name, r.registry)) { (serial) }
                                    }
                                    (Some(serial), None) => { (serial) }
                                    (None, Some(link)) => {
                                        "Not issued yet — " a href=(link) aria-label=(format!("{} on the {} registry", r.project_name, r.registry)) { "registry record" }
                                    }
                                    (None, None) => { "Not issued yet" }
                                }
                            }
                            td data-label="Tonnes CO₂e" class="num" { (r.tonnes) }
                        }
                    }
                }
            }
            footer {
                p { "Issued by Tonne for " (sheet.account_name) ". Serial numbers link to the project's record on its registry where one is known." }
                p { a href=(format!("/certificates/{}.pdf", sheet.order_id)) download { "Download this certificate (PDF)" } }
            }
        },
    )
}

/// `GET /certificates/{id}`.
pub async fn show(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
) -> HttpResponse {
    match complete(&state, &req, &id).await {
        Ok(c) => respond(
            StatusCode::OK,
            page(&Sheet::of(&c, &state.pages.public_url)),
        ),
        Err(answer) => answer,
    }
}

/// `GET /certificates/{id}.pdf`: the same certificate as a PDF.
pub async fn pdf(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
) -> HttpResponse {
    match complete(&state, &req, &id).await {
        Ok(c) => match tonne_http::certificate::pdf_answer(&state, &c).await {
            Ok(answer) => answer,
            Err(e) => went_wrong(e.status()),
        },
        Err(answer) => answer,
    }
}

/// The certificate of a complete order, or the page to answer instead (429,
/// 404, 503 or 500).
async fn complete(
    state: &AppState,
    req: &HttpRequest,
    id: &str,
) -> Result<Certificate, HttpResponse> {
    if let Some(r) = limited(state, req).await {
        return Err(r);
    }
    match state.ordering.certificate(id).await {
        Ok(c) => Ok(c),
        Err(ReadOrderError::NotFound | ReadOrderError::Invalid { .. }) => Err(message(
            StatusCode::NOT_FOUND,
            "Certificate not found",
            "There is no completed order with this id. A certificate appears here once the order's credits are retired.",
        )),
        Err(ReadOrderError::Unexpected(cause)) => {
            // logged there; a store that is busy or down is 503, anything else 500
            Err(went_wrong(tonne_http::ApiError::internal(&cause).status()))
        }
    }
}

fn went_wrong(status: StatusCode) -> HttpResponse {
    let mut response = message(
        status,
        "Something went wrong",
        "We could not show this certificate. Please try again in a moment.",
    );
    if status == StatusCode::SERVICE_UNAVAILABLE {
        response.headers_mut().insert(
            actix_web::http::header::RETRY_AFTER,
            actix_web::http::header::HeaderValue::from_static("1"),
        );
    }
    response
}
