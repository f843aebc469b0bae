//! The operator's overview: the last 90 days of live orders (a chart drawn on
//! the server), revenue, estimates, webhook failures, and stock per bundle.

use maud::{Markup, PreEscaped, html};
use rust_decimal::Decimal;
use tonne_accounts::users::Principal;
use tonne_kernel::Mass;
use tonne_ordering::{Bundle, OrderStats};

use super::frame::page;
use super::table::{Col, table};

/// Below this, a bundle's stock is flagged (tonnes).
pub const LOW_STOCK_TONNES: i64 = 100;

/// What the overview shows.
pub struct OperatorOverview<'a> {
    pub days: u16,
    pub orders: &'a OrderStats,
    /// The chart of `orders.daily`, as SVG.
    pub chart_svg: &'a str,
    pub estimates: &'a [(time::Date, u64)],
    /// Attempts in the last 7 days, and failed ones.
    pub attempts: (u64, u64),
    pub bundles: &'a [Bundle],
}

fn stock_note(b: &Bundle) -> &'static str {
    match b.available {
        None => "",
        Some(m) if m.grams() == 0 => "Sold out",
        Some(m) if m.grams() < LOW_STOCK_TONNES * 1_000_000 => "Low stock",
        Some(_) => "",
    }
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "no attempts".to_owned();
    }
    let p = Decimal::from(part) * Decimal::from(100) / Decimal::from(whole);
    format!("{} %", p.round_dp(1))
}

/// The operator's overview.
pub fn operator_overview(who: &Principal, o: &OperatorOverview<'_>) -> Markup {
    let orders: u64 = o.orders.daily.iter().map(|d| d.orders).sum();
    let grams: i64 = o.orders.daily.iter().map(|d| d.quantity.grams()).sum();
    let estimates: u64 = o.estimates.iter().map(|(_, n)| n).sum();
    let (attempts, failed) = o.attempts;
    let low: Vec<&Bundle> = o
        .bundles
        .iter()
        .filter(|b| !stock_note(b).is_empty())
        .collect();
    page(
        who,
        "Overview",
        None,
        html! {
            p { "Signed in as " (who.user.email) ", an operator of this installation. "
                a href="/console/orders" { "Live orders waiting for action" } }
            @if !low.is_empty() {
                div class="error" role="status" {
                    p { strong { "Stock needs attention: " }
                        @for (i, b) in low.iter().enumerate() {
                            @if i > 0 { ", " }
                            a href=(format!("/console/catalogue/{}", b.id)) { (b.name) } " (" (stock_note(b).to_lowercase()) ")"
                        }
                    }
                }
            }
            h2 { "Live orders, last " (o.days) " days" }
            p { "Orders: " (orders) "; tonnes: " (Mass::from_grams(grams).to_tonnes_string()) " (cancelled and failed orders left out)." }
            figure class="chart" role="img" aria-label="Bar chart of live orders per day with a line of tonnes per day over the last 90 days." {
                (PreEscaped(o.chart_svg))
            }
            h2 { "Revenue, last " (o.days) " days" }
            @if o.orders.revenue.is_empty() {
                p { "No revenue yet." }
            } @else {
                dl class="summary" {
                    @for m in &o.orders.revenue {
                        dt { (m.currency().code()) } dd { (m.to_decimal_string()) }
                    }
                }
            }
            h2 { "Estimates" }
            p { "Estimates in the last " (o.days) " days, all accounts and modes: " (estimates) "." }
            (table(Some("Estimates per day, last 14 days (UTC)"), &[
                Col::Text("Day"), Col::Num("Estimates"),
            ], html! {
                @for (day, n) in o.estimates.iter().rev().take(14) {
                    tr { td { (day) } td class="num" { (n) } }
                }
            }))
            h2 { "Webhooks" }
            p { "Last 7 days: " (failed) " of " (attempts) " delivery attempts failed ("
                (percent(failed, attempts)) "). " a href="/console/webhooks" { "Every webhook's health" } }
            h2 { "Stock" }
            (table(Some(&format!("Stock per bundle (flagged under {LOW_STOCK_TONNES} t)")), &[
                Col::Text("Bundle"), Col::Num("Available"),
                Col::Text("State"), Col::Text("Note"),
            ], html! {
                @for b in o.bundles {
                    tr {
                        td { a href=(format!("/console/catalogue/{}", b.id)) { (b.name) } }
                        td class="num" { @match b.available { Some(m) => { (m.to_tonnes_string()) " t" } None => { "unlimited" } } }
                        td class="status" { @if b.disabled { "disabled" } @else { "on sale" } }
                        td { strong { (stock_note(b)) } }
                    }
                }
            }))
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use tonne_kernel::Mass;

    #[test]
    fn stock_is_flagged_under_the_threshold_and_when_sold_out() {
        let with = |grams: Option<i64>| Bundle {
            available: grams.map(Mass::from_grams),
            ..Bundle::sample(1, 1000)
        };
        assert_eq!(stock_note(&with(None)), "");
        assert_eq!(stock_note(&with(Some(0))), "Sold out");
        assert_eq!(stock_note(&with(Some(99_999_999))), "Low stock");
        assert_eq!(stock_note(&with(Some(100_000_000))), "");
        assert_eq!(percent(1, 3), "33.3 %");
        assert_eq!(percent(0, 0), "no attempts");
    }
}
