//! A member's client accounts: the organisation's client accounts of a mode,
//! by cursor, and creating one (the accounts use case behind
//! `POST /v1/accounts/client`, audited as the member's).
//!
//! A second submit of the same form creates nothing: each rendering of the
//! form carries a fresh once-only key, stored as the account's idempotency
//! key, so the store refuses a second account with it.

use crate::ConsoleState;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde::Deserialize;
use tonne_accounts::users::Principal;
use tonne_accounts::{
    AccountIdempotencyKey, AccountName, Beneficiary, CreateAccountError, NewAccount,
};
use tonne_kernel::{AccountMode, Currency};

use crate::answers::{not_found, page_after, respond, see_other, unavailable};
use crate::error::ConsoleError;
use crate::scope::{member_organisation, mode_of};
use crate::session::{SignedForm, SignedIn};
use crate::views::{self, ClientAccountForm, url_query};

#[derive(Debug, Default, Deserialize)]
pub(super) struct ListQuery {
    mode: Option<String>,
    after: Option<String>,
    created: Option<String>,
}

/// A fresh once-only key for a creation form.
fn once() -> String {
    format!("console-{}", uuid::Uuid::new_v4().simple())
}

/// The list page of a mode with the form as given.
async fn list_page(
    state: &ConsoleState,
    who: &Principal,
    mode: AccountMode,
    after: Option<&str>,
    created: Option<&str>,
    form: &ClientAccountForm,
    status: StatusCode,
) -> HttpResponse {
    let Some(organisation) = member_organisation(who) else {
        return not_found(who);
    };
    match state
        .accounts
        .clients_of(organisation, mode, page_after(after))
        .await
    {
        Ok(found) => {
            let next = found.last_if_more().map(|(a, _)| a.id.to_string());
            let page =
                views::client_accounts(who, mode, &found.items, next.as_deref(), created, form);
            respond(status, page)
        }
        Err(e) => unavailable(e),
    }
}

/// `GET /console/client-accounts`.
pub(super) async fn list(
    state: web::Data<ConsoleState>,
    query: web::Query<ListQuery>,
    SignedIn(who): SignedIn,
) -> Result<HttpResponse, ConsoleError> {
    let form = ClientAccountForm {
        currency: Currency::Eur.code().to_owned(),
        once: once(),
        ..ClientAccountForm::default()
    };
    let mode = mode_of(query.mode.as_deref());
    // `created` carries the new account's id (never text to print): its name
    // is looked up, and only among the member's own organisation and mode.
    let created = match (member_organisation(&who), query.created.as_deref()) {
        (Some(organisation), Some(id)) => state
            .accounts
            .organisation_account(organisation, mode, id)
            .await
            .ok()
            .flatten()
            .map(|a| a.name.as_str().to_owned()),
        _ => None,
    };
    let after = query.after.as_deref();
    Ok(list_page(
        &state,
        &who,
        mode,
        after,
        created.as_deref(),
        &form,
        StatusCode::OK,
    )
    .await)
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct CreateForm {
    mode: Option<String>,
    once: Option<String>,
    name: Option<String>,
    currency: Option<String>,
    beneficiary: Option<String>,
}

/// The form read whole: the new account, or the form with every problem.
fn read(form: &CreateForm) -> Result<NewAccount, Box<ClientAccountForm>> {
    let text = |v: &Option<String>| v.as_deref().unwrap_or_default().trim().to_owned();
    let mut shown = ClientAccountForm {
        name: text(&form.name),
        currency: text(&form.currency),
        beneficiary: text(&form.beneficiary),
        once: text(&form.once),
        ..ClientAccountForm::default()
    };
    let name = match AccountName::parse(&shown.name) {
        Ok(_) if shown.name.is_empty() => {
            shown.name_problem = Some("Name: give the account a name.".into());
            None
        }
        Ok(n) => Some(n),
        Err(e) => {
            shown.name_problem = Some(format!("Name: {}.", e.reason));
            None
        }
    };
    let currency = match shown.currency.parse::<Currency>() {
        Ok(c) => Some(c),
        Err(_) => {
            shown.currency_problem = Some("Currency: choose one of the list.".into());
            None
        }
    };
    let beneficiary = match shown.beneficiary.as_str() {
        "" => Ok(None),
        raw => Beneficiary::parse(raw).map(Some),
    };
    let beneficiary = match beneficiary {
        Ok(b) => b,
        Err(e) => {
            shown.beneficiary_problem = Some(format!("Beneficiary: {}.", e.reason));
            None
        }
    };
    // a form without its key (an old page, a script) still gets one
    let key = match shown.once.as_str() {
        "" => once(),
        k => k.to_owned(),
    };
    let idempotency_key = AccountIdempotencyKey::parse(&key).ok();
    match (name, currency) {
        (Some(name), Some(currency)) if shown.beneficiary_problem.is_none() => Ok(NewAccount {
            beneficiary,
            idempotency_key,
            ..NewAccount::named(name, currency)
        }),
        _ => Err(Box::new(shown)),
    }
}

/// `POST /console/client-accounts`: creates a client account of the form's mode.
pub(super) async fn create(
    state: web::Data<ConsoleState>,
    SignedForm(who, form): SignedForm<CreateForm>,
) -> Result<HttpResponse, ConsoleError> {
    let Some(organisation) = member_organisation(&who) else {
        return Err(ConsoleError::not_found(&who));
    };
    let mode = mode_of(form.mode.as_deref());
    let bad = StatusCode::BAD_REQUEST;
    let new = match read(&form) {
        Ok(new) => new,
        Err(shown) => return Ok(list_page(&state, &who, mode, None, None, &shown, bad).await),
    };
    let list = format!("/console/client-accounts?mode={}", mode.as_str());
    Ok(
        match state
            .accounts
            .create_client_as(organisation, mode, new, &who.actor())
            .await
        {
            Ok(made) => see_other(&format!(
                "/console/client-accounts?{}",
                url_query(&[("mode", mode.as_str()), ("created", &made.id.to_string())])
            )),
            // the same form sent again: it was created the first time
            Err(CreateAccountError::IdempotencyKeyTaken) => see_other(&list),
            // read() checked every field the form has: the rest cannot happen here
            Err(
                e @ (CreateAccountError::Invalid(_)
                | CreateAccountError::HandleTaken
                | CreateAccountError::LiveAccountRequired
                | CreateAccountError::ClientAccountKey
                | CreateAccountError::Unexpected(_)),
            ) => unavailable(e),
        },
    )
}
