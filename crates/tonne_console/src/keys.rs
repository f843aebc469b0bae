//! A member's API keys: the organisation's keys of one mode, creating one
//! (its secret shown once) and revoking one. The same use cases as
//! `tonne keys create|list|revoke`.

use crate::ConsoleState;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde::Deserialize;
use tonne_accounts::AdminError;
use tonne_accounts::users::Principal;
use tonne_kernel::{AccountMode, ApiKeyId, OrganisationId};

use crate::answers::{respond, see_other, unavailable};
use crate::error::ConsoleError;
use crate::once::{self, Claim};
use crate::scope::{member_organisation, mode_of};
use crate::session::{SignedForm, SignedIn};
use crate::views;

/// `?mode=live|test` of the member pages (default live; anything else is live too).
#[derive(Debug, Default, Deserialize)]
pub(super) struct ModeQuery {
    pub mode: Option<String>,
}

async fn list_page(
    state: &ConsoleState,
    who: &Principal,
    organisation: OrganisationId,
    mode: AccountMode,
    problem: Option<&str>,
    status: StatusCode,
) -> HttpResponse {
    match state.accounts.list_keys(organisation).await {
        Ok(keys) => {
            let shown: Vec<_> = keys.into_iter().filter(|k| k.mode == mode).collect();
            respond(status, views::keys(who, mode, &shown, problem))
        }
        Err(e) => unavailable(e),
    }
}

/// `GET /console/keys`.
pub(super) async fn list(
    state: web::Data<ConsoleState>,
    query: web::Query<ModeQuery>,
    SignedIn(who): SignedIn,
) -> Result<HttpResponse, ConsoleError> {
    let Some(organisation) = member_organisation(&who) else {
        return Err(ConsoleError::not_found(&who));
    };
    let mode = mode_of(query.mode.as_deref());
    Ok(list_page(&state, &who, organisation, mode, None, StatusCode::OK).await)
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct CreateForm {
    mode: Option<String>,
    once: Option<String>,
}

/// `POST /console/keys`: a new key of the mode, for the organisation's oldest
/// account of it; the secret is on the answer page and nowhere else.
pub(super) async fn create(
    state: web::Data<ConsoleState>,
    SignedForm(who, form): SignedForm<CreateForm>,
) -> Result<HttpResponse, ConsoleError> {
    let Some(organisation) = member_organisation(&who) else {
        return Err(ConsoleError::not_found(&who));
    };
    let mode = mode_of(form.mode.as_deref());
    // a repeat of the form makes no second key (its secret was on the first answer)
    let claim = match once::claim(&state, form.once.as_deref()).await? {
        Claim::Repeat => return Ok(see_other(&format!("/console/keys?mode={}", mode.as_str()))),
        claim => claim,
    };
    let created = state
        .accounts
        .create_key(organisation, mode, None, &who.actor())
        .await;
    if created.is_err() {
        once::release(&state, &claim).await;
    }
    Ok(match created {
        Ok(created) => respond(StatusCode::OK, views::created_key(&who, &created)),
        Err(AdminError::NoAccountForMode) => {
            list_page(
                &state,
                &who,
                organisation,
                mode,
                Some("This organisation has no account of that mode to make a key for."),
                StatusCode::BAD_REQUEST,
            )
            .await
        }
        Err(e) => unavailable(e),
    })
}

/// `POST /console/keys/{id}/revoke`: only a key of the member's organisation.
pub(super) async fn revoke(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    SignedForm(who, ()): SignedForm<()>,
) -> Result<HttpResponse, ConsoleError> {
    let Some(organisation) = member_organisation(&who) else {
        return Err(ConsoleError::not_found(&who));
    };
    let Ok(key_id) = id.parse::<ApiKeyId>() else {
        return Err(ConsoleError::not_found(&who));
    };
    let key = match state.accounts.list_keys(organisation).await {
        Ok(keys) => keys.into_iter().find(|k| k.id == key_id),
        Err(e) => return Err(ConsoleError::unavailable(e)),
    };
    let Some(key) = key else {
        return Err(ConsoleError::not_found(&who));
    };
    Ok(
        match state.accounts.revoke_key(key.id, &who.actor()).await {
            Ok(_) | Err(AdminError::KeyNotFound) => {
                see_other(&format!("/console/keys?mode={}", key.mode.as_str()))
            }
            Err(e) => unavailable(e),
        },
    )
}
