//! A member's webhooks: the organisation's webhooks of one mode, each with its
//! delivery log and a replay from a time (the use case behind
//! `POST /v1/webhooks/{id}/recover`). Operators reach the installation's
//! webhooks at the same paths (`installation_webhooks`).

use crate::ConsoleState;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde::Deserialize;
use time::macros::format_description;
use time::{OffsetDateTime, PrimitiveDateTime};
use tonne_accounts::users::{Principal, Role};
use tonne_kernel::{AccountId, AccountMode};
use tonne_webhooks::{Owner, RecoverError, WebhookError};

use crate::answers::{not_found, page_after, respond, see_other, unavailable};
use crate::error::ConsoleError;
use crate::installation_webhooks;
use crate::scope::{member_organisation, mode_of};
use crate::session::{SignedForm, SignedIn};
use crate::views;
use crate::views::{OperatorNotice, ReplayForm, WebhookForm, WebhookPageForms};

#[derive(Debug, Default, Deserialize)]
pub(super) struct WebhookQuery {
    mode: Option<String>,
    after: Option<String>,
    recovered: Option<u64>,
    skipped: Option<u64>,
    enabled: Option<u8>,
}

pub(super) fn owner_of(who: &Principal, mode: AccountMode) -> Option<Owner> {
    Some(Owner {
        organisation_id: member_organisation(who)?,
        mode,
    })
}

/// `GET /console/webhooks`.
pub(super) async fn list(
    state: web::Data<ConsoleState>,
    query: web::Query<WebhookQuery>,
    SignedIn(who): SignedIn,
) -> Result<HttpResponse, ConsoleError> {
    if who.user.role == Role::Operator {
        return Ok(installation_webhooks::list(&state, &who, query.after.as_deref()).await);
    }
    let mode = mode_of(query.mode.as_deref());
    Ok(list_page(&state, &who, mode, &WebhookForm::default(), StatusCode::OK).await)
}

/// The member's list of a mode, with the creation form as given.
pub(super) async fn list_page(
    state: &ConsoleState,
    who: &Principal,
    mode: AccountMode,
    form: &WebhookForm,
    status: StatusCode,
) -> HttpResponse {
    let Some(owner) = owner_of(who, mode) else {
        return not_found(who);
    };
    match state.webhooks.list(owner, Vec::new()).await {
        Ok(hooks) => respond(status, views::webhooks(who, mode, &hooks, form)),
        Err(e) => unavailable(e),
    }
}

impl From<ReplayForm> for WebhookPageForms {
    fn from(replay: ReplayForm) -> Self {
        Self {
            replay,
            ..Self::default()
        }
    }
}

/// A member's webhook page.
pub(super) async fn page(
    state: &ConsoleState,
    who: &Principal,
    id: &str,
    mode: AccountMode,
    after: Option<&str>,
    forms: impl Into<WebhookPageForms>,
    status: StatusCode,
) -> HttpResponse {
    let forms = forms.into();
    let Some(owner) = owner_of(who, mode) else {
        return not_found(who);
    };
    let webhook = match state.webhooks.get(owner, id).await {
        Ok(w) => w,
        Err(WebhookError::NotFound) => return not_found(who),
        Err(e) => return unavailable(e),
    };
    // the accounts it sends events for (client accounts included)
    let accounts = match state
        .accounts
        .organisation_accounts(owner.organisation_id, mode)
        .await
    {
        Ok(all) => all
            .into_iter()
            .filter(|a| {
                webhook
                    .account_ids
                    .as_ref()
                    .is_none_or(|ids| ids.contains(&a.id))
            })
            .collect::<Vec<_>>(),
        Err(e) => return unavailable(e),
    };
    match state.webhooks.attempts(owner, id, page_after(after)).await {
        Ok(attempts) => {
            let next = attempts.last_if_more().map(|a| a.id.to_string());
            respond(
                status,
                views::webhook(
                    who,
                    &webhook,
                    &accounts,
                    &attempts.items,
                    next.as_deref(),
                    &forms,
                ),
            )
        }
        // a cursor from another webhook: the first page
        Err(WebhookError::NotFound) => not_found(who),
        Err(e) => unavailable(e),
    }
}

/// `GET /console/webhooks/{id}`: the webhook, its attempts (newest first) and
/// the replay form.
pub(super) async fn show(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    query: web::Query<WebhookQuery>,
    SignedIn(who): SignedIn,
) -> Result<HttpResponse, ConsoleError> {
    let form = ReplayForm {
        recovered: query.recovered,
        ..ReplayForm::default()
    };
    if who.user.role == Role::Operator {
        let notice = OperatorNotice {
            skipped: query.skipped,
            enabled: query.enabled.is_some(),
        };
        let after = query.after.as_deref();
        let ok = StatusCode::OK;
        return Ok(installation_webhooks::page(&state, &who, &id, after, &form, &notice, ok).await);
    }
    let mode = mode_of(query.mode.as_deref());
    Ok(page(
        &state,
        &who,
        &id,
        mode,
        query.after.as_deref(),
        form,
        StatusCode::OK,
    )
    .await)
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct RecoverForm {
    mode: Option<String>,
    since: Option<String>,
    account: Option<String>,
}

/// `datetime-local`'s `YYYY-MM-DDTHH:MM` (seconds optional), read as UTC.
fn parse_since(raw: &str) -> Option<OffsetDateTime> {
    let minutes = format_description!("[year]-[month]-[day]T[hour]:[minute]");
    let seconds = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]");
    PrimitiveDateTime::parse(raw.trim(), minutes)
        .or_else(|_| PrimitiveDateTime::parse(raw.trim(), seconds))
        .ok()
        .map(PrimitiveDateTime::assume_utc)
}

/// `POST /console/webhooks/{id}/recover`: replay from a time.
pub(super) async fn recover(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    SignedForm(who, form): SignedForm<RecoverForm>,
) -> Result<HttpResponse, ConsoleError> {
    let mode = mode_of(form.mode.as_deref());
    let since_raw = form.since.clone().unwrap_or_default();
    let account_raw = form.account.clone().unwrap_or_default();
    let refuse = |problem: &str| ReplayForm {
        since: since_raw.clone(),
        account: account_raw.clone(),
        problem: Some(problem.to_owned()),
        recovered: None,
    };
    let operator = who.user.role == Role::Operator;
    let Some(since) = parse_since(&since_raw) else {
        let f = refuse("From: give a date and time, such as 2026-11-24T09:00.");
        if operator {
            let notice = OperatorNotice::default();
            let bad = StatusCode::BAD_REQUEST;
            return Ok(
                installation_webhooks::page(&state, &who, &id, None, &f, &notice, bad).await,
            );
        }
        return Ok(page(&state, &who, &id, mode, None, f, StatusCode::BAD_REQUEST).await);
    };
    if operator {
        return Ok(installation_webhooks::recover(&state, &who, &id, since, refuse).await);
    }
    let Some(owner) = owner_of(&who, mode) else {
        return Err(ConsoleError::not_found(&who));
    };
    let account = match account_raw.trim() {
        "" => None,
        raw => match raw.parse::<AccountId>() {
            Ok(a) => Some(a),
            Err(_) => {
                let f = refuse("Account: not an account id (32 hexadecimal characters).");
                return Ok(page(&state, &who, &id, mode, None, f, StatusCode::BAD_REQUEST).await);
            }
        },
    };
    Ok(
        match state
            .webhooks
            .recover(owner, &id, since, account, &who.actor())
            .await
        {
            Ok(done) => see_other(&format!(
                "/console/webhooks/{}?mode={}&recovered={}",
                id.as_str(),
                mode.as_str(),
                done.events
            )),
            Err(RecoverError::NotFound) => not_found(&who),
            Err(RecoverError::Invalid(field)) => {
                let text = match field.field.as_str() {
                    "since" => format!("From: {}.", field.reason),
                    _ => format!("Account: {}.", field.reason),
                };
                page(
                    &state,
                    &who,
                    &id,
                    mode,
                    None,
                    refuse(&text),
                    StatusCode::BAD_REQUEST,
                )
                .await
            }
            Err(e) => unavailable(e),
        },
    )
}
