//! What every page of the shipments section shares: its name, its
//! sub-navigation and the query it keeps, and the figures written the same
//! way on each (kg CO2e, intensity, transport modes and phases, a total).

use maud::{Markup, html};
use rust_decimal::Decimal;
use tonne_kernel::{AccountId, AccountMode, Mass};
use tonne_shipments::{Carriage, Shipment, Totals, TransportMode};

pub(super) const SECTION: &str = "Shipments";

/// The query every shipments page keeps: the mode and the account.
pub(super) fn scope_query(mode: AccountMode, account: AccountId) -> String {
    format!("mode={}&account={account}", mode.as_str())
}

/// The three pages of the section, the current one marked.
pub(super) fn subnav(mode: AccountMode, account: Option<AccountId>, current: &str) -> Markup {
    let q = account
        .map(|a| format!("?{}", scope_query(mode, a)))
        .unwrap_or_else(|| format!("?mode={}", mode.as_str()));
    let links = [
        ("Shipments", "/console/shipments"),
        ("Batches and data sheets", "/console/shipments/batches"),
    ];
    html! {
        nav aria-label="Shipments" {
            ul class="subnav" {
                @for (name, href) in links {
                    li {
                        @if name == current {
                            a href=(format!("{href}{q}")) aria-current="page" { (name) }
                        } @else {
                            a href=(format!("{href}{q}")) { (name) }
                        }
                    }
                }
            }
        }
    }
}

/// A mass as kg CO2e, to the gram.
pub(super) fn kg(m: Mass) -> String {
    format!("{} kg", Decimal::new(m.grams(), 3).normalize())
}

/// Grams CO2e per tonne-km of some totals, when any activity.
pub(super) fn intensity(t: &Totals) -> String {
    t.intensity_g_per_tkm(Totals::total).map_or_else(
        || "—".to_owned(),
        |g| format!("{} g/t·km", g.round_dp(3).normalize()),
    )
}

pub(super) fn mode_name(m: TransportMode) -> &'static str {
    match m {
        TransportMode::Road => "road",
        TransportMode::Sea => "sea",
        TransportMode::Air => "air",
        TransportMode::Rail => "rail",
        TransportMode::InlandWaterway => "inland waterway",
    }
}

pub(super) fn phase_name(c: Carriage) -> &'static str {
    match c {
        Carriage::Pre => "Pre-carriage",
        Carriage::Main => "Main carriage",
        Carriage::On => "On-carriage",
    }
}

/// A shipment's total well-to-wheel CO2e, or why there is none.
pub(super) fn total(s: &Shipment) -> String {
    s.emissions
        .as_ref()
        .map_or_else(|| "not calculated".to_owned(), |e| kg(e.total.total()))
}
