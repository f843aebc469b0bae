//! A member's offset links and one link's analytics.

use maud::{Markup, PreEscaped, html};
use time::OffsetDateTime;
use tonne_accounts::Account;
use tonne_accounts::users::Principal;
use tonne_kernel::{AccountId, AccountMode};
use tonne_links::{Analytics, LinkDetails};

use super::{account_chooser, mode_switch, page_in, when};

fn value(l: &LinkDetails) -> String {
    match l.link.value {
        Some(v) => format!("{} {}", v.currency().code(), v.to_decimal_string()),
        None => "chosen by the customer".to_owned(),
    }
}

/// The offset links of one of the organisation's accounts, newest first.
pub fn offset_links(
    who: &Principal,
    mode: AccountMode,
    accounts: &[Account],
    account: Option<AccountId>,
    links: &[LinkDetails],
    next: Option<&str>,
    now: OffsetDateTime,
) -> Markup {
    let chosen = account.map(|a| a.to_string()).unwrap_or_default();
    page_in(
        who,
        "Offset links",
        &format!("Offset links ({})", mode.as_str()),
        None,
        html! {
            (mode_switch("/console/offset-links", mode))
            @if accounts.is_empty() {
                p { "This organisation has no account in this mode." }
            } @else {
                (account_chooser("/console/offset-links", mode, accounts, &chosen))
                @if links.is_empty() {
                    p { "No offset link on this account. Create one with the API (" code { "POST /v1/offset-links" } ")." }
                } @else {
                    div class="table-wrap" {
                        table {
                            caption class="hint" { "Offset links, newest first" }
                            thead { tr {
                                th scope="col" { "Name" } th scope="col" { "Status" }
                                th scope="col" { "Value" } th scope="col" { "Created" }
                                th scope="col" { "Page" }
                            } }
                            tbody {
                                @for l in links {
                                    tr {
                                        td { a href=(format!("/console/offset-links/{}?mode={}&account={}", l.link.id, mode.as_str(), l.link.account_id)) { (l.link.name) } }
                                        td class="status" { (l.link.status(now).as_str()) }
                                        td { (value(l)) }
                                        td { (when(l.link.created_at)) }
                                        td { a href=(format!("/l/{}", l.link.id)) { "Open" span class="visually-hidden" { " the page of " (l.link.name) } } }
                                    }
                                }
                            }
                        }
                    }
                }
                @if let Some(after) = next {
                    p { a href=(format!("/console/offset-links?mode={}&account={chosen}&after={after}", mode.as_str())) rel="next" { "Older links" } }
                }
            }
        },
    )
}

/// One link: what it offers, and its analytics.
pub fn offset_link(
    who: &Principal,
    l: &LinkDetails,
    a: &Analytics,
    chart_svg: &str,
    now: OffsetDateTime,
) -> Markup {
    let mode = l.link.mode.as_str();
    page_in(
        who,
        "Offset links",
        &l.link.name,
        None,
        html! {
            dl class="summary" {
                dt { "Status" } dd { (l.link.status(now).as_str()) }
                dt { "Value" } dd { (value(l)) }
                dt { "Bundles" } dd { @for (i, b) in l.bundles.iter().enumerate() { @if i > 0 { ", " } (b.bundle.name) } }
                dt { "Page" } dd { a href=(format!("/l/{}", l.link.id)) { "/l/" (l.link.id) } }
                dt { "Unique visitors (per day)" } dd { (a.unique_visitors) }
                dt { "Placed orders" } dd { (a.placed_orders) }
            }
            h2 { "Orders and tonnes per day" }
            figure class="chart" role="img" aria-label="Bar chart of orders per day with a line of tonnes per day; the table below has the same figures." {
                (PreEscaped(chart_svg))
            }
            div class="table-wrap" {
                table {
                    caption class="hint" { "Per day (UTC)" }
                    thead { tr {
                        th scope="col" { "Day" } th scope="col" class="num" { "Visitors" }
                        th scope="col" class="num" { "Orders" } th scope="col" class="num" { "Tonnes" }
                    } }
                    tbody {
                        @for d in &a.daily {
                            tr { td { (d.day) } td class="num" { (d.visitors) } td class="num" { (d.orders) } td class="num" { (d.quantity.to_tonnes_string()) } }
                        }
                    }
                }
            }
            p { a href=(format!("/console/offset-links?mode={mode}&account={}", l.link.account_id)) { "Back to the offset links" } }
        },
    )
}
