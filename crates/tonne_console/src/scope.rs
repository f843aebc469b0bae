//! The member pages' scope: the mode asked for, the member's organisation,
//! and the account of it a page is about.

use crate::ConsoleState;
use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use tonne_accounts::Account;
use tonne_accounts::users::Principal;
use tonne_kernel::{AccountId, AccountMode, OrganisationId};

use crate::error::ConsoleError;
use crate::session::{Extracted, SignedIn, state_of};

/// `?mode=live|test` of the member pages (default live; anything else is live too).
pub(super) fn mode_of(raw: Option<&str>) -> AccountMode {
    match raw {
        Some("test") => AccountMode::Test,
        _ => AccountMode::Live,
    }
}

/// The member's organisation; `None` for an operator (the member pages
/// answer operators 404).
pub(super) fn member_organisation(who: &Principal) -> Option<OrganisationId> {
    who.user.role.organisation()
}

/// A member page about one account: who asks, the mode, the organisation's
/// accounts of that mode, and the one chosen (`None` when there is none).
pub(super) struct MemberScope {
    pub who: Principal,
    pub mode: AccountMode,
    pub accounts: Vec<Account>,
    pub chosen: Option<AccountId>,
}

/// The member's accounts of the mode asked for and the account asked for
/// (default: the first), or the answer: 404 for an operator or another
/// organisation's account.
async fn scope_of(
    state: &ConsoleState,
    who: Principal,
    mode: Option<&str>,
    asked: Option<&str>,
) -> Result<MemberScope, ConsoleError> {
    let mode = mode_of(mode);
    let Some(organisation) = member_organisation(&who) else {
        return Err(ConsoleError::not_found(&who));
    };
    let accounts = match state
        .accounts
        .organisation_accounts(organisation, mode)
        .await
    {
        Ok(all) => all,
        Err(e) => return Err(ConsoleError::unavailable(e)),
    };
    let chosen = match asked.filter(|a| !a.is_empty()) {
        None => accounts.first().map(|a| a.id),
        Some(raw) => match raw.parse::<AccountId>() {
            Ok(id) if accounts.iter().any(|a| a.id == id) => Some(id),
            _ => return Err(ConsoleError::not_found(&who)),
        },
    };
    Ok(MemberScope {
        who,
        mode,
        accounts,
        chosen,
    })
}

/// The account a member's page or form is about: its `mode` and `account`.
#[derive(Debug, Default, serde::Deserialize)]
pub(super) struct AccountTarget {
    pub mode: Option<String>,
    pub account: Option<String>,
}

/// The query of a member page about one account: `?mode=…&account=…&after=…`.
#[derive(Debug, Default, serde::Deserialize)]
pub(super) struct AccountPageQuery {
    #[serde(flatten)]
    pub target: AccountTarget,
    pub after: Option<String>,
}

/// The signed-in member's scope for the account a page or form names, or
/// the answer (404 for an operator or an account of another organisation).
pub(super) async fn member_scope(
    state: &ConsoleState,
    who: Principal,
    target: &AccountTarget,
) -> Result<MemberScope, ConsoleError> {
    scope_of(
        state,
        who,
        target.mode.as_deref(),
        target.account.as_deref(),
    )
    .await
}

/// The member's scope ([`member_scope`]) and the account, which a form
/// about one must have ([`with_account`]); its sender is checked already.
pub(super) async fn member_account(
    state: &ConsoleState,
    who: Principal,
    target: &AccountTarget,
) -> Result<(MemberScope, AccountId), ConsoleError> {
    with_account(member_scope(state, who, target).await?)
}

/// The scope and its account, which a page or form about one must have (404
/// when the organisation has none of the mode).
fn with_account(scope: MemberScope) -> Result<(MemberScope, AccountId), ConsoleError> {
    match scope.chosen {
        Some(account) => Ok((scope, account)),
        None => Err(ConsoleError::not_found(&scope.who)),
    }
}

/// A member page about one account as a handler's argument (its last): the
/// page's query (read as `web::Query` reads it), then the signed-in member
/// (else the sign-in page), then the scope ([`member_scope`]).
pub(crate) struct MemberPage(pub MemberScope, pub AccountPageQuery);

impl FromRequest for MemberPage {
    type Error = actix_web::Error;
    type Future = Extracted<Self>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let query = web::Query::<AccountPageQuery>::from_request(req, payload);
        let who = SignedIn::from_request(req, payload);
        let req = req.clone();
        Box::pin(async move {
            let query = query.await?.into_inner();
            let SignedIn(who) = who.await?;
            let scope = member_scope(state_of(&req)?, who, &query.target).await?;
            Ok(Self(scope, query))
        })
    }
}

/// A member page that must have an account ([`MemberPage`], then
/// [`member_account`]'s 404 when the organisation has none of the mode).
pub(crate) struct MemberAccount(pub MemberScope, pub AccountId);

impl FromRequest for MemberAccount {
    type Error = actix_web::Error;
    type Future = Extracted<Self>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let page = MemberPage::from_request(req, payload);
        Box::pin(async move {
            let MemberPage(scope, _) = page.await?;
            let (scope, account) = with_account(scope)?;
            Ok(Self(scope, account))
        })
    }
}
