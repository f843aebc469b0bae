//! A member's PACT credentials: the client credentials another system reads
//! an account's logistics footprints with over `/pact` — listed per
//! account, created (the secret shown once), revoked. The same use cases as
//! `tonne pact credentials create|list|revoke`; the port is the binary's
//! `web::Data<dyn PactClientsService>`, not the API's state.

use crate::ConsoleState;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde::Deserialize;
use tonne_accounts::pact::{ClientError, PactClientId, PactClientsService};

use crate::answers::{respond, see_other, unavailable};
use crate::error::ConsoleError;
use crate::once::{self, Claim};
use crate::scope::{AccountTarget, MemberPage, MemberScope, member_account};
use crate::session::SignedForm;
use crate::views;

fn back(scope: &MemberScope, account: &str) -> String {
    format!(
        "/console/pact?mode={}&account={account}",
        scope.mode.as_str()
    )
}

async fn list_page(
    clients: &dyn PactClientsService,
    scope: &MemberScope,
    problem: Option<&str>,
    status: StatusCode,
) -> HttpResponse {
    let page = |list: &[tonne_accounts::pact::PactClient]| {
        views::pact_clients(
            &scope.who,
            scope.mode,
            &scope.accounts,
            scope.chosen,
            list,
            problem,
        )
    };
    let Some(account) = scope.chosen else {
        return respond(status, page(&[]));
    };
    match clients.list(account).await {
        Ok(list) => respond(status, page(&list)),
        Err(e) => unavailable(e),
    }
}

/// `GET /console/pact?mode=…&account=…`.
pub(super) async fn list(
    clients: web::Data<dyn PactClientsService>,
    MemberPage(scope, _): MemberPage,
) -> Result<HttpResponse, ConsoleError> {
    Ok(list_page(clients.as_ref(), &scope, None, StatusCode::OK).await)
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct CreateForm {
    #[serde(flatten)]
    target: AccountTarget,
    label: Option<String>,
    once: Option<String>,
}

/// `POST /console/pact`: new credentials for the account; the secret is on
/// the answer page and nowhere else.
pub(super) async fn create(
    state: web::Data<ConsoleState>,
    clients: web::Data<dyn PactClientsService>,
    SignedForm(who, form): SignedForm<CreateForm>,
) -> Result<HttpResponse, ConsoleError> {
    let (scope, account) = member_account(&state, who, &form.target).await?;
    // a repeat of the form makes no second client (its secret was on the first answer)
    let claim = match once::claim(&state, form.once.as_deref()).await? {
        Claim::Repeat => return Ok(see_other(&back(&scope, &account.to_string()))),
        claim => claim,
    };
    let label = form.label.as_deref().unwrap_or_default();
    let created = clients.create(account, label).await;
    if created.is_err() {
        once::release(&state, &claim).await;
    }
    Ok(match created {
        Ok(created) => respond(
            StatusCode::OK,
            views::created_pact_client(&scope.who, scope.mode, &created),
        ),
        Err(ClientError::InvalidLabel) => {
            let problem = "Name the credentials: 1 to 100 characters, no control characters.";
            list_page(
                clients.as_ref(),
                &scope,
                Some(problem),
                StatusCode::BAD_REQUEST,
            )
            .await
        }
        Err(ClientError::TooMany) => {
            let problem = "This account holds 20 PACT credentials already: revoke one before creating another.";
            list_page(
                clients.as_ref(),
                &scope,
                Some(problem),
                StatusCode::CONFLICT,
            )
            .await
        }
        Err(e) => unavailable(e),
    })
}

/// `POST /console/pact/{client_id}/revoke`: only the chosen account's.
pub(super) async fn revoke(
    state: web::Data<ConsoleState>,
    clients: web::Data<dyn PactClientsService>,
    id: web::Path<String>,
    SignedForm(who, target): SignedForm<AccountTarget>,
) -> Result<HttpResponse, ConsoleError> {
    let (scope, account) = member_account(&state, who, &target).await?;
    let Ok(client_id) = id.parse::<PactClientId>() else {
        return Err(ConsoleError::not_found(&scope.who));
    };
    Ok(match clients.revoke(Some(account), client_id).await {
        Ok(_) => see_other(&back(&scope, &account.to_string())),
        Err(ClientError::ClientNotFound) => return Err(ConsoleError::not_found(&scope.who)),
        Err(e) => unavailable(e),
    })
}
