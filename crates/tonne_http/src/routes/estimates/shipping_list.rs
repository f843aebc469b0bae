//! `GET /v1/estimates/shipping/all`: the account's shipping estimates, single- and
//! multi-leg, with their filters.

use actix_web::{HttpResponse, web};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use tonne_estimation::estimate::{EstimateFilter, EstimateKind};

use super::quoting::answer_with;
use super::respond::in_unit;
use crate::error::{ApiError, codes};
use crate::extract::{Authenticated, PageQuery};
use crate::routes::estimates::responses::{
    AnyEstimateResponse, AnyShippingEstimateResponse, EstimateMassUnitQuery, ShippingEstimatesQuery,
};
use crate::state::AppState;
use crate::wire::{ErrorsResponse, KeyErrors, paginated};

paginated!(
    /// The contract's `PaginatedAnyShippingEmissionEstimates`.
    PaginatedAnyShippingEmissionEstimates of AnyShippingEstimateResponse
);

/// `is_shipment`, `from` and `through` as a filter, or 400.
fn shipping_filter(query: &ShippingEstimatesQuery) -> Result<EstimateFilter, ApiError> {
    let actual = match query.is_shipment.as_deref() {
        None => None,
        Some("true") => Some(true),
        Some("false") => Some(false),
        Some(_) => return Err(ApiError::validation("is_shipment", "must be true or false")),
    };
    let time = |field: &str, raw: &str| {
        OffsetDateTime::parse(raw, &Rfc3339)
            .map_err(|e| ApiError::validation(field, format!("not an RFC 3339 time: {e}")))
    };
    let (created_from, created_through) = match (query.from.as_deref(), query.through.as_deref()) {
        (None, None) => (None, None),
        (Some(from), Some(through)) => {
            let (from, through) = (time("from", from)?, time("through", through)?);
            if from > through {
                return Err(ApiError::new(
                    actix_web::http::StatusCode::BAD_REQUEST,
                    codes::TIME_RANGE_INVALID,
                    "from: later than through",
                ));
            }
            (Some(from), Some(through))
        }
        _ => {
            return Err(ApiError::new(
                actix_web::http::StatusCode::BAD_REQUEST,
                codes::TIME_RANGE_INVALID,
                "from and through: give both or neither",
            ));
        }
    };
    Ok(EstimateFilter {
        actual,
        created_from,
        created_through,
    })
}

/// Lists the account's shipping estimates, single- and multi-leg, most recent first.
#[utoipa::path(get, path = "/v1/estimates/shipping/all", tag = "Emission estimates", operation_id = "listAllShippingEstimates",
    security(("BearerAuth" = [])), params(PageQuery, ShippingEstimatesQuery, EstimateMassUnitQuery),
    responses((status = 200, description = "OK", body = PaginatedAnyShippingEmissionEstimates), (status = 400, description = "Invalid page, filter or time range (time_range_invalid)", body = ErrorsResponse), KeyErrors))]
pub async fn list_shipping(
    state: web::Data<AppState>,
    who: Authenticated,
    page: web::Query<PageQuery>,
    filter: web::Query<ShippingEstimatesQuery>,
    unit: web::Query<EstimateMassUnitQuery>,
) -> Result<HttpResponse, ApiError> {
    let found = state
        .quoted
        .list(
            who.account_id(),
            &[EstimateKind::Shipping, EstimateKind::MultiLegShipping],
            shipping_filter(&filter)?,
            page.page()?,
        )
        .await?;
    let next_cursor = found.last_if_more().map(|q| q.estimate.id.to_string());
    let mut data = Vec::with_capacity(found.items.len());
    let mut options = in_unit(&unit);
    if found
        .items
        .iter()
        .any(|q| q.estimate.annotations.actual == Some(true))
    {
        options.logistics_page = super::respond::logistics_page(&state, &who).await;
    }
    for quoted in found.items {
        match answer_with(quoted, options.clone())? {
            Some(AnyEstimateResponse::Shipping(s)) => {
                data.push(AnyShippingEstimateResponse::Shipping(s))
            }
            Some(AnyEstimateResponse::MultiLeg(m)) => {
                data.push(AnyShippingEstimateResponse::MultiLeg(m))
            }
            // only shipping kinds are listed; anything else would be a store bug
            _ => {}
        }
    }
    Ok(
        HttpResponse::Ok().json(PaginatedAnyShippingEmissionEstimates {
            has_more: found.has_more,
            next_cursor,
            data,
        }),
    )
}
