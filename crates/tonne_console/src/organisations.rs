//! The operator's organisations: the list, creating one (a live/test pair and
//! a key per mode, shown once), and an organisation's page with its members,
//! its API keys and an invitation (a one-time link to choose a password).

use crate::ConsoleState;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde::Deserialize;
use tonne_accounts::AdminError;
use tonne_accounts::users::{Email, NewUser, Principal, Role, UserError};
use tonne_kernel::{AccountMode, OrganisationId};
use tonne_ordering::QuoteError;

use crate::answers::{ListQuery, not_found, page_after, respond, see_other, unavailable};
use crate::error::ConsoleError;
use crate::once::{self, Claim};
use crate::session::{Operator, OperatorForm};
use crate::views;

async fn list_page(
    state: &ConsoleState,
    who: &Principal,
    after: Option<&str>,
    form: views::NewOrganisationForm,
    status: StatusCode,
) -> HttpResponse {
    match state.accounts.organisations(page_after(after)).await {
        Ok(found) => {
            let next = found.last_if_more().map(|o| o.id.to_string());
            respond(
                status,
                views::organisations(who, &found.items, next.as_deref(), &form),
            )
        }
        // a cursor that names no organisation: the first page
        Err(AdminError::OrganisationNotFound) => see_other("/console/organisations"),
        Err(e) => unavailable(e),
    }
}

/// `GET /console/organisations`.
pub(super) async fn list(
    state: web::Data<ConsoleState>,
    query: web::Query<ListQuery>,
    Operator(who): Operator,
) -> Result<HttpResponse, ConsoleError> {
    let form = views::NewOrganisationForm::default();
    Ok(list_page(&state, &who, query.after.as_deref(), form, StatusCode::OK).await)
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct CreateForm {
    name: Option<String>,
    once: Option<String>,
}

/// `POST /console/organisations`: a new organisation with its pair and one
/// key per mode (the use case of `tonne bootstrap`), the keys shown once.
pub(super) async fn create(
    state: web::Data<ConsoleState>,
    OperatorForm(who, form): OperatorForm<CreateForm>,
) -> Result<HttpResponse, ConsoleError> {
    let name = form.name.clone().unwrap_or_default();
    // The API allows an empty account name; an organisation made by a person
    // in the console gets one people can read.
    if name.trim().is_empty() {
        let refused = views::NewOrganisationForm {
            name,
            problem: Some("Name: give the organisation a name.".to_owned()),
        };
        return Ok(list_page(&state, &who, None, refused, StatusCode::BAD_REQUEST).await);
    }
    // a repeat of the form makes no second organisation
    let claim = match once::claim(&state, form.once.as_deref()).await? {
        Claim::Repeat => return Ok(see_other("/console/organisations")),
        claim => claim,
    };
    let made = state.accounts.bootstrap(name.trim(), &who.actor()).await;
    if made.is_err() {
        once::release(&state, &claim).await;
    }
    Ok(match made {
        Ok(created) => respond(
            StatusCode::OK,
            views::created_organisation(&who, &name, &created),
        ),
        Err(AdminError::Invalid(field)) => {
            let refused = views::NewOrganisationForm {
                name,
                problem: Some(format!("Name: {}.", field.reason)),
            };
            list_page(&state, &who, None, refused, StatusCode::BAD_REQUEST).await
        }
        Err(e) => unavailable(e),
    })
}

async fn organisation_page(
    state: &ConsoleState,
    who: &Principal,
    id: &str,
    form: views::InviteForm,
    status: StatusCode,
) -> HttpResponse {
    let Ok(id) = id.parse::<OrganisationId>() else {
        return not_found(who);
    };
    let organisation = match state.accounts.organisation(id).await {
        Ok(o) => o,
        Err(AdminError::OrganisationNotFound) => return not_found(who),
        Err(e) => return unavailable(e),
    };
    let keys = match state.accounts.list_keys(id).await {
        Ok(k) => k,
        Err(e) => return unavailable(e),
    };
    let members = match state.users.list().await {
        Ok(users) => users
            .into_iter()
            .filter(|u| u.role == Role::Member(id))
            .collect::<Vec<_>>(),
        Err(e) => return unavailable(e),
    };
    let mut accounts = Vec::new();
    for mode in [AccountMode::Live, AccountMode::Test] {
        match state.accounts.organisation_accounts(id, mode).await {
            Ok(found) => accounts.extend(found),
            Err(e) => return unavailable(e),
        }
    }
    let mut selections = Vec::with_capacity(accounts.len());
    for account in &accounts {
        match state.ordering.bundle_selection(account.id).await {
            Ok(shares) => selections.push(shares),
            Err(QuoteError::Unexpected(e)) => return unavailable(e),
            // nothing on sale for it (an empty catalogue, or none in its currency)
            Err(_) => selections.push(Vec::new()),
        }
    }
    let bundles = match state.ordering.all_bundles(page_after(None)).await {
        Ok(found) => found.items,
        Err(e) => return unavailable(e),
    };
    let listed = views::OrganisationAccounts {
        accounts: &accounts,
        selections: &selections,
        bundles: &bundles,
    };
    respond(
        status,
        views::organisation(who, &organisation, &members, &keys, &listed, &form),
    )
}

/// `GET /console/organisations/{id}`.
pub(super) async fn show(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    Operator(who): Operator,
) -> Result<HttpResponse, ConsoleError> {
    Ok(organisation_page(
        &state,
        &who,
        &id,
        views::InviteForm::default(),
        StatusCode::OK,
    )
    .await)
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct InviteRequest {
    email: Option<String>,
}

/// `POST /console/organisations/{id}/members`: invites a member; the page
/// shows the one-time link to choose a password (valid 24 hours).
pub(super) async fn invite(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    OperatorForm(who, form): OperatorForm<InviteRequest>,
) -> Result<HttpResponse, ConsoleError> {
    let Ok(organisation) = id.parse::<OrganisationId>() else {
        return Err(ConsoleError::not_found(&who));
    };
    let raw = form.email.clone().unwrap_or_default();
    let refuse = |problem: &str| views::InviteForm {
        email: raw.clone(),
        problem: Some(problem.to_owned()),
    };
    let Ok(email) = raw.parse::<Email>() else {
        let f = refuse("Email: an email address looks like name@example.org.");
        return Ok(organisation_page(&state, &who, &id, f, StatusCode::BAD_REQUEST).await);
    };
    let new = NewUser {
        email,
        role: Role::Member(organisation),
    };
    Ok(match state.users.create(new, None, &who.actor()).await {
        Ok(created) => {
            let link = created.setup_token.map(|t| {
                format!(
                    "{}/console/setup/{}",
                    state.pages.public_url.trim_end_matches('/'),
                    t.expose()
                )
            });
            respond(
                StatusCode::OK,
                views::invited(&who, organisation, &created.user, link.as_deref()),
            )
        }
        Err(UserError::EmailTaken) => {
            let f = refuse("Email: a user with this email exists.");
            organisation_page(&state, &who, &id, f, StatusCode::CONFLICT).await
        }
        Err(UserError::NoSuchOrganisation) => not_found(&who),
        Err(e) => unavailable(e),
    })
}
