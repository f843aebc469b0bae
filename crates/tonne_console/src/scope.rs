//! The member pages' scope: the mode asked for, the member's organisation,
//! and the account of it a page is about.

use crate::ConsoleState;
use actix_web::HttpRequest;
use tonne_accounts::Account;
use tonne_accounts::users::Principal;
use tonne_kernel::{AccountId, AccountMode, OrganisationId};

use crate::error::ConsoleError;
use crate::session::{signed_in, signed_in_form};

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

/// The member's accounts of the mode and the one asked for (default: the
/// first), or the answer: 404 for an operator or another organisation's account.
async fn chosen_account(
    state: &ConsoleState,
    who: &Principal,
    mode: AccountMode,
    asked: Option<&str>,
) -> Result<(Vec<Account>, Option<AccountId>), ConsoleError> {
    let Some(organisation) = member_organisation(who) else {
        return Err(ConsoleError::not_found(who));
    };
    let all = match state
        .accounts
        .organisation_accounts(organisation, mode)
        .await
    {
        Ok(all) => all,
        Err(e) => return Err(ConsoleError::unavailable(e)),
    };
    let chosen = match asked.filter(|a| !a.is_empty()) {
        None => all.first().map(|a| a.id),
        Some(raw) => match raw.parse::<AccountId>() {
            Ok(id) if all.iter().any(|a| a.id == id) => Some(id),
            _ => return Err(ConsoleError::not_found(who)),
        },
    };
    Ok((all, chosen))
}

/// A member page about one account: who asks, the mode, the organisation's
/// accounts of that mode, and the one chosen (`None` when there is none).
pub(super) struct MemberScope {
    pub who: Principal,
    pub mode: AccountMode,
    pub accounts: Vec<Account>,
    pub chosen: Option<AccountId>,
}

/// The query of a member page about one account: `?mode=…&account=…&after=…`.
#[derive(Debug, Default, serde::Deserialize)]
pub(super) struct AccountPageQuery {
    pub mode: Option<String>,
    pub account: Option<String>,
    pub after: Option<String>,
}

/// The signed-in member's scope from the query, or the answer (sign in; 404
/// for an operator or an account of another organisation).
pub(super) async fn member_scope(
    state: &ConsoleState,
    req: &HttpRequest,
    query: &AccountPageQuery,
) -> Result<MemberScope, ConsoleError> {
    let who = signed_in(state, req).await?;
    let mode = mode_of(query.mode.as_deref());
    let (accounts, chosen) = chosen_account(state, &who, mode, query.account.as_deref()).await?;
    Ok(MemberScope {
        who,
        mode,
        accounts,
        chosen,
    })
}

/// The fields every member form about one account carries.
pub(super) struct AccountFormFields<'a> {
    pub csrf: Option<&'a str>,
    pub mode: Option<&'a str>,
    pub account: Option<&'a str>,
}

impl<'a> AccountFormFields<'a> {
    /// The fields of a form's `csrf`, `mode` and `account`.
    pub(super) fn of(
        csrf: &'a Option<String>,
        mode: &'a Option<String>,
        account: &'a Option<String>,
    ) -> Self {
        Self {
            csrf: csrf.as_deref(),
            mode: mode.as_deref(),
            account: account.as_deref(),
        }
    }
}

/// A member's form about one account: the session's CSRF token checked
/// first (403), then the scope as for a page, and the account (404 when the
/// organisation has none of the mode).
pub(super) async fn member_account_form(
    state: &ConsoleState,
    req: &HttpRequest,
    fields: AccountFormFields<'_>,
) -> Result<(MemberScope, AccountId), ConsoleError> {
    let who = signed_in_form(state, req, fields.csrf).await?;
    let mode = mode_of(fields.mode);
    let (accounts, chosen) = chosen_account(state, &who, mode, fields.account).await?;
    let Some(account) = chosen else {
        return Err(ConsoleError::not_found(&who));
    };
    let scope = MemberScope {
        who,
        mode,
        accounts,
        chosen,
    };
    Ok((scope, account))
}
