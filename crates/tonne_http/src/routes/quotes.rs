//! `/v1/orders/by-mass/quote` and `/v1/orders/by-value/quote`: the order engine, storing nothing.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use tonne_kernel::{Mass, MassUnit};
use tonne_ordering::{MassRequest, Percentage, Quote, SelectionEntry, ValueRequest};
use tonne_wire::OrderBundleBody;
use utoipa::ToSchema;

use crate::error::{ApiError, codes};
use crate::extract::{Authenticated, JsonBody};
use crate::openapi::ErrorsDoc;
use crate::state::AppState;

/// The contract's `MassUnit`.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MassUnitBody {
    G,
    Kg,
    T,
}

impl From<MassUnitBody> for MassUnit {
    fn from(u: MassUnitBody) -> Self {
        match u {
            MassUnitBody::G => MassUnit::G,
            MassUnitBody::Kg => MassUnit::Kg,
            MassUnitBody::T => MassUnit::T,
        }
    }
}

/// The contract's `Mass`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MassBody {
    /// A decimal string, e.g. "40.501".
    pub(crate) amount: String,
    pub(crate) unit: MassUnitBody,
}

impl MassBody {
    pub(crate) fn parse(&self, field: &str) -> Result<Mass, ApiError> {
        Mass::parse(&self.amount, self.unit.into()).map_err(|e| {
            ApiError::new(
                actix_web::http::StatusCode::BAD_REQUEST,
                codes::ORDER_QUANTITY_INVALID,
                format!("{field}.amount: {e}"),
            )
        })
    }
}

/// A percentage: an integer or a two-decimal string.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(untagged)]
pub enum PercentageBody {
    /// e.g. 43
    Integer(i64),
    /// e.g. "43.21"
    Text(String),
}

/// The contract's `BundlePercentageRequest`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SelectionBody {
    bundle_id: String,
    #[serde(
        default,
        deserialize_with = "crate::extract::non_null",
        skip_serializing_if = "Option::is_none"
    )]
    percentage: Option<PercentageBody>,
}

/// The contract's `BundleMass`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BundleMassBody {
    bundle_id: String,
    mass: MassBody,
}

/// The contract's `OrderQuoteByQuantityRequest`: `mass` (with an optional
/// `bundle_selection`) or `bundle_masses`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MassQuoteRequest {
    #[serde(default, deserialize_with = "crate::extract::non_null")]
    pub(crate) mass: Option<MassBody>,
    #[serde(default, deserialize_with = "crate::extract::non_null")]
    pub(crate) bundle_selection: Option<Vec<SelectionBody>>,
    #[serde(default, deserialize_with = "crate::extract::non_null")]
    pub(crate) bundle_masses: Option<Vec<BundleMassBody>>,
    #[serde(default, deserialize_with = "crate::extract::non_null")]
    pub(crate) quantity_trunc: Option<MassUnitBody>,
}

/// The contract's `OrderQuoteByValueRequest`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ValueQuoteRequest {
    /// The most to spend, in the account's currency.
    value: String,
    #[serde(default, deserialize_with = "crate::extract::non_null")]
    bundle_selection: Option<Vec<SelectionBody>>,
    #[serde(default, deserialize_with = "crate::extract::non_null")]
    quantity_trunc: Option<MassUnitBody>,
}

/// The contract's `OrderQuoteByQuantity` / `OrderQuoteByValue`.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuoteBody {
    currency: String,
    estimated_quantity: String,
    estimated_offset_cost: String,
    estimated_commission: String,
    estimated_total_cost: String,
    bundles: Vec<OrderBundleBody>,
    requested_quantity: Option<String>,
    requested_value: Option<String>,
}

pub(crate) fn quote_body(q: &Quote) -> QuoteBody {
    QuoteBody {
        currency: q.currency.code().to_owned(),
        estimated_quantity: q.quantity.to_tonnes_string(),
        estimated_offset_cost: q.offset_cost.to_decimal_string(),
        estimated_commission: q.commission.to_decimal_string(),
        estimated_total_cost: q.total_cost.to_decimal_string(),
        bundles: q.lines.iter().map(OrderBundleBody::from).collect(),
        requested_quantity: q.requested_quantity.map(|m| m.to_tonnes_string()),
        requested_value: q.requested_value.map(|m| m.to_decimal_string()),
    }
}

/// Wire selection → domain entries.
pub fn selection(
    body: Option<Vec<SelectionBody>>,
) -> Result<Option<Vec<SelectionEntry>>, ApiError> {
    let Some(entries) = body else { return Ok(None) };
    let converted = entries
        .into_iter()
        .map(|e| {
            let percentage = match e.percentage {
                None => None,
                Some(PercentageBody::Integer(n)) => Some(Percentage::from_integer(n)?),
                Some(PercentageBody::Text(t)) => Some(Percentage::parse(&t)?),
            };
            Ok(SelectionEntry {
                bundle_id: e.bundle_id,
                percentage,
            })
        })
        .collect::<Result<Vec<_>, tonne_ordering::QuoteError>>()?;
    Ok(Some(converted))
}

/// Wire mass request → domain request.
pub fn mass_request(body: MassQuoteRequest) -> Result<MassRequest, ApiError> {
    let trunc = body.quantity_trunc.map(MassUnit::from);
    match (body.mass, body.bundle_masses) {
        (Some(mass), None) => Ok(MassRequest::Split {
            mass: mass.parse("mass")?,
            selection: selection(body.bundle_selection)?,
            trunc,
        }),
        (None, Some(masses)) => {
            if body.bundle_selection.is_some() {
                return Err(ApiError::validation(
                    "bundle_selection",
                    "cannot be combined with bundle_masses",
                ));
            }
            let masses = masses
                .into_iter()
                .enumerate()
                .map(|(i, m)| {
                    Ok((
                        m.bundle_id.clone(),
                        m.mass.parse(&format!("bundle_masses[{i}].mass"))?,
                    ))
                })
                .collect::<Result<Vec<_>, ApiError>>()?;
            Ok(MassRequest::BundleMasses { masses, trunc })
        }
        (Some(_), Some(_)) => Err(ApiError::validation(
            "mass",
            "send either mass or bundle_masses, not both",
        )),
        (None, None) => Err(ApiError::validation(
            "mass",
            "mass (or bundle_masses) is required",
        )),
    }
}

/// Prices an order by mass without placing it.
#[utoipa::path(post, path = "/v1/orders/by-mass/quote", tag = "Orders", operation_id = "getOrderQuoteByMass",
    security(("BearerAuth" = [])),
    request_body = MassQuoteRequest,
    responses(
        (status = 200, description = "OK", body = QuoteBody),
        (status = 400, description = "Invalid request", body = ErrorsDoc),
        (status = 401, description = "Missing, invalid or revoked key", body = ErrorsDoc),
        (status = 413, description = "Body too large", body = ErrorsDoc),
        (status = 415, description = "Body is not application/json", body = ErrorsDoc),
        (status = 429, description = "Rate limited", body = ErrorsDoc),
    ))]
pub async fn quote_by_mass(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<MassQuoteRequest>,
) -> Result<HttpResponse, ApiError> {
    let request = mass_request(body.0)?;
    let quote = state
        .ordering
        .quote_by_mass(who.0.account_id, request)
        .await?;
    Ok(HttpResponse::Ok().json(quote_body(&quote)))
}

/// Prices an order by value without placing it.
#[utoipa::path(post, path = "/v1/orders/by-value/quote", tag = "Orders", operation_id = "getOrderQuoteByValue",
    security(("BearerAuth" = [])),
    request_body = ValueQuoteRequest,
    responses(
        (status = 200, description = "OK", body = QuoteBody),
        (status = 400, description = "Invalid request", body = ErrorsDoc),
        (status = 401, description = "Missing, invalid or revoked key", body = ErrorsDoc),
        (status = 413, description = "Body too large", body = ErrorsDoc),
        (status = 415, description = "Body is not application/json", body = ErrorsDoc),
        (status = 429, description = "Rate limited", body = ErrorsDoc),
    ))]
pub async fn quote_by_value(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<ValueQuoteRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.0;
    let request = ValueRequest {
        value: body.value,
        selection: selection(body.bundle_selection)?,
        trunc: body.quantity_trunc.map(MassUnit::from),
    };
    let quote = state
        .ordering
        .quote_by_value(who.0.account_id, request)
        .await?;
    Ok(HttpResponse::Ok().json(quote_body(&quote)))
}

/// Registers the quote routes (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/orders/by-mass/quote").route(web::post().to(quote_by_mass)))
        .service(web::resource("/orders/by-value/quote").route(web::post().to(quote_by_value)));
}
