//! The wire bodies more than one route speaks: the contract's `Errors`,
//! currency codes, account types, masses, bundle selections, quotes and
//! timestamps. Routes and the OpenAPI document import from here; this module
//! imports no route.

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use tonne_kernel::{Currency, Mass, MassUnit};
use tonne_ordering::{
    MassRequest as OrderMassRequest, Percentage, Quote, SelectionEntry, ValueRequest,
};
use tonne_wire::OrderBundleResponse;
use utoipa::{IntoResponses, ToSchema};

use crate::error::{ApiError, codes};

/// The contract's `Errors` body (the 2024 document's `ErrorResponse`).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Errors)]
pub struct ErrorsResponse {
    /// The error (read by today's clients).
    error: ErrorResponse,
    /// The same error, alone in a list (read by the clients of 2023).
    errors: Vec<ErrorResponse>,
}

/// The contract's `Error`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Error)]
pub struct ErrorResponse {
    /// A stable, machine-readable code.
    error_code: String,
    /// A human-readable message naming the offending field.
    message: String,
}

/// 401 and 429: what every route behind a key may answer besides its own.
#[derive(IntoResponses)]
pub enum KeyErrors {
    /// Missing, invalid or revoked key
    #[response(status = 401)]
    Unauthenticated(ErrorsResponse),
    /// Rate limited
    #[response(status = 429)]
    RateLimited(ErrorsResponse),
}

/// 429: what a public route may answer besides its own.
#[derive(IntoResponses)]
pub enum RateLimited {
    /// Rate limited
    #[response(status = 429)]
    RateLimited(ErrorsResponse),
}

/// 400 of a route whose query parameters may be invalid (a list's page).
#[derive(IntoResponses)]
pub enum InvalidParameter {
    /// Invalid parameter
    #[response(status = 400)]
    Invalid(ErrorsResponse),
}

/// 400 of a route whose body may be invalid.
#[derive(IntoResponses)]
pub enum InvalidRequest {
    /// Invalid request
    #[response(status = 400)]
    Invalid(ErrorsResponse),
}

/// 403: a route a key acting as a client account may not use.
#[derive(IntoResponses)]
pub enum ClientKeyForbidden {
    /// A key acting as a client account
    #[response(status = 403)]
    Forbidden(ErrorsResponse),
}

/// 413 alone: what a route with a JSON body whose contract lists no 415 may
/// answer besides its own (a body that is not JSON is its 400).
#[derive(IntoResponses)]
pub enum BodyTooLarge {
    /// Body too large
    #[response(status = 413)]
    TooLarge(ErrorsResponse),
}

/// 413 and 415: what every route with a JSON body may answer besides its own.
#[derive(IntoResponses)]
pub enum BodyErrors {
    /// Body too large
    #[response(status = 413)]
    TooLarge(ErrorsResponse),
    /// Body is not application/json
    #[response(status = 415)]
    NotJson(ErrorsResponse),
}

/// The absolute address of an account's public sustainability page (HTML):
/// `{public_url}/sustainability/{type}/{slug}`, named by the API's answers and
/// the console.
pub fn sustainability_page_url(
    public_url: &str,
    mode: tonne_kernel::AccountMode,
    slug: &tonne_impact::Slug,
) -> String {
    format!(
        "{public_url}/sustainability/{}/{}",
        mode.as_str(),
        slug.as_str()
    )
}

/// A timestamp as the contract writes it (RFC 3339).
pub fn rfc3339(t: OffsetDateTime) -> String {
    t.format(&Rfc3339).unwrap_or_default()
}

/// The contract's `CurrencyCode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum CurrencyCode {
    /// Pound sterling.
    Gbp,
    Eur,
    /// US dollar.
    Usd,
    /// Swedish krona.
    Sek,
    /// Swiss franc.
    Chf,
    /// Polish złoty.
    Pln,
    /// Danish krone.
    Dkk,
    /// Norwegian krone.
    Nok,
}

impl From<CurrencyCode> for Currency {
    fn from(c: CurrencyCode) -> Self {
        match c {
            CurrencyCode::Gbp => Currency::Gbp,
            CurrencyCode::Eur => Currency::Eur,
            CurrencyCode::Usd => Currency::Usd,
            CurrencyCode::Sek => Currency::Sek,
            CurrencyCode::Chf => Currency::Chf,
            CurrencyCode::Pln => Currency::Pln,
            CurrencyCode::Dkk => Currency::Dkk,
            CurrencyCode::Nok => Currency::Nok,
        }
    }
}

/// The contract's `AccountType`.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AccountType {
    Live,
    Test,
}

/// The contract's `MassUnit`.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[schema(as = MassUnitBody)]
#[serde(rename = "MassUnitBody")]
#[serde(rename_all = "lowercase")]
pub enum MassUnitRequest {
    G,
    Kg,
    T,
}

impl From<MassUnitRequest> for MassUnit {
    fn from(u: MassUnitRequest) -> Self {
        match u {
            MassUnitRequest::G => MassUnit::G,
            MassUnitRequest::Kg => MassUnit::Kg,
            MassUnitRequest::T => MassUnit::T,
        }
    }
}

/// The contract's `Mass`.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = MassBody)]
#[serde(rename = "MassBody")]
pub struct MassRequest {
    /// A decimal string, e.g. "40.501".
    pub(crate) amount: String,
    pub(crate) unit: MassUnitRequest,
}

impl MassRequest {
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
#[schema(as = PercentageBody)]
#[serde(rename = "PercentageBody")]
#[serde(untagged)]
pub enum PercentageRequest {
    /// e.g. 43
    Integer(i64),
    /// e.g. "43.21"
    Text(String),
}

/// The contract's `BundlePercentageRequest`.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = SelectionBody)]
#[serde(rename = "SelectionBody")]
pub struct SelectionRequest {
    bundle_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    percentage: Option<PercentageRequest>,
}

/// The contract's `BundleMass`.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = BundleMassBody)]
#[serde(rename = "BundleMassBody")]
pub struct BundleMassRequest {
    bundle_id: String,
    mass: MassRequest,
}

/// The contract's `OrderQuoteByQuantityRequest`: `mass` (with an optional
/// `bundle_selection`) or `bundle_masses`.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
pub struct MassQuoteRequest {
    pub(crate) mass: Option<MassRequest>,
    pub(crate) bundle_selection: Option<Vec<SelectionRequest>>,
    pub(crate) bundle_masses: Option<Vec<BundleMassRequest>>,
    pub(crate) quantity_trunc: Option<MassUnitRequest>,
}

/// The contract's `OrderQuoteByQuantity` / `OrderQuoteByValue`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = QuoteBody)]
pub struct QuoteResponse {
    currency: String,
    estimated_quantity: String,
    estimated_offset_cost: String,
    estimated_commission: String,
    estimated_total_cost: String,
    bundles: Vec<OrderBundleResponse>,
    requested_quantity: Option<String>,
    requested_value: Option<String>,
}

pub(crate) fn quote_body(q: &Quote) -> QuoteResponse {
    QuoteResponse {
        currency: q.currency.code().to_owned(),
        estimated_quantity: q.quantity.to_tonnes_string(),
        estimated_offset_cost: q.offset_cost.to_decimal_string(),
        estimated_commission: q.commission.to_decimal_string(),
        estimated_total_cost: q.total_cost.to_decimal_string(),
        bundles: q.lines.iter().map(OrderBundleResponse::from).collect(),
        requested_quantity: q.requested_quantity.map(|m| m.to_tonnes_string()),
        requested_value: q.requested_value.map(|m| m.to_decimal_string()),
    }
}

/// Wire selection → domain entries.
pub fn selection(
    body: Option<Vec<SelectionRequest>>,
) -> Result<Option<Vec<SelectionEntry>>, ApiError> {
    let Some(entries) = body else { return Ok(None) };
    let converted = entries
        .into_iter()
        .map(|e| {
            let percentage = match e.percentage {
                None => None,
                Some(PercentageRequest::Integer(n)) => Some(Percentage::from_integer(n)?),
                Some(PercentageRequest::Text(t)) => Some(Percentage::parse(&t)?),
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
pub fn mass_request(body: MassQuoteRequest) -> Result<OrderMassRequest, ApiError> {
    let trunc = body.quantity_trunc.map(MassUnit::from);
    match (body.mass, body.bundle_masses) {
        (Some(mass), None) => Ok(OrderMassRequest::Split {
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
            Ok(OrderMassRequest::BundleMasses { masses, trunc })
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

/// Wire value request → domain request.
pub fn value_request(
    value: String,
    bundle_selection: Option<Vec<SelectionRequest>>,
    quantity_trunc: Option<MassUnitRequest>,
) -> Result<ValueRequest, ApiError> {
    Ok(ValueRequest {
        value,
        selection: selection(bundle_selection)?,
        trunc: quantity_trunc.map(MassUnit::from),
    })
}

/// Declares a page body, the contract's `Paginated*` shape with `next_cursor`,
/// and `answer`, the 200 answer of a domain page.
macro_rules! paginated {
    ($(#[$doc:meta])* $name:ident of $item:ty) => {
        $(#[$doc])*
        #[derive(Debug, serde::Serialize, utoipa::ToSchema)]
        pub struct $name {
            /// Whether more follow.
            has_more: bool,
            /// Pass as `after` to get the next page; null on the last page.
            next_cursor: Option<String>,
            /// The page.
            data: Vec<$item>,
        }

        impl $name {
            /// The 200 answer of `page`: `cursor` names an item for
            /// `next_cursor`, `body` renders it.
            pub fn answer<I>(
                page: &tonne_kernel::Page<I>,
                cursor: impl Fn(&I) -> String,
                body: impl FnMut(&I) -> $item,
            ) -> actix_web::HttpResponse {
                actix_web::HttpResponse::Ok().json(Self {
                    has_more: page.has_more,
                    next_cursor: page.last_if_more().map(cursor),
                    data: page.items.iter().map(body).collect(),
                })
            }
        }
    };
}
pub(crate) use paginated;
