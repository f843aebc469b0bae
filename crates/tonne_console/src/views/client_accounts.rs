//! A member's client accounts: the organisation's client accounts of one
//! mode with their activity, and the form that creates one.

use maud::{Markup, html};
use tonne_accounts::users::Principal;
use tonne_accounts::{Account, AccountActivity};
use tonne_kernel::{AccountMode, Currency};

use super::controls::mode_switch;
use super::dates::when;
use super::frame::page_in;
use super::table::{Col, table};

/// What the creation form held, to show it again with its problems, and the
/// form's once-only key (a second submit of the same form creates nothing).
#[derive(Debug, Default, Clone)]
pub struct ClientAccountForm {
    pub name: String,
    pub currency: String,
    pub beneficiary: String,
    pub once: String,
    pub name_problem: Option<String>,
    pub currency_problem: Option<String>,
    pub beneficiary_problem: Option<String>,
}

impl ClientAccountForm {
    fn has_problem(&self) -> bool {
        self.name_problem.is_some()
            || self.currency_problem.is_some()
            || self.beneficiary_problem.is_some()
    }
}

/// A form field's problem beside it.
fn problem(id: &str, text: Option<&String>) -> Markup {
    html! {
        @if let Some(t) = text { p class="error" id=(id) { (t) } }
    }
}

/// The page: the list (oldest first, by cursor) and the creation form.
pub fn client_accounts(
    who: &Principal,
    mode: AccountMode,
    clients: &[(Account, AccountActivity)],
    next: Option<&str>,
    created: Option<&str>,
    form: &ClientAccountForm,
) -> Markup {
    let m = mode.as_str();
    let summary = form
        .has_problem()
        .then_some("The client account was not created: see the fields below.");
    page_in(
        who,
        "Overview",
        &format!("Client accounts ({m})"),
        summary,
        html! {
            @if let Some(name) = created {
                p class="notice" role="status" { "Client account " strong { (name) } " created." }
            }
            (mode_switch("/console/client-accounts", mode))
            p { "Client accounts hold the estimates and orders you make for your own customers. API keys of your organisation act as one with the " code { "Lune-Account" } " header." }
            @if clients.is_empty() {
                p { "No client account in this mode yet." }
            } @else {
                (table(Some("Client accounts, oldest first"), &[
                    Col::Text("Name"), Col::Text("Id"), Col::Text("Currency"),
                    Col::Num("Estimates"), Col::Num("Estimated (t CO2e)"),
                    Col::Text("Last estimate"), Col::Text("Created"),
                ], html! {
                    @for (a, activity) in clients {
                        tr {
                            td { (a.name.as_str()) }
                            td { code { (a.id) } }
                            td { (a.currency.code()) }
                            td class="num" {
                                a href=(format!("/console/estimates?mode={m}&account={}", a.id)) {
                                    (activity.number_of_estimates)
                                    span class="visually-hidden" { " estimates of " (a.name.as_str()) }
                                }
                            }
                            td class="num" { (activity.total_emissions.to_tonnes_string()) }
                            td { @match activity.last_active { Some(t) => (when(t)), None => "none" } }
                            td { (when(a.created_at)) }
                        }
                    }
                }))
                @if let Some(after) = next {
                    p { a href=(format!("/console/client-accounts?mode={m}&after={after}")) rel="next" { "More client accounts" } }
                }
            }
            h2 { "Create a client account" }
            form method="post" action="/console/client-accounts" {
                input type="hidden" name="csrf" value=(who.session.csrf_token);
                input type="hidden" name="mode" value=(m);
                input type="hidden" name="once" value=(form.once);
                div class="field" {
                    label for="name" { "Name" }
                    (problem("name-error", form.name_problem.as_ref()))
                    input type="text" id="name" name="name" value=(form.name) required maxlength="255"
                        autocomplete="organization"
                        aria-invalid=[form.name_problem.as_ref().map(|_| "true")]
                        aria-describedby=[form.name_problem.as_ref().map(|_| "name-error")];
                }
                div class="field" {
                    label for="currency" { "Currency" }
                    (problem("currency-error", form.currency_problem.as_ref()))
                    select id="currency" name="currency"
                        aria-describedby=[form.currency_problem.as_ref().map(|_| "currency-error")] {
                        @for c in Currency::ALL {
                            option value=(c.code()) selected[form.currency == c.code()] { (c.code()) }
                        }
                    }
                }
                div class="field" {
                    label for="beneficiary" { "Beneficiary (optional)" }
                    p class="hint" id="beneficiary-hint" { "The name certificates of this account's orders show." }
                    (problem("beneficiary-error", form.beneficiary_problem.as_ref()))
                    input type="text" id="beneficiary" name="beneficiary" value=(form.beneficiary) maxlength="255"
                        aria-describedby=(if form.beneficiary_problem.is_some() { "beneficiary-hint beneficiary-error" } else { "beneficiary-hint" });
                }
                button type="submit" { "Create client account" }
            }
        },
    )
}
