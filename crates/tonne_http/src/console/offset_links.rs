//! A member's offset links: one account of the organisation at a time, its
//! links newest first by cursor, and one link's analytics (the offset-link
//! pages' chart, drawn on the server).

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use tonne_links::LinkError;

use super::answers::{not_found, page_after, respond, see_other, unavailable};
use super::scope::{AccountPageQuery, MemberScope, member_scope};
use super::views;
use crate::state::AppState;

/// `GET /console/offset-links`.
pub(super) async fn list(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<AccountPageQuery>,
) -> HttpResponse {
    let scope = member_scope(&state, &req, &query).await;
    let MemberScope {
        who,
        mode,
        accounts: all,
        chosen,
    } = match scope {
        Ok(scope) => scope,
        Err(answer) => return answer,
    };
    let now = state.links.now();
    let Some(account) = chosen else {
        let page = views::offset_links(&who, mode, &all, None, &[], None, now);
        return respond(StatusCode::OK, page);
    };
    match state
        .links
        .list(account, page_after(query.after.as_deref()))
        .await
    {
        Ok(found) => {
            let next = found.last_if_more().map(|l| l.link.id.to_string());
            let page = views::offset_links(
                &who,
                mode,
                &all,
                Some(account),
                &found.items,
                next.as_deref(),
                now,
            );
            respond(StatusCode::OK, page)
        }
        Err(LinkError::NotFound) => see_other(&format!(
            "/console/offset-links?mode={}&account={account}",
            mode.as_str()
        )),
        Err(e) => unavailable(e),
    }
}

/// `GET /console/offset-links/{id}?account=…`: the link and its analytics.
pub(super) async fn show(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
    query: web::Query<AccountPageQuery>,
) -> HttpResponse {
    let scope = member_scope(&state, &req, &query).await;
    let MemberScope { who, chosen, .. } = match scope {
        Ok(scope) => scope,
        Err(answer) => return answer,
    };
    let Some(account) = chosen else {
        return not_found(&who);
    };
    let link = match state.links.get(account, &id).await {
        Ok(link) => link,
        Err(LinkError::NotFound) => return not_found(&who),
        Err(e) => return unavailable(e),
    };
    let analytics = match state.links.analytics(account, &id).await {
        Ok(a) => a,
        Err(LinkError::NotFound) => return not_found(&who),
        Err(e) => return unavailable(e),
    };
    match crate::pages::chart::render(&analytics.daily) {
        Ok(svg) => respond(
            StatusCode::OK,
            views::offset_link(&who, &link, &analytics, &svg, state.links.now()),
        ),
        Err(e) => unavailable(e),
    }
}
