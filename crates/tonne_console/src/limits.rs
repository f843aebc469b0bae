//! Limits per account (`/console/limits`): operators see every
//! organisation's usage against its limits and change an organisation's
//! (audited as theirs); a member sees their own organisation's.

use std::collections::HashMap;

use crate::ConsoleState;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use tonne_accounts::quotas::QuotaError;
use tonne_accounts::users::{Principal, Role};
use tonne_kernel::{LimitOverrides, OrganisationId, Quota};

use crate::answers::{not_found, respond, see_other, unavailable};
use crate::error::ConsoleError;
use crate::once::{self, Claim};
use crate::session::{Operator, SignedIn, operator_form};
use crate::views::{self, LimitsForm};

fn failed(who: &Principal, e: QuotaError) -> HttpResponse {
    match e {
        QuotaError::OrganisationNotFound => not_found(who),
        e @ QuotaError::Store(_) => unavailable(e),
    }
}

/// `GET /console/limits`.
pub(super) async fn overview(
    state: web::Data<ConsoleState>,
    SignedIn(who): SignedIn,
) -> Result<HttpResponse, ConsoleError> {
    Ok(match who.user.role {
        Role::Operator => match state.quotas.organisations().await {
            Ok(all) => respond(StatusCode::OK, views::limits_overview(&who, &all, true)),
            Err(e) => failed(&who, e),
        },
        Role::Member(organisation) => match state.quotas.organisation(organisation).await {
            Ok(mine) => respond(
                StatusCode::OK,
                views::limits_overview(&who, std::slice::from_ref(&mine), false),
            ),
            Err(e) => failed(&who, e),
        },
    })
}

async fn organisation_page(
    state: &ConsoleState,
    who: &Principal,
    id: OrganisationId,
    form: Option<LimitsForm>,
    status: StatusCode,
) -> HttpResponse {
    let q = match state.quotas.organisation(id).await {
        Ok(q) => q,
        Err(e) => return failed(who, e),
    };
    let form = form.unwrap_or_else(|| LimitsForm::of(&q));
    respond(
        status,
        views::organisation_limits(who, &q, &q.defaults, &form),
    )
}

/// `GET /console/limits/{id}` (operators).
pub(super) async fn show(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    Operator(who): Operator,
) -> Result<HttpResponse, ConsoleError> {
    let Ok(id) = id.parse::<OrganisationId>() else {
        return Ok(not_found(&who));
    };
    Ok(organisation_page(&state, &who, id, None, StatusCode::OK).await)
}

/// The form's limits: each a whole number, or empty for the default.
fn parse(fields: &HashMap<String, String>) -> Result<LimitOverrides, (LimitsForm, String)> {
    let values: Vec<(Quota, String)> = Quota::ALL
        .into_iter()
        .map(|q| {
            let v = fields.get(q.key()).map(|v| v.trim().to_owned());
            (q, v.unwrap_or_default())
        })
        .collect();
    let mut overrides = LimitOverrides::default();
    for (quota, value) in &values {
        if value.is_empty() {
            continue;
        }
        match value.parse::<u64>() {
            Ok(n) => overrides.set(*quota, Some(n)),
            Err(_) => {
                let problem = format!(
                    "{}: give a whole number, or leave it empty for the default.",
                    quota.key()
                );
                return Err((
                    LimitsForm {
                        values,
                        problem: None,
                    },
                    problem,
                ));
            }
        }
    }
    Ok(overrides)
}

/// `POST /console/limits/{id}` (operators): replaces the organisation's
/// limits; acts once.
pub(super) async fn change(
    state: web::Data<ConsoleState>,
    req: HttpRequest,
    id: web::Path<String>,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, ConsoleError> {
    let who = operator_form(&state, &req, form.get("csrf").map(String::as_str)).await?;
    let Ok(organisation) = id.parse::<OrganisationId>() else {
        return Err(ConsoleError::not_found(&who));
    };
    let after = format!("/console/limits/{organisation}");
    let overrides = match parse(&form) {
        Ok(o) => o,
        Err((mut shown, problem)) => {
            shown.problem = Some(problem);
            return Ok(organisation_page(
                &state,
                &who,
                organisation,
                Some(shown),
                StatusCode::BAD_REQUEST,
            )
            .await);
        }
    };
    // a repeat of the form changes nothing more
    let claim = match once::claim(&state, form.get("once").map(String::as_str)).await? {
        Claim::Repeat => return Ok(see_other(&after)),
        claim => claim,
    };
    match state
        .quotas
        .set_limits(who.actor(), organisation, overrides)
        .await
    {
        Ok(_) => Ok(see_other(&after)),
        Err(e) => {
            once::release(&state, &claim).await;
            Ok(failed(&who, e))
        }
    }
}
