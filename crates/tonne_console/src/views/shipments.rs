//! A member's shipments: the list with its filters (mode, account, search,
//! dates, transport modes, flagged), newest first.

use maud::{Markup, html};
use tonne_accounts::Account;
use tonne_accounts::users::Principal;
use tonne_kernel::{AccountId, AccountMode};
use tonne_shipments::{Carriage, Shipment, ShipmentCounts, TransportMode};

use super::controls::{account_chooser, mode_switch, url_query};
use super::dates::when;
use super::frame::page_in;
use super::shipment_figures::{SECTION, mode_name, phase_name, scope_query, subnav, total};
use super::table::{Col, table};

/// What the list's filter form held (as typed), to draw it again.
#[derive(Debug, Default, Clone)]
pub struct ShipmentFilterForm {
    pub search: String,
    pub date_from: String,
    pub date_to: String,
    /// The modes chosen per phase (pre, main, on), by wire name.
    pub modes: [Vec<String>; 3],
    pub batch: String,
    /// `""`, `"true"` or `"false"`.
    pub flagged: String,
    /// `""`/`"all"`, `"with_co2e"` or `"without_co2e"`.
    pub emissions: String,
    /// Why the filter could not be used.
    pub problem: Option<String>,
}

impl ShipmentFilterForm {
    /// The filter as query pairs (for the next page's link).
    pub fn query(&self) -> Vec<(String, String)> {
        let mut q = vec![
            ("search".to_owned(), self.search.clone()),
            ("date_from".to_owned(), self.date_from.clone()),
            ("date_to".to_owned(), self.date_to.clone()),
            ("batch".to_owned(), self.batch.clone()),
            ("flagged".to_owned(), self.flagged.clone()),
            ("emissions".to_owned(), self.emissions.clone()),
        ];
        for (c, chosen) in Carriage::ALL.iter().zip(&self.modes) {
            for m in chosen {
                q.push((c.as_str().to_owned(), m.clone()));
            }
        }
        q.retain(|(_, v)| !v.is_empty());
        q
    }
}

fn modes_of(s: &Shipment, c: Carriage) -> String {
    let modes: Vec<_> = s
        .facets
        .modes
        .get(c.index())
        .map(|set| set.modes())
        .unwrap_or_default()
        .into_iter()
        .map(mode_name)
        .collect();
    if modes.is_empty() {
        "—".to_owned()
    } else {
        modes.join(", ")
    }
}

/// The account's shipments the filter selects, newest first.
#[allow(clippy::too_many_arguments)]
pub fn shipments(
    who: &Principal,
    mode: AccountMode,
    accounts: &[Account],
    account: Option<AccountId>,
    form: &ShipmentFilterForm,
    found: &[Shipment],
    counts: Option<ShipmentCounts>,
    next: Option<&str>,
) -> Markup {
    let chosen = account.map(|a| a.to_string()).unwrap_or_default();
    let next_href = next.zip(account).map(|(after, account)| {
        let mut q = form.query();
        q.push(("after".to_owned(), after.to_owned()));
        let pairs: Vec<(&str, &str)> = q.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        format!(
            "/console/shipments?{}&{}",
            scope_query(mode, account),
            url_query(&pairs)
        )
    });
    let report_href = account.filter(|_| form.problem.is_none()).map(|account| {
        let q = form.query();
        let pairs: Vec<(&str, &str)> = q.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        format!(
            "/console/shipments/report?{}&{}",
            scope_query(mode, account),
            url_query(&pairs)
        )
    });
    page_in(
        who,
        SECTION,
        &format!("Shipments ({})", mode.as_str()),
        form.problem.as_deref(),
        html! {
            (mode_switch("/console/shipments", mode))
            (subnav(mode, account, "Shipments"))
            @if accounts.is_empty() {
                p { "This organisation has no account in this mode." }
            } @else {
                (account_chooser("/console/shipments", mode, accounts, &chosen))
                (filter_form(mode, &chosen, form))
                @if let Some(c) = counts {
                    p role="status" {
                        (c.all) " shipments match: " (c.with_co2e) " with emissions, "
                        (c.without_co2e) " without."
                    }
                }
                @if let Some(href) = &report_href {
                    p {
                        "ISO 14083 report of the shipments this filter selects: "
                        a href=(format!("{href}&format=csv")) download { "CSV (a line per leg)" }
                        " · "
                        a href=(format!("{href}&format=pdf")) { "PDF (the summary)" }
                    }
                }
                @if found.is_empty() {
                    p { "No shipment matches." }
                } @else if let Some(account) = account {
                    (table(Some("Shipments, newest first"), &[
                        Col::Text("Shipment"), Col::Text("Supplier"),
                        Col::Text("Date"), Col::Text("Main carriage"),
                        Col::Num("CO2e (well-to-wheel)"),
                        Col::Text("Flagged"), Col::Text("Created"),
                    ], html! {
                        @for s in found {
                            tr {
                                td {
                                    a href=(format!("/console/shipments/{}?{}", s.id, scope_query(mode, account))) {
                                        @if s.facets.reference.is_empty() { (s.id) } @else { (s.facets.reference) }
                                    }
                                }
                                td { (s.supplier.name) }
                                td { @match s.facets.shipment_date { Some(d) => { (d) } None => { "—" } } }
                                td { (modes_of(s, Carriage::Main)) }
                                td class="num" { (total(s)) }
                                td { @if s.emissions.as_ref().is_some_and(|e| e.flagged) { "flagged" } @else { "no" } }
                                td { (when(s.created_at)) }
                            }
                        }
                    }))
                    @if let Some(href) = &next_href {
                        p { a href=(href) rel="next" { "Older shipments" } }
                    }
                }
            }
        },
    )
}

fn filter_form(mode: AccountMode, account: &str, form: &ShipmentFilterForm) -> Markup {
    let described = form.problem.as_ref().map(|_| "filter-problem");
    html! {
        h2 { "Filter" }
        form method="get" action="/console/shipments" aria-describedby=[described] {
            input type="hidden" name="mode" value=(mode.as_str());
            input type="hidden" name="account" value=(account);
            @if let Some(p) = &form.problem { p class="error" id="filter-problem" { (p) } }
            div class="filters" {
                div class="field" {
                    label for="search" { "Shipment id" }
                    input type="text" id="search" name="search" value=(form.search) maxlength="255";
                }
                div class="field" {
                    label for="date_from" { "Shipment date from" }
                    input type="date" id="date_from" name="date_from" value=(form.date_from);
                }
                div class="field" {
                    label for="date_to" { "Shipment date to" }
                    input type="date" id="date_to" name="date_to" value=(form.date_to);
                }
                div class="field" {
                    label for="batch" { "Batch id" }
                    input type="text" id="batch" name="batch" value=(form.batch) maxlength="64" spellcheck="false";
                }
                div class="field" {
                    label for="flagged" { "Flagged legs" }
                    select id="flagged" name="flagged" {
                        option value="" selected[form.flagged.is_empty()] { "Any" }
                        option value="true" selected[form.flagged == "true"] { "With a flagged leg" }
                        option value="false" selected[form.flagged == "false"] { "Without" }
                    }
                }
                div class="field" {
                    label for="emissions" { "Emissions" }
                    select id="emissions" name="emissions" {
                        option value="all" selected[form.emissions.is_empty() || form.emissions == "all"] { "All" }
                        option value="with_co2e" selected[form.emissions == "with_co2e"] { "Calculated" }
                        option value="without_co2e" selected[form.emissions == "without_co2e"] { "Not calculated" }
                    }
                }
            }
            div class="filters" {
                @for (c, chosen) in Carriage::ALL.iter().zip(&form.modes) {
                    fieldset class="field modes" {
                        legend { (phase_name(*c)) " by" }
                        @for m in TransportMode::ALL {
                            @let id = format!("{}-{}", c.as_str(), m.as_str());
                            div class="check" {
                                input type="checkbox" id=(id) name=(c.as_str()) value=(m.as_str())
                                    checked[chosen.iter().any(|x| x == m.as_str())];
                                label for=(id) { (mode_name(m)) }
                            }
                        }
                    }
                }
            }
            button type="submit" { "Filter" }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_keeps_every_chosen_value_for_the_next_page() {
        let form = ShipmentFilterForm {
            search: "PO".into(),
            modes: [vec![], vec!["sea".into(), "rail".into()], vec![]],
            flagged: "true".into(),
            ..ShipmentFilterForm::default()
        };
        assert_eq!(
            form.query(),
            [
                ("search".to_owned(), "PO".to_owned()),
                ("flagged".to_owned(), "true".to_owned()),
                ("main".to_owned(), "sea".to_owned()),
                ("main".to_owned(), "rail".to_owned()),
            ]
        );
    }
}
