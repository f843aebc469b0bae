//! `GET /console/`: the operator's overview (the last 90 days in figures), or
//! a member's (who they are and where to go).

use crate::ConsoleState;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use tonne_kernel::{Limit, PageRequest};

use crate::answers::respond;
use crate::error::ConsoleError;
use crate::session::SignedIn;
use crate::views;

/// Days the operator's overview looks back.
const OVERVIEW_DAYS: u16 = 90;

pub(super) async fn overview(
    state: web::Data<ConsoleState>,
    SignedIn(who): SignedIn,
) -> Result<HttpResponse, ConsoleError> {
    if who.user.role != tonne_accounts::users::Role::Operator {
        return Ok(respond(StatusCode::OK, views::overview(&who)));
    }
    let week_ago = time::OffsetDateTime::now_utc() - time::Duration::days(7);
    let bundles = PageRequest {
        limit: Limit::new(100).unwrap_or_default(),
        after: None,
    };
    let (orders, estimates, attempts, bundles) = futures_util::join!(
        state.ordering.live_stats(OVERVIEW_DAYS),
        state.estimates.daily_counts(OVERVIEW_DAYS),
        state.webhooks.attempt_counts(week_ago),
        state.ordering.all_bundles(bundles),
    );
    let (orders, estimates, attempts, bundles) = match (orders, estimates, attempts, bundles) {
        (Ok(o), Ok(e), Ok(a), Ok(b)) => (o, e, a, b),
        (Err(e), ..) => return Err(ConsoleError::unavailable(e)),
        (_, Err(e), ..) => return Err(ConsoleError::unavailable(e)),
        (_, _, Err(e), _) => return Err(ConsoleError::unavailable(e)),
        (.., Err(e)) => return Err(ConsoleError::unavailable(e)),
    };
    let chart_svg = match tonne_http::chart::render(&orders.daily) {
        Ok(svg) => svg,
        Err(e) => return Err(ConsoleError::unavailable(e)),
    };
    let page = views::OperatorOverview {
        days: OVERVIEW_DAYS,
        orders: &orders,
        chart_svg: &chart_svg,
        estimates: &estimates,
        attempts,
        bundles: &bundles.items,
    };
    Ok(respond(
        StatusCode::OK,
        views::operator_overview(&who, &page),
    ))
}
