//! A member's PACT credentials.

use maud::{Markup, html};
use tonne_accounts::Account;
use tonne_accounts::pact::{CreatedClient, PactClient};
use tonne_accounts::users::Principal;
use tonne_kernel::{AccountId, AccountMode};

use super::controls::{account_chooser, mode_switch};
use super::dates::when;
use super::frame::page_in;
use super::table::{Col, table};

/// The chosen account's PACT credentials, with create and revoke.
pub fn pact_clients(
    who: &Principal,
    mode: AccountMode,
    accounts: &[Account],
    chosen: Option<AccountId>,
    clients: &[PactClient],
    problem: Option<&str>,
) -> Markup {
    let chosen = chosen.map(|a| a.to_string()).unwrap_or_default();
    page_in(
        who,
        "PACT",
        &format!("PACT credentials ({})", mode.as_str()),
        problem,
        html! {
            (mode_switch("/console/pact", mode))
            p {
                "Another system (a customer's, a carrier's) reads this account's shipment footprints over "
                "the PACT Data Exchange Protocol with these OAuth 2 client credentials: token at "
                code { "/pact/auth/token" } ", footprints at " code { "/pact/2/footprints" } "."
            }
            @if accounts.is_empty() {
                p { "This organisation has no account in this mode." }
            } @else {
                (account_chooser("/console/pact", mode, accounts, &chosen))
                @if clients.is_empty() {
                    p { "No credentials for this account." }
                } @else {
                    (table(None, &[
                        Col::Text("Name"), Col::Text("client_id"),
                        Col::Text("Created"), Col::Text("State"),
                        Col::Hidden("Action"),
                    ], html! {
                        @for c in clients {
                            tr {
                                td { (c.label) }
                                td { code { (c.id) } }
                                td { (when(c.created_at)) }
                                td { @if let Some(at) = c.revoked_at { "revoked " (when(at)) } @else { "active" } }
                                td {
                                    @if c.revoked_at.is_none() {
                                        form method="post" action=(format!("/console/pact/{}/revoke", c.id)) {
                                            input type="hidden" name="csrf" value=(who.session.csrf_token);
                                            input type="hidden" name="mode" value=(mode.as_str());
                                            input type="hidden" name="account" value=(chosen);
                                            button type="submit" class="danger" aria-label=(format!("Revoke {}", c.label)) { "Revoke" }
                                        }
                                    }
                                }
                            }
                        }
                    }))
                }
                h2 { "Create credentials" }
                form method="post" action="/console/pact" {
                    (super::controls::once_in_mode(who, mode))
                    input type="hidden" name="account" value=(chosen);
                    div class="field" {
                        label for="label" { "Given to" }
                        input type="text" id="label" name="label" required maxlength="100" autocomplete="off";
                    }
                    p class="hint" { "The secret is shown once. Revoking ends its tokens at once." }
                    button type="submit" { "Create credentials" }
                }
            }
        },
    )
}

/// The page right after creating credentials: the only time the secret is shown.
pub fn created_pact_client(who: &Principal, mode: AccountMode, created: &CreatedClient) -> Markup {
    page_in(
        who,
        "PACT",
        "Your new PACT credentials",
        None,
        html! {
            p class="notice" { "Copy the secret now: it is not shown again. Only its hash is stored." }
            div class="field" {
                label for="client_id" { "client_id" }
                input type="text" id="client_id" readonly value=(created.client.id) spellcheck="false" autocomplete="off";
            }
            div class="field" {
                label for="secret" { "client_secret" }
                input type="text" id="secret" readonly value=(created.secret.expose()) spellcheck="false" autocomplete="off";
            }
            p { a href=(format!("/console/pact?mode={}&account={}", mode.as_str(), created.client.account_id)) { "Back to the PACT credentials" } }
        },
    )
}
