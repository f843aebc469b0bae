//! `GET /v1/analytics/business` (client 3.9.2's `getBusinessEmissionsAnalytics`):
//! the acting account's actual transactions, transaction documents and
//! journeys (`is_transaction`, `is_transaction_document`,
//! `is_passenger_transportation` true) created from `from` through `through`
//! (UTC days, both inclusive; `from` by default the first estimate,
//! `through` today), summed by the card networks' business categories
//! (`tonne_estimation::business`).

mod wire;
pub use wire::*;

use actix_web::{HttpResponse, web};
use time::{Date, OffsetDateTime, Time};
use tonne_estimation::business::BusinessCategory;
use tonne_estimation::estimate::EstimateFilter;

use crate::error::{ApiError, codes};
use crate::extract::Authenticated;
use crate::routes::estimates::responses::mass_response;
use crate::state::AppState;
use crate::wire::{ErrorsResponse, KeyErrors};

fn day(field: &str, raw: &str) -> Result<Date, ApiError> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    Date::parse(raw, format).map_err(|_| ApiError::validation(field, "not a date (YYYY-MM-DD)"))
}

/// Emissions of the account's business spending by category.
#[utoipa::path(get, path = "/v1/analytics/business", tag = "Analytics", operation_id = "getBusinessEmissionsAnalytics",
    security(("BearerAuth" = [])), params(BusinessQuery),
    responses((status = 200, description = "OK", body = BusinessAnalyticsResponse), (status = 400, description = "A bad date or range", body = ErrorsResponse), KeyErrors))]
pub async fn business_analytics(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<BusinessQuery>,
) -> Result<HttpResponse, ApiError> {
    let from = query.from.as_deref().map(|f| day("from", f)).transpose()?;
    let through = match query.through.as_deref() {
        Some(t) => day("through", t)?,
        None => OffsetDateTime::now_utc().date(),
    };
    if from.is_some_and(|f| f > through) {
        return Err(ApiError::new(
            actix_web::http::StatusCode::BAD_REQUEST,
            codes::TIME_RANGE_INVALID,
            "from: later than through",
        ));
    }
    let end = through
        .next_day()
        .map(|d| d.with_time(Time::MIDNIGHT).assume_utc() - time::Duration::nanoseconds(1));
    let filter = EstimateFilter {
        actual: Some(true),
        created_from: from.map(|d| d.with_time(Time::MIDNIGHT).assume_utc()),
        created_through: end,
    };
    let sums = state.estimates.business(who.account_id(), filter).await?;
    Ok(HttpResponse::Ok().json(BusinessAnalyticsResponse {
        mass: mass_response(sums.mass),
        number_of_estimates: sums.estimates,
        categories: BusinessCategory::ALL
            .iter()
            .map(|c| (c.as_str(), mass_response(sums.of(*c))))
            .collect(),
    }))
}

/// Registers the route (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/analytics/business", web::get().to(business_analytics));
}
