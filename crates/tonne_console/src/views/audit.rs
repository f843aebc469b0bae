//! The operator's audit log.

use maud::{Markup, html};
use tonne_accounts::users::Principal;
use tonne_kernel::AuditEntry;

use super::controls::url_query;
use super::dates::when;
use super::frame::page;
use super::table::{Col, table};

/// The filters as the form holds them (shown again as typed).
#[derive(Debug, Default, Clone)]
pub struct AuditFilterForm {
    pub actor: String,
    pub action: String,
    pub object: String,
    pub organisation: String,
}

impl AuditFilterForm {
    fn query(&self) -> String {
        url_query(&[
            ("actor", &self.actor),
            ("action", &self.action),
            ("object", &self.object),
            ("organisation", &self.organisation),
        ])
    }
}

/// Where an object's own console page is, when it has one.
fn object_href(entry: &AuditEntry) -> Option<String> {
    match entry.object_kind.as_str() {
        "order" => Some(format!("/console/orders/{}", entry.object_id)),
        "organisation" => Some(format!("/console/organisations/{}", entry.object_id)),
        _ => None,
    }
}

/// What changed: each changed field, before → after.
fn changes(entry: &AuditEntry) -> Markup {
    html! {
        ul class="changes" {
            @for field in entry.changed_fields() {
                li {
                    (field) ": "
                    @match (entry.before.get(field), entry.after.get(field)) {
                        (Some(b), Some(a)) => { del { (b) } " → " ins { (a) } }
                        (None, Some(a)) => { ins { (a) } }
                        (Some(b), None) => { del { (b) } }
                        (None, None) => {}
                    }
                }
            }
        }
    }
}

/// The log, newest first, with its filters.
pub fn audit_log(
    who: &Principal,
    filter: &AuditFilterForm,
    entries: &[AuditEntry],
    next: Option<&str>,
    problem: Option<&str>,
) -> Markup {
    let next_href = next.map(|after| {
        let q = filter.query();
        let sep = if q.is_empty() { "" } else { "&" };
        format!("/console/audit?{q}{sep}after={after}")
    });
    page(
        who,
        "Audit log",
        problem,
        html! {
            p { "Every change made from the console or the command line, newest first: who, what, when, and the object before and after." }
            form method="get" action="/console/audit" class="filters" {
                div class="field" {
                    label for="actor" { "Person" }
                    input type="text" id="actor" name="actor" value=(filter.actor)
                        autocomplete="off" spellcheck="false" aria-describedby="actor-hint";
                    p class="hint" id="actor-hint" { "An email, or “command line”." }
                }
                div class="field" {
                    label for="action" { "Action" }
                    input type="text" id="action" name="action" value=(filter.action)
                        autocomplete="off" spellcheck="false" aria-describedby="action-hint";
                    p class="hint" id="action-hint" { "Its beginning: “order.” for every order change." }
                }
                div class="field" {
                    label for="object" { "Object id" }
                    input type="text" id="object" name="object" value=(filter.object)
                        autocomplete="off" spellcheck="false";
                }
                div class="field" {
                    label for="organisation" { "Organisation" }
                    input type="text" id="organisation" name="organisation" value=(filter.organisation)
                        autocomplete="off" spellcheck="false";
                }
                div class="field" { button type="submit" { "Filter" } }
            }
            @if entries.is_empty() {
                p { "Nothing recorded matches." }
            } @else {
                (table(Some("Changes, newest first"), &[
                    Col::Text("When"), Col::Text("Who"),
                    Col::Text("Action"), Col::Text("Object"),
                    Col::Text("Changes"),
                ], html! {
                    @for e in entries {
                        tr {
                            td { (when(e.at)) }
                            td { (e.actor) }
                            td class="status" { (e.action) }
                            td {
                                (e.object_kind) " "
                                @if let Some(href) = object_href(e) {
                                    a href=(href) { (e.object_id) }
                                } @else {
                                    (e.object_id)
                                }
                                @if let Some(o) = e.organisation {
                                    br;
                                    span class="hint" { "in " a href=(format!("/console/organisations/{o}")) { (o) } }
                                }
                            }
                            td { (changes(e)) }
                        }
                    }
                }))
            }
            @if let Some(href) = next_href {
                p { a href=(href) rel="next" { "Older changes" } }
            }
        },
    )
}
