//! `PATCH /v1/estimates/passenger-transportation/{id}/annotations` (client
//! 3.9.2's `partialUpdatePassengerTransportationEstimateAnnotations`).

use actix_web::{HttpResponse, web};
use tonne_estimation::estimate::EstimateKind;

use super::conversion;
use super::respond::{AnnotationsPath, annotated};
use super::response_sets::{Invalid, NotFound};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::routes::estimates::requests::UpdatePassengerTransportationEstimateAnnotationsRequest;
use crate::routes::estimates::responses::PassengerEstimateResponse;
use crate::wire::{BodyErrors, KeyErrors};

/// Changes whether a passenger-transportation estimate is of an actual journey
/// and when it was made (nothing is recomputed).
#[utoipa::path(patch, path = "/v1/estimates/passenger-transportation/{id}/annotations", tag = "Emission estimates", operation_id = "partialUpdatePassengerTransportationEstimateAnnotations",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")), request_body = UpdatePassengerTransportationEstimateAnnotationsRequest,
    responses((status = 200, description = "OK", body = PassengerEstimateResponse), Invalid, NotFound, KeyErrors, BodyErrors))]
pub async fn patch_passenger_annotations(
    state: web::Data<crate::state::AppState>,
    who: Authenticated,
    path: web::Path<AnnotationsPath>,
    body: JsonBody<UpdatePassengerTransportationEstimateAnnotationsRequest>,
) -> Result<HttpResponse, ApiError> {
    let patch = conversion::passenger_annotations(&body.0)?;
    annotated(
        &state,
        &who,
        EstimateKind::PassengerTransportation,
        &path.id,
        patch,
    )
    .await
}
