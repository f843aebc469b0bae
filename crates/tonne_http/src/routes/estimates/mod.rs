//! `/v1/estimates/*`: the estimate kinds (the 2024 document's eight, and
//! client 3.9.2's multi-leg shipping by fuel) and batch transactions.
//!
//! Handlers only. Each parses the contract's request (`requests`), makes it the
//! domain's `NewEstimate` (`conversion`), calls the "estimate answered with its
//! quote" use case (`tonne_quoted`, through `AppState::quoted`) and renders the
//! answer (`quoting`, `responses`). A quote that cannot be made (no priced
//! bundle, bad selection…) is the `Errors` object in `quote`; the estimate
//! itself still succeeds.

pub mod conversion;
pub mod on_behalf;
pub mod passenger_annotations;
pub mod quoting;
pub mod requests;
pub mod responses;

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::Value;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use tonne_estimation::estimate::{AnnotationsPatch, EstimateFilter, EstimateKind, NewEstimate};

use crate::error::{ApiError, codes};
use crate::extract::{Authenticated, JsonBody, PageQuery};
use crate::routes::estimates::quoting::{answer, answer_with};
use crate::routes::estimates::requests::{
    CompanyEstimateRequest, ElectricityEstimateRequest, EmissionFactorEstimateRequest,
    FlightEstimateRequest, IndividualEstimateRequest, MultiLegShippingByFuelRequest,
    MultiLegShippingEstimateRequest, PassengerTransportationEstimateRequest,
    ShippingEstimateRequest, TransactionEstimateRequest, UpdateShippingEstimateAnnotationsRequest,
    UpdateTransactionEstimateAnnotationsRequest,
};
use crate::routes::estimates::responses::{
    AnyEstimateResponse, AnyShippingEstimateResponse, BatchEntryResponse, ByFuelEstimateResponse,
    CompanyEstimateResponse, EmissionFactorEstimateResponse, EstimateMassUnitQuery,
    EstimateResponse, MultiLegEstimateResponse, PassengerEstimateResponse, RenderOptions,
    ShippingEstimateResponse, ShippingEstimatesQuery, TransactionEstimateResponse,
};
use crate::state::AppState;
use crate::wire::{BodyErrors, ErrorsDoc, KeyErrors, paginated};

fn respond(answer: Option<AnyEstimateResponse>) -> HttpResponse {
    match answer {
        Some(a) => HttpResponse::Ok().json(a),
        // money movement: nothing to estimate
        None => HttpResponse::NoContent().finish(),
    }
}

/// Stores and answers an estimate. Flight, passenger and individual estimates
/// are stored too (their id can be ordered with `POST /v1/orders/by-estimate`).
async fn created(
    state: &AppState,
    who: &Authenticated,
    new: NewEstimate,
) -> Result<HttpResponse, ApiError> {
    created_as(state, who, new, RenderOptions::default()).await
}

async fn created_as(
    state: &AppState,
    who: &Authenticated,
    new: NewEstimate,
    options: RenderOptions,
) -> Result<HttpResponse, ApiError> {
    let answer = match state.quoted.create(who.0.account_id, new).await? {
        Some(quoted) => answer_with(quoted, options)?,
        None => None,
    };
    Ok(respond(answer))
}

async fn read(
    state: &AppState,
    who: &Authenticated,
    kind: EstimateKind,
    id: &str,
) -> Result<HttpResponse, ApiError> {
    read_as(state, who, kind, id, RenderOptions::default()).await
}

async fn read_as(
    state: &AppState,
    who: &Authenticated,
    kind: EstimateKind,
    id: &str,
    options: RenderOptions,
) -> Result<HttpResponse, ApiError> {
    let quoted = state.quoted.get(who.0.account_id, Some(kind), id).await?;
    Ok(respond(answer_with(quoted, options)?))
}

async fn updated(
    state: &AppState,
    who: &Authenticated,
    id: &str,
    new: NewEstimate,
) -> Result<HttpResponse, ApiError> {
    updated_as(state, who, id, new, RenderOptions::default()).await
}

async fn updated_as(
    state: &AppState,
    who: &Authenticated,
    id: &str,
    new: NewEstimate,
    options: RenderOptions,
) -> Result<HttpResponse, ApiError> {
    let quoted = state.quoted.update(who.0.account_id, id, new).await?;
    Ok(respond(answer_with(quoted, options)?))
}

/// The render options of a shipping route's `estimate_mass_unit`.
fn in_unit(query: &EstimateMassUnitQuery) -> RenderOptions {
    RenderOptions {
        mass_unit: query.estimate_mass_unit.unwrap_or_default(),
    }
}

/// Path id.
#[derive(Debug, Deserialize)]
pub struct IdPath {
    id: String,
}

/// Creates an electricity estimate.
#[utoipa::path(post, path = "/v1/estimates/electricity", tag = "Emission estimates", operation_id = "createElectricityEstimate",
    security(("BearerAuth" = [])), request_body = ElectricityEstimateRequest,
    responses((status = 200, description = "OK", body = EstimateResponse), (status = 400, description = "Invalid request", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn create_electricity(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<ElectricityEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    created(&state, &who, conversion::electricity(&body.0)?).await
}

/// Reads an electricity estimate.
#[utoipa::path(get, path = "/v1/estimates/electricity/{id}", tag = "Emission estimates", operation_id = "getElectricityEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = EstimateResponse), (status = 404, description = "Not found", body = ErrorsDoc), KeyErrors))]
pub async fn get_electricity(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
) -> Result<HttpResponse, ApiError> {
    read(&state, &who, EstimateKind::Electricity, &path.id).await
}

/// Recomputes an electricity estimate.
#[utoipa::path(put, path = "/v1/estimates/electricity/{id}", tag = "Emission estimates", operation_id = "updateElectricityEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")), request_body = ElectricityEstimateRequest,
    responses((status = 200, description = "OK", body = EstimateResponse), (status = 400, description = "Invalid request", body = ErrorsDoc), (status = 404, description = "Not found", body = ErrorsDoc), (status = 409, description = "Ordered already", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn put_electricity(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
    body: JsonBody<ElectricityEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    updated(&state, &who, &path.id, conversion::electricity(&body.0)?).await
}

/// Creates an estimate from a chosen emission factor (2024).
#[utoipa::path(post, path = "/v1/estimates/emission-factor", tag = "Emission estimates", operation_id = "createEmissionFactorEstimate",
    security(("BearerAuth" = [])), request_body = EmissionFactorEstimateRequest,
    responses((status = 200, description = "OK", body = EmissionFactorEstimateResponse), (status = 400, description = "Invalid request", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn create_emission_factor(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<EmissionFactorEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    created(&state, &who, conversion::emission_factor(&body.0)?).await
}

/// Reads an estimate made from a chosen emission factor.
#[utoipa::path(get, path = "/v1/estimates/emission-factor/{id}", tag = "Emission estimates", operation_id = "getEmissionFactorEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = EmissionFactorEstimateResponse), (status = 404, description = "Not found", body = ErrorsDoc), KeyErrors))]
pub async fn get_emission_factor(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
) -> Result<HttpResponse, ApiError> {
    read(&state, &who, EstimateKind::EmissionFactor, &path.id).await
}

/// Creates a flight estimate.
#[utoipa::path(post, path = "/v1/estimates/flight", tag = "Emission estimates", operation_id = "createFlightEstimate",
    security(("BearerAuth" = [])), request_body = FlightEstimateRequest,
    responses((status = 200, description = "OK", body = EstimateResponse), (status = 400, description = "Invalid request (airport_invalid for an unknown airport)", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn create_flight(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<FlightEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    created(&state, &who, conversion::flight(&body.0)?).await
}

/// Creates a passenger-transportation estimate.
#[utoipa::path(post, path = "/v1/estimates/passenger-transportation", tag = "Emission estimates", operation_id = "createPassengerTransportationEstimate",
    security(("BearerAuth" = [])), request_body = PassengerTransportationEstimateRequest,
    responses((status = 200, description = "OK", body = PassengerEstimateResponse), (status = 400, description = "Invalid request", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn create_passenger(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<PassengerTransportationEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    created(&state, &who, conversion::passenger(&body.0)?).await
}

/// Reads a passenger-transportation estimate.
#[utoipa::path(get, path = "/v1/estimates/passenger-transportation/{id}", tag = "Emission estimates", operation_id = "getPassengerTransportationEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = PassengerEstimateResponse), (status = 404, description = "Not found", body = ErrorsDoc), KeyErrors))]
pub async fn get_passenger(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
) -> Result<HttpResponse, ApiError> {
    read(
        &state,
        &who,
        EstimateKind::PassengerTransportation,
        &path.id,
    )
    .await
}

/// Creates a single-leg shipping estimate.
#[utoipa::path(post, path = "/v1/estimates/shipping", tag = "Emission estimates", operation_id = "createShippingEstimate",
    security(("BearerAuth" = [])), params(EstimateMassUnitQuery), request_body = ShippingEstimateRequest,
    responses((status = 200, description = "OK", body = ShippingEstimateResponse), (status = 400, description = "Invalid request (port_not_found, airport_invalid, address_not_found)", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn create_shipping(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<EstimateMassUnitQuery>,
    body: JsonBody<ShippingEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    created_as(
        &state,
        &who,
        conversion::shipping(&body.0)?,
        in_unit(&query),
    )
    .await
}

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
    responses((status = 200, description = "OK", body = PaginatedAnyShippingEmissionEstimates), (status = 400, description = "Invalid page, filter or time range (time_range_invalid)", body = ErrorsDoc), KeyErrors))]
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
            who.0.account_id,
            &[EstimateKind::Shipping, EstimateKind::MultiLegShipping],
            shipping_filter(&filter)?,
            page.page()?,
        )
        .await?;
    let next_cursor = found.last_if_more().map(|q| q.estimate.id.to_string());
    let mut data = Vec::with_capacity(found.items.len());
    for quoted in found.items {
        match answer_with(quoted, in_unit(&unit))? {
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

/// Reads a single-leg shipping estimate.
#[utoipa::path(get, path = "/v1/estimates/shipping/{id}", tag = "Emission estimates", operation_id = "getShippingEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id"), EstimateMassUnitQuery),
    responses((status = 200, description = "OK", body = ShippingEstimateResponse), (status = 404, description = "Not found", body = ErrorsDoc), KeyErrors))]
pub async fn get_shipping(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<EstimateMassUnitQuery>,
    path: web::Path<IdPath>,
) -> Result<HttpResponse, ApiError> {
    read_as(
        &state,
        &who,
        EstimateKind::Shipping,
        &path.id,
        in_unit(&query),
    )
    .await
}

/// Recomputes a single-leg shipping estimate.
#[utoipa::path(put, path = "/v1/estimates/shipping/{id}", tag = "Emission estimates", operation_id = "updateShippingEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id"), EstimateMassUnitQuery), request_body = ShippingEstimateRequest,
    responses((status = 200, description = "OK", body = ShippingEstimateResponse), (status = 400, description = "Invalid request", body = ErrorsDoc), (status = 404, description = "Not found", body = ErrorsDoc), (status = 409, description = "Ordered already", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn put_shipping(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<EstimateMassUnitQuery>,
    path: web::Path<IdPath>,
    body: JsonBody<ShippingEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    updated_as(
        &state,
        &who,
        &path.id,
        conversion::shipping(&body.0)?,
        in_unit(&query),
    )
    .await
}

/// Creates a multi-leg shipping estimate.
#[utoipa::path(post, path = "/v1/estimates/shipping/multi-leg", tag = "Emission estimates", operation_id = "createMultiLegShippingEstimate",
    security(("BearerAuth" = [])), params(EstimateMassUnitQuery), request_body = MultiLegShippingEstimateRequest,
    responses((status = 200, description = "OK", body = MultiLegEstimateResponse), (status = 400, description = "Invalid request", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn create_multi_leg(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<EstimateMassUnitQuery>,
    body: JsonBody<MultiLegShippingEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    let new = conversion::multi_leg(&body.0)?;
    let who = on_behalf::acting_as(&state, who, body.0.client_account.as_ref()).await?;
    created_as(&state, &who, new, in_unit(&query)).await
}

/// Reads a multi-leg shipping estimate.
#[utoipa::path(get, path = "/v1/estimates/shipping/multi-leg/{id}", tag = "Emission estimates", operation_id = "getMultiLegShippingEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id"), EstimateMassUnitQuery),
    responses((status = 200, description = "OK", body = MultiLegEstimateResponse), (status = 404, description = "Not found", body = ErrorsDoc), KeyErrors))]
pub async fn get_multi_leg(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<EstimateMassUnitQuery>,
    path: web::Path<IdPath>,
) -> Result<HttpResponse, ApiError> {
    read_as(
        &state,
        &who,
        EstimateKind::MultiLegShipping,
        &path.id,
        in_unit(&query),
    )
    .await
}

/// Recomputes a multi-leg shipping estimate.
#[utoipa::path(put, path = "/v1/estimates/shipping/multi-leg/{id}", tag = "Emission estimates", operation_id = "updateMultiLegShippingEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id"), EstimateMassUnitQuery), request_body = MultiLegShippingEstimateRequest,
    responses((status = 200, description = "OK", body = MultiLegEstimateResponse), (status = 400, description = "Invalid request", body = ErrorsDoc), (status = 404, description = "Not found", body = ErrorsDoc), (status = 409, description = "Ordered already", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn put_multi_leg(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<EstimateMassUnitQuery>,
    path: web::Path<IdPath>,
    body: JsonBody<MultiLegShippingEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    let new = conversion::multi_leg(&body.0)?;
    let who = on_behalf::acting_as(&state, who, body.0.client_account.as_ref()).await?;
    updated_as(&state, &who, &path.id, new, in_unit(&query)).await
}

/// Creates a multi-leg shipping estimate from the fuel burnt per leg (client 3.9.2).
#[utoipa::path(post, path = "/v1/estimates/shipping/multi-leg/by-fuel", tag = "Emission estimates", operation_id = "createMultiLegShippingEstimateByFuel",
    security(("BearerAuth" = [])), params(EstimateMassUnitQuery), request_body = MultiLegShippingByFuelRequest,
    responses((status = 200, description = "OK", body = ByFuelEstimateResponse), (status = 400, description = "Invalid request", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn create_multi_leg_by_fuel(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<EstimateMassUnitQuery>,
    body: JsonBody<MultiLegShippingByFuelRequest>,
) -> Result<HttpResponse, ApiError> {
    created_as(
        &state,
        &who,
        conversion::multi_leg_by_fuel(&body.0)?,
        in_unit(&query),
    )
    .await
}

/// Reads a multi-leg shipping estimate made from the fuel burnt.
#[utoipa::path(get, path = "/v1/estimates/shipping/multi-leg/by-fuel/{id}", tag = "Emission estimates", operation_id = "getMultiLegShippingEstimateByFuel",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id"), EstimateMassUnitQuery),
    responses((status = 200, description = "OK", body = ByFuelEstimateResponse), (status = 404, description = "Not found", body = ErrorsDoc), KeyErrors))]
pub async fn get_multi_leg_by_fuel(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<EstimateMassUnitQuery>,
    path: web::Path<IdPath>,
) -> Result<HttpResponse, ApiError> {
    read_as(
        &state,
        &who,
        EstimateKind::MultiLegShippingByFuel,
        &path.id,
        in_unit(&query),
    )
    .await
}

/// Creates a transaction estimate (204 for money movement).
#[utoipa::path(post, path = "/v1/estimates/transactions", tag = "Emission estimates", operation_id = "createTransactionEstimate",
    security(("BearerAuth" = [])), request_body = TransactionEstimateRequest,
    responses((status = 200, description = "OK", body = TransactionEstimateResponse), (status = 204, description = "Money movement: nothing to estimate"), (status = 400, description = "Invalid request", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn create_transaction(
    state: web::Data<AppState>,
    who: Authenticated,
    req: HttpRequest,
    body: JsonBody<TransactionEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    let mut body = body.0;
    on_behalf::in_2024_spelling(&req, &mut body);
    let new = conversion::transaction(&body)?;
    let who = on_behalf::acting_as(&state, who, body.client_account.as_ref()).await?;
    created(&state, &who, new).await
}

/// Reads a transaction estimate.
#[utoipa::path(get, path = "/v1/estimates/transactions/{id}", tag = "Emission estimates", operation_id = "getTransactionEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = TransactionEstimateResponse), (status = 204, description = "Money movement"), (status = 404, description = "Not found", body = ErrorsDoc), KeyErrors))]
pub async fn get_transaction(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
) -> Result<HttpResponse, ApiError> {
    read(&state, &who, EstimateKind::Transaction, &path.id).await
}

/// Path idempotency key.
#[derive(Debug, Deserialize)]
pub struct IdempotencyKeyPath {
    idempotency_key: String,
}

/// Reads a transaction estimate by the idempotency key it was created with.
#[utoipa::path(get, path = "/v1/estimates/transactions/by-idempotency-key/{idempotency_key}", tag = "Emission estimates", operation_id = "getTransactionEstimateByIdempotencyKey",
    security(("BearerAuth" = [])), params(("idempotency_key" = String, Path, description = "The key the estimate was created with")),
    responses((status = 200, description = "OK", body = TransactionEstimateResponse), (status = 404, description = "Not found", body = ErrorsDoc), KeyErrors))]
pub async fn get_transaction_by_idempotency_key(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdempotencyKeyPath>,
) -> Result<HttpResponse, ApiError> {
    let quoted = state
        .quoted
        .get_by_idempotency_key(
            who.0.account_id,
            Some(EstimateKind::Transaction),
            &path.idempotency_key,
        )
        .await?;
    Ok(respond(answer(quoted)?))
}

/// Recomputes a transaction estimate.
#[utoipa::path(put, path = "/v1/estimates/transactions/{id}", tag = "Emission estimates", operation_id = "updateTransactionEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")), request_body = TransactionEstimateRequest,
    responses((status = 200, description = "OK", body = TransactionEstimateResponse), (status = 204, description = "Money movement"), (status = 400, description = "Invalid request", body = ErrorsDoc), (status = 404, description = "Not found", body = ErrorsDoc), (status = 409, description = "Ordered already", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn put_transaction(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
    req: HttpRequest,
    body: JsonBody<TransactionEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    let mut body = body.0;
    on_behalf::in_2024_spelling(&req, &mut body);
    let new = conversion::transaction(&body)?;
    let who = on_behalf::acting_as(&state, who, body.client_account.as_ref()).await?;
    updated(&state, &who, &path.id, new).await
}

/// Estimates 1 to 100 transactions, each on its own; answers in request order.
#[utoipa::path(post, path = "/v1/estimates/transactions/batch", tag = "Emission estimates", operation_id = "createBatchTransactionEstimate",
    security(("BearerAuth" = [])), request_body = Vec<TransactionEstimateRequest>,
    responses((status = 200, description = "Estimates, Errors objects or {} in request order", body = Vec<Object>), (status = 400, description = "Not an array of 1 to 100 entries", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn create_batch(
    state: web::Data<AppState>,
    who: Authenticated,
    req: HttpRequest,
    body: JsonBody<Vec<Value>>,
) -> Result<HttpResponse, ApiError> {
    let entries = body.0;
    let max = state.config.batch_limit;
    if entries.is_empty() || entries.len() > max {
        return Err(ApiError::validation(
            "body",
            format!("must be an array of 1 to {max} transactions"),
        ));
    }
    // each entry on its own: parse, keeping refusals in place
    let mut parsed = Vec::with_capacity(entries.len());
    let mut batch = Vec::new();
    for (i, entry) in entries.into_iter().enumerate() {
        let outcome = serde_path_to_error::deserialize::<_, TransactionEstimateRequest>(entry)
            .map_err(|e| ApiError::validation(&format!("[{i}].{}", e.path()), e.into_inner()))
            .and_then(|mut b| {
                on_behalf::in_2024_spelling(&req, &mut b);
                on_behalf::alone(&b, i).and_then(|()| conversion::transaction(&b))
            });
        parsed.push(match outcome {
            Ok(new) => {
                batch.push(new);
                None
            }
            Err(e) => Some(e.body_json()),
        });
    }
    let mut computed = state
        .quoted
        .create_many(who.0.account_id, batch)
        .await?
        .into_iter();
    let mut answers = Vec::with_capacity(parsed.len());
    for refusal in parsed {
        answers.push(match refusal {
            Some(errors) => BatchEntryResponse::Errors(errors),
            None => match computed.next() {
                Some(Ok(Some(quoted))) => match answer(quoted)? {
                    Some(a) => BatchEntryResponse::Estimate(Box::new(a)),
                    None => BatchEntryResponse::Empty {},
                },
                Some(Ok(None)) => BatchEntryResponse::Empty {},
                Some(Err(e)) => BatchEntryResponse::Errors(ApiError::from(e).body_json()),
                None => {
                    return Err(ApiError::internal(&anyhow::anyhow!("an entry is missing")));
                }
            },
        });
    }
    Ok(HttpResponse::Ok().json(answers))
}

/// Creates a company estimate.
#[utoipa::path(post, path = "/v1/estimates/company", tag = "Emission estimates", operation_id = "createCompanyEstimate",
    security(("BearerAuth" = [])), request_body = CompanyEstimateRequest,
    responses((status = 200, description = "OK", body = CompanyEstimateResponse), (status = 400, description = "Invalid request", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn create_company(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<CompanyEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    created(&state, &who, conversion::company(&body.0)?).await
}

/// Reads a company estimate.
#[utoipa::path(get, path = "/v1/estimates/company/{id}", tag = "Emission estimates", operation_id = "getCompanyEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = CompanyEstimateResponse), (status = 404, description = "Not found", body = ErrorsDoc), KeyErrors))]
pub async fn get_company(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
) -> Result<HttpResponse, ApiError> {
    read(&state, &who, EstimateKind::Company, &path.id).await
}

/// Recomputes a company estimate.
#[utoipa::path(put, path = "/v1/estimates/company/{id}", tag = "Emission estimates", operation_id = "updateCompanyEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")), request_body = CompanyEstimateRequest,
    responses((status = 200, description = "OK", body = CompanyEstimateResponse), (status = 400, description = "Invalid request", body = ErrorsDoc), (status = 404, description = "Not found", body = ErrorsDoc), (status = 409, description = "Ordered already", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn put_company(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
    body: JsonBody<CompanyEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    updated(&state, &who, &path.id, conversion::company(&body.0)?).await
}

/// Creates an individual's estimate.
#[utoipa::path(post, path = "/v1/estimates/individual", tag = "Emission estimates", operation_id = "createIndividualEstimate",
    security(("BearerAuth" = [])), request_body = IndividualEstimateRequest,
    responses((status = 200, description = "OK", body = EstimateResponse), (status = 400, description = "Invalid request", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn create_individual(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<IndividualEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    created(&state, &who, conversion::individual(&body.0)?).await
}

/// Path id of an annotations route.
#[derive(Debug, Deserialize)]
pub struct AnnotationsPath {
    id: String,
}

async fn annotated(
    state: &AppState,
    who: &Authenticated,
    kind: EstimateKind,
    id: &str,
    patch: AnnotationsPatch,
) -> Result<HttpResponse, ApiError> {
    let quoted = state
        .quoted
        .annotate(who.0.account_id, &[kind], id, patch)
        .await?;
    Ok(respond(answer(quoted)?))
}

/// Changes a single-leg shipping estimate's annotations (nothing is recomputed).
#[utoipa::path(patch, path = "/v1/estimates/shipping/{id}/annotations", tag = "Emission estimates", operation_id = "updateShippingEstimateAnnotations",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")), request_body = UpdateShippingEstimateAnnotationsRequest,
    responses((status = 200, description = "OK", body = ShippingEstimateResponse), (status = 400, description = "Invalid request", body = ErrorsDoc), (status = 404, description = "Not found", body = ErrorsDoc), (status = 409, description = "The idempotency key is another estimate's", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn patch_shipping_annotations(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<AnnotationsPath>,
    body: JsonBody<UpdateShippingEstimateAnnotationsRequest>,
) -> Result<HttpResponse, ApiError> {
    let patch = conversion::shipping_annotations(&body.0)?;
    annotated(&state, &who, EstimateKind::Shipping, &path.id, patch).await
}

/// Changes a multi-leg shipping estimate's annotations (nothing is recomputed).
#[utoipa::path(patch, path = "/v1/estimates/shipping/multi-leg/{id}/annotations", tag = "Emission estimates", operation_id = "updateMultiLegShippingEstimateAnnotations",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")), request_body = UpdateShippingEstimateAnnotationsRequest,
    responses((status = 200, description = "OK", body = MultiLegEstimateResponse), (status = 400, description = "Invalid request", body = ErrorsDoc), (status = 404, description = "Not found", body = ErrorsDoc), (status = 409, description = "The idempotency key is another estimate's", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn patch_multi_leg_annotations(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<AnnotationsPath>,
    body: JsonBody<UpdateShippingEstimateAnnotationsRequest>,
) -> Result<HttpResponse, ApiError> {
    let patch = conversion::shipping_annotations(&body.0)?;
    annotated(
        &state,
        &who,
        EstimateKind::MultiLegShipping,
        &path.id,
        patch,
    )
    .await
}

/// Changes a transaction estimate's annotations (nothing is recomputed).
#[utoipa::path(patch, path = "/v1/estimates/transactions/{id}/annotations", tag = "Emission estimates", operation_id = "partialUpdateTransactionsEstimateAnnotations",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")), request_body = UpdateTransactionEstimateAnnotationsRequest,
    responses((status = 200, description = "OK", body = TransactionEstimateResponse), (status = 400, description = "Invalid request", body = ErrorsDoc), (status = 404, description = "Not found", body = ErrorsDoc), (status = 409, description = "The idempotency key is another estimate's", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn patch_transaction_annotations(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<AnnotationsPath>,
    body: JsonBody<UpdateTransactionEstimateAnnotationsRequest>,
) -> Result<HttpResponse, ApiError> {
    let patch = conversion::transaction_annotations(&body.0)?;
    annotated(&state, &who, EstimateKind::Transaction, &path.id, patch).await
}

/// Registers the estimate routes (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/estimates/electricity").route(web::post().to(create_electricity)))
        .service(
            web::resource("/estimates/emission-factor")
                .route(web::post().to(create_emission_factor)),
        )
        .service(
            web::resource("/estimates/emission-factor/{id}")
                .route(web::get().to(get_emission_factor)),
        )
        .service(
            web::resource("/estimates/electricity/{id}")
                .route(web::get().to(get_electricity))
                .route(web::put().to(put_electricity)),
        )
        .service(web::resource("/estimates/flight").route(web::post().to(create_flight)))
        .service(
            web::resource("/estimates/passenger-transportation")
                .route(web::post().to(create_passenger)),
        )
        .service(
            web::resource("/estimates/passenger-transportation/{id}")
                .route(web::get().to(get_passenger)),
        )
        .service(
            web::resource("/estimates/passenger-transportation/{id}/annotations")
                .route(web::patch().to(passenger_annotations::patch_passenger_annotations)),
        )
        .service(web::resource("/estimates/shipping").route(web::post().to(create_shipping)))
        .service(web::resource("/estimates/shipping/all").route(web::get().to(list_shipping)))
        .service(
            web::resource("/estimates/shipping/multi-leg").route(web::post().to(create_multi_leg)),
        )
        .service(
            web::resource("/estimates/shipping/multi-leg/by-fuel")
                .route(web::post().to(create_multi_leg_by_fuel)),
        )
        .service(
            web::resource("/estimates/shipping/multi-leg/by-fuel/{id}")
                .route(web::get().to(get_multi_leg_by_fuel)),
        )
        .service(
            web::resource("/estimates/shipping/multi-leg/{id}/annotations")
                .route(web::patch().to(patch_multi_leg_annotations)),
        )
        .service(
            web::resource("/estimates/shipping/{id}/annotations")
                .route(web::patch().to(patch_shipping_annotations)),
        )
        .service(
            web::resource("/estimates/transactions/{id}/annotations")
                .route(web::patch().to(patch_transaction_annotations)),
        )
        .service(
            web::resource("/estimates/shipping/multi-leg/{id}")
                .route(web::get().to(get_multi_leg))
                .route(web::put().to(put_multi_leg)),
        )
        .service(
            web::resource("/estimates/shipping/{id}")
                .route(web::get().to(get_shipping))
                .route(web::put().to(put_shipping)),
        )
        .service(web::resource("/estimates/transactions").route(web::post().to(create_transaction)))
        .service(web::resource("/estimates/transactions/batch").route(web::post().to(create_batch)))
        .service(
            web::resource("/estimates/transactions/by-idempotency-key/{idempotency_key}")
                .route(web::get().to(get_transaction_by_idempotency_key)),
        )
        .service(
            web::resource("/estimates/transactions/{id}")
                .route(web::get().to(get_transaction))
                .route(web::put().to(put_transaction)),
        )
        .service(web::resource("/estimates/company").route(web::post().to(create_company)))
        .service(
            web::resource("/estimates/company/{id}")
                .route(web::get().to(get_company))
                .route(web::put().to(put_company)),
        )
        .service(web::resource("/estimates/individual").route(web::post().to(create_individual)));
}
