//! The retirement certificate of a completed order: what it says ([`Sheet`],
//! shared by the hosted page and the PDF so that both say the same in the same
//! order) and the PDF itself (built-in Helvetica, no embedded fonts: a few
//! kilobytes), answered by the API's route and the hosted page alike.
//!
//! Layout, on the page and in the PDF alike: the account (logo and name), the
//! title, the summary (beneficiary, date, total tonnes, order), the projects
//! table (project, type, country, tonnes; then registry and serial number) and
//! the footer with the public page's address. The A4 page cannot hold six
//! columns legibly, so in the PDF each project's registry and serial number sit
//! on a second line under it.

pub(crate) mod canvas;
pub(crate) mod geometry;
pub(crate) mod pages;
mod pdf;
mod sheet;
#[cfg(test)]
mod tests;
pub(crate) mod text;

use tonne_ordering::Certificate;

pub use pdf::{Logo, render};
pub use sheet::{Row, Sheet, TITLE, human_date};

/// The PDF of a certificate as an HTTP answer (`application/pdf`, inline), for
/// the API's route and the hosted page's copy alike. The account's logo is read
/// by the id its URL ends with; a logo that cannot be read leaves the account's
/// name to head the certificate alone.
pub async fn pdf_answer(
    state: &crate::state::AppState,
    certificate: &Certificate,
) -> Result<actix_web::HttpResponse, crate::error::ApiError> {
    let sheet = Sheet::of(certificate, &state.pages.public_url);
    let stored = match certificate
        .holder
        .logo
        .as_deref()
        .and_then(|url| url.rsplit('/').next())
    {
        Some(logo_id) => state.accounts.logo(logo_id).await.ok().flatten(),
        None => None,
    };
    let id = certificate.order.id.to_string();
    let pdf = actix_web::web::block(move || {
        let logo = stored
            .and_then(|l| crate::logo_image::rgb_pixels(&l.image))
            .map(|(width, height, rgb)| Logo { width, height, rgb });
        render(&sheet, logo.as_ref())
    })
    .await
    .map_err(|e| {
        crate::error::ApiError::internal(&anyhow::anyhow!(e).context("rendering a certificate"))
    })?;
    Ok(actix_web::HttpResponse::Ok()
        .content_type("application/pdf")
        .insert_header((
            "Content-Disposition",
            format!("inline; filename=\"certificate-{id}.pdf\""),
        ))
        .body(pdf))
}
