//! The operator sets an account's default bundle selection (what an order
//! naming no bundles is split by): a percentage per bundle on sale, or the
//! catalogue's default. The use case of `tonne accounts selection`, audited.

use std::collections::HashMap;

use crate::ConsoleState;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use tonne_accounts::Account;
use tonne_accounts::users::Principal;
use tonne_kernel::{AccountId, AccountMode, OrganisationId};
use tonne_ordering::{Percentage, QuoteError, SelectionEntry};

use crate::answers::{page_after, respond, see_other, unavailable};
use crate::error::ConsoleError;
use crate::session::{Operator, operator_form};
use crate::views::{self, SelectionForm};

/// The organisation and one of its accounts named by the path, or 404.
async fn account_of(
    state: &ConsoleState,
    who: &Principal,
    organisation: &str,
    account: &str,
) -> Result<(OrganisationId, Account), ConsoleError> {
    let (Ok(org), Ok(id)) = (
        organisation.parse::<OrganisationId>(),
        account.parse::<AccountId>(),
    ) else {
        return Err(ConsoleError::not_found(who));
    };
    for mode in [AccountMode::Live, AccountMode::Test] {
        match state.accounts.organisation_accounts(org, mode).await {
            Ok(found) => {
                if let Some(a) = found.into_iter().find(|a| a.id == id) {
                    return Ok((org, a));
                }
            }
            Err(tonne_accounts::AdminError::OrganisationNotFound) => {
                return Err(ConsoleError::not_found(who));
            }
            Err(e) => return Err(ConsoleError::unavailable(e)),
        }
    }
    Err(ConsoleError::not_found(who))
}

async fn page(
    state: &ConsoleState,
    who: &Principal,
    organisation: OrganisationId,
    account: &Account,
    form: &SelectionForm,
    status: StatusCode,
) -> HttpResponse {
    let shares = match state.ordering.bundle_selection(account.id).await {
        Ok(s) => s,
        Err(QuoteError::Unexpected(e)) => return unavailable(e),
        // nothing on sale for it: the form still lists what the catalogue has
        Err(_) => Vec::new(),
    };
    match state.ordering.all_bundles(page_after(None)).await {
        Ok(found) => respond(
            status,
            views::selection(who, organisation, account, &shares, &found.items, form),
        ),
        Err(e) => unavailable(e),
    }
}

/// `GET /console/organisations/{id}/accounts/{account}`.
pub(super) async fn show(
    state: web::Data<ConsoleState>,
    path: web::Path<(String, String)>,
    Operator(who): Operator,
) -> Result<HttpResponse, ConsoleError> {
    let (org, account) = account_of(&state, &who, &path.0, &path.1).await?;
    Ok(page(
        &state,
        &who,
        org,
        &account,
        &SelectionForm::default(),
        StatusCode::OK,
    )
    .await)
}

/// `POST /console/organisations/{id}/accounts/{account}`: `share_{bundle}`
/// percentages (blank or 0 leaves a bundle out), or `default=true` to follow
/// the catalogue's default again.
pub(super) async fn set(
    state: web::Data<ConsoleState>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, ConsoleError> {
    let who = operator_form(&state, &req, form.get("csrf").map(String::as_str)).await?;
    let (org, account) = account_of(&state, &who, &path.0, &path.1).await?;
    let typed: Vec<(String, String)> = form
        .iter()
        .filter_map(|(k, v)| Some((k.strip_prefix("share_")?.to_owned(), v.trim().to_owned())))
        .filter(|(_, v)| !v.is_empty() && v != "0")
        .collect();
    let entries = if form.get("default").map(String::as_str) == Some("true") {
        Ok(Vec::new())
    } else if typed.is_empty() {
        Err("Give at least one bundle a percentage, or choose the catalogue's default.".to_owned())
    } else {
        typed
            .iter()
            .map(|(bundle, pct)| {
                Percentage::parse(pct)
                    .map(|p| SelectionEntry {
                        bundle_id: bundle.clone(),
                        percentage: Some(p),
                    })
                    .map_err(|_| {
                        format!("{pct}: a percentage from 0 to 100, at most two decimals.")
                    })
            })
            .collect::<Result<Vec<_>, _>>()
    };
    let outcome = match entries {
        Ok(entries) => state
            .ordering
            .set_account_selection(&account.id.to_string(), entries, &who.actor())
            .await
            .map_err(|e| match e {
                QuoteError::Unexpected(e) => Err(e),
                other => Ok(format!("{other}.")),
            }),
        Err(problem) => Err(Ok(problem)),
    };
    Ok(match outcome {
        Ok(_) => see_other(&format!("/console/organisations/{org}")),
        Err(Ok(problem)) => {
            let shown = SelectionForm {
                typed,
                problem: Some(problem),
            };
            page(&state, &who, org, &account, &shown, StatusCode::BAD_REQUEST).await
        }
        Err(Err(e)) => unavailable(e),
    })
}
