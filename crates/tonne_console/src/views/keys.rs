//! A member's API keys.

use maud::{Markup, html};
use tonne_accounts::users::Principal;
use tonne_accounts::{ApiKey, CreatedKey};
use tonne_kernel::AccountMode;

use super::controls::mode_switch;
use super::dates::{human_hour, when};
use super::frame::page_in;
use super::table::{Col, table};

/// The organisation's keys of one mode, with create and revoke.
pub fn keys(who: &Principal, mode: AccountMode, keys: &[ApiKey], problem: Option<&str>) -> Markup {
    page_in(
        who,
        "API keys",
        &format!("API keys ({})", mode.as_str()),
        problem,
        html! {
            (mode_switch("/console/keys", mode))
            @if keys.is_empty() {
                p { "No key in this mode." }
            } @else {
                (table(None, &[
                    Col::Text("Key"), Col::Text("Account"),
                    Col::Text("Created"), Col::Text("Last used"), Col::Text("State"),
                    Col::Hidden("Action"),
                ], html! {
                    @for k in keys {
                        tr {
                            td { code { (k.display_prefix) "…" } }
                            td { (k.account_id) }
                            td { (when(k.created_at)) }
                            td { @match k.last_used_at { Some(at) => { (human_hour(at)) } None => { "never" } } }
                            td {
                                @if let Some(at) = k.revoked_at { "revoked " (when(at)) } @else { "active" }
                            }
                            td {
                                @if k.revoked_at.is_none() {
                                    form method="post" action=(format!("/console/keys/{}/revoke", k.id)) {
                                        input type="hidden" name="csrf" value=(who.session.csrf_token);
                                        button type="submit" class="danger" aria-label=(format!("Revoke {}…", k.display_prefix)) { "Revoke" }
                                    }
                                }
                            }
                        }
                    }
                }))
            }
            h2 { "Create a key" }
            form method="post" action="/console/keys" {
                (super::controls::once_in_mode(who, mode))
                p class="hint" { "The key acts as the organisation's first " (mode.as_str()) " account. Its secret is shown once." }
                button type="submit" { "Create a " (mode.as_str()) " key" }
            }
        },
    )
}

/// The page right after creating a key: the only time its secret is shown.
pub fn created_key(who: &Principal, key: &CreatedKey) -> Markup {
    page_in(
        who,
        "API keys",
        "Your new API key",
        None,
        html! {
            p class="notice" { "Copy the key now: it is not shown again. Only its hash is stored." }
            div class="field" {
                label for="secret" { "API key (" (key.mode.as_str()) ")" }
                input type="text" id="secret" readonly value=(key.secret.expose()) spellcheck="false" autocomplete="off";
            }
            p { a href=(format!("/console/keys?mode={}", key.mode.as_str())) { "Back to the API keys" } }
        },
    )
}
