//! The operator's orders: the queue of live orders waiting for action, an
//! order's page, and its actions (each the same use case as `tonne orders
//! advance`, writing its event so that webhooks fire).

use crate::ConsoleState;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use tonne_accounts::users::Principal;
use tonne_kernel::Cursor;
use tonne_ordering::{
    AwaitingFilter, OrderStatus, ReadOrderError, RecordError, RetirementRecord, TransitionError,
};

use crate::answers::{not_found, page_after, page_from, respond, see_other, unavailable};
use crate::error::ConsoleError;
use crate::session::{OperatorForm, SignedIn, operator_form};
use crate::views;
use crate::views::QueueFilter;

/// The queue's filters, as the form sends them (all optional).
#[derive(Debug, Default, Deserialize)]
pub(super) struct QueueQuery {
    organisation: Option<String>,
    status: Option<String>,
    after: Option<String>,
    mode: Option<String>,
}

fn parse_filter(q: &QueueQuery) -> Result<(AwaitingFilter, Option<Cursor>), &'static str> {
    let organisation = match q.organisation.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(o) => Some(
            o.parse()
                .map_err(|_| "Organisation: not an organisation id (32 hexadecimal characters).")?,
        ),
    };
    let status = match q.status.as_deref() {
        None | Some("") => None,
        Some(s) => Some(
            AwaitingFilter::STATUSES
                .iter()
                .copied()
                .find(|x| x.as_str() == s)
                .ok_or("Status: choose one of the listed statuses.")?,
        ),
    };
    let after = match q.after.as_deref() {
        None | Some("") => None,
        Some(a) => Some(
            a.parse::<Cursor>()
                .map_err(|_| "This page link is not valid.")?,
        ),
    };
    Ok((
        AwaitingFilter {
            organisation,
            status,
        },
        after,
    ))
}

/// `GET /console/orders`: live orders waiting for action, newest first.
pub(super) async fn queue(
    state: web::Data<ConsoleState>,
    query: web::Query<QueueQuery>,
    SignedIn(who): SignedIn,
) -> Result<HttpResponse, ConsoleError> {
    if let Some(organisation) = who.user.role.organisation() {
        return Ok(member_orders(&state, &who, organisation, &query).await);
    }
    let shown = QueueFilter {
        organisation: query.organisation.clone().unwrap_or_default(),
        status: query.status.clone().unwrap_or_default(),
    };
    let (filter, after) = match parse_filter(&query) {
        Ok(f) => f,
        Err(problem) => {
            return Ok(respond(
                StatusCode::BAD_REQUEST,
                views::queue(&who, &shown, &[], None, Some(problem)),
            ));
        }
    };
    Ok(
        match state
            .ordering
            .orders_awaiting(filter, page_from(after))
            .await
        {
            Ok(found) => {
                let next = found.last_if_more().map(|o| o.id.to_string());
                respond(
                    StatusCode::OK,
                    views::queue(&who, &shown, &found.items, next.as_deref(), None),
                )
            }
            Err(ReadOrderError::Invalid { .. }) => respond(
                StatusCode::BAD_REQUEST,
                views::queue(
                    &who,
                    &shown,
                    &[],
                    None,
                    Some("This page link is not valid."),
                ),
            ),
            Err(e) => unavailable(e),
        },
    )
}

/// A member's `/console/orders`: the organisation's orders of one mode,
/// newest first, with their certificates once complete.
async fn member_orders(
    state: &ConsoleState,
    who: &Principal,
    organisation: tonne_kernel::OrganisationId,
    query: &QueueQuery,
) -> HttpResponse {
    let mode = crate::scope::mode_of(query.mode.as_deref());
    let page = page_after(query.after.as_deref());
    match state
        .ordering
        .organisation_orders(organisation, mode, page)
        .await
    {
        Ok(found) => {
            let next = found.last_if_more().map(|o| o.id.to_string());
            respond(
                StatusCode::OK,
                views::member_orders(
                    who,
                    mode,
                    &found.items,
                    next.as_deref(),
                    &state.pages.public_url,
                ),
            )
        }
        Err(ReadOrderError::Invalid { .. }) => {
            see_other(&format!("/console/orders?mode={}", mode.as_str()))
        }
        Err(e) => unavailable(e),
    }
}

/// `GET /console/orders/{id}`: an order, its lines, costs, projects and actions.
pub(super) async fn show(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    SignedIn(who): SignedIn,
) -> Result<HttpResponse, ConsoleError> {
    Ok(page_of(&state, &who, &id, None, StatusCode::OK).await)
}

async fn page_of(
    state: &ConsoleState,
    who: &Principal,
    id: &str,
    problem: Option<&str>,
    status: StatusCode,
) -> HttpResponse {
    // A member reads only the organisation's orders (anything else is 404).
    let found = match who.user.role.organisation() {
        Some(organisation) => state.ordering.organisation_order(organisation, id).await,
        None => state.ordering.order(id).await,
    };
    match found {
        Ok(order) => respond(
            status,
            views::order(who, &order, &state.pages.public_url, problem),
        ),
        Err(ReadOrderError::NotFound | ReadOrderError::Invalid { .. }) => not_found(who),
        Err(e) => unavailable(e),
    }
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct AdvanceForm {
    to: Option<String>,
    serial: Option<String>,
}

/// `POST /console/orders/{id}/advance`: one action on an order.
pub(super) async fn advance(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    OperatorForm(who, form): OperatorForm<AdvanceForm>,
) -> Result<HttpResponse, ConsoleError> {
    if form.to.as_deref() == Some("release_hold") {
        let here = format!("/console/orders/{}", id.as_str());
        return Ok(match state.ordering.release_hold(&id, &who.actor()).await {
            Ok(_) => see_other(&here),
            Err(TransitionError::NotFound) => not_found(&who),
            // not held (any more): a double submit lands where the first did
            Err(TransitionError::Illegal { .. }) => see_other(&here),
            Err(e @ TransitionError::Conflict) => {
                let text = format!("Nothing was changed: {e}.");
                page_of(&state, &who, &id, Some(&text), StatusCode::CONFLICT).await
            }
            Err(e) => unavailable(e),
        });
    }
    let to = match form.to.as_deref() {
        Some("paid") => OrderStatus::Paid,
        Some("retiring") => OrderStatus::Retiring,
        Some("complete") => OrderStatus::Complete,
        Some("cancelled") => OrderStatus::Cancelled,
        Some("failed") => OrderStatus::Failed,
        _ => {
            return Ok(page_of(
                &state,
                &who,
                &id,
                Some("Choose one of the actions."),
                StatusCode::BAD_REQUEST,
            )
            .await);
        }
    };
    let serial = form.serial.clone();
    let here = format!("/console/orders/{}", id.as_str());
    Ok(
        match state
            .ordering
            .advance(&id, Some(to), serial, &who.actor())
            .await
        {
            Ok(_) => see_other(&here),
            Err(TransitionError::NotFound) => not_found(&who),
            // the domain's rule for serials, said beside the action
            Err(TransitionError::InvalidSerial(why)) => {
                let text = format!("Registry serial number: {why}.");
                page_of(&state, &who, &id, Some(&text), StatusCode::BAD_REQUEST).await
            }
            // A double submit (or another operator) got there first: the order is
            // already where this action leads, so this is the same outcome.
            Err(TransitionError::Illegal { from, .. }) if from == to.as_str() => see_other(&here),
            Err(
                e @ (TransitionError::Illegal { .. }
                | TransitionError::Conflict
                | TransitionError::OnHold(_)),
            ) => {
                let text = format!("Nothing was changed: {e}.");
                page_of(&state, &who, &id, Some(&text), StatusCode::CONFLICT).await
            }
            Err(e) => unavailable(e),
        },
    )
}

/// `POST /console/orders/{id}/records`: each project's serial number and the
/// address of its retirement record (`serial_{project}`, `record_{project}`).
pub(super) async fn records(
    state: web::Data<ConsoleState>,
    req: HttpRequest,
    id: web::Path<String>,
    form: web::Form<std::collections::HashMap<String, String>>,
) -> Result<HttpResponse, ConsoleError> {
    let who = operator_form(&state, &req, form.get("csrf").map(String::as_str)).await?;
    let order = match state.ordering.order(&id).await {
        Ok(order) => order,
        Err(ReadOrderError::NotFound) => return Err(ConsoleError::not_found(&who)),
        Err(e) => return Err(ConsoleError::unavailable(e)),
    };
    let mut records = Vec::with_capacity(order.projects.len());
    for p in &order.projects {
        let field = |prefix: &str| {
            form.get(&format!("{prefix}_{}", p.project_id))
                .cloned()
                .unwrap_or_default()
        };
        match RetirementRecord::parse(p.project_id, &field("serial"), &field("record")) {
            Ok(r) => records.push(r),
            Err(why) => {
                let problem = format!("{}: {why}.", p.project_name);
                return Ok(
                    page_of(&state, &who, &id, Some(&problem), StatusCode::BAD_REQUEST).await,
                );
            }
        }
    }
    Ok(
        match state
            .ordering
            .record_retirement(&id, records, &who.actor())
            .await
        {
            Ok(_) => see_other(&format!("/console/orders/{}", id.as_str())),
            Err(RecordError::NotFound) => not_found(&who),
            Err(e @ (RecordError::NotRetiring(_) | RecordError::Invalid(_))) => {
                let problem = format!("Nothing was recorded: {e}.");
                page_of(&state, &who, &id, Some(&problem), StatusCode::CONFLICT).await
            }
            Err(e @ RecordError::Unexpected(_)) => unavailable(e),
        },
    )
}
