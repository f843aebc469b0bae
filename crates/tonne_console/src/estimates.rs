//! A member's estimates: one account of the organisation at a time (chosen
//! from its accounts and client accounts of the mode), newest first by
//! cursor, and one estimate with its explanation — every part, factor (with
//! its source, table row and year) and quantity.

use crate::ConsoleState;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use tonne_estimation::estimate::{EstimateFilter, EstimateKind};
use tonne_estimation::ports::EstimationError;

use crate::answers::{not_found, page_after, respond, see_other, unavailable};
use crate::error::ConsoleError;
use crate::scope::{MemberAccount, MemberPage, MemberScope};
use crate::views;

/// `GET /console/estimates`.
pub(super) async fn list(
    state: web::Data<ConsoleState>,
    MemberPage(scope, query): MemberPage,
) -> Result<HttpResponse, ConsoleError> {
    let (who, mode, all) = (&scope.who, scope.mode, &scope.accounts);
    let Some(account) = scope.chosen else {
        return Ok(respond(
            StatusCode::OK,
            views::estimates(who, mode, all, None, &[], None),
        ));
    };
    let page = page_after(query.after.as_deref());
    Ok(
        match state
            .estimates
            .list(account, &EstimateKind::ALL, EstimateFilter::default(), page)
            .await
        {
            Ok(found) => {
                let next = found.last_if_more().map(|e| e.id.to_string());
                respond(
                    StatusCode::OK,
                    views::estimates(who, mode, all, Some(account), &found.items, next.as_deref()),
                )
            }
            Err(EstimationError::UnknownCursor) => see_other(&format!(
                "/console/estimates?mode={}&account={account}",
                mode.as_str()
            )),
            Err(e) => unavailable(e),
        },
    )
}

/// `GET /console/estimates/{id}?account=…`: one estimate, explained.
pub(super) async fn show(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    MemberAccount(MemberScope { who, mode, .. }, account): MemberAccount,
) -> Result<HttpResponse, ConsoleError> {
    Ok(match state.estimates.get(account, None, &id).await {
        Ok(estimate) => respond(StatusCode::OK, views::estimate(&who, mode, &estimate)),
        Err(EstimationError::NotFound) => not_found(&who),
        Err(e) => unavailable(e),
    })
}
