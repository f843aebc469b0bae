//! The member's impact page.

use maud::{Markup, html};
use tonne_accounts::Account;
use tonne_accounts::users::Principal;
use tonne_impact::{Aggregates, Figures, Metrics, SustainabilityPage};
use tonne_kernel::{AccountId, AccountMode};

use super::controls::{account_chooser, mode_switch};
use super::frame::page_in;
use super::table::{Col, table};

/// What the impact page shows.
pub struct ImpactPage<'a> {
    /// The mode shown.
    pub mode: AccountMode,
    /// The organisation's accounts of the mode.
    pub accounts: &'a [Account],
    /// The one chosen.
    pub account: Option<AccountId>,
    /// Its orders of the last 30 days, by property.
    pub aggregates: Option<&'a Aggregates>,
    /// The projects and goals of those orders.
    pub metrics: Option<&'a Metrics>,
    /// Its sustainability page, if it has one.
    pub page: Option<&'a SustainabilityPage>,
    /// The public page's address.
    pub page_url: Option<&'a str>,
}

fn figures_rows<'a>(rows: impl Iterator<Item = (String, &'a Figures)>) -> Markup {
    html! {
        @for (name, f) in rows {
            tr {
                th scope="row" { (name) }
                td class="num" { (f.quantity.to_tonnes_string()) }
                td class="num" { (f.value.currency().code()) " " (f.value.to_decimal_string()) }
            }
        }
    }
}

/// A table of figures: `label` names the rows' column.
fn figures_table(caption: &str, label: &str, body: Markup) -> Markup {
    let columns = [Col::Text(label), Col::Num("Tonnes CO₂e"), Col::Num("Value")];
    table(Some(caption), &columns, body)
}

/// The page.
pub fn impact(who: &Principal, page: &ImpactPage<'_>) -> Markup {
    let chosen = page.account.map(|a| a.to_string()).unwrap_or_default();
    page_in(
        who,
        "Impact",
        &format!("Impact ({})", page.mode.as_str()),
        None,
        html! {
            (mode_switch("/console/impact", page.mode))
            @if page.accounts.is_empty() {
                p { "This organisation has no account in this mode." }
            } @else {
                (account_chooser("/console/impact", page.mode, page.accounts, &chosen))
                h2 { "Sustainability page" }
                @match (page.page, page.page_url) {
                    (Some(p), Some(url)) => {
                        p {
                            "Slug " code { (p.settings.slug.as_str()) } ", " (p.settings.status.as_str()) ". "
                            a href=(url) { "Open the public page" }
                        }
                        p class="hint" { "The public sees it while it is enabled and the account's external pages are public (PATCH /v1/accounts/{id} with external_pages_visibility). Change it with PUT /v1/sustainability-pages." }
                    }
                    _ => {
                        p { "This account has no sustainability page yet. Create one with POST /v1/sustainability-pages." }
                    }
                }
                h2 { "The last 30 days" }
                p class="hint" { "Orders not cancelled or failed, by the day they were placed (UTC); the same figures as GET /v1/analytics/aggregated-by-property." }
                @if let Some(m) = page.metrics {
                    p { (m.number_of_projects) " projects funded, serving " (m.un_sdg.len()) " UN Sustainable Development Goals." }
                }
                @if let Some(a) = page.aggregates {
                    @if a.bundle.is_empty() {
                        p { "No order in the last 30 days." }
                    } @else {
                        (figures_table("By bundle", "Bundle", figures_rows(a.bundle.iter().map(|(_, name, f)| (name.clone(), f)))))
                        (figures_table("By continent", "Continent", figures_rows(a.location.iter().map(|(l, f)| (l.as_str().to_owned(), f)))))
                        (figures_table("By registry", "Registry", figures_rows(a.registry.iter().map(|(r, f)| (r.as_str().to_owned(), f)))))
                    }
                }
            }
        },
    )
}
