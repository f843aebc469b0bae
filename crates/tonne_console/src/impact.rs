//! A member's impact: for one account of the organisation, what its orders
//! of the last 30 days add up to (the analytics API's figures) and its
//! sustainability page — its settings and a link to the public page.

use crate::ConsoleState;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use tonne_http::wire::sustainability_page_url;
use tonne_impact::{AskedRange, PageError, Viewer};

use crate::answers::respond;
use crate::error::ConsoleError;
use crate::scope::MemberPage;
use crate::views::{self, ImpactPage};

/// `GET /console/impact?mode=…&account=…`.
pub async fn show(
    state: web::Data<ConsoleState>,
    MemberPage(scope, _): MemberPage,
) -> Result<HttpResponse, ConsoleError> {
    let (who, accounts, chosen) = (&scope.who, &scope.accounts, scope.chosen);
    let mut page = ImpactPage {
        mode: scope.mode,
        accounts,
        account: chosen,
        aggregates: None,
        metrics: None,
        page: None,
        page_url: None,
    };
    let Some(account) = chosen.and_then(|id| accounts.iter().find(|a| a.id == id)) else {
        return Ok(respond(StatusCode::OK, views::impact(who, &page)));
    };
    let viewer = Viewer {
        account_id: account.id,
        organisation_id: account.organisation_id,
        mode: account.mode,
        client_account: account.scope == tonne_accounts::AccountScope::ClientAccount,
    };
    let aggregates = match state.impact.aggregated(viewer, AskedRange::default()).await {
        Ok(a) => a,
        Err(e) => return Err(ConsoleError::unavailable(e)),
    };
    let metrics = match state.impact.metrics(viewer, AskedRange::default()).await {
        Ok(m) => m,
        Err(e) => return Err(ConsoleError::unavailable(e)),
    };
    let settings = match state.impact.current_page(viewer).await {
        Ok(p) => Some(p),
        Err(PageError::NotFound) => None,
        Err(e) => return Err(ConsoleError::unavailable(e)),
    };
    let url = settings
        .as_ref()
        .map(|p| sustainability_page_url(&state.pages.public_url, p.mode, &p.settings.slug));
    page.aggregates = Some(&aggregates);
    page.metrics = Some(&metrics);
    page.page = settings.as_ref();
    page.page_url = url.as_deref();
    Ok(respond(StatusCode::OK, views::impact(who, &page)))
}
