//! The operator's webhooks across the installation: each webhook's health and
//! attempts, and the actions replay from a time, skip the backlog and
//! re-enable (each the domain's admin use case, audited). The routes are the
//! members' (`/console/webhooks…`), answered by role.

use crate::ConsoleState;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde::Deserialize;
use time::OffsetDateTime;
use tonne_accounts::users::Principal;
use tonne_webhooks::{AdminWebhookError, RecoverError, WebhookId};

use crate::answers::{not_found, page_after, respond, see_other, unavailable};
use crate::error::ConsoleError;
use crate::once::{self, Claim};
use crate::session::OperatorForm;
use crate::views;
use crate::views::{OperatorNotice, ReplayForm};

/// `GET /console/webhooks` for an operator.
pub(super) async fn list(
    state: &ConsoleState,
    who: &Principal,
    after: Option<&str>,
) -> HttpResponse {
    match state.webhooks.health(page_after(after)).await {
        Ok(found) => {
            let next = found.last_if_more().map(|h| h.webhook.id.to_string());
            let now = OffsetDateTime::now_utc();
            respond(
                StatusCode::OK,
                views::installation_webhooks(who, &found.items, next.as_deref(), now),
            )
        }
        Err(AdminWebhookError::WebhookNotFound) => see_other("/console/webhooks"),
        Err(e) => unavailable(e),
    }
}

/// A webhook's page for an operator.
pub(super) async fn page(
    state: &ConsoleState,
    who: &Principal,
    id: &str,
    after: Option<&str>,
    form: &ReplayForm,
    notice: &OperatorNotice,
    status: StatusCode,
) -> HttpResponse {
    let Ok(id) = id.parse::<WebhookId>() else {
        return not_found(who);
    };
    let health = match state.webhooks.health_of(id).await {
        Ok(h) => h,
        Err(AdminWebhookError::WebhookNotFound) => return not_found(who),
        Err(e) => return unavailable(e),
    };
    match state.webhooks.admin_attempts(id, page_after(after)).await {
        Ok(attempts) => {
            let next = attempts.last_if_more().map(|a| a.id.to_string());
            let now = OffsetDateTime::now_utc();
            respond(
                status,
                views::installation_webhook(
                    who,
                    &health,
                    &attempts.items,
                    next.as_deref(),
                    form,
                    notice,
                    now,
                ),
            )
        }
        Err(AdminWebhookError::WebhookNotFound) => not_found(who),
        Err(e) => unavailable(e),
    }
}

/// `POST /console/webhooks/{id}/recover` for an operator: every account.
pub(super) async fn recover(
    state: &ConsoleState,
    who: &Principal,
    id: &str,
    since: OffsetDateTime,
    refuse: impl Fn(&str) -> ReplayForm,
) -> HttpResponse {
    let Ok(webhook) = id.parse::<WebhookId>() else {
        return not_found(who);
    };
    match state
        .webhooks
        .admin_recover(webhook, since, &who.actor())
        .await
    {
        Ok(done) => see_other(&format!("/console/webhooks/{id}?recovered={}", done.events)),
        Err(RecoverError::NotFound) => not_found(who),
        Err(RecoverError::Invalid(field)) => {
            let form = refuse(&format!("From: {}.", field.reason));
            let notice = OperatorNotice::default();
            page(
                state,
                who,
                id,
                None,
                &form,
                &notice,
                StatusCode::BAD_REQUEST,
            )
            .await
        }
        Err(e) => unavailable(e),
    }
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct ActionForm {
    once: Option<String>,
}

/// The webhook an operator's action form names, or the answer (404).
fn named(who: &Principal, id: &str) -> Result<WebhookId, ConsoleError> {
    id.parse::<WebhookId>()
        .map_err(|_| ConsoleError::not_found(who))
}

/// `POST /console/webhooks/{id}/skip`: skips the backlog (operators only).
pub(super) async fn skip(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    OperatorForm(who, form): OperatorForm<ActionForm>,
) -> Result<HttpResponse, ConsoleError> {
    let webhook = named(&who, &id)?;
    // a repeat of the form skips nothing more (events that arrived since stay due)
    let claim = match once::claim(&state, form.once.as_deref()).await? {
        Claim::Repeat => return Ok(see_other(&format!("/console/webhooks/{webhook}"))),
        claim => claim,
    };
    let skipped = state.webhooks.skip_backlog(webhook, &who.actor()).await;
    if skipped.is_err() {
        once::release(&state, &claim).await;
    }
    Ok(match skipped {
        Ok(n) => see_other(&format!("/console/webhooks/{webhook}?skipped={n}")),
        Err(AdminWebhookError::WebhookNotFound) => not_found(&who),
        Err(e) => unavailable(e),
    })
}

/// `POST /console/webhooks/{id}/enable`: re-enables it (operators only).
pub(super) async fn enable(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    OperatorForm(who, _): OperatorForm<ActionForm>,
) -> Result<HttpResponse, ConsoleError> {
    let webhook = named(&who, &id)?;
    Ok(
        match state.webhooks.admin_enable(webhook, &who.actor()).await {
            Ok(_) => see_other(&format!("/console/webhooks/{webhook}?enabled=1")),
            Err(AdminWebhookError::WebhookNotFound) => not_found(&who),
            Err(e) => unavailable(e),
        },
    )
}
