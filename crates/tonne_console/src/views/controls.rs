//! The member pages' controls: the live/test switch, the account chooser,
//! the query string of a filtered list's links, and a form's one-time key
//! and hidden fields.

use maud::{Markup, html};

/// Live/test switch of the member pages.
pub(crate) fn mode_switch(path: &str, mode: tonne_kernel::AccountMode) -> Markup {
    let other = mode.other();
    html! {
        p { "Showing " strong { (mode.as_str()) } " mode. "
            a href=(format!("{path}?mode={}", other.as_str())) { "Show " (other.as_str()) " mode" } }
    }
}

/// The member pages' account chooser: a GET form naming `path`, the mode
/// kept, the organisation's accounts (client accounts marked), `chosen` selected.
pub(crate) fn account_chooser(
    path: &str,
    mode: tonne_kernel::AccountMode,
    accounts: &[tonne_accounts::Account],
    chosen: &str,
) -> Markup {
    html! {
        form method="get" action=(path) class="filters" {
            input type="hidden" name="mode" value=(mode.as_str());
            div class="field" {
                label for="account" { "Account" }
                select id="account" name="account" {
                    @for a in accounts {
                        option value=(a.id) selected[a.id.to_string() == chosen] {
                            (a.name.as_str())
                            @if a.scope == tonne_accounts::AccountScope::ClientAccount { " (client account)" }
                        }
                    }
                }
            }
            div class="field" { button type="submit" { "Show" } }
        }
    }
}

/// A query string of the non-empty pairs, each value URL-encoded.
pub(crate) fn url_query(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| {
            format!(
                "{k}={}",
                url::form_urlencoded::byte_serialize(v.as_bytes()).collect::<String>()
            )
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// A fresh one-time key for a form that creates or changes something (the
/// handler claims it on submit, so that the form acts once).
pub(crate) fn once_key() -> String {
    tonne_accounts::users::FormKey::generate()
        .as_str()
        .to_owned()
}

/// The hidden fields of a member's form that acts once in `mode`: the
/// session's CSRF token, a fresh [`once_key`] and the mode.
pub(crate) fn once_in_mode(
    who: &tonne_accounts::users::Principal,
    mode: tonne_kernel::AccountMode,
) -> Markup {
    html! {
        input type="hidden" name="csrf" value=(who.session.csrf_token);
        input type="hidden" name="once" value=(once_key());
        input type="hidden" name="mode" value=(mode.as_str());
    }
}
