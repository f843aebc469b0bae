//! The steps every estimate handler shares: store, read, recompute or annotate
//! an estimate through the "estimate answered with its quote" use case, and
//! answer it (204 for money movement); the path extractors of the routes.

use actix_web::HttpResponse;
use serde::Deserialize;
use tonne_accounts::ExternalPagesVisibility;
use tonne_estimation::estimate::{AnnotationsPatch, EstimateDetail, EstimateKind, NewEstimate};
use tonne_quoted::QuotedEstimate;

use super::quoting::answer_with;
use super::responses::{AnyEstimateResponse, EstimateMassUnitQuery, RenderOptions};
use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;

pub(super) fn respond(answer: Option<AnyEstimateResponse>) -> HttpResponse {
    match answer {
        Some(a) => HttpResponse::Ok().json(a),
        // money movement: nothing to estimate
        None => HttpResponse::NoContent().finish(),
    }
}

/// Stores and answers an estimate. Flight, passenger and individual estimates
/// are stored too (their id can be ordered with `POST /v1/orders/by-estimate`).
pub(super) async fn created(
    state: &AppState,
    who: &Authenticated,
    new: NewEstimate,
) -> Result<HttpResponse, ApiError> {
    created_in(state, who, new, &EstimateMassUnitQuery::default()).await
}

/// Stores and answers an estimate in the mass unit `unit` asks for (a
/// shipping route's query).
pub(super) async fn created_in(
    state: &AppState,
    who: &Authenticated,
    new: NewEstimate,
    unit: &EstimateMassUnitQuery,
) -> Result<HttpResponse, ApiError> {
    let answer = match state.quoted.create(who.account_id(), new).await? {
        Some(quoted) => {
            let options = with_page(state, who, &quoted, in_unit(unit)).await;
            answer_with(quoted, options)?
        }
        None => None,
    };
    Ok(respond(answer))
}

pub(super) async fn read(
    state: &AppState,
    who: &Authenticated,
    kind: EstimateKind,
    id: &str,
) -> Result<HttpResponse, ApiError> {
    read_in(state, who, kind, id, &EstimateMassUnitQuery::default()).await
}

/// Reads an estimate, answered in the mass unit `unit` asks for.
pub(super) async fn read_in(
    state: &AppState,
    who: &Authenticated,
    kind: EstimateKind,
    id: &str,
    unit: &EstimateMassUnitQuery,
) -> Result<HttpResponse, ApiError> {
    let quoted = state.quoted.get(who.account_id(), Some(kind), id).await?;
    let options = with_page(state, who, &quoted, in_unit(unit)).await;
    Ok(respond(answer_with(quoted, options)?))
}

pub(super) async fn updated(
    state: &AppState,
    who: &Authenticated,
    id: &str,
    new: NewEstimate,
) -> Result<HttpResponse, ApiError> {
    updated_in(state, who, id, new, &EstimateMassUnitQuery::default()).await
}

/// Recomputes an estimate, answered in the mass unit `unit` asks for.
pub(super) async fn updated_in(
    state: &AppState,
    who: &Authenticated,
    id: &str,
    new: NewEstimate,
    unit: &EstimateMassUnitQuery,
) -> Result<HttpResponse, ApiError> {
    let quoted = state.quoted.update(who.account_id(), id, new).await?;
    let options = with_page(state, who, &quoted, in_unit(unit)).await;
    Ok(respond(answer_with(quoted, options)?))
}

/// The account's public logistics page, while its external pages are public
/// (read once per answer; a failed read leaves it out).
pub(super) async fn logistics_page(state: &AppState, who: &Authenticated) -> Option<String> {
    let account = state.accounts.me(&who.0).await.ok()?;
    (account.external_pages_visibility == ExternalPagesVisibility::Public)
        .then(|| format!("{}/logistics/{}", state.pages.public_url, who.account_id()))
}

/// `options` with the logistics page when the estimate is an actual shipment.
async fn with_page(
    state: &AppState,
    who: &Authenticated,
    quoted: &QuotedEstimate,
    mut options: RenderOptions,
) -> RenderOptions {
    let shipping = matches!(
        quoted.estimate.detail,
        EstimateDetail::Shipping(_) | EstimateDetail::MultiLegShipping { .. }
    );
    if shipping && quoted.estimate.annotations.actual == Some(true) {
        options.logistics_page = logistics_page(state, who).await;
    }
    options
}

/// The render options of a shipping route's `estimate_mass_unit`.
pub(super) fn in_unit(query: &EstimateMassUnitQuery) -> RenderOptions {
    RenderOptions {
        mass_unit: query.estimate_mass_unit.unwrap_or_default(),
        logistics_page: None,
    }
}

/// Path id.
#[derive(Debug, Deserialize)]
pub struct IdPath {
    pub(super) id: String,
}

/// Path id of an annotations route.
#[derive(Debug, Deserialize)]
pub struct AnnotationsPath {
    pub(super) id: String,
}

pub(super) async fn annotated(
    state: &AppState,
    who: &Authenticated,
    kind: EstimateKind,
    id: &str,
    patch: AnnotationsPatch,
) -> Result<HttpResponse, ApiError> {
    let quoted = state
        .quoted
        .annotate(who.account_id(), &[kind], id, patch)
        .await?;
    let options = with_page(state, who, &quoted, RenderOptions::default()).await;
    Ok(respond(answer_with(quoted, options)?))
}
