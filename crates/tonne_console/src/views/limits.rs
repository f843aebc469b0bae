//! Limits per account: each organisation's limits in force and its
//! accounts' usage against them (operators: every organisation, members:
//! their own), and the operators' form that changes an organisation's.

use maud::{Markup, html};
use tonne_accounts::quotas::{AccountUsage, OrganisationQuotas};
use tonne_accounts::users::Principal;
use tonne_kernel::{Limits, Quota};

use super::frame::page_in;

/// What the operators' form holds: each limit's field as typed (empty: the
/// default), and the problem of a refused submission.
#[derive(Debug, Default, Clone)]
pub struct LimitsForm {
    pub values: Vec<(Quota, String)>,
    pub problem: Option<String>,
}

impl LimitsForm {
    /// The form for an organisation's current overrides.
    pub fn of(q: &OrganisationQuotas) -> Self {
        Self {
            values: Quota::ALL
                .into_iter()
                .map(|l| {
                    (
                        l,
                        q.overrides
                            .get(l)
                            .map(|v| v.to_string())
                            .unwrap_or_default(),
                    )
                })
                .collect(),
            problem: None,
        }
    }

    fn value(&self, quota: Quota) -> &str {
        self.values
            .iter()
            .find(|(q, _)| *q == quota)
            .map_or("", |(_, v)| v.as_str())
    }
}

/// A quota's name for people.
fn label(quota: Quota) -> &'static str {
    match quota {
        Quota::OutstandingCalculations => "Calculations queued or running",
        Quota::PendingBatches => "Shipment batches waiting",
        Quota::PendingDocuments => "Transaction documents waiting",
        Quota::StoredShipments => "Shipments stored",
        Quota::StoredBytes => "Bytes of shipment rows stored",
    }
}

fn usage_cell(q: &OrganisationQuotas, a: &AccountUsage, quota: Quota) -> Markup {
    html! {
        td class="num" {
            (a.usage.get(quota)) " of " (q.limits.get(quota))
            @if q.at_limit(&a.usage, quota) { " " strong { "(at the limit)" } }
        }
    }
}

/// One organisation's accounts against its limits.
fn usage_table(q: &OrganisationQuotas, caption: &str) -> Markup {
    html! {
        div class="table-wrap" {
            table {
                caption { (caption) }
                thead { tr {
                    th scope="col" { "Account" }
                    @for quota in Quota::ALL { th scope="col" { (label(quota)) } }
                } }
                tbody {
                    @for a in &q.accounts {
                        tr {
                            th scope="row" { (a.name) " (" (a.mode.as_str()) ")" }
                            @for quota in Quota::ALL { (usage_cell(q, a, quota)) }
                        }
                    }
                }
            }
        }
    }
}

/// The limits in force, and where each comes from.
fn limits_list(q: &OrganisationQuotas) -> Markup {
    html! {
        dl {
            @for quota in Quota::ALL {
                dt { (label(quota)) " (" code { (quota.key()) } ")" }
                dd {
                    (q.limits.get(quota)) " per account"
                    @if q.overrides.get(quota).is_some() { ", set for this organisation" } @else { ", the default" }
                }
            }
        }
    }
}

/// Every organisation's usage (operators), or the member's own.
pub fn limits_overview(who: &Principal, all: &[OrganisationQuotas], operator: bool) -> Markup {
    page_in(
        who,
        "Limits",
        "Limits per account",
        None,
        html! {
            p {
                "Each account (live and test apart) may have so much work waiting and so much stored. "
                "Past a limit, the API refuses the request and writes nothing: 429 with "
                code { "Retry-After" } " for work waiting, 422 for what is stored."
            }
            @for q in all {
                section aria-labelledby=(format!("org-{}", q.organisation_id)) {
                    h2 id=(format!("org-{}", q.organisation_id)) {
                        @if operator {
                            a href=(format!("/console/limits/{}", q.organisation_id)) { (q.organisation_name) }
                        } @else {
                            (q.organisation_name)
                        }
                    }
                    @if !operator { (limits_list(q)) }
                    (usage_table(q, &format!("Usage of {}'s accounts", q.organisation_name)))
                }
            }
            @if all.is_empty() { p { "No organisation yet." } }
        },
    )
}

/// An organisation's usage and the operators' form changing its limits.
pub fn organisation_limits(
    who: &Principal,
    q: &OrganisationQuotas,
    defaults: &Limits,
    form: &LimitsForm,
) -> Markup {
    page_in(
        who,
        "Limits",
        &format!("Limits of {}", q.organisation_name),
        form.problem.as_deref(),
        html! {
            p { a href="/console/limits" { "All organisations" } }
            (limits_list(q))
            (usage_table(q, "Usage per account"))
            h2 { "Change the limits" }
            form method="post" action=(format!("/console/limits/{}", q.organisation_id)) {
                input type="hidden" name="csrf" value=(who.session.csrf_token);
                input type="hidden" name="once" value=(super::controls::once_key());
                p class="hint" { "A whole number per account; leave a field empty for the installation's default." }
                @for quota in Quota::ALL {
                    div class="field" {
                        label for=(quota.key()) { (label(quota)) }
                        p class="hint" id=(format!("{}-hint", quota.key())) { "Default: " (defaults.get(quota)) "." }
                        input type="text" inputmode="numeric" id=(quota.key()) name=(quota.key())
                            value=(form.value(quota)) aria-describedby=(format!("{}-hint", quota.key()));
                    }
                }
                button type="submit" { "Save the limits" }
            }
        },
    )
}
