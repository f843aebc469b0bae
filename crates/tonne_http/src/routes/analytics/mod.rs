//! `/v1/analytics/*`: what the acting account's orders and estimates add up
//! to over a time range (the 2024 contract's four analytics routes).
//!
//! `from` and `through` are UTC days (`YYYY-MM-DD`, `through` inclusive);
//! `through` defaults to today and `from` to 30 days ago. A reversed range, or
//! one longer than 3,660 days, is 400 `time_range_invalid`. Quantities are
//! tonnes and values the offsets' cost (without commission) in the account's
//! currency, both exact decimal strings.

mod wire;
pub use wire::*;

use actix_web::{HttpResponse, web};
use time::Date;
use tonne_impact::{AskedRange, Figures, Interval};

use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;
use crate::wire::{ErrorsResponse, KeyErrors};

fn day(field: &'static str, raw: Option<&str>) -> Result<Option<Date>, ApiError> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    raw.map(|raw| {
        Date::parse(raw, format).map_err(|_| ApiError::validation(field, "not a date (YYYY-MM-DD)"))
    })
    .transpose()
}

pub(crate) fn asked(query: &RangeQuery) -> Result<AskedRange, ApiError> {
    Ok(AskedRange {
        from: day("from", query.from.as_deref())?,
        through: day("through", query.through.as_deref())?,
    })
}

fn figures(f: &Figures) -> (String, String) {
    (f.quantity.to_tonnes_string(), f.value.to_decimal_string())
}

/// Cumulative tonnes and value per bundle, one point per day of the range.
#[utoipa::path(get, path = "/v1/analytics/cumulative-per-bundle", tag = "Analytics", operation_id = "getCumulativeAnalyticsPerBundle",
    security(("BearerAuth" = [])), params(RangeQuery),
    responses((status = 200, description = "OK", body = Vec<AnalyticsByBundleResponse>), InvalidRange, KeyErrors))]
pub async fn cumulative_per_bundle(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<RangeQuery>,
) -> Result<HttpResponse, ApiError> {
    let series = state
        .impact
        .cumulative_per_bundle(who.viewer(), asked(&query)?)
        .await?;
    let body: Vec<AnalyticsByBundleResponse> = series
        .iter()
        .map(|s| AnalyticsByBundleResponse {
            bundle_id: s.bundle_id.to_string(),
            bundle_name: s.bundle_name.clone(),
            timeseries: s
                .points
                .iter()
                .map(|p| {
                    let (quantity, value) = figures(&p.figures);
                    QuantityAndValuePoint {
                        date: p.date.to_string(),
                        quantity,
                        value,
                    }
                })
                .collect(),
        })
        .collect();
    Ok(HttpResponse::Ok().json(body))
}

/// The projects the range's orders were allocated to and the UN goals they serve.
#[utoipa::path(get, path = "/v1/analytics/metrics", tag = "Analytics", operation_id = "getMetrics",
    security(("BearerAuth" = [])), params(RangeQuery),
    responses((status = 200, description = "OK", body = AnalyticsMetricsResponse), InvalidRange, KeyErrors))]
pub async fn metrics(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<RangeQuery>,
) -> Result<HttpResponse, ApiError> {
    let m = state.impact.metrics(who.viewer(), asked(&query)?).await?;
    Ok(HttpResponse::Ok().json(AnalyticsMetricsResponse {
        number_of_un_sdgs: u32::try_from(m.un_sdg.len()).unwrap_or(u32::MAX),
        number_of_projects: m.number_of_projects,
        un_sdg: m
            .un_sdg
            .iter()
            .map(|g| UnSdgResponse {
                un_sdg_number: g.goal,
                occurrences: g.projects,
            })
            .collect(),
    }))
}

/// The range's orders summed by bundle, continent, registry, Oxford type and offset type.
#[utoipa::path(get, path = "/v1/analytics/aggregated-by-property", tag = "Analytics", operation_id = "getAggregatedAnalyticsByProperty",
    security(("BearerAuth" = [])), params(RangeQuery),
    responses((status = 200, description = "OK", body = AggregatedResponse), InvalidRange, KeyErrors))]
pub async fn aggregated(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<RangeQuery>,
) -> Result<HttpResponse, ApiError> {
    let a = state
        .impact
        .aggregated(who.viewer(), asked(&query)?)
        .await?;
    Ok(HttpResponse::Ok().json(AggregatedResponse {
        bundle: a
            .bundle
            .iter()
            .map(|(id, name, f)| {
                let (quantity, value) = figures(f);
                BundleAggregate {
                    bundle_id: id.to_string(),
                    bundle_name: name.clone(),
                    quantity,
                    value,
                }
            })
            .collect(),
        location: a
            .location
            .iter()
            .map(|(l, f)| {
                let (quantity, value) = figures(f);
                LocationAggregate {
                    location: l.as_str().to_owned(),
                    quantity,
                    value,
                }
            })
            .collect(),
        registry: a
            .registry
            .iter()
            .map(|(r, f)| {
                let (quantity, value) = figures(f);
                RegistryAggregate {
                    registry_name: r.as_str().to_owned(),
                    quantity,
                    value,
                }
            })
            .collect(),
        oxford_offsetting_principles: a
            .oxford_offsetting_principles
            .iter()
            .map(|(kind, f)| {
                let (quantity, value) = figures(f);
                OxfordAggregate {
                    kind: *kind,
                    quantity,
                    value,
                }
            })
            .collect(),
        offset_type: a
            .offset_type
            .iter()
            .map(|(t, f)| {
                let (quantity, value) = figures(f);
                OffsetTypeAggregate {
                    offset_type: t.map(|t| t.as_str()),
                    quantity,
                    value,
                }
            })
            .collect(),
    }))
}

/// Estimates created per day or month (zeros included), and by kind.
#[utoipa::path(get, path = "/v1/analytics/emission-calculations", tag = "Analytics", operation_id = "getEmissionCalculationMetrics",
    security(("BearerAuth" = [])), params(RangeQuery, CalculationsQuery),
    responses((status = 200, description = "OK", body = EmissionCalculationsResponse), (status = 400, description = "Invalid date, range (time_range_invalid), interval or all_accounts", body = ErrorsResponse), KeyErrors))]
pub async fn emission_calculations(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<RangeQuery>,
    extra: web::Query<CalculationsQuery>,
) -> Result<HttpResponse, ApiError> {
    let interval = match extra.interval.as_deref() {
        None | Some("day") => Interval::Day,
        Some("month") => Interval::Month,
        Some(_) => return Err(ApiError::validation("interval", "must be day or month")),
    };
    let all_accounts = match extra.all_accounts.as_deref() {
        None | Some("false") => false,
        Some("true") => true,
        Some(_) => {
            return Err(ApiError::validation(
                "all_accounts",
                "must be true or false",
            ));
        }
    };
    let m = state
        .impact
        .emission_calculations(who.viewer(), asked(&query)?, interval, all_accounts)
        .await?;
    Ok(HttpResponse::Ok().json(EmissionCalculationsResponse {
        timeseries: m
            .timeseries
            .iter()
            .map(|p| CountPointResponse {
                date: p.date.to_string(),
                count: p.count,
            })
            .collect(),
        by_kind: m
            .by_kind
            .iter()
            .map(|k| KindTotalResponse {
                kind: k.kind.clone(),
                count: k.count,
                total_tonnes: k.mass.to_tonnes_string(),
            })
            .collect(),
    }))
}

/// Registers the routes (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/analytics/cumulative-per-bundle",
        web::get().to(cumulative_per_bundle),
    )
    .route("/analytics/metrics", web::get().to(metrics))
    .route(
        "/analytics/aggregated-by-property",
        web::get().to(aggregated),
    )
    .route(
        "/analytics/emission-calculations",
        web::get().to(emission_calculations),
    );
}
