//! The operator's audit log: every change made from the console or the
//! command line, newest first, filtered by person, action, object or
//! organisation (members get 404).

use crate::ConsoleState;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde::Deserialize;
use tonne_kernel::{AuditEntryId, AuditFilter, Limit, OrganisationId, PageRequest, StoreError};

use crate::answers::{PAGE_SIZE, respond, see_other, unavailable};
use crate::error::ConsoleError;
use crate::session::Operator;
use crate::views;
use crate::views::AuditFilterForm;

/// The filters, as the form sends them (all optional).
#[derive(Debug, Default, Deserialize)]
pub(super) struct AuditQuery {
    actor: Option<String>,
    action: Option<String>,
    object: Option<String>,
    organisation: Option<String>,
    after: Option<String>,
}

fn text(v: &Option<String>) -> String {
    v.as_deref().map(str::trim).unwrap_or_default().to_owned()
}

/// `GET /console/audit`.
pub(super) async fn list(
    state: web::Data<ConsoleState>,
    query: web::Query<AuditQuery>,
    Operator(who): Operator,
) -> Result<HttpResponse, ConsoleError> {
    let form = AuditFilterForm {
        actor: text(&query.actor),
        action: text(&query.action),
        object: text(&query.object),
        organisation: text(&query.organisation),
    };
    let organisation = match form.organisation.as_str() {
        "" => None,
        o => match o.parse::<OrganisationId>() {
            Ok(o) => Some(o),
            Err(_) => {
                let problem = "Organisation: not an organisation id (32 hexadecimal characters).";
                let page = views::audit_log(&who, &form, &[], None, Some(problem));
                return Ok(respond(StatusCode::BAD_REQUEST, page));
            }
        },
    };
    let filter = AuditFilter {
        actor: Some(form.actor.clone()),
        action: Some(form.action.clone()),
        object_id: Some(form.object.clone()),
        organisation,
    };
    let page = PageRequest {
        limit: Limit::new(PAGE_SIZE).unwrap_or_default(),
        // a malformed cursor starts over (links are the console's own)
        after: query
            .after
            .as_deref()
            .and_then(|a| a.parse::<AuditEntryId>().ok()),
    };
    Ok(match state.audit.list(filter, page).await {
        Ok(found) => {
            let next = found.last_if_more().map(|e| e.id.to_string());
            respond(
                StatusCode::OK,
                views::audit_log(&who, &form, &found.items, next.as_deref(), None),
            )
        }
        // a cursor that names no entry: start over
        Err(StoreError::NotFound) => see_other("/console/audit"),
        Err(e) => unavailable(e),
    })
}
