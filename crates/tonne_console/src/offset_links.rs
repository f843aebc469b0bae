//! A member's offset links: one account of the organisation at a time, its
//! links newest first by cursor, and one link's analytics (the offset-link
//! pages' chart, drawn on the server).

use crate::ConsoleState;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use tonne_kernel::{Currency, Limit, PageRequest};
use tonne_links::{LinkDraft, LinkError, MAX_BUNDLES};
use tonne_ordering::CatalogueError;

use crate::answers::{not_found, page_after, respond, see_other, unavailable};
use crate::error::ConsoleError;
use crate::scope::{AccountTarget, MemberAccount, MemberPage, MemberScope, member_account};
use crate::session::{SignedForm, signed_in_form};
use crate::views::{self, BundleChoice, LinkForm, LinksPage};

/// The bundles a link of an account in `currency` may offer: every bundle
/// on sale in it (the first 100), with its price per tonne and commission.
async fn bundle_choices(
    state: &ConsoleState,
    currency: Currency,
) -> Result<Vec<BundleChoice>, CatalogueError> {
    let page = PageRequest {
        limit: Limit::new(100).unwrap_or_default(),
        after: None,
    };
    let found = state.ordering.list_bundles(false, page).await?;
    Ok(found
        .items
        .iter()
        .filter(|v| !v.bundle.disabled)
        .filter_map(|v| {
            let (_, with_commission) = state.ordering.display_price(&v.bundle, currency)?;
            Some(BundleChoice {
                id: v.bundle.id.to_string(),
                name: v.bundle.name.clone(),
                price: format!(
                    "{} {}",
                    currency.code(),
                    with_commission.to_decimal_string()
                ),
            })
        })
        .collect())
}

/// The list page of the scope's account with the form as given.
async fn list_page(
    state: &ConsoleState,
    scope: MemberScope,
    after: Option<&str>,
    form: &LinkForm,
    status: StatusCode,
) -> HttpResponse {
    let MemberScope {
        who,
        mode,
        accounts: all,
        chosen,
    } = scope;
    let now = state.links.now();
    let mut page = LinksPage {
        mode,
        accounts: &all,
        account: chosen,
        links: &[],
        next: None,
        now,
        bundles: &[],
        form,
        card_payments: state.pages.card_payments.of(mode),
    };
    let Some(account) = chosen else {
        return respond(status, views::offset_links(&who, &page));
    };
    let currency = all
        .iter()
        .find(|a| a.id == account)
        .map_or(Currency::Eur, |a| a.currency);
    let bundles = match bundle_choices(state, currency).await {
        Ok(b) => b,
        Err(e) => return unavailable(e),
    };
    match state.links.list(account, page_after(after)).await {
        Ok(found) => {
            let next = found.last_if_more().map(|l| l.link.id.to_string());
            page.links = &found.items;
            page.next = next.as_deref();
            page.bundles = &bundles;
            respond(status, views::offset_links(&who, &page))
        }
        // an unknown account, or a cursor naming no link of it (typed, or
        // another account's): the first page, as the other lists do
        Err(LinkError::NotFound | LinkError::Invalid { .. }) => see_other(&format!(
            "/console/offset-links?mode={}&account={account}",
            mode.as_str()
        )),
        Err(e) => unavailable(e),
    }
}

/// `GET /console/offset-links`.
pub(super) async fn list(
    state: web::Data<ConsoleState>,
    MemberPage(scope, query): MemberPage,
) -> Result<HttpResponse, ConsoleError> {
    let form = LinkForm::default();
    Ok(list_page(&state, scope, query.after.as_deref(), &form, StatusCode::OK).await)
}

/// The creation form as sent. `bundles` repeats (one per ticked box), so it
/// is read from the raw body.
#[derive(Debug, Default)]
pub(super) struct CreateForm {
    csrf: Option<String>,
    target: AccountTarget,
    shown: LinkForm,
}

impl CreateForm {
    fn parse(body: &[u8]) -> Self {
        let mut form = Self::default();
        for (k, v) in url::form_urlencoded::parse(body) {
            let v = v.into_owned();
            match k.as_ref() {
                "csrf" => form.csrf = Some(v),
                "mode" => form.target.mode = Some(v),
                "account" => form.target.account = Some(v),
                "name" => form.shown.name = v,
                "title" => form.shown.title = v,
                "description" => form.shown.description = v,
                "bundles" => form.shown.bundles.push(v),
                "value" => form.shown.value = v,
                "require_payment" => form.shown.require_payment = v == "true",
                "order_tonnes" => form.shown.order_tonnes = v,
                "order_value" => form.shown.order_value = v,
                "daily_orders" => form.shown.daily_orders = v,
                "daily_tonnes" => form.shown.daily_tonnes = v,
                "visitor_daily_orders" => form.shown.visitor_daily_orders = v,
                _ => {}
            }
        }
        form
    }

    /// The member who sent it with the session's token, and the account it
    /// is about ([`signed_in_form`], [`member_account`]).
    async fn sender(
        &self,
        state: &ConsoleState,
        req: &HttpRequest,
    ) -> Result<(MemberScope, tonne_kernel::AccountId), ConsoleError> {
        let who = signed_in_form(state, req, self.csrf.as_deref()).await?;
        member_account(state, who, &self.target).await
    }

    fn draft(&self) -> LinkDraft {
        let optional = |v: &str| Some(v.trim().to_owned()).filter(|v| !v.is_empty());
        LinkDraft {
            name: self.shown.name.trim().to_owned(),
            title: optional(&self.shown.title),
            description: optional(&self.shown.description),
            bundles: self.shown.bundles.clone(),
            value: optional(&self.shown.value),
            emails: None,
            expires_at: None,
            use_logo: true,
            require_payment: self.shown.require_payment,
            limits: self.shown.limits(),
        }
    }
}

/// Most bytes of a creation form (24 bundle ids and the texts fit easily).
const MAX_FORM_BYTES: usize = 64 * 1024;

/// `POST /console/offset-links`: creates a link on the form's account,
/// audited as the member's.
pub(super) async fn create(
    state: web::Data<ConsoleState>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ConsoleError> {
    if body.len() > MAX_FORM_BYTES {
        return Ok(respond(
            StatusCode::PAYLOAD_TOO_LARGE,
            views::message(
                "Too large",
                "This form is larger than any offset link needs.",
            ),
        ));
    }
    let form = CreateForm::parse(&body);
    let (scope, account) = form.sender(&state, &req).await?;
    let by = scope.who.actor();
    let problem = match state.links.create_as(account, form.draft(), &by).await {
        Ok(made) => {
            return Ok(see_other(&format!(
                "/console/offset-links/{}?mode={}&account={account}",
                made.link.id,
                scope.mode.as_str()
            )));
        }
        Err(LinkError::Invalid { field, reason }) => (field, format!("{reason}.")),
        Err(LinkError::BundlesSize(_)) => (
            "bundles",
            format!("Choose between 1 and {MAX_BUNDLES} bundles."),
        ),
        Err(LinkError::BundleInvalid(why)) => ("bundles", format!("{why}.")),
        // a second submit of the same form lands here too: the first made it
        Err(LinkError::NameTaken(_)) => (
            "name",
            "Another offset link of this account has this name.".to_owned(),
        ),
        Err(LinkError::NotFound) => return Ok(not_found(&scope.who)),
        Err(e @ LinkError::Unexpected(_)) => return Err(ConsoleError::unavailable(e)),
    };
    let shown = LinkForm {
        problem: Some(problem),
        ..form.shown
    };
    Ok(list_page(&state, scope, None, &shown, StatusCode::BAD_REQUEST).await)
}

#[derive(Debug, Default, serde::Deserialize)]
pub(super) struct SwitchForm {
    #[serde(flatten)]
    target: AccountTarget,
    on: Option<String>,
}

/// `POST /console/offset-links/{id}/switch`: on or off, audited as the member's.
pub(super) async fn switch(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    SignedForm(who, form): SignedForm<SwitchForm>,
) -> Result<HttpResponse, ConsoleError> {
    let (scope, account) = member_account(&state, who, &form.target).await?;
    let on = form.on.as_deref() == Some("true");
    Ok(
        match state
            .links
            .switch_as(account, &id, on, &scope.who.actor())
            .await
        {
            Ok(_) => see_other(&format!(
                "/console/offset-links/{}?mode={}&account={account}",
                id.as_str(),
                scope.mode.as_str()
            )),
            Err(LinkError::NotFound) => not_found(&scope.who),
            Err(e) => unavailable(e),
        },
    )
}

/// `POST /console/offset-links/{id}/limits`: the owner sets the page's
/// limits, audited as the member's; a refused value shows the page again
/// with the problem beside its field.
pub(super) async fn limits(
    state: web::Data<ConsoleState>,
    req: HttpRequest,
    id: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ConsoleError> {
    if body.len() > MAX_FORM_BYTES {
        return Ok(respond(
            StatusCode::PAYLOAD_TOO_LARGE,
            views::message("Too large", "This form is larger than any limits need."),
        ));
    }
    let form = CreateForm::parse(&body);
    let (scope, account) = form.sender(&state, &req).await?;
    let by = scope.who.actor();
    let problem = match state
        .links
        .set_limits_as(account, &id, form.shown.limits(), &by)
        .await
    {
        Ok(_) => {
            return Ok(see_other(&format!(
                "/console/offset-links/{}?mode={}&account={account}#limits",
                id.as_str(),
                scope.mode.as_str()
            )));
        }
        Err(LinkError::Invalid { field, reason }) => (field, format!("{reason}.")),
        Err(LinkError::NotFound) => return Ok(not_found(&scope.who)),
        Err(
            e @ (LinkError::BundlesSize(_)
            | LinkError::BundleInvalid(_)
            | LinkError::NameTaken(_)
            | LinkError::Unexpected(_)),
        ) => return Err(ConsoleError::unavailable(e)),
    };
    let shown = LinkForm {
        problem: Some(problem),
        ..form.shown
    };
    Ok(link_page(&state, scope.who, account, &id, Some(&shown)).await)
}

/// `GET /console/offset-links/{id}?account=…`: the link and its analytics.
pub(super) async fn show(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    MemberAccount(scope, account): MemberAccount,
) -> Result<HttpResponse, ConsoleError> {
    Ok(link_page(&state, scope.who, account, &id, None).await)
}

/// One link's page; with the limits form as typed (400) or its current limits (200).
async fn link_page(
    state: &ConsoleState,
    who: tonne_accounts::users::Principal,
    account: tonne_kernel::AccountId,
    id: &str,
    limits_form: Option<&LinkForm>,
) -> HttpResponse {
    let status = if limits_form.is_some() {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::OK
    };
    let link = match state.links.get(account, id).await {
        Ok(link) => link,
        Err(LinkError::NotFound) => return not_found(&who),
        Err(e) => return unavailable(e),
    };
    let analytics = match state.links.analytics(account, id).await {
        Ok(a) => a,
        Err(LinkError::NotFound) => return not_found(&who),
        Err(e) => return unavailable(e),
    };
    match tonne_http::chart::render(&analytics.daily) {
        Ok(svg) => respond(
            status,
            views::offset_link(
                &who,
                &link,
                &analytics,
                &svg,
                state.links.now(),
                limits_form,
            ),
        ),
        Err(e) => unavailable(e),
    }
}
