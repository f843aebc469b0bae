//! A member manages the organisation's webhooks: add one (its secret shown
//! once), change its URL or state, rotate its secret (shown once), delete it.
//! Each is the API's use case, audited as the member's.

use crate::ConsoleState;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use tonne_accounts::users::Principal;
use tonne_kernel::AccountId;
use tonne_kernel::AccountMode;
use tonne_webhooks::{
    CreateWebhookError, NewWebhook, Owner, TestEventError, UpdateWebhookError, WebhookChanges,
    WebhookError,
};

use crate::answers::{not_found, respond, see_other, unavailable};
use crate::error::ConsoleError;
use crate::once::{self, Claim};
use crate::scope::mode_of;
use crate::session::{SignedForm, signed_in_form};
use crate::views::{self, TestForm, WebhookForm, WebhookPageForms};
use crate::webhooks::{list_page, owner_of, page};

/// The mode of a member's webhook form and the webhooks' owner, or the
/// answer (404 for an operator).
fn member_owner(who: &Principal, mode: Option<&str>) -> Result<(AccountMode, Owner), ConsoleError> {
    let mode = mode_of(mode);
    match owner_of(who, mode) {
        Some(owner) => Ok((mode, owner)),
        None => Err(ConsoleError::not_found(who)),
    }
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct SettingsForm {
    mode: Option<String>,
    url: Option<String>,
    enabled: Option<String>,
    once: Option<String>,
}

/// The creation form's event types: `None` (every type) unless the form
/// showed the choice (`event_types_shown`), then the boxes ticked — all of
/// the contract's types and no opt-in one is every type too (a type added
/// later reaches the webhook as well).
fn chosen_types(pairs: &[(String, String)]) -> Option<Vec<String>> {
    if !pairs.iter().any(|(k, _)| k == "event_types_shown") {
        return None;
    }
    let ticked: Vec<String> = pairs
        .iter()
        .filter(|(k, _)| k == "event_type")
        .map(|(_, v)| v.clone())
        .collect();
    let is_ticked = |t: &tonne_webhooks::EventType| ticked.iter().any(|v| v == t.as_str());
    let every = tonne_webhooks::EventType::ALL.iter().all(is_ticked)
        && !tonne_webhooks::EventType::OPT_IN.iter().any(is_ticked);
    (!every).then_some(ticked)
}

/// A field of a form read as pairs (the first, if repeated).
fn field(pairs: &[(String, String)], name: &str) -> Option<String> {
    pairs
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.clone())
}

fn settings_of(pairs: &[(String, String)]) -> SettingsForm {
    let get = |k: &str| field(pairs, k);
    SettingsForm {
        mode: get("mode"),
        url: get("url"),
        enabled: get("enabled"),
        once: get("once"),
    }
}

/// `POST /console/webhooks`: adds a webhook of the page's mode.
pub(super) async fn create(
    state: web::Data<ConsoleState>,
    req: HttpRequest,
    pairs: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, ConsoleError> {
    let form = settings_of(&pairs);
    let event_types = chosen_types(&pairs);
    let who = signed_in_form(&state, &req, field(&pairs, "csrf").as_deref()).await?;
    let (mode, owner) = member_owner(&who, form.mode.as_deref())?;
    // a repeat of the form adds no second webhook
    let claim = match once::claim(&state, form.once.as_deref()).await? {
        Claim::Repeat => {
            return Ok(see_other(&format!(
                "/console/webhooks?mode={}",
                mode.as_str()
            )));
        }
        claim => claim,
    };
    let url = form.url.clone().unwrap_or_default();
    let new = NewWebhook {
        url: url.trim().to_owned(),
        account_ids: None,
        event_types: event_types.clone(),
    };
    let created = state.webhooks.create(owner, new, &who.actor()).await;
    if created.is_err() {
        once::release(&state, &claim).await;
    }
    let problem = match created {
        Ok(hook) => {
            return Ok(respond(
                StatusCode::OK,
                views::webhook_secret(&who, &hook, false),
            ));
        }
        Err(CreateWebhookError::Invalid(f)) if f.field.starts_with("event_types") => {
            format!("Events: {}.", f.reason)
        }
        Err(CreateWebhookError::Invalid(f)) => format!("Receiver URL: {}.", f.reason),
        Err(e @ CreateWebhookError::LimitReached { .. }) => format!("{e}."),
        Err(e @ CreateWebhookError::Unexpected(_)) => return Err(ConsoleError::unavailable(e)),
    };
    let shown = WebhookForm {
        url,
        problem: Some(problem),
        event_types,
    };
    Ok(list_page(&state, &who, mode, &shown, StatusCode::BAD_REQUEST).await)
}

/// `POST /console/webhooks/{id}/edit`: the URL and whether it is enabled.
pub(super) async fn edit(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    SignedForm(who, form): SignedForm<SettingsForm>,
) -> Result<HttpResponse, ConsoleError> {
    let (mode, owner) = member_owner(&who, form.mode.as_deref())?;
    let url = form.url.clone().unwrap_or_default();
    let changes = WebhookChanges {
        url: url.trim().to_owned(),
        // an unchecked box is absent from the form: disabled
        enabled: Some(form.enabled.as_deref() == Some("true")),
        account_ids: None,
        // the form does not show them: what the API chose stays
        event_types: None,
    };
    let problem = match state
        .webhooks
        .update(owner, &id, changes, &who.actor())
        .await
    {
        Ok(_) => {
            return Ok(see_other(&format!(
                "/console/webhooks/{}?mode={}",
                id.as_str(),
                mode.as_str()
            )));
        }
        Err(UpdateWebhookError::NotFound) => return Err(ConsoleError::not_found(&who)),
        Err(UpdateWebhookError::Invalid(f)) => format!("Receiver URL: {}.", f.reason),
        Err(e @ UpdateWebhookError::Unexpected(_)) => return Err(ConsoleError::unavailable(e)),
    };
    let forms = WebhookPageForms {
        settings: WebhookForm {
            url,
            problem: Some(problem),
            event_types: None,
        },
        ..WebhookPageForms::default()
    };
    Ok(page(
        &state,
        &who,
        &id,
        mode,
        None,
        forms,
        StatusCode::BAD_REQUEST,
    )
    .await)
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct ActionForm {
    mode: Option<String>,
    once: Option<String>,
}

/// `POST /console/webhooks/{id}/rotate`: a new secret, shown once.
pub(super) async fn rotate(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    SignedForm(who, form): SignedForm<ActionForm>,
) -> Result<HttpResponse, ConsoleError> {
    let (mode, owner) = member_owner(&who, form.mode.as_deref())?;
    // a repeat does not rotate again (which would void the secret just shown)
    let claim = match once::claim(&state, form.once.as_deref()).await? {
        Claim::Repeat => {
            return Ok(see_other(&format!(
                "/console/webhooks/{}?mode={}",
                id.as_str(),
                mode.as_str()
            )));
        }
        claim => claim,
    };
    let rotated = state.webhooks.rotate_secret(owner, &id, &who.actor()).await;
    if rotated.is_err() {
        once::release(&state, &claim).await;
    }
    Ok(match rotated {
        Ok(hook) => respond(StatusCode::OK, views::webhook_secret(&who, &hook, true)),
        Err(WebhookError::NotFound) => not_found(&who),
        Err(e) => unavailable(e),
    })
}

/// `POST /console/webhooks/{id}/delete`: nothing is sent to it any more.
pub(super) async fn delete(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    SignedForm(who, form): SignedForm<ActionForm>,
) -> Result<HttpResponse, ConsoleError> {
    let (mode, owner) = member_owner(&who, form.mode.as_deref())?;
    Ok(
        match state.webhooks.delete(owner, &id, &who.actor()).await {
            Ok(()) => see_other(&format!("/console/webhooks?mode={}", mode.as_str())),
            // another organisation's, or deleted already (a second submit acts once)
            Err(WebhookError::NotFound) => not_found(&who),
            Err(e) => unavailable(e),
        },
    )
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct TestEventForm {
    mode: Option<String>,
    account: Option<String>,
}

/// `POST /console/webhooks/{id}/test`: sends a test event now and shows the
/// receiver's answer on the webhook's page (a failing receiver is an answer,
/// not an error: 200).
pub(super) async fn test(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    SignedForm(who, form): SignedForm<TestEventForm>,
) -> Result<HttpResponse, ConsoleError> {
    let (mode, owner) = member_owner(&who, form.mode.as_deref())?;
    let account = form.account.clone().unwrap_or_default();
    let refused = |problem: &str| WebhookPageForms {
        test: TestForm {
            account: account.clone(),
            problem: Some(problem.to_owned()),
            sent: None,
        },
        ..WebhookPageForms::default()
    };
    let bad = StatusCode::BAD_REQUEST;
    let Ok(account_id) = account.trim().parse::<AccountId>() else {
        let forms = refused("For account: choose one of the webhook's accounts.");
        return Ok(page(&state, &who, &id, mode, None, forms, bad).await);
    };
    Ok(
        match state.webhooks.send_test(owner, &id, account_id).await {
            Ok(sent) => {
                tracing::info!(
                    webhook = id.as_str(),
                    by = %who.actor(),
                    status = ?sent.status,
                    "test event sent from the console"
                );
                let forms = WebhookPageForms {
                    test: TestForm {
                        account,
                        problem: None,
                        sent: Some(sent),
                    },
                    ..WebhookPageForms::default()
                };
                page(&state, &who, &id, mode, None, forms, StatusCode::OK).await
            }
            Err(TestEventError::NotFound) => not_found(&who),
            Err(TestEventError::Invalid(_)) => {
                let forms = refused("For account: this webhook sends no events for that account.");
                page(&state, &who, &id, mode, None, forms, bad).await
            }
            Err(e @ TestEventError::Unexpected(_)) => unavailable(e),
        },
    )
}
