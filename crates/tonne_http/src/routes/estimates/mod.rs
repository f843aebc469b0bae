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
use serde_json::Value;
use serde_json::value::RawValue;
use tonne_estimation::estimate::{
    BundleShare, Estimate, EstimateDetail, EstimateKind, EstimateRequest, NewEstimate, QuoteTerms,
    ShippingLeg, Submitted,
};
use tonne_estimation::explain::Explanation;
use tonne_kernel::{AccountId, Mass, MassUnit};
use tonne_ordering::{MassRequest, Percentage, QuoteError, SelectionEntry};
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::state::AppState;
use crate::wire::{BodyErrors, ErrorsDoc, KeyErrors, QuoteBody, quote_body, selection};
use wire::*;

type R<T> = Result<T, ApiError>;

// ---- response bodies ------------------------------------------------------------------

/// The quote of an estimate: `OrderQuoteByQuantity`, or the `Errors` of a
/// selection that cannot be quoted (the estimate itself still succeeds).
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum QuoteAnswer {
    /// The quote.
    Quote(Box<QuoteBody>),
    /// Why there is none.
    Errors(Value),
}

/// The contract's `EmissionEstimateResponse` (the base of every kind's answer).
#[derive(Debug, Serialize, ToSchema)]
pub struct EstimateDoc {
    /// 32-character id.
    id: String,
    /// CO2e in tonnes.
    mass: MassDoc,
    /// `OrderQuoteByQuantity`, or `Errors` when quoting failed.
    #[schema(value_type = Object)]
    quote: QuoteAnswer,
    /// The request as accepted.
    #[schema(value_type = Object)]
    request: Box<RawValue>,
    /// Tonne's extension: how the mass was obtained (see docs/API.md).
    explanation: ExplanationDoc,
}

/// A mass in the answers (tonnes).
#[derive(Debug, Serialize, ToSchema)]
pub struct MassDoc {
    /// Decimal string, up to six decimals.
    amount: String,
    /// Always `t`.
    unit: &'static str,
}

fn mass_doc(m: Mass) -> MassDoc {
    MassDoc {
        amount: m.to_tonnes_string(),
        unit: "t",
    }
}

/// A distance in the answers (km).
#[derive(Debug, Serialize, ToSchema)]
pub struct DistanceDoc {
    /// Decimal string, up to three decimals.
    amount: String,
    /// Always `km`.
    unit: &'static str,
}

fn distance_doc(d: &tonne_estimation::Distance) -> DistanceDoc {
    DistanceDoc {
        amount: d.to_km_string(),
        unit: "km",
    }
}

/// How an estimate's mass was obtained: its parts (adding up to `mass`) and notes.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExplanationDoc {
    parts: Vec<PartDoc>,
    /// Fallbacks, precision, floors.
    notes: Vec<String>,
}

/// One part of the mass.
#[derive(Debug, Serialize, ToSchema)]
pub struct PartDoc {
    /// `consumption`, `flight`, `legs[0]`, `energy`, …
    name: String,
    mass: MassDoc,
    factors: Vec<FactorDoc>,
    quantities: Vec<QuantityDoc>,
}

/// A factor used, with its provenance.
#[derive(Debug, Serialize, ToSchema)]
pub struct FactorDoc {
    /// Tonne's stable name, e.g. `RAIL_NATIONAL`, `grid:DEU`, `mcc:5812`.
    id: String,
    /// Decimal string.
    value: String,
    unit: String,
    /// Publication (or Tonne's stated assumption, marked `[A]`).
    source: String,
    /// Table and row.
    #[serde(skip_serializing_if = "Option::is_none")]
    row: Option<String>,
    /// Year of the data.
    #[serde(skip_serializing_if = "Option::is_none")]
    year: Option<u16>,
}

/// An activity quantity a factor multiplied.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuantityDoc {
    name: String,
    /// Decimal string.
    amount: String,
    unit: String,
    /// How it was obtained.
    method: String,
}

fn explanation_doc(e: &Explanation) -> ExplanationDoc {
    ExplanationDoc {
        parts: e
            .parts
            .iter()
            .map(|p| PartDoc {
                name: p.name.clone(),
                mass: mass_doc(p.mass),
                factors: p
                    .factors
                    .iter()
                    .map(|f| FactorDoc {
                        id: f.id.clone(),
                        value: f.value.normalize().to_string(),
                        unit: f.unit.clone(),
                        source: f.source.clone(),
                        row: f.row.clone(),
                        year: f.year,
                    })
                    .collect(),
                quantities: p
                    .quantities
                    .iter()
                    .map(|q| QuantityDoc {
                        name: q.name.clone(),
                        amount: q.amount.normalize().to_string(),
                        unit: q.unit.clone(),
                        method: q.method.clone(),
                    })
                    .collect(),
            })
            .collect(),
        notes: e.notes.clone(),
    }
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
    methodology: Vec<&'static str>,
}

fn leg_doc(l: &ShippingLeg) -> ShippingLegDoc {
    ShippingLegDoc {
        mass: mass_doc(l.mass),
        distance: distance_doc(&l.distance),
        methodology: l.methodology.iter().map(|m| m.as_str()).collect(),
    }
}

/// The contract's `SingleShippingEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShippingEstimateDoc {
    #[serde(flatten)]
    base: EstimateDoc,
    /// Distance used.
    distance: DistanceDoc,
    /// Fallbacks used.
    methodology: Vec<&'static str>,
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
    #[serde(skip_serializing_if = "Option::is_none")]
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

/// An estimate's answer, whichever its kind.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum EstimateAnswer {
    /// Electricity, flight, individual.
    Plain(EstimateDoc),
    Passenger(PassengerEstimateDoc),
    Shipping(ShippingEstimateDoc),
    MultiLeg(MultiLegEstimateDoc),
    Transaction(TransactionEstimateDoc),
    Company(Box<CompanyEstimateDoc>),
}

/// Renders an estimate with its quote; `None` for money movement.
fn render(e: &Estimate, quote: QuoteAnswer) -> R<Option<EstimateAnswer>> {
    let Some(mass) = e.mass else { return Ok(None) };
    let request = RawValue::from_string(e.submitted.as_str().to_owned())
        .map_err(|err| ApiError::internal(&anyhow::anyhow!(err)))?;
    let base = EstimateDoc {
        id: e.id.to_string(),
        mass: mass_doc(mass),
        quote,
        request,
        explanation: explanation_doc(&e.explanation),
    };
    Ok(Some(match &e.detail {
        EstimateDetail::Plain | EstimateDetail::MoneyMovement => EstimateAnswer::Plain(base),
        EstimateDetail::PassengerLegs(legs) => EstimateAnswer::Passenger(PassengerEstimateDoc {
            base,
            legs: legs
                .iter()
                .map(|m| PassengerLegDoc { mass: mass_doc(*m) })
                .collect(),
        }),
        EstimateDetail::Shipping(l) => EstimateAnswer::Shipping(ShippingEstimateDoc {
            base,
            distance: distance_doc(&l.distance),
            methodology: l.methodology.iter().map(|m| m.as_str()).collect(),
        }),
        EstimateDetail::MultiLegShipping { distance, legs } => {
            EstimateAnswer::MultiLeg(MultiLegEstimateDoc {
                base,
                legs: legs.iter().map(leg_doc).collect(),
                distance: distance_doc(distance),
            })
        }
        EstimateDetail::Transaction { search_term_match } => {
            EstimateAnswer::Transaction(TransactionEstimateDoc {
                base,
                search_term_match: search_term_match.clone(),
            })
        }
        EstimateDetail::Company(c) => EstimateAnswer::Company(Box::new(CompanyEstimateDoc {
            base,
            scope1: mass_doc(c.scope1),
            scope2: mass_doc(c.scope2),
            scope3: mass_doc(c.scope3),
            components: CompanyComponentsDoc {
                material_and_waste: mass_doc(c.material_and_waste),
                energy: mass_doc(c.energy),
                travel_and_commute: mass_doc(c.travel_and_commute),
                food_and_drink: mass_doc(c.food_and_drink),
                tech: mass_doc(c.tech),
                remote_employee: mass_doc(c.remote_employee),
            },
        })),
    }))
}

// ---- quotes ------------------------------------------------------------------------------

/// The ordering request for an estimate's quote, or the `Errors` of terms that
/// cannot be one.
fn quote_request(mass: Mass, terms: &QuoteTerms) -> Result<MassRequest, QuoteAnswer> {
    let selection = terms
        .bundle_selection
        .as_ref()
        .map(|s| {
            s.iter()
                .map(|b| {
                    Ok(SelectionEntry {
                        bundle_id: b.bundle_id.clone(),
                        percentage: b.hundredths.map(Percentage::from_hundredths).transpose()?,
                    })
                })
                .collect::<Result<Vec<_>, QuoteError>>()
        })
        .transpose()
        .map_err(|e| QuoteAnswer::Errors(ApiError::from(e).body_json()))?;
    Ok(MassRequest::Split {
        mass,
        selection,
        trunc: terms.quantity_trunc,
    })
}

/// The quote, or the `Errors` of a quote the request cannot have. A failure of
/// the store itself is not a quoting problem: it fails the request (500).
fn quote_answer(result: Result<tonne_ordering::Quote, QuoteError>) -> R<QuoteAnswer> {
    match result {
        Ok(q) => Ok(QuoteAnswer::Quote(Box::new(quote_body(&q)))),
        Err(QuoteError::Unexpected(cause)) => Err(ApiError::internal(&cause)),
        Err(e) => Ok(QuoteAnswer::Errors(ApiError::from(e).body_json())),
    }
}

/// Quotes and renders one estimate; `None` for money movement.
async fn answer(state: &AppState, account: AccountId, e: &Estimate) -> R<Option<EstimateAnswer>> {
    let Some(mass) = e.mass else { return Ok(None) };
    let quote = match quote_request(mass, &e.quote) {
        Ok(q) => quote_answer(state.ordering.quote_by_mass(account, q).await)?,
        Err(errors) => errors,
    };
    render(e, quote)
}

fn respond(answer: Option<EstimateAnswer>) -> HttpResponse {
    match answer {
        Some(a) => HttpResponse::Ok().json(a),
        // money movement: nothing to estimate
        None => HttpResponse::NoContent().finish(),
    }
}

/// Stores and answers an estimate. Flight, passenger and individual estimates
/// are stored too (their id can be ordered with `POST /v1/orders/by-estimate`),
/// but the contract has no route to read or update them.
async fn created(state: &AppState, who: &Authenticated, new: NewEstimate) -> R<HttpResponse> {
    let account = who.0.account_id;
    let answer = match state.estimates.create(account, new).await? {
        Some(e) => answer(state, account, &e).await?,
        None => None,
    };
    Ok(respond(answer))
}

async fn read(
    state: &AppState,
    who: &Authenticated,
    kind: EstimateKind,
    id: &str,
) -> R<HttpResponse> {
    let account = who.0.account_id;
    let e = state.estimates.get(account, Some(kind), id).await?;
    Ok(respond(answer(state, account, &e).await?))
}

async fn updated(
    state: &AppState,
    who: &Authenticated,
    id: &str,
    new: NewEstimate,
) -> R<HttpResponse> {
    let account = who.0.account_id;
    let e = state.estimates.update(account, id, new).await?;
    Ok(respond(answer(state, account, &e).await?))
}

// ---- wire request → domain request --------------------------------------------------------

/// A wire request as the domain's: the quote terms first (a malformed
/// `bundle_selection` refuses the request, so that the echoed request always
/// conforms; a well-formed one that cannot be priced becomes the quote's
/// `Errors`), then the engine input, and the document as submitted.
fn submission<B: QuoteFields + Serialize>(
    body: &B,
    parse: impl FnOnce(&B) -> R<EstimateRequest>,
) -> R<NewEstimate> {
    let bundle_selection = selection(body.bundle_selection())?.map(|entries| {
        entries
            .into_iter()
            .map(|e| BundleShare {
                bundle_id: e.bundle_id,
                hundredths: e.percentage.map(Percentage::hundredths),
            })
            .collect()
    });
    let request = parse(body)?;
    let document =
        serde_json::to_string(body).map_err(|e| ApiError::internal(&anyhow::anyhow!(e)))?;
    Ok(NewEstimate {
        request,
        quote: QuoteTerms {
            bundle_selection,
            quantity_trunc: body.quantity_trunc().map(MassUnit::from),
        },
        submitted: Submitted::new(document),
    })
}

fn electricity(b: &ElectricityRequest) -> R<NewEstimate> {
    submission(b, |b| {
        let (consumption, country_code) = b.parse()?;
        Ok(EstimateRequest::Electricity {
            consumption,
            country_code,
        })
    })
}

fn flight(b: &FlightRequest) -> R<NewEstimate> {
    submission(b, |b| Ok(EstimateRequest::Flight(b.parse()?)))
}

fn passenger(b: &PassengerTransportationRequest) -> R<NewEstimate> {
    submission(b, |b| {
        Ok(EstimateRequest::PassengerTransportation(b.parse()?))
    })
}

fn shipping(b: &ShippingRequest) -> R<NewEstimate> {
    submission(b, |b| {
        let (shipment, leg) = b.parse()?;
        Ok(EstimateRequest::Shipping { shipment, leg })
    })
}

fn multi_leg(b: &MultiLegShippingRequest) -> R<NewEstimate> {
    submission(b, |b| {
        let (shipment, legs) = b.parse()?;
        Ok(EstimateRequest::MultiLegShipping { shipment, legs })
    })
}

fn transaction(b: &TransactionRequestBody) -> R<NewEstimate> {
    submission(b, |b| Ok(EstimateRequest::Transaction(b.parse()?)))
}

fn company(b: &CompanyRequestBody) -> R<NewEstimate> {
    submission(b, |b| Ok(EstimateRequest::Company(b.parse()?)))
}

fn individual(b: &IndividualRequestBody) -> R<NewEstimate> {
    submission(b, |b| Ok(EstimateRequest::Individual(b.parse()?)))
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
    responses((status = 200, description = "OK", body = EstimateDoc), (status = 400, description = "Invalid request", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn create_electricity(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<ElectricityRequest>,
) -> R<HttpResponse> {
    created(&state, &who, electricity(&body.0)?).await
}

/// Reads an electricity estimate.
#[utoipa::path(get, path = "/v1/estimates/electricity/{id}", tag = "Emission estimates", operation_id = "getElectricityEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = EstimateDoc), (status = 404, description = "Not found", body = ErrorsDoc), KeyErrors))]
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
    responses((status = 200, description = "OK", body = EstimateDoc), (status = 400, description = "Invalid request", body = ErrorsDoc), (status = 404, description = "Not found", body = ErrorsDoc), (status = 409, description = "Ordered already", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn put_electricity(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
    body: JsonBody<ElectricityRequest>,
) -> R<HttpResponse> {
    updated(&state, &who, &path.id, electricity(&body.0)?).await
}

/// Creates a flight estimate.
#[utoipa::path(post, path = "/v1/estimates/flight", tag = "Emission estimates", operation_id = "createFlightEstimate",
    security(("BearerAuth" = [])), request_body = FlightRequest,
    responses((status = 200, description = "OK", body = EstimateDoc), (status = 400, description = "Invalid request (airport_invalid for an unknown airport)", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn create_flight(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<FlightRequest>,
) -> R<HttpResponse> {
    created(&state, &who, flight(&body.0)?).await
}

/// Creates a passenger-transportation estimate.
#[utoipa::path(post, path = "/v1/estimates/passenger-transportation", tag = "Emission estimates", operation_id = "createPassengerTransportationEstimate",
    security(("BearerAuth" = [])), request_body = PassengerTransportationRequest,
    responses((status = 200, description = "OK", body = PassengerEstimateDoc), (status = 400, description = "Invalid request", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn create_passenger(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<PassengerTransportationRequest>,
) -> R<HttpResponse> {
    created(&state, &who, passenger(&body.0)?).await
}

/// Creates a single-leg shipping estimate.
#[utoipa::path(post, path = "/v1/estimates/shipping", tag = "Emission estimates", operation_id = "createShippingEstimate",
    security(("BearerAuth" = [])), request_body = ShippingRequest,
    responses((status = 200, description = "OK", body = ShippingEstimateDoc), (status = 400, description = "Invalid request (port_not_found, airport_invalid, address_not_found)", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn create_shipping(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<ShippingRequest>,
) -> R<HttpResponse> {
    created(&state, &who, shipping(&body.0)?).await
}

/// Reads a single-leg shipping estimate.
#[utoipa::path(get, path = "/v1/estimates/shipping/{id}", tag = "Emission estimates", operation_id = "getShippingEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = ShippingEstimateDoc), (status = 404, description = "Not found", body = ErrorsDoc), KeyErrors))]
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
    responses((status = 200, description = "OK", body = ShippingEstimateDoc), (status = 400, description = "Invalid request", body = ErrorsDoc), (status = 404, description = "Not found", body = ErrorsDoc), (status = 409, description = "Ordered already", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn put_shipping(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
    body: JsonBody<ShippingRequest>,
) -> R<HttpResponse> {
    updated(&state, &who, &path.id, shipping(&body.0)?).await
}

/// Creates a multi-leg shipping estimate.
#[utoipa::path(post, path = "/v1/estimates/shipping/multi-leg", tag = "Emission estimates", operation_id = "createMultiLegShippingEstimate",
    security(("BearerAuth" = [])), request_body = MultiLegShippingRequest,
    responses((status = 200, description = "OK", body = MultiLegEstimateDoc), (status = 400, description = "Invalid request", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn create_multi_leg(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<MultiLegShippingRequest>,
) -> R<HttpResponse> {
    created(&state, &who, multi_leg(&body.0)?).await
}

/// Reads a multi-leg shipping estimate.
#[utoipa::path(get, path = "/v1/estimates/shipping/multi-leg/{id}", tag = "Emission estimates", operation_id = "getMultiLegShippingEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = MultiLegEstimateDoc), (status = 404, description = "Not found", body = ErrorsDoc), KeyErrors))]
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
    responses((status = 200, description = "OK", body = MultiLegEstimateDoc), (status = 400, description = "Invalid request", body = ErrorsDoc), (status = 404, description = "Not found", body = ErrorsDoc), (status = 409, description = "Ordered already", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn put_multi_leg(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
    body: JsonBody<MultiLegShippingRequest>,
) -> R<HttpResponse> {
    updated(&state, &who, &path.id, multi_leg(&body.0)?).await
}

/// Creates a transaction estimate (204 for money movement).
#[utoipa::path(post, path = "/v1/estimates/transactions", tag = "Emission estimates", operation_id = "createTransactionEstimate",
    security(("BearerAuth" = [])), request_body = TransactionRequestBody,
    responses((status = 200, description = "OK", body = TransactionEstimateDoc), (status = 204, description = "Money movement: nothing to estimate"), (status = 400, description = "Invalid request", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn create_transaction(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<TransactionRequestBody>,
) -> R<HttpResponse> {
    created(&state, &who, transaction(&body.0)?).await
}

/// Reads a transaction estimate.
#[utoipa::path(get, path = "/v1/estimates/transactions/{id}", tag = "Emission estimates", operation_id = "getTransactionEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = TransactionEstimateDoc), (status = 204, description = "Money movement"), (status = 404, description = "Not found", body = ErrorsDoc), KeyErrors))]
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
    responses((status = 200, description = "OK", body = TransactionEstimateDoc), (status = 204, description = "Money movement"), (status = 400, description = "Invalid request", body = ErrorsDoc), (status = 404, description = "Not found", body = ErrorsDoc), (status = 409, description = "Ordered already", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn put_transaction(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
    body: JsonBody<TransactionRequestBody>,
) -> R<HttpResponse> {
    updated(&state, &who, &path.id, transaction(&body.0)?).await
}

/// Estimates 1 to 100 transactions, each on its own; answers in request order.
#[utoipa::path(post, path = "/v1/estimates/transactions/batch", tag = "Emission estimates", operation_id = "createBatchTransactionEstimate",
    security(("BearerAuth" = [])), request_body = Vec<TransactionRequestBody>,
    responses((status = 200, description = "Estimates, Errors objects or {} in request order", body = Vec<Object>), (status = 400, description = "Not an array of 1 to 100 entries", body = ErrorsDoc), KeyErrors, BodyErrors))]
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
    // each entry on its own: parse, keeping refusals in place
    let mut parsed = Vec::with_capacity(entries.len());
    let mut batch = Vec::new();
    for (i, entry) in entries.into_iter().enumerate() {
        let outcome = serde_path_to_error::deserialize::<_, TransactionRequestBody>(entry)
            .map_err(|e| ApiError::validation(&format!("[{i}].{}", e.path()), e.into_inner()))
            .and_then(|b| transaction(&b));
        parsed.push(match outcome {
            Ok(new) => {
                batch.push(new);
                None
            }
            Err(e) => Some(e.body_json()),
        });
    }
    let account = who.0.account_id;
    let mut computed = state
        .estimates
        .create_many(account, batch)
        .await?
        .into_iter();
    let mut estimates = Vec::with_capacity(parsed.len());
    for refusal in parsed {
        estimates.push(match refusal {
            Some(errors) => Err(errors),
            None => match computed.next() {
                Some(Ok(e)) => Ok(e),
                Some(Err(e)) => Err(ApiError::from(e).body_json()),
                None => return Err(ApiError::internal(&anyhow::anyhow!("an entry is missing"))),
            },
        });
    }
    Ok(HttpResponse::Ok().json(batch_answers(&state, account, estimates).await?))
}

/// One answer of a batch: an estimate, the `Errors` of a refused entry, or
/// `{}` for money movement.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum BatchAnswer {
    /// An estimate.
    Estimate(Box<EstimateAnswer>),
    /// Why the entry was refused.
    Errors(Value),
    /// Money movement.
    Empty {},
}

/// Answers of a batch; their quotes are priced together (the account and each
/// distinct selection are read once, not once per entry).
async fn batch_answers(
    state: &AppState,
    account: AccountId,
    entries: Vec<Result<Option<Estimate>, Value>>,
) -> R<Vec<BatchAnswer>> {
    let mut requests = Vec::new();
    let mut prepared = Vec::with_capacity(entries.len());
    for entry in &entries {
        let quote = match entry {
            Ok(Some(Estimate {
                mass: Some(mass),
                quote,
                ..
            })) => Some(quote_request(*mass, quote).inspect(|q| requests.push(q.clone()))),
            _ => None,
        };
        prepared.push(quote);
    }
    let mut quotes = state
        .ordering
        .quote_many_by_mass(account, requests)
        .await
        .into_iter();
    let mut out = Vec::with_capacity(entries.len());
    for (entry, quote) in entries.into_iter().zip(prepared) {
        out.push(match (entry, quote) {
            (Err(errors), _) => BatchAnswer::Errors(errors),
            (Ok(Some(e)), Some(quote)) => {
                let quote = match quote {
                    Ok(_) => match quotes.next() {
                        Some(q) => quote_answer(q)?,
                        None => {
                            return Err(ApiError::internal(&anyhow::anyhow!("a quote is missing")));
                        }
                    },
                    Err(errors) => errors,
                };
                match render(&e, quote)? {
                    Some(a) => BatchAnswer::Estimate(Box::new(a)),
                    None => BatchAnswer::Empty {},
                }
            }
            (Ok(_), _) => BatchAnswer::Empty {},
        });
    }
    Ok(out)
}

/// Creates a company estimate.
#[utoipa::path(post, path = "/v1/estimates/company", tag = "Emission estimates", operation_id = "createCompanyEstimate",
    security(("BearerAuth" = [])), request_body = CompanyRequestBody,
    responses((status = 200, description = "OK", body = CompanyEstimateDoc), (status = 400, description = "Invalid request", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn create_company(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<CompanyRequestBody>,
) -> R<HttpResponse> {
    created(&state, &who, company(&body.0)?).await
}

/// Reads a company estimate.
#[utoipa::path(get, path = "/v1/estimates/company/{id}", tag = "Emission estimates", operation_id = "getCompanyEstimate",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The estimate's id")),
    responses((status = 200, description = "OK", body = CompanyEstimateDoc), (status = 404, description = "Not found", body = ErrorsDoc), KeyErrors))]
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
    responses((status = 200, description = "OK", body = CompanyEstimateDoc), (status = 400, description = "Invalid request", body = ErrorsDoc), (status = 404, description = "Not found", body = ErrorsDoc), (status = 409, description = "Ordered already", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn put_company(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<IdPath>,
    body: JsonBody<CompanyRequestBody>,
) -> R<HttpResponse> {
    updated(&state, &who, &path.id, company(&body.0)?).await
}

/// Creates an individual's estimate.
#[utoipa::path(post, path = "/v1/estimates/individual", tag = "Emission estimates", operation_id = "createIndividualEstimate",
    security(("BearerAuth" = [])), request_body = IndividualRequestBody,
    responses((status = 200, description = "OK", body = EstimateDoc), (status = 400, description = "Invalid request", body = ErrorsDoc), KeyErrors, BodyErrors))]
pub async fn create_individual(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<IndividualRequestBody>,
) -> R<HttpResponse> {
    created(&state, &who, individual(&body.0)?).await
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
