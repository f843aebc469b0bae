//! A member's estimates: one account of the organisation at a time (chosen
//! from its accounts and client accounts of the mode), newest first by
//! cursor, and one estimate with its explanation — every part, factor (with
//! its source, table row and year) and quantity.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use tonne_estimation::estimate::{EstimateFilter, EstimateKind};
use tonne_estimation::ports::EstimationError;

use super::answers::{not_found, page_after, respond, see_other, unavailable};
use super::scope::{AccountPageQuery, MemberScope, member_scope};
use super::views;
use crate::state::AppState;

/// `GET /console/estimates`.
pub(super) async fn list(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<AccountPageQuery>,
) -> HttpResponse {
    let scope = member_scope(&state, &req, &query).await;
    let MemberScope {
        who,
        mode,
        accounts: all,
        chosen,
    } = match scope {
        Ok(scope) => scope,
        Err(answer) => return answer,
    };
    let Some(account) = chosen else {
        return respond(
            StatusCode::OK,
            views::estimates(&who, mode, &all, None, &[], None),
        );
    };
    let page = page_after(query.after.as_deref());
    match state
        .estimates
        .list(account, &EstimateKind::ALL, EstimateFilter::default(), page)
        .await
    {
        Ok(found) => {
            let next = found.last_if_more().map(|e| e.id.to_string());
            respond(
                StatusCode::OK,
                views::estimates(
                    &who,
                    mode,
                    &all,
                    Some(account),
                    &found.items,
                    next.as_deref(),
                ),
            )
        }
        Err(EstimationError::UnknownCursor) => see_other(&format!(
            "/console/estimates?mode={}&account={account}",
            mode.as_str()
        )),
        Err(e) => unavailable(e),
    }
}

/// `GET /console/estimates/{id}?account=…`: one estimate, explained.
pub(super) async fn show(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
    query: web::Query<AccountPageQuery>,
) -> HttpResponse {
    let scope = member_scope(&state, &req, &query).await;
    let MemberScope {
        who, mode, chosen, ..
    } = match scope {
        Ok(scope) => scope,
        Err(answer) => return answer,
    };
    let Some(account) = chosen else {
        return not_found(&who);
    };
    match state.estimates.get(account, None, &id).await {
        Ok(estimate) => respond(StatusCode::OK, views::estimate(&who, mode, &estimate)),
        Err(EstimationError::NotFound) => not_found(&who),
        Err(e) => unavailable(e),
    }
}
