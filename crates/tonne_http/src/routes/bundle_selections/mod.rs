//! `/v1/bundle-selections` and `/v1/bundle-portfolios`: the acting account's
//! default mix of bundles (what an order naming no bundles is split by), set
//! directly or by following one of the catalogue's bundle portfolios.

mod wire;
pub use wire::*;

use actix_web::{HttpResponse, web};
use tonne_ordering::{BundleId, BundlePortfolio, QuoteError};

use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::state::AppState;
use crate::wire::{
    BodyErrors, ErrorsResponse, KeyErrors, PercentageRequest, SelectionRequest, selection,
};

/// Shares in hundredths → the contract's `BundleSelection`.
fn selection_response(shares: &[(BundleId, u32)]) -> Vec<BundlePercentageResponse> {
    shares
        .iter()
        .map(|(id, hundredths)| BundlePercentageResponse {
            bundle_id: id.to_string(),
            percentage: if hundredths % 100 == 0 {
                PercentageRequest::Integer(i64::from(hundredths / 100))
            } else {
                PercentageRequest::Text(
                    rust_decimal::Decimal::new(i64::from(*hundredths), 2).to_string(),
                )
            },
        })
        .collect()
}

fn portfolio_response(p: &BundlePortfolio) -> BundlePortfolioResponse {
    BundlePortfolioResponse {
        id: p.id.to_string(),
        identifier: p.identifier.clone(),
        label: p.label.clone(),
        bundle_selection: selection_response(&p.selection),
    }
}

/// The account's default bundle selection.
#[utoipa::path(get, path = "/v1/bundle-selections", tag = "Bundle selections", operation_id = "getBundleSelection",
    security(("BearerAuth" = [])),
    responses((status = 200, description = "OK", body = Vec<BundlePercentageResponse>), KeyErrors))]
pub async fn get_selection(
    state: web::Data<AppState>,
    who: Authenticated,
) -> Result<HttpResponse, ApiError> {
    let shares = match state.ordering.bundle_selection(who.account_id()).await {
        Ok(shares) => shares,
        // Nothing in the catalogue can be sold to the account by default: an empty selection.
        Err(QuoteError::BundleInvalid(_)) => Vec::new(),
        Err(other) => return Err(other.into()),
    };
    Ok(HttpResponse::Ok().json(selection_response(&shares)))
}

/// Sets the account's default bundle selection (it stops following a portfolio).
#[utoipa::path(put, path = "/v1/bundle-selections", tag = "Bundle selections", operation_id = "updateBundleSelection",
    security(("BearerAuth" = [])), request_body = Vec<SelectionRequest>,
    responses((status = 200, description = "OK", body = Vec<BundlePercentageResponse>), (status = 400, description = "Invalid selection", body = ErrorsResponse), KeyErrors, BodyErrors))]
pub async fn put_selection(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<Vec<SelectionRequest>>,
) -> Result<HttpResponse, ApiError> {
    let entries = selection(Some(body.0))?.unwrap_or_default();
    let shares = state
        .ordering
        .set_bundle_selection(who.account_id(), entries)
        .await?;
    Ok(HttpResponse::Ok().json(selection_response(&shares)))
}

/// Every bundle portfolio of the catalogue.
#[utoipa::path(get, path = "/v1/bundle-portfolios", tag = "Bundle selections", operation_id = "listAllBundlePortfolios",
    security(("BearerAuth" = [])),
    responses((status = 200, description = "OK", body = Vec<BundlePortfolioResponse>), KeyErrors))]
pub async fn list_portfolios(
    state: web::Data<AppState>,
    _who: Authenticated,
) -> Result<HttpResponse, ApiError> {
    let portfolios = state.ordering.bundle_portfolios().await?;
    Ok(HttpResponse::Ok().json(
        portfolios
            .iter()
            .map(portfolio_response)
            .collect::<Vec<_>>(),
    ))
}

/// Makes the account follow a bundle portfolio: its default selection becomes
/// the portfolio's, and its `bundle_portfolio_id` names it.
#[utoipa::path(put, path = "/v1/bundle-portfolios", tag = "Bundle selections", operation_id = "updateBundlePortfolio",
    security(("BearerAuth" = [])), request_body = SetBundlePortfolioRequest,
    responses((status = 200, description = "OK", body = BundlePortfolioResponse), (status = 400, description = "Unknown portfolio", body = ErrorsResponse), KeyErrors, BodyErrors))]
pub async fn put_portfolio(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<SetBundlePortfolioRequest>,
) -> Result<HttpResponse, ApiError> {
    let portfolio = state
        .ordering
        .set_bundle_portfolio(who.account_id(), &body.0.bundle_portfolio_id)
        .await?;
    Ok(HttpResponse::Ok().json(portfolio_response(&portfolio)))
}

/// Registers the routes (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/bundle-selections")
            .route(web::get().to(get_selection))
            .route(web::put().to(put_selection)),
    )
    .service(
        web::resource("/bundle-portfolios")
            .route(web::get().to(list_portfolios))
            .route(web::put().to(put_portfolio)),
    );
}
