//! `/v1/estimates/shipping/multi-leg/by-fuel` (client 3.9.2): a multi-leg shipping
//! estimate from the fuel burnt per leg, created and read.

use actix_web::{HttpResponse, web};
use tonne_estimation::estimate::EstimateKind;

use super::conversion;
use super::respond::{IdPath, created_in, read_in};
use super::response_sets::{Invalid, NotFound};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::routes::estimates::requests::MultiLegShippingByFuelRequest;
use crate::routes::estimates::responses::{ByFuelEstimateResponse, EstimateMassUnitQuery};
use crate::state::AppState;
use crate::wire::{BodyErrors, KeyErrors};

/// Creates a multi-leg shipping estimate from the fuel burnt per leg (client 3.9.2).
#[utoipa::path(post, path = "/v1/estimates/shipping/multi-leg/by-fuel", tag = "Emission estimates", operation_id = "createMultiLegShippingEstimateByFuel",
    security(("BearerAuth" = [])), params(EstimateMassUnitQuery), request_body = MultiLegShippingByFuelRequest,
    responses((status = 200, description = "OK", body = ByFuelEstimateResponse), Invalid, KeyErrors, BodyErrors))]
pub async fn create_multi_leg_by_fuel(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<EstimateMassUnitQuery>,
    body: JsonBody<MultiLegShippingByFuelRequest>,
) -> Result<HttpResponse, ApiError> {
    created_in(
        &state,
        &who,
        conversion::multi_leg_by_fuel(&body.0)?,
        &query,
    )
    .await
}

/// Reads a multi-leg shipping estimate made from the fuel burnt.
#[utoipa::path(get, path = "/v1/estimates/shipping/multi-leg/by-fuel/{id}", tag = "Emission estimates", operation_id = "getMultiLegShippingEstimateByFuel",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id"), EstimateMassUnitQuery),
    responses((status = 200, description = "OK", body = ByFuelEstimateResponse), NotFound, KeyErrors))]
pub async fn get_multi_leg_by_fuel(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<EstimateMassUnitQuery>,
    path: web::Path<IdPath>,
) -> Result<HttpResponse, ApiError> {
    read_in(
        &state,
        &who,
        EstimateKind::MultiLegShippingByFuel,
        &path.id,
        &query,
    )
    .await
}
