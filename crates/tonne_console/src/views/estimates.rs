//! A member's estimates and one estimate's explanation.

use maud::{Markup, html};
use tonne_accounts::Account;
use tonne_accounts::users::Principal;
use tonne_estimation::estimate::Estimate;
use tonne_kernel::{AccountId, AccountMode};

use super::controls::{account_chooser, mode_switch};
use super::dates::when;
use super::frame::page_in;
use super::table::{Col, table};

fn tonnes(e: &Estimate) -> String {
    e.mass
        .map_or_else(|| "—".to_owned(), |m| format!("{} t", m.to_tonnes_string()))
}

/// The estimates of one of the organisation's accounts, newest first.
pub fn estimates(
    who: &Principal,
    mode: AccountMode,
    accounts: &[Account],
    account: Option<AccountId>,
    estimates: &[Estimate],
    next: Option<&str>,
) -> Markup {
    let chosen = account.map(|a| a.to_string()).unwrap_or_default();
    page_in(
        who,
        "Estimates",
        &format!("Estimates ({})", mode.as_str()),
        None,
        html! {
            (mode_switch("/console/estimates", mode))
            @if accounts.is_empty() {
                p { "This organisation has no account in this mode." }
            } @else {
                (account_chooser("/console/estimates", mode, accounts, &chosen))
                @if estimates.is_empty() {
                    p { "No estimate on this account yet." }
                } @else {
                    (table(Some("Estimates, newest first"), &[
                        Col::Text("Estimate"), Col::Text("Kind"),
                        Col::Num("CO2e"), Col::Text("Created"),
                    ], html! {
                        @for e in estimates {
                            tr {
                                td { a href=(format!("/console/estimates/{}?mode={}&account={}", e.id, mode.as_str(), e.account_id)) { (e.id) } }
                                td { (e.kind.as_str()) }
                                td class="num" { (tonnes(e)) }
                                td { (when(e.created_at)) }
                            }
                        }
                    }))
                }
                @if let Some(after) = next {
                    p { a href=(format!("/console/estimates?mode={}&account={chosen}&after={after}", mode.as_str())) rel="next" { "Older estimates" } }
                }
            }
        },
    )
}

/// One estimate: what it is, and how its mass was computed.
pub fn estimate(who: &Principal, mode: AccountMode, e: &Estimate) -> Markup {
    page_in(
        who,
        "Estimates",
        "Estimate",
        None,
        html! {
            dl class="summary" {
                dt { "Id" } dd { (e.id) }
                dt { "Kind" } dd { (e.kind.as_str()) }
                dt { "CO2e" } dd { (tonnes(e)) }
                dt { "Account" } dd { (e.account_id) }
                dt { "Created" } dd { (when(e.created_at)) }
                @if let Some(order) = &e.order_id { dt { "Order" } dd { (order) } }
            }
            h2 { "How it was computed" }
            @for part in &e.explanation.parts {
                h3 { (part.name) ": " (part.mass.to_tonnes_string()) " t" }
                @if !part.quantities.is_empty() {
                    ul {
                        @for q in &part.quantities {
                            li { (q.name) ": " (q.amount.normalize()) " " (q.unit) " (" (q.method) ")" }
                        }
                    }
                }
                @if !part.factors.is_empty() {
                    (table(Some(&format!("Factors of {}", part.name)), &[
                        Col::Text("Factor"), Col::Num("Value"),
                        Col::Text("Unit"), Col::Text("Source"),
                    ], html! {
                        @for f in &part.factors {
                            tr {
                                td { (f.id) }
                                td class="num" { (f.value.normalize()) }
                                td { (f.unit) }
                                td {
                                    (f.source)
                                    @if let Some(row) = &f.row { "; " (row) }
                                    @if let Some(year) = f.year { " (" (year) ")" }
                                }
                            }
                        }
                    }))
                }
            }
            @if !e.explanation.notes.is_empty() {
                h2 { "Notes" }
                ul { @for n in &e.explanation.notes { li { (n) } } }
            }
            p { a href=(format!("/console/estimates?mode={}&account={}", mode.as_str(), e.account_id)) { "Back to the estimates" } }
        },
    )
}
