//! The transaction-document bodies of client 3.9.2: the request
//! (`TransactionDocumentEstimateRequest`, and its async form with
//! `correlation_id`), the annotations patch, and the answer
//! (`TransactionDocumentEmissionEstimate`: line items or the fallback).

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use time::format_description::well_known::Rfc3339;
use tonne_estimation::estimate::{Estimate, EstimateRequest, NewEstimate};
use tonne_estimation::explain::Part;
use tonne_estimation::route::CabinClass;
use tonne_estimation::transaction;
use tonne_estimation::transaction_document::{
    DEFAULT_TOLERANCE, DocumentRequest, DocumentResult, LineItem, LineKind, MATCHING_MODEL,
    MerchantHint, Node, TravelMode, TravelRoute,
};
use utoipa::{IntoParams, ToSchema};

use crate::error::ApiError;
use crate::routes::estimates::conversion::{occurrence, submission};
use crate::routes::estimates::requests::estimate_request;
use crate::routes::estimates::requests::{DietRequest, RegionFallbackRequest, timestamp};
use crate::routes::estimates::responses::amounts::{MassResponse, mass_response};
use crate::routes::estimates::responses::base::EstimateResponse;
use crate::routes::estimates::responses::factor::{
    EmissionFactorResponse, diet_factor, emission_factor,
};
use crate::wire::CurrencyCode;

/// The largest body of the transaction-document routes (256 KiB).
pub const DOCUMENT_BODY_LIMIT: usize = 256 * 1024;

/// `unstructured_data`.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
pub struct UnstructuredDataRequest {
    /// The receipt or invoice as key-value JSON (see docs/API.md for the keys Tonne reads).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub key_value: Option<serde_json::Map<String, Value>>,
}

/// The merchant of a document: every field optional (`OptionalMerchant`).
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
pub struct DocumentMerchantRequest {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// ISO alpha-3.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub country_code: Option<String>,
    /// ISO 18245 MCC.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category_code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search_term: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
}

estimate_request! {
/// The contract's `TransactionDocumentEstimateRequest` (and, with
/// `correlation_id`, its async form).
pub struct TransactionDocumentEstimateRequest as TransactionDocumentEstimateRequestBody {
    pub unstructured_data: UnstructuredDataRequest,
    /// The document's total (else the total read from the document).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub currency: Option<CurrencyCode>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merchant: Option<DocumentMerchantRequest>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diet: Option<DietRequest>,
    /// Kept as sent (Tonne's spend factors are one table per region).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region_fallback: Option<RegionFallbackRequest>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_transaction_document: Option<bool>,
    /// RFC 3339.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transaction_document_processed_at: Option<String>,
    /// The async route's reconciliation id (at most 100 characters), echoed in its webhook event.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub correlation_id: Option<String>,
}
}

/// The query of the create routes.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ToleranceQuery {
    /// How far the lines may add up from the total, as a fraction (0 to 1; default 0.1).
    #[param(value_type = Option<String>, example = "0.05")]
    pub relative_amount_tolerance_threshold: Option<String>,
}

impl ToleranceQuery {
    pub fn parse(&self) -> Result<Decimal, ApiError> {
        let Some(raw) = &self.relative_amount_tolerance_threshold else {
            return Ok(DEFAULT_TOLERANCE);
        };
        raw.parse::<Decimal>()
            .ok()
            .filter(|t| *t >= Decimal::ZERO && *t <= Decimal::ONE)
            .ok_or_else(|| {
                ApiError::validation(
                    "relative_amount_tolerance_threshold",
                    "must be a number from 0 to 1",
                )
            })
    }
}

/// The most characters of a `correlation_id`.
pub const CORRELATION_ID_MAX_CHARS: usize = 100;

fn node(v: &Value) -> Node {
    match v {
        Value::Null => Node::Null,
        Value::Bool(b) => Node::Bool(*b),
        Value::Number(n) => Node::Number(n.to_string()),
        Value::String(s) => Node::Text(s.clone()),
        Value::Array(a) => Node::List(a.iter().map(node).collect()),
        Value::Object(o) => Node::Map(o.iter().map(|(k, v)| (k.clone(), node(v))).collect()),
    }
}

/// The request as the domain's `NewEstimate` (`tolerance` from the query).
pub fn new_estimate(
    b: &TransactionDocumentEstimateRequest,
    tolerance: Decimal,
) -> Result<NewEstimate, ApiError> {
    if b.correlation_id
        .as_ref()
        .is_some_and(|c| c.is_empty() || c.chars().count() > CORRELATION_ID_MAX_CHARS)
    {
        return Err(ApiError::validation(
            "correlation_id",
            format!("must be 1 to {CORRELATION_ID_MAX_CHARS} characters"),
        ));
    }
    let mut new = submission(b, |b| {
        let m = b.merchant.clone().unwrap_or(DocumentMerchantRequest {
            name: None,
            country_code: None,
            category_code: None,
            search_term: None,
            category: None,
        });
        let processed_year = match &b.transaction_document_processed_at {
            Some(at) => {
                u16::try_from(timestamp("transaction_document_processed_at", at)?.year()).ok()
            }
            None => None,
        };
        let value = b
            .value
            .as_deref()
            .map(|v| tonne_estimation::parse_amount("value", v))
            .transpose()?;
        let key_value = b
            .unstructured_data
            .key_value
            .as_ref()
            .map_or(Node::Map(vec![]), |m| {
                Node::Map(m.iter().map(|(k, v)| (k.clone(), node(v))).collect())
            });
        Ok(EstimateRequest::TransactionDocument(Box::new(
            DocumentRequest {
                key_value,
                value,
                currency: b.currency.map(Into::into),
                merchant: MerchantHint {
                    name: m.name,
                    country_code: m.country_code,
                    category_code: m.category_code,
                    search_term: m.search_term,
                    category: m.category,
                },
                diet: b.diet.map(Into::into),
                processed_year,
                tolerance,
            },
        )))
    })?;
    occurrence(
        &mut new,
        b.is_transaction_document,
        "transaction_document_processed_at",
        b.transaction_document_processed_at.as_ref(),
    )?;
    Ok(new)
}

/// The contract's `UpdateTransactionDocumentEstimateAnnotationsRequest`.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
pub struct UpdateTransactionDocumentAnnotationsRequest {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_transaction_document: Option<bool>,
    /// RFC 3339.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transaction_document_processed_at: Option<String>,
}

/// `MonetaryAmount`.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoneyResponse {
    value: String,
    currency: &'static str,
}

/// A line's common fields.
#[derive(Debug, Serialize, ToSchema)]
pub struct LineCommon {
    /// `transaction`, `passenger_transportation` or `activity_transaction`.
    #[serde(rename = "type")]
    kind: &'static str,
    value: MoneyResponse,
    mass: MassResponse,
    /// Tonne's extension: why the line matched, in a sentence.
    match_reason: String,
}

/// `TransactionDocumentEstimateTransactionLineItem`.
#[derive(Debug, Serialize, ToSchema)]
pub struct TransactionLineResponse {
    #[serde(flatten)]
    common: LineCommon,
    country_code: String,
    item: String,
    /// The merchant category's description.
    category: Option<String>,
    /// Always `null` (the item-and-category form).
    #[schema(value_type = Option<String>)]
    category_code: Option<()>,
    search_term_match: Option<String>,
    /// 0 (most confident) .. 2; `null` when a category code was given.
    search_term_match_score: Option<u8>,
    /// `tonne-keywords-2026.11` when a score is given.
    semantic_matching_model: Option<&'static str>,
    emission_factor: Option<EmissionFactorResponse>,
    diet_factor: Option<String>,
    exchange_rate: Option<String>,
    exchange_rate_date: Option<&'static str>,
}

/// `TransactionPassengerFlightEstimate` / `TransactionPassengerRailEstimate`.
#[derive(Debug, Serialize, ToSchema)]
pub struct PassengerLineResponse {
    #[serde(flatten)]
    common: LineCommon,
    item: String,
    #[schema(value_type = Object)]
    route: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    cabin_class: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rail_type: Option<&'static str>,
    #[schema(value_type = Object)]
    distance: Value,
    #[schema(value_type = f64)]
    passengers: Value,
    emission_factor: Option<EmissionFactorResponse>,
}

/// `TransactionDocumentEstimateActivityLineItem`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ActivityLineResponse {
    #[serde(flatten)]
    common: LineCommon,
    item: String,
    #[schema(value_type = Object)]
    activity: Value,
    emission_factor: Option<EmissionFactorResponse>,
    search_term_match: Option<String>,
    search_term_match_score: Option<u8>,
    semantic_matching_model: Option<&'static str>,
}

/// One line item.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum LineItemResponse {
    Transaction(Box<TransactionLineResponse>),
    Passenger(Box<PassengerLineResponse>),
    Activity(Box<ActivityLineResponse>),
}

/// `TransactionDocumentEmissionEstimateFallback`.
#[derive(Debug, Serialize, ToSchema)]
pub struct FallbackResponse {
    emission_factor: Option<EmissionFactorResponse>,
    category: String,
    value: MoneyResponse,
    category_match: Option<String>,
    category_match_score: Option<u8>,
    semantic_matching_model: Option<&'static str>,
    exchange_rate: Option<String>,
    exchange_rate_date: Option<&'static str>,
    country_code: String,
    diet_factor: Option<String>,
    /// Tonne's extension: why this category, in a sentence.
    match_reason: String,
}

/// `TransactionDocumentEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TransactionDocumentEmissionEstimate)]
pub struct TransactionDocumentResponse {
    #[serde(flatten)]
    base: EstimateResponse,
    /// As sent, else `false`.
    is_transaction_document: bool,
    /// As sent, else the creation time.
    transaction_document_processed_at: Option<String>,
    /// `null` exactly when `fallback` is set.
    line_items: Option<Vec<LineItemResponse>>,
    fallback: Option<FallbackResponse>,
}

fn money(l: &LineItem) -> MoneyResponse {
    MoneyResponse {
        value: l.value.amount.normalize().to_string(),
        currency: l.value.currency.code(),
    }
}

fn number(d: Decimal) -> Value {
    serde_json::from_str(&d.normalize().to_string()).unwrap_or(Value::Null)
}

fn model(score: Option<u8>) -> Option<&'static str> {
    score.map(|_| MATCHING_MODEL)
}

fn description(mcc: &str) -> Option<String> {
    transaction::category(mcc).map(|c| c.description.clone())
}

fn line_response(l: &LineItem, part: Option<&Part>) -> LineItemResponse {
    let factor = part.and_then(Part::emission_factor).map(emission_factor);
    let common = |kind| LineCommon {
        kind,
        value: money(l),
        mass: mass_response(l.mass),
        match_reason: l.reason.clone(),
    };
    match &l.kind {
        LineKind::Transaction { mcc } => {
            let facts = part.and_then(Part::transaction_facts);
            LineItemResponse::Transaction(Box::new(TransactionLineResponse {
                common: common("transaction"),
                country_code: l.country_code.clone(),
                item: l.item.clone(),
                category: description(mcc),
                category_code: None,
                search_term_match: if l.score.is_some() {
                    Some(l.matched.clone())
                } else {
                    description(mcc)
                },
                search_term_match_score: l.score,
                semantic_matching_model: model(l.score),
                emission_factor: factor,
                diet_factor: diet_factor(facts.as_ref()),
                exchange_rate: facts.as_ref().map(|f| f.exchange_rate.to_string()),
                exchange_rate_date: facts.as_ref().map(|f| f.exchange_rate_date),
            }))
        }
        LineKind::Activity { amount, unit } => {
            LineItemResponse::Activity(Box::new(ActivityLineResponse {
                common: common("activity_transaction"),
                item: l.item.clone(),
                activity: serde_json::json!({ "value": amount.normalize().to_string(), "unit": unit }),
                emission_factor: factor,
                search_term_match: Some(l.matched.clone()),
                search_term_match_score: l.score,
                semantic_matching_model: model(l.score),
            }))
        }
        LineKind::PassengerTransportation(t) => {
            let route = match &t.route {
                TravelRoute::Airports {
                    source,
                    destination,
                } => serde_json::json!({ "source": source, "destination": destination }),
                TravelRoute::Cities {
                    source,
                    destination,
                } => serde_json::json!({
                    "source": { "city": source, "country_code": l.country_code },
                    "destination": { "city": destination, "country_code": l.country_code },
                }),
                TravelRoute::Distance => {
                    serde_json::json!({ "amount": t.distance_km.normalize().to_string(), "unit": "km" })
                }
            };
            LineItemResponse::Passenger(Box::new(PassengerLineResponse {
                common: common("passenger_transportation"),
                item: l.item.clone(),
                route,
                cabin_class: (t.mode == TravelMode::Flight).then_some(match t.cabin {
                    CabinClass::Economy => "economy",
                    CabinClass::Business => "business",
                    CabinClass::First => "first",
                }),
                rail_type: (t.mode == TravelMode::Rail).then_some(
                    if part.is_some_and(|p| p.factors.iter().any(|f| f.id == "RAIL_INTERNATIONAL"))
                    {
                        "international_rail"
                    } else {
                        "national_rail"
                    },
                ),
                distance: serde_json::json!({
                    "amount": t.distance_km.round_dp(3).normalize().to_string(),
                    "unit": "km",
                }),
                passengers: number(t.passengers),
                emission_factor: factor,
            }))
        }
    }
}

fn fallback_response(l: &LineItem, part: Option<&Part>) -> FallbackResponse {
    let facts = part.and_then(Part::transaction_facts);
    let mcc = match &l.kind {
        LineKind::Transaction { mcc } => mcc.as_str(),
        _ => "",
    };
    FallbackResponse {
        emission_factor: part.and_then(Part::emission_factor).map(emission_factor),
        category: description(mcc).unwrap_or_else(|| mcc.to_owned()),
        value: money(l),
        category_match: Some(l.matched.clone()),
        category_match_score: l.score,
        semantic_matching_model: model(l.score),
        exchange_rate: facts.as_ref().map(|f| f.exchange_rate.to_string()),
        exchange_rate_date: facts.as_ref().map(|f| f.exchange_rate_date),
        country_code: l.country_code.clone(),
        diet_factor: diet_factor(facts.as_ref()),
        match_reason: l.reason.clone(),
    }
}

/// A document estimate's answer.
pub fn document_response(
    base: EstimateResponse,
    e: &Estimate,
    d: &DocumentResult,
) -> TransactionDocumentResponse {
    let part = |name: &str| e.explanation.parts.iter().find(|p| p.name == name);
    TransactionDocumentResponse {
        base,
        is_transaction_document: e.annotations.actual.unwrap_or(false),
        transaction_document_processed_at: e
            .annotations
            .occurred_at
            .and_then(|t| t.format(&Rfc3339).ok()),
        line_items: d.fallback.is_none().then(|| {
            d.line_items
                .iter()
                .enumerate()
                .map(|(i, l)| line_response(l, part(&format!("line_items[{i}]"))))
                .collect()
        }),
        fallback: d
            .fallback
            .as_ref()
            .map(|f| fallback_response(f, part("fallback"))),
    }
}

// The multi-match transaction estimate.

/// `limit`: how many candidates (1 to 5; 5 by default).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MultiMatchQuery {
    #[param(value_type = Option<u8>, example = 3)]
    pub(super) limit: Option<String>,
}

/// The answer: `{ "estimates": [TransactionEmissionEstimate…] }`.
#[derive(Debug, Serialize, ToSchema)]
pub struct MultiMatchResponse {
    #[schema(value_type = Vec<Object>)]
    pub(super) estimates: Vec<Value>,
}
