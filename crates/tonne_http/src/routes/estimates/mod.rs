//! `/v1/estimates/*`: the eight estimate kinds and batch transactions.
//!
//! Each handler parses the contract's request, runs the engine of
//! `tonne_estimation`, stores the result (kinds the contract lets clients read
//! back), and answers the estimate with a quote for offsetting its mass. A quote
//! that cannot be made (no priced bundle, bad selection…) is the `Errors` object
//! in `quote`; the estimate itself still succeeds.

pub mod wire;

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use tonne_estimation::records::{Computed, EstimateKind, EstimateRecord};
use tonne_estimation::transaction::TransactionOutcome;
use tonne_estimation::{electricity, flight, footprint, passenger, shipping, transaction};
use tonne_kernel::{AccountId, Mass, MassUnit};
use tonne_ordering::MassRequest;
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::openapi::ErrorsDoc;
use crate::routes::quotes::{MassUnitBody, SelectionBody, quote_body, selection};
use crate::state::AppState;
use wire::*;

type R<T> = Result<T, ApiError>;

/// The contract's `EmissionEstimateResponse` (plus the kind's own fields), for the OpenAPI document.
#[derive(Debug, Serialize, ToSchema)]
pub struct EstimateDoc {
    /// 32-character id.
    id: String,
    /// CO2e in tonnes.
    mass: MassDoc,
    /// `OrderQuoteByQuantity`, or `Errors` when quoting failed.
    #[schema(value_type = Object)]
    quote: Value,
    /// The request as accepted.
    #[schema(value_type = Object)]
    request: Value,
}

/// A mass in the answers (tonnes).
#[derive(Debug, Serialize, ToSchema)]
pub struct MassDoc {
    /// Decimal string, up to six decimals.
    amount: String,
    /// Always `t`.
    unit: String,
}

/// A distance in the answers (km).
#[derive(Debug, Serialize, ToSchema)]
pub struct DistanceDoc {
    /// Decimal string, up to three decimals.
    amount: String,
    /// Always `km`.
    unit: String,
}

/// One passenger leg's estimate.
#[derive(Debug, Serialize, ToSchema)]
pub struct PassengerLegDoc {
    mass: MassDoc,
}

/// The contract's `PassengerTransportationEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
pub struct PassengerEstimateDoc {
    #[serde(flatten)]
    base: EstimateDoc,
    /// Per leg, in request order.
    legs: Vec<PassengerLegDoc>,
}

/// The contract's `ShippingLegEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShippingLegDoc {
    mass: MassDoc,
    distance: DistanceDoc,
    /// Fallbacks used (`imo_unavailable_container_ship_fallback`, `…_trade_lane_fallback`).
    methodology: Vec<String>,
}

/// The contract's `SingleShippingEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShippingEstimateDoc {
    #[serde(flatten)]
    base: EstimateDoc,
    /// Distance used.
    distance: DistanceDoc,
    /// Fallbacks used.
    methodology: Vec<String>,
}

/// The contract's `MultiLegShippingEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
pub struct MultiLegEstimateDoc {
    #[serde(flatten)]
    base: EstimateDoc,
    /// Per leg, in request order.
    legs: Vec<ShippingLegDoc>,
    /// Σ legs.
    distance: DistanceDoc,
}

/// The contract's `TransactionEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
pub struct TransactionEstimateDoc {
    #[serde(flatten)]
    base: EstimateDoc,
    /// The text a `fuzzy_search_term` matched.
    search_term_match: Option<String>,
}

/// Company components (each a part of the total).
#[derive(Debug, Serialize, ToSchema)]
pub struct CompanyComponentsDoc {
    material_and_waste: MassDoc,
    energy: MassDoc,
    travel_and_commute: MassDoc,
    food_and_drink: MassDoc,
    tech: MassDoc,
    remote_employee: MassDoc,
}

/// The contract's `CompanyEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
pub struct CompanyEstimateDoc {
    #[serde(flatten)]
    base: EstimateDoc,
    scope1: MassDoc,
    scope2: MassDoc,
    scope3: MassDoc,
    components: CompanyComponentsDoc,
}

fn mass_json(m: Mass) -> Value {
    json!({"amount": m.to_tonnes_string(), "unit": "t"})
}

fn distance_json(d: &tonne_estimation::Distance) -> Value {
    json!({"amount": d.to_km_string(), "unit": "km"})
}

fn to_json<T: Serialize>(v: &T) -> R<String> {
    serde_json::to_string(v).map_err(|e| ApiError::internal(&anyhow::anyhow!(e)))
}

/// The quote fields of a stored request (other fields ignored).
#[derive(Debug, Default, Deserialize)]
struct QuoteSelection {
    #[serde(default)]
    bundle_selection: Option<Vec<SelectionBody>>,
    #[serde(default)]
    quantity_trunc: Option<MassUnitBody>,
}

fn quote_request(sel: QuoteSelection, mass: Mass) -> Result<MassRequest, Value> {
    let selection = selection(sel.bundle_selection).map_err(|e| e.body_json())?;
    Ok(MassRequest::Split {
        mass,
        selection,
        trunc: sel.quantity_trunc.map(MassUnit::from),
    })
}

/// The quote, or the `Errors` of a quote the request cannot have. A failure of
/// the store itself is not a quoting problem: it fails the request (500).
fn quote_json(result: Result<tonne_ordering::Quote, tonne_ordering::QuoteError>) -> R<Value> {
    match result {
        Ok(q) => serde_json::to_value(quote_body(&q))
            .map_err(|e| ApiError::internal(&anyhow::anyhow!(e))),
        Err(tonne_ordering::QuoteError::Unexpected(cause)) => Err(ApiError::internal(&cause)),
        Err(e) => Ok(ApiError::from(e).body_json()),
    }
}

/// An estimate ready to answer: its mass, its request as JSON, and the quote
/// to ask for (or the `Errors` of a selection that cannot be one).
type Prepared = (Mass, Value, Result<MassRequest, Value>);

/// A computed estimate, prepared; `None` for money movement.
fn prepare(c: &Computed) -> R<Option<Prepared>> {
    let Some(mass) = c.mass else { return Ok(None) };
    let request: Value =
        serde_json::from_str(&c.request).map_err(|e| ApiError::internal(&anyhow::anyhow!(e)))?;
    let sel: QuoteSelection = serde_json::from_value(request.clone()).unwrap_or_default();
    Ok(Some((mass, request, quote_request(sel, mass))))
}

fn assemble(id: &str, mass: Mass, request: Value, quote: Value, c: &Computed) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), Value::String(id.to_owned()));
    out.insert("mass".into(), mass_json(mass));
    out.insert("quote".into(), quote);
    out.insert("request".into(), request);
    if let Ok(Value::Object(extra)) = serde_json::from_str::<Value>(&c.result) {
        out.extend(extra);
    }
    Value::Object(out)
}

/// The response body of a stored estimate; `None` for money movement.
async fn body(state: &AppState, account: AccountId, id: &str, c: &Computed) -> R<Option<Value>> {
    let Some((mass, request, quote)) = prepare(c)? else {
        return Ok(None);
    };
    let quote = match quote {
        Ok(q) => quote_json(state.ordering.quote_by_mass(account, q).await)?,
        Err(errors) => errors,
    };
    Ok(Some(assemble(id, mass, request, quote, c)))
}

fn respond(body: Option<Value>) -> HttpResponse {
    match body {
        Some(b) => HttpResponse::Ok().json(b),
        // money movement: nothing to estimate
        None => HttpResponse::NoContent().finish(),
    }
}

/// Stores and answers an estimate. Flight, passenger and individual estimates
/// are stored too (their id can be ordered with `POST /v1/orders/by-estimate`),
/// but the contract has no route to read or update them.
async fn created(
    state: &AppState,
    who: &Authenticated,
    kind: EstimateKind,
    c: Computed,
) -> R<HttpResponse> {
    let account = who.0.account_id;
    let record = state.estimates.create(account, kind, c).await?;
    Ok(respond(
        body(state, account, &record.id.to_string(), &record.computed).await?,
    ))
}

async fn read(
    state: &AppState,
    who: &Authenticated,
    kind: EstimateKind,
    id: &str,
) -> R<HttpResponse> {
    let account = who.0.account_id;
    let record: EstimateRecord = state.estimates.get(account, Some(kind), id).await?;
    Ok(respond(body(state, account, id, &record.computed).await?))
}

async fn updated(
    state: &AppState,
    who: &Authenticated,
    kind: EstimateKind,
    id: &str,
    c: Computed,
) -> R<HttpResponse> {
    let account = who.0.account_id;
    state.estimates.update(account, kind, id, &c).await?;
    // the stored estimate is now exactly `c`: answer from it, no re-read
    Ok(respond(body(state, account, id, &c).await?))
}

// ---- engines: wire request → Computed ------------------------------------------------

/// A malformed `bundle_selection` (a percentage that breaks the contract's
/// pattern) refuses the request, so that the echoed request always conforms;
/// a well-formed selection that cannot be priced becomes the quote's `Errors`.
fn check_selection(b: &impl QuoteFields) -> R<()> {
    selection(b.bundle_selection()).map(|_| ())
}

fn electricity_computed(b: &ElectricityRequest) -> R<Computed> {
    check_selection(b)?;
    let (energy, country) = b.parse()?;
    let e = electricity::estimate(energy, country.as_deref())?;
    Ok(Computed {
        mass: Some(e.mass),
        request: to_json(b)?,
        result: "{}".into(),
    })
}

fn flight_computed(b: &FlightRequest) -> R<Computed> {
    check_selection(b)?;
    let e = flight::estimate(&b.parse()?)?;
    Ok(Computed {
        mass: Some(e.mass),
        request: to_json(b)?,
        result: "{}".into(),
    })
}

fn passenger_computed(b: &PassengerTransportationRequest) -> R<Computed> {
    check_selection(b)?;
    let e = passenger::estimate(&b.parse()?)?;
    let legs: Vec<Value> = e
        .legs
        .iter()
        .map(|m| json!({"mass": mass_json(*m)}))
        .collect();
    Ok(Computed {
        mass: Some(e.mass),
        request: to_json(b)?,
        result: to_json(&json!({"legs": legs}))?,
    })
}

fn leg_json(l: &shipping::LegEstimate) -> Value {
    json!({"mass": mass_json(l.mass), "distance": distance_json(&l.distance), "methodology": l.methodology})
}

fn shipping_computed(b: &ShippingRequest) -> R<Computed> {
    check_selection(b)?;
    let (shipment, leg) = b.parse()?;
    let e = shipping::leg("", &shipment, &leg)?;
    let result = json!({"distance": distance_json(&e.distance), "methodology": e.methodology});
    Ok(Computed {
        mass: Some(e.mass),
        request: to_json(b)?,
        result: to_json(&result)?,
    })
}

fn multi_leg_computed(b: &MultiLegShippingRequest) -> R<Computed> {
    check_selection(b)?;
    let (shipment, legs) = b.parse()?;
    let e = shipping::multi_leg(&shipment, &legs)?;
    let result = json!({
        "legs": e.legs.iter().map(leg_json).collect::<Vec<_>>(),
        "distance": distance_json(&e.distance),
    });
    Ok(Computed {
        mass: Some(e.mass),
        request: to_json(b)?,
        result: to_json(&result)?,
    })
}

fn transaction_computed(b: &TransactionRequestBody) -> R<Computed> {
    check_selection(b)?;
    let (mass, result) = match transaction::estimate(&b.parse()?)? {
        TransactionOutcome::Estimate {
            mass,
            search_term_match,
        } => (
            Some(mass),
            match search_term_match {
                Some(m) => json!({"search_term_match": m}),
                None => json!({}),
            },
        ),
        TransactionOutcome::MoneyMovement => (None, json!({})),
    };
    Ok(Computed {
        mass,
        request: to_json(b)?,
        result: to_json(&result)?,
    })
}

fn company_computed(b: &CompanyRequestBody) -> R<Computed> {
    check_selection(b)?;
    let e = footprint::company(&b.parse()?)?;
    let result = json!({
        "scope1": mass_json(e.scope1),
        "scope2": mass_json(e.scope2),
        "scope3": mass_json(e.scope3),
        "components": {
            "material_and_waste": mass_json(e.material_and_waste),
            "energy": mass_json(e.energy),
            "travel_and_commute": mass_json(e.travel_and_commute),
            "food_and_drink": mass_json(e.food_and_drink),
            "tech": mass_json(e.tech),
            "remote_employee": mass_json(e.remote_employee),
        },
    });
    Ok(Computed {
        mass: Some(e.mass),
        request: to_json(b)?,
        result: to_json(&result)?,
    })
}

fn individual_computed(b: &IndividualRequestBody) -> R<Computed> {
    check_selection(b)?;
    let e = footprint::individual(&b.parse()?)?;
    Ok(Computed {
        mass: Some(e.mass),
        request: to_json(b)?,
        result: "{}".into(),
    })
}

// ---- handlers ---------------------------------------------------------------------------

/// Path id.
#[derive(Debug, Deserialize)]
pub struct IdPath {
    id: String,
}

/// Creates an electricity estimate.
#[utoipa::path(post, path = "/v1/estimates/electricity", tag = "Emission estimates", operation_id = "createElectricityEstimate",
    security(("BearerAuth" = [])), request_body = ElectricityRequest,
    responses((status = 200, description = "OK", body = EstimateDoc), (status = 400, description = "Invalid request", body = ErrorsDoc), (status = 401, description = "Missing, invalid or revoked key", body = ErrorsDoc)))]
pub async fn create_electricity(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<ElectricityRequest>,
) -> R<HttpResponse> {
    created(
        &state,
        &who,
        EstimateKind::Electricity,
        electricity_computed(&body.0)?,
    )
    .await
}

/// Reads an electricity estimate.
#[utoipa::path(get, path = "/v1/estimates/electricity/{id}", tag = "Emission estimates", operation_id = "getElectricityEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = EstimateDoc), (status = 404, description = "Not found", body = ErrorsDoc)))]
pub async fn get_electricity(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
) -> R<HttpResponse> {
    read(&state, &who, EstimateKind::Electricity, &path.id).await
}

/// Recomputes an electricity estimate.
#[utoipa::path(put, path = "/v1/estimates/electricity/{id}", tag = "Emission estimates", operation_id = "updateElectricityEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")), request_body = ElectricityRequest,
    responses((status = 200, description = "OK", body = EstimateDoc), (status = 400, description = "Invalid request", body = ErrorsDoc), (status = 404, description = "Not found", body = ErrorsDoc), (status = 409, description = "Ordered already", body = ErrorsDoc)))]
pub async fn put_electricity(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
    body: JsonBody<ElectricityRequest>,
) -> R<HttpResponse> {
    updated(
        &state,
        &who,
        EstimateKind::Electricity,
        &path.id,
        electricity_computed(&body.0)?,
    )
    .await
}

/// Creates a flight estimate.
#[utoipa::path(post, path = "/v1/estimates/flight", tag = "Emission estimates", operation_id = "createFlightEstimate",
    security(("BearerAuth" = [])), request_body = FlightRequest,
    responses((status = 200, description = "OK", body = EstimateDoc), (status = 400, description = "Invalid request (airport_invalid for an unknown airport)", body = ErrorsDoc)))]
pub async fn create_flight(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<FlightRequest>,
) -> R<HttpResponse> {
    created(
        &state,
        &who,
        EstimateKind::Flight,
        flight_computed(&body.0)?,
    )
    .await
}

/// Creates a passenger-transportation estimate.
#[utoipa::path(post, path = "/v1/estimates/passenger-transportation", tag = "Emission estimates", operation_id = "createPassengerTransportationEstimate",
    security(("BearerAuth" = [])), request_body = PassengerTransportationRequest,
    responses((status = 200, description = "OK", body = PassengerEstimateDoc), (status = 400, description = "Invalid request", body = ErrorsDoc)))]
pub async fn create_passenger(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<PassengerTransportationRequest>,
) -> R<HttpResponse> {
    created(
        &state,
        &who,
        EstimateKind::PassengerTransportation,
        passenger_computed(&body.0)?,
    )
    .await
}

/// Creates a single-leg shipping estimate.
#[utoipa::path(post, path = "/v1/estimates/shipping", tag = "Emission estimates", operation_id = "createShippingEstimate",
    security(("BearerAuth" = [])), request_body = ShippingRequest,
    responses((status = 200, description = "OK", body = ShippingEstimateDoc), (status = 400, description = "Invalid request (port_not_found, airport_invalid, address_not_found)", body = ErrorsDoc)))]
pub async fn create_shipping(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<ShippingRequest>,
) -> R<HttpResponse> {
    created(
        &state,
        &who,
        EstimateKind::Shipping,
        shipping_computed(&body.0)?,
    )
    .await
}

/// Reads a single-leg shipping estimate.
#[utoipa::path(get, path = "/v1/estimates/shipping/{id}", tag = "Emission estimates", operation_id = "getShippingEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = ShippingEstimateDoc), (status = 404, description = "Not found", body = ErrorsDoc)))]
pub async fn get_shipping(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
) -> R<HttpResponse> {
    read(&state, &who, EstimateKind::Shipping, &path.id).await
}

/// Recomputes a single-leg shipping estimate.
#[utoipa::path(put, path = "/v1/estimates/shipping/{id}", tag = "Emission estimates", operation_id = "updateShippingEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")), request_body = ShippingRequest,
    responses((status = 200, description = "OK", body = ShippingEstimateDoc), (status = 400, description = "Invalid request", body = ErrorsDoc), (status = 404, description = "Not found", body = ErrorsDoc), (status = 409, description = "Ordered already", body = ErrorsDoc)))]
pub async fn put_shipping(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
    body: JsonBody<ShippingRequest>,
) -> R<HttpResponse> {
    updated(
        &state,
        &who,
        EstimateKind::Shipping,
        &path.id,
        shipping_computed(&body.0)?,
    )
    .await
}

/// Creates a multi-leg shipping estimate.
#[utoipa::path(post, path = "/v1/estimates/shipping/multi-leg", tag = "Emission estimates", operation_id = "createMultiLegShippingEstimate",
    security(("BearerAuth" = [])), request_body = MultiLegShippingRequest,
    responses((status = 200, description = "OK", body = MultiLegEstimateDoc), (status = 400, description = "Invalid request", body = ErrorsDoc)))]
pub async fn create_multi_leg(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<MultiLegShippingRequest>,
) -> R<HttpResponse> {
    created(
        &state,
        &who,
        EstimateKind::MultiLegShipping,
        multi_leg_computed(&body.0)?,
    )
    .await
}

/// Reads a multi-leg shipping estimate.
#[utoipa::path(get, path = "/v1/estimates/shipping/multi-leg/{id}", tag = "Emission estimates", operation_id = "getMultiLegShippingEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = MultiLegEstimateDoc), (status = 404, description = "Not found", body = ErrorsDoc)))]
pub async fn get_multi_leg(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
) -> R<HttpResponse> {
    read(&state, &who, EstimateKind::MultiLegShipping, &path.id).await
}

/// Recomputes a multi-leg shipping estimate.
#[utoipa::path(put, path = "/v1/estimates/shipping/multi-leg/{id}", tag = "Emission estimates", operation_id = "updateMultiLegShippingEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")), request_body = MultiLegShippingRequest,
    responses((status = 200, description = "OK", body = MultiLegEstimateDoc), (status = 400, description = "Invalid request", body = ErrorsDoc), (status = 404, description = "Not found", body = ErrorsDoc), (status = 409, description = "Ordered already", body = ErrorsDoc)))]
pub async fn put_multi_leg(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
    body: JsonBody<MultiLegShippingRequest>,
) -> R<HttpResponse> {
    updated(
        &state,
        &who,
        EstimateKind::MultiLegShipping,
        &path.id,
        multi_leg_computed(&body.0)?,
    )
    .await
}

/// Creates a transaction estimate (204 for money movement).
#[utoipa::path(post, path = "/v1/estimates/transactions", tag = "Emission estimates", operation_id = "createTransactionEstimate",
    security(("BearerAuth" = [])), request_body = TransactionRequestBody,
    responses((status = 200, description = "OK", body = TransactionEstimateDoc), (status = 204, description = "Money movement: nothing to estimate"), (status = 400, description = "Invalid request", body = ErrorsDoc)))]
pub async fn create_transaction(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<TransactionRequestBody>,
) -> R<HttpResponse> {
    let c = transaction_computed(&body.0)?;
    if c.mass.is_none() {
        return Ok(respond(None));
    }
    created(&state, &who, EstimateKind::Transaction, c).await
}

/// Reads a transaction estimate.
#[utoipa::path(get, path = "/v1/estimates/transactions/{id}", tag = "Emission estimates", operation_id = "getTransactionEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = TransactionEstimateDoc), (status = 204, description = "Money movement"), (status = 404, description = "Not found", body = ErrorsDoc)))]
pub async fn get_transaction(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
) -> R<HttpResponse> {
    read(&state, &who, EstimateKind::Transaction, &path.id).await
}

/// Recomputes a transaction estimate.
#[utoipa::path(put, path = "/v1/estimates/transactions/{id}", tag = "Emission estimates", operation_id = "updateTransactionEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")), request_body = TransactionRequestBody,
    responses((status = 200, description = "OK", body = TransactionEstimateDoc), (status = 204, description = "Money movement"), (status = 400, description = "Invalid request", body = ErrorsDoc), (status = 404, description = "Not found", body = ErrorsDoc), (status = 409, description = "Ordered already", body = ErrorsDoc)))]
pub async fn put_transaction(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
    body: JsonBody<TransactionRequestBody>,
) -> R<HttpResponse> {
    updated(
        &state,
        &who,
        EstimateKind::Transaction,
        &path.id,
        transaction_computed(&body.0)?,
    )
    .await
}

/// Estimates 1 to 100 transactions, each on its own; answers in request order.
#[utoipa::path(post, path = "/v1/estimates/transactions/batch", tag = "Emission estimates", operation_id = "createBatchTransactionEstimate",
    security(("BearerAuth" = [])), request_body = Vec<TransactionRequestBody>,
    responses((status = 200, description = "Estimates, Errors objects or {} in request order", body = Vec<Object>), (status = 400, description = "Not an array of 1 to 100 entries", body = ErrorsDoc)))]
pub async fn create_batch(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<Vec<Value>>,
) -> R<HttpResponse> {
    let entries = body.0;
    let max = state.config.batch_limit;
    if entries.is_empty() || entries.len() > max {
        return Err(ApiError::validation(
            "body",
            format!("must be an array of 1 to {max} transactions"),
        ));
    }
    // each entry on its own: parse and compute, keeping errors in place
    enum Slot {
        Stored(usize),
        Empty,
        Error(Value),
    }
    let mut slots = Vec::with_capacity(entries.len());
    let mut computed = Vec::new();
    for (i, entry) in entries.into_iter().enumerate() {
        let outcome = serde_path_to_error::deserialize::<_, TransactionRequestBody>(entry)
            .map_err(|e| ApiError::validation(&format!("[{i}].{}", e.path()), e.into_inner()))
            .and_then(|b| transaction_computed(&b));
        slots.push(match outcome {
            Ok(c) if c.mass.is_none() => Slot::Empty,
            Ok(c) => {
                computed.push(c);
                Slot::Stored(computed.len() - 1)
            }
            Err(e) => Slot::Error(e.body_json()),
        });
    }
    let account = who.0.account_id;
    let records = state
        .estimates
        .create_many(account, EstimateKind::Transaction, computed)
        .await?;
    let bodies = bodies_for(&state, account, &records).await?;
    let out: Vec<Value> = slots
        .into_iter()
        .map(|s| match s {
            Slot::Stored(i) => bodies.get(i).cloned().unwrap_or(Value::Null),
            Slot::Empty => json!({}),
            Slot::Error(e) => e,
        })
        .collect();
    Ok(HttpResponse::Ok().json(out))
}

/// Bodies of many records; their quotes are priced together (the account and
/// each distinct selection are read once, not once per entry).
async fn bodies_for(
    state: &AppState,
    account: AccountId,
    records: &[EstimateRecord],
) -> R<Vec<Value>> {
    let mut prepared = Vec::with_capacity(records.len());
    let mut requests = Vec::new();
    for r in records {
        let p = prepare(&r.computed)?;
        if let Some((_, _, Ok(q))) = &p {
            requests.push(q.clone());
        }
        prepared.push(p);
    }
    let mut quotes = state
        .ordering
        .quote_many_by_mass(account, requests)
        .await
        .into_iter();
    let mut out = Vec::with_capacity(records.len());
    for (r, p) in records.iter().zip(prepared) {
        out.push(match p {
            None => json!({}),
            Some((mass, request, quote)) => {
                let quote = match quote {
                    Ok(_) => match quotes.next() {
                        Some(q) => quote_json(q)?,
                        None => {
                            return Err(ApiError::internal(&anyhow::anyhow!("a quote is missing")));
                        }
                    },
                    Err(errors) => errors,
                };
                assemble(&r.id.to_string(), mass, request, quote, &r.computed)
            }
        });
    }
    Ok(out)
}

/// Creates a company estimate.
#[utoipa::path(post, path = "/v1/estimates/company", tag = "Emission estimates", operation_id = "createCompanyEstimate",
    security(("BearerAuth" = [])), request_body = CompanyRequestBody,
    responses((status = 200, description = "OK", body = CompanyEstimateDoc), (status = 400, description = "Invalid request", body = ErrorsDoc)))]
pub async fn create_company(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<CompanyRequestBody>,
) -> R<HttpResponse> {
    created(
        &state,
        &who,
        EstimateKind::Company,
        company_computed(&body.0)?,
    )
    .await
}

/// Reads a company estimate.
#[utoipa::path(get, path = "/v1/estimates/company/{id}", tag = "Emission estimates", operation_id = "getCompanyEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = CompanyEstimateDoc), (status = 404, description = "Not found", body = ErrorsDoc)))]
pub async fn get_company(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
) -> R<HttpResponse> {
    read(&state, &who, EstimateKind::Company, &path.id).await
}

/// Recomputes a company estimate.
#[utoipa::path(put, path = "/v1/estimates/company/{id}", tag = "Emission estimates", operation_id = "updateCompanyEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")), request_body = CompanyRequestBody,
    responses((status = 200, description = "OK", body = CompanyEstimateDoc), (status = 400, description = "Invalid request", body = ErrorsDoc), (status = 404, description = "Not found", body = ErrorsDoc), (status = 409, description = "Ordered already", body = ErrorsDoc)))]
pub async fn put_company(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
    body: JsonBody<CompanyRequestBody>,
) -> R<HttpResponse> {
    updated(
        &state,
        &who,
        EstimateKind::Company,
        &path.id,
        company_computed(&body.0)?,
    )
    .await
}

/// Creates an individual's estimate.
#[utoipa::path(post, path = "/v1/estimates/individual", tag = "Emission estimates", operation_id = "createIndividualEstimate",
    security(("BearerAuth" = [])), request_body = IndividualRequestBody,
    responses((status = 200, description = "OK", body = EstimateDoc), (status = 400, description = "Invalid request", body = ErrorsDoc)))]
pub async fn create_individual(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<IndividualRequestBody>,
) -> R<HttpResponse> {
    created(
        &state,
        &who,
        EstimateKind::Individual,
        individual_computed(&body.0)?,
    )
    .await
}

/// Registers the estimate routes (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/estimates/electricity").route(web::post().to(create_electricity)))
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
        .service(web::resource("/estimates/shipping").route(web::post().to(create_shipping)))
        .service(
            web::resource("/estimates/shipping/multi-leg").route(web::post().to(create_multi_leg)),
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
