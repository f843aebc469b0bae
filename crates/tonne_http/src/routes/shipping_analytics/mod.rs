//! `GET /v1/analytics/shipping/public/{account_id}` (the 2024 document's
//! `getAnalyticsShippingEstimates`, no key): an account's actual shipments —
//! its shipping and multi-leg estimates marked `is_shipment` — as emissions
//! per mode and mean carbon intensity per day or month, only while the
//! account's external pages are public (else 404, as for an unknown id).
//!
//! The impact domain checks the account and the range and adds the figures up
//! (`tonne_impact::shipping`); this adapter reads the estimates through the
//! estimation use case, at most [`MAX_SHIPMENTS`] of them (a range holding
//! more is 400: the work a request without a key can cause is bounded), and
//! each leg's mode from the request stored with it.

pub mod wire;

use actix_web::{HttpResponse, web};
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use time::{PrimitiveDateTime, Time};
use tonne_estimation::estimate::{Estimate, EstimateDetail, EstimateFilter, EstimateKind};
use tonne_estimation::shipping::Mode;
use tonne_impact::shipping::{Shipped, ShippingMode, series};
use tonne_impact::{DateRange, Interval};
use tonne_kernel::{AccountMode, Cursor, Limit, Mass, PageRequest};

use crate::error::{ApiError, codes};
use crate::routes::analytics::{RangeQuery, asked};
use crate::routes::estimates::requests::MethodRequest;
use crate::state::AppState;
use crate::wire::{AccountType, ErrorsResponse, RateLimited};
use wire::{
    AccountPath, AveragePoint, IntervalQuery, PublicAccount, SentMethods,
    ShippingAnalyticsResponse, ShippingEmissionPoint,
};

/// The most shipments one answer adds up.
pub const MAX_SHIPMENTS: usize = 5_000;

fn contract_mode(mode: Mode) -> ShippingMode {
    match mode {
        Mode::Air => ShippingMode::Air,
        Mode::Sea => ShippingMode::Sea,
        Mode::Road => ShippingMode::Road,
        Mode::Rail => ShippingMode::Rail,
        Mode::InlandWaterway => ShippingMode::InlandWaterway,
    }
}

/// One estimate as the series count it: its creation day, each leg's mode
/// (from its stored request; a leg whose method cannot be read is left out)
/// and mass, and the tonne·km its legs moved.
fn shipped(e: &Estimate) -> Shipped {
    let sent: SentMethods = serde_json::from_str(e.submitted.as_str()).unwrap_or_default();
    let methods: Vec<Option<&MethodRequest>> = match (&sent.method, &sent.legs) {
        (Some(m), _) => vec![Some(m)],
        (None, Some(legs)) => legs.iter().map(|l| l.method.as_ref()).collect(),
        (None, None) => vec![],
    };
    let legs = match &e.detail {
        EstimateDetail::Shipping(leg) => std::slice::from_ref(leg),
        EstimateDetail::MultiLegShipping { legs, .. } => legs.as_slice(),
        _ => &[],
    };
    let mut tonne_km = Decimal::ZERO;
    let mut by_mode = Vec::with_capacity(legs.len());
    for (i, leg) in legs.iter().enumerate() {
        if let Some(f) = &leg.facts {
            tonne_km += f.payload_tonnes * leg.distance.km();
        }
        let method = methods.get(i).copied().flatten();
        if let Some(MethodRequest::Simple(name)) = method
            && tonne_estimation::shipping::hubs::is_logistics_site(name)
        {
            by_mode.push((ShippingMode::LogisticSite, leg.mass));
        } else if let Some(mode) = method.and_then(MethodRequest::mode) {
            by_mode.push((contract_mode(mode), leg.mass));
        }
    }
    Shipped {
        day: e.created_at.date(),
        legs: by_mode,
        tonne_km: (tonne_km > Decimal::ZERO).then_some(tonne_km),
    }
}

fn tonnes(m: Mass) -> f64 {
    Decimal::new(m.grams(), 6).to_f64().unwrap_or_default()
}

/// The account's actual shipments created in `range`, at most [`MAX_SHIPMENTS`].
async fn shipments(
    state: &AppState,
    account: tonne_kernel::AccountId,
    range: DateRange,
) -> Result<Vec<Shipped>, ApiError> {
    let filter = EstimateFilter {
        actual: Some(true),
        created_from: Some(PrimitiveDateTime::new(range.from(), Time::MIDNIGHT).assume_utc()),
        created_through: Some(PrimitiveDateTime::new(range.through(), Time::MAX).assume_utc()),
    };
    let limit = Limit::new(100).map_err(|_| ApiError::internal(&anyhow::anyhow!("limit")))?;
    let mut out = Vec::new();
    let mut after: Option<Cursor> = None;
    loop {
        let page = state
            .estimates
            .list(
                account,
                &[EstimateKind::Shipping, EstimateKind::MultiLegShipping],
                filter.clone(),
                PageRequest { limit, after },
            )
            .await?;
        out.extend(page.items.iter().map(shipped));
        if out.len() > MAX_SHIPMENTS {
            return Err(ApiError::new(
                actix_web::http::StatusCode::BAD_REQUEST,
                codes::TIME_RANGE_INVALID,
                format!(
                    "from, through: the range holds more than {MAX_SHIPMENTS} shipments; ask for a shorter one"
                ),
            ));
        }
        match page.last_if_more() {
            Some(last) => after = Some(Cursor::after(&last.id)),
            None => return Ok(out),
        }
    }
}

/// The series of an account whose external pages are public (else 404 as
/// for an unknown id): its actual shipments in the range, per day or month.
/// The public logistics page draws the same figures.
pub async fn public_series(
    state: &AppState,
    account_id: &str,
    asked: tonne_impact::AskedRange,
    interval: Interval,
) -> Result<
    (
        tonne_impact::PageHolder,
        tonne_impact::shipping::ShippingSeries,
    ),
    ApiError,
> {
    let (holder, range) = state.impact.public_shipping(account_id, asked).await?;
    let all = shipments(state, holder.account_id, range).await?;
    Ok((holder, series(&all, range, interval)))
}

/// An account's shipping emissions per mode and carbon intensity (no key;
/// only while the account's external pages are public).
#[utoipa::path(get, path = "/v1/analytics/shipping/public/{account_id}", tag = "Analytics", operation_id = "getAnalyticsShippingEstimates",
    params(("account_id" = String, Path, description = "The account's id"), RangeQuery, IntervalQuery),
    responses((status = 200, description = "OK", body = ShippingAnalyticsResponse), (status = 400, description = "Invalid date, range (time_range_invalid, also when it holds more than 5,000 shipments) or interval", body = ErrorsResponse), (status = 404, description = "No account with public external pages has this id", body = ErrorsResponse), RateLimited))]
pub async fn public_shipping(
    state: web::Data<AppState>,
    path: web::Path<AccountPath>,
    query: web::Query<RangeQuery>,
    extra: web::Query<IntervalQuery>,
) -> Result<HttpResponse, ApiError> {
    let interval = match extra.interval.as_deref() {
        None | Some("day") => Interval::Day,
        Some("month") => Interval::Month,
        Some(_) => return Err(ApiError::validation("interval", "must be day or month")),
    };
    let (holder, s) = public_series(&state, &path.account_id, asked(&query)?, interval).await?;
    Ok(HttpResponse::Ok().json(ShippingAnalyticsResponse {
        emission_timeseries: s
            .points
            .iter()
            .map(|p| ShippingEmissionPoint {
                date: p.date.to_string(),
                air: tonnes(p.air),
                sea: tonnes(p.sea),
                road: tonnes(p.road),
                rail: tonnes(p.rail),
                inland_waterway: tonnes(p.inland_waterway),
                logistic_site: tonnes(p.logistic_site),
            })
            .collect(),
        carbon_intensity_timeseries: s
            .points
            .iter()
            .map(|p| AveragePoint {
                date: p.date.to_string(),
                average: p.intensity.to_f64().unwrap_or_default(),
            })
            .collect(),
        carbon_intensity_total: s.intensity.to_f64().unwrap_or_default(),
        account: PublicAccount {
            name: holder.name,
            kind: match holder.mode {
                AccountMode::Live => AccountType::Live,
                AccountMode::Test => AccountType::Test,
            },
            logo: holder.logo,
        },
    }))
}

/// Registers the route (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/analytics/shipping/public/{account_id}",
        web::get().to(public_shipping),
    );
}
