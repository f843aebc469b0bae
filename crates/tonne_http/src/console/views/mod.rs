//! The console's HTML (maud: compile-time checked, every value escaped), in
//! the offset-link pages' style plus a navigation bar; no script. One file per
//! section: [`orders`] (the operator's queue), [`keys`], [`webhooks`].

mod audit;
mod catalogue;
mod client_accounts;
mod estimates;
mod impact;
mod installation_webhooks;
mod keys;
mod offset_links;
mod orders;
mod organisations;
mod overview;
mod selections;
mod shipments;
mod webhooks;

pub use audit::{AuditFilterForm, audit_log};
pub use catalogue::{EditForm, ImportOutcome, StockForm, bundle, catalogue};
pub use client_accounts::{ClientAccountForm, client_accounts};
pub use estimates::{estimate, estimates};
pub use impact::{ImpactPage, impact};
pub use installation_webhooks::{OperatorNotice, installation_webhook, installation_webhooks};
pub use keys::{created_key, keys};
pub use offset_links::{BundleChoice, LinkForm, LinksPage, offset_link, offset_links};
pub use orders::{QueueFilter, member_orders, order, queue};
pub use organisations::{
    InviteForm, NewOrganisationForm, OrganisationAccounts, created_organisation, invited,
    organisation, organisations,
};
pub use overview::{OperatorOverview, operator_overview};
pub use selections::{SelectionForm, selection};
pub use shipments::{
    SheetProblem, ShipmentFilterForm, UploadForm, batch as shipment_batch,
    batches as shipment_batches, shipment, shipments,
};
pub use webhooks::{
    ReplayForm, TestForm, WebhookForm, WebhookPageForms, webhook, webhook_secret, webhooks,
};

use crate::certificate::human_date;
use crate::pages::views::STYLE;
use maud::{DOCTYPE, Markup, PreEscaped, html};
use tonne_accounts::users::{Principal, Role};

const CONSOLE_STYLE: &str = r#"
header.bar{background:#12355b;color:#fff}
header.bar .inner{max-width:64rem;margin:0 auto;padding:.5rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center}
header.bar .brand{font-weight:700;margin-right:auto}
header.bar nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:0;padding:0}
header.bar a{color:#fff}
header.bar a[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
header.bar form{margin:0}
header.bar button{padding:.35rem .8rem;background:#fff;color:#12355b}
main{max-width:64rem}
.filters{display:flex;flex-wrap:wrap;gap:0 1rem;align-items:flex-end}
.filters .field{margin:.5rem 0}
.changes{margin:0;padding-left:1.1rem}
.changes ins{text-decoration:none;font-weight:600}
.changes del{color:#5a5a5a}
td.num,td.status{white-space:nowrap}
code.answer{display:inline-block;max-width:24rem;overflow-wrap:anywhere;font-size:.85em;color:#3a3a3a}
textarea{width:100%;max-width:40rem;font:inherit;padding:.6rem;border:2px solid #6b6f66;border-radius:.35rem;background:#fff;color:#1b1b1b}
select,input[type=password],input[type=url]{font:inherit;padding:.55rem;border:2px solid #6b6f66;border-radius:.35rem;background:#fff;color:#1b1b1b;max-width:100%}
input[type=password],input[type=url]{width:100%;max-width:24rem}
input[type=url]{max-width:40rem}
.check{display:flex;gap:.6rem;align-items:center;margin:.4rem 0}
.check label{display:inline;margin:0;font-weight:400}
.check input[type=checkbox]{width:1.25rem;height:1.25rem;margin:0;flex:none}
.table-wrap{overflow-x:auto;position:relative}
.actions{display:grid;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr));gap:1rem}
.actions form{background:#fff;border:1px solid #c8cbc3;border-radius:.5rem;padding:1rem}
.actions h3{margin:0 0 .5rem;font-size:1.05rem}
button.danger{background:#b42318}
.status{font-weight:600}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
input[type=datetime-local]{font:inherit;padding:.55rem;border:2px solid #6b6f66;border-radius:.35rem;background:#fff;color:#1b1b1b;max-width:100%}
code{overflow-wrap:anywhere}
h1,dd,td{overflow-wrap:anywhere}
ul.subnav{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;margin:0 0 1rem;padding:0}
ul.subnav a[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
fieldset.modes{border:1px solid #c8cbc3;border-radius:.35rem;padding:.25rem .75rem;margin:.5rem 0}
input[type=date]{font:inherit;padding:.55rem;border:2px solid #6b6f66;border-radius:.35rem;background:#fff;color:#1b1b1b;max-width:100%}
"#;

fn frame(title: &str, bar: Option<Markup>, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · Tonne console" }
                style { (PreEscaped(STYLE)) (PreEscaped(CONSOLE_STYLE)) }
            }
            body {
                @if let Some(bar) = bar { (bar) }
                main id="main" { (body) }
            }
        }
    }
}

/// The sections of the navigation (built so far: the rest of issue 20's names
/// join as their pages land, so no link leads nowhere).
fn sections(role: Role) -> &'static [(&'static str, &'static str)] {
    match role {
        Role::Operator => &[
            ("Overview", "/console/"),
            ("Orders", "/console/orders"),
            ("Catalogue", "/console/catalogue"),
            ("Organisations", "/console/organisations"),
            ("Webhooks", "/console/webhooks"),
            ("Audit log", "/console/audit"),
        ],
        Role::Member(_) => &[
            ("Overview", "/console/"),
            ("Orders", "/console/orders"),
            ("Estimates", "/console/estimates"),
            ("Shipments", "/console/shipments"),
            ("API keys", "/console/keys"),
            ("Webhooks", "/console/webhooks"),
            ("Offset links", "/console/offset-links"),
            ("Impact", "/console/impact"),
        ],
    }
}

/// Live/test switch of the member pages.
pub(super) fn mode_switch(path: &str, mode: tonne_kernel::AccountMode) -> Markup {
    let other = mode.other();
    html! {
        p { "Showing " strong { (mode.as_str()) } " mode. "
            a href=(format!("{path}?mode={}", other.as_str())) { "Show " (other.as_str()) " mode" } }
    }
}

/// The member pages' account chooser: a GET form naming `path`, the mode
/// kept, the organisation's accounts (client accounts marked), `chosen` selected.
pub(super) fn account_chooser(
    path: &str,
    mode: tonne_kernel::AccountMode,
    accounts: &[tonne_accounts::Account],
    chosen: &str,
) -> Markup {
    html! {
        form method="get" action=(path) class="filters" {
            input type="hidden" name="mode" value=(mode.as_str());
            div class="field" {
                label for="account" { "Account" }
                select id="account" name="account" {
                    @for a in accounts {
                        option value=(a.id) selected[a.id.to_string() == chosen] {
                            (a.name.as_str())
                            @if a.scope == tonne_accounts::AccountScope::ClientAccount { " (client account)" }
                        }
                    }
                }
            }
            div class="field" { button type="submit" { "Show" } }
        }
    }
}

/// A query string of the non-empty pairs, each value URL-encoded.
pub(super) fn url_query(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| {
            format!(
                "{k}={}",
                url::form_urlencoded::byte_serialize(v.as_bytes()).collect::<String>()
            )
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// A time kept to the hour (a key's last use), as `25 November 2026, 14:00–15:00 UTC`.
pub(super) fn human_hour(at: time::OffsetDateTime) -> String {
    let next = (at.hour() + 1) % 24;
    format!("{}, {:02}:00–{next:02}:00 UTC", human_date(at), at.hour())
}

pub(super) fn when(at: time::OffsetDateTime) -> String {
    format!("{} {:02}:{:02} UTC", human_date(at), at.hour(), at.minute())
}

fn bar(who: &Principal, current: &str) -> Markup {
    html! {
        header class="bar" {
            div class="inner" {
                span class="brand" { "Tonne console" }
                nav aria-label="Main" {
                    ul {
                        @for (name, href) in sections(who.user.role) {
                            li {
                                @if *name == current {
                                    a href=(href) aria-current="page" { (name) }
                                } @else {
                                    a href=(href) { (name) }
                                }
                            }
                        }
                    }
                }
                span { (who.user.email) }
                form method="post" action="/console/sign-out" {
                    input type="hidden" name="csrf" value=(who.session.csrf_token);
                    button type="submit" { "Sign out" }
                }
            }
        }
    }
}

/// A signed-in page: the bar with `section` current, a heading, an error if any.
pub fn page(who: &Principal, title: &str, problem: Option<&str>, body: Markup) -> Markup {
    page_in(who, title, title, problem, body)
}

pub(super) fn page_in(
    who: &Principal,
    section: &str,
    title: &str,
    problem: Option<&str>,
    body: Markup,
) -> Markup {
    frame(
        title,
        Some(bar(who, section)),
        html! {
            h1 { (title) }
            @if let Some(p) = problem { p class="error" role="alert" { (p) } }
            (body)
        },
    )
}

/// A page for anyone (signed out too): a heading and a sentence.
pub fn message(title: &str, text: &str) -> Markup {
    frame(title, None, html! { h1 { (title) } p { (text) } })
}

/// [`message`] with a link onwards.
pub fn message_with_link(title: &str, text: &str, href: &str, label: &str) -> Markup {
    frame(
        title,
        None,
        html! { h1 { (title) } p { (text) } p { a href=(href) { (label) } } },
    )
}

/// The sign-in page.
pub fn sign_in(csrf: &str, email: &str, error: Option<&str>) -> Markup {
    frame(
        "Sign in",
        None,
        html! {
            h1 { "Sign in to the Tonne console" }
            @if let Some(e) = error { p class="error" role="alert" { (e) } }
            form method="post" action="/console/sign-in" {
                input type="hidden" name="csrf" value=(csrf);
                div class="field" {
                    label for="email" { "Email" }
                    input type="email" id="email" name="email" value=(email) autocomplete="username" required;
                }
                div class="field" {
                    label for="password" { "Password" }
                    input type="password" id="password" name="password" autocomplete="current-password" required;
                }
                button type="submit" { "Sign in" }
            }
        },
    )
}

/// The page of a setup link: choose a password.
pub fn setup(token: &str, error: Option<&str>) -> Markup {
    frame(
        "Choose a password",
        None,
        html! {
            h1 { "Choose a password" }
            form method="post" action=(format!("/console/setup/{token}")) {
                div class="field" {
                    label for="password" { "New password" }
                    p class="hint" id="password-hint" {
                        "At least 12 characters, and not a common or easily guessed password "
                        "(several unrelated words work well)."
                    }
                    @if let Some(e) = error { p class="error" role="alert" id="password-error" { (e) } }
                    input type="password" id="password" name="password" autocomplete="new-password"
                        aria-describedby=(if error.is_some() { "password-hint password-error" } else { "password-hint" })
                        required minlength="12" maxlength="128";
                }
                div class="field" {
                    label for="confirm" { "New password again" }
                    input type="password" id="confirm" name="confirm" autocomplete="new-password" required;
                }
                button type="submit" { "Set password" }
            }
        },
    )
}

/// The overview (so far: who you are and where to go).
pub fn overview(who: &Principal) -> Markup {
    let role = match who.user.role {
        Role::Operator => "an operator of this installation".to_owned(),
        Role::Member(o) => format!("a member of organisation {o}"),
    };
    page_in(
        who,
        "Overview",
        "Overview",
        None,
        html! {
            p { "Signed in as " (who.user.email) ", " (role) "." }
            @if who.user.role == Role::Operator {
                p { a href="/console/orders" { "Live orders waiting for action" } }
            } @else {
                ul {
                    li { a href="/console/orders" { "Orders" } ", live and test, with their certificates" }
                    li { a href="/console/estimates" { "Estimates" } " and how each was worked out" }
                    li { a href="/console/shipments" { "Shipments" } ", their legs' emissions, and data-sheet uploads" }
                    li { a href="/console/client-accounts" { "Client accounts" } " for your own customers" }
                    li { a href="/console/offset-links" { "Offset links" } " and their visitors" }
                    li { a href="/console/impact" { "Impact" } ": analytics and the sustainability page" }
                    li { a href="/console/webhooks" { "Webhooks" } ", their delivery logs and test events" }
                    li { a href="/console/keys" { "API keys" } }
                }
            }
        },
    )
}

/// A fresh one-time key for a form that creates or changes something (the
/// handler claims it on submit, so that the form acts once).
pub(super) fn once_key() -> String {
    tonne_accounts::users::FormKey::generate()
        .as_str()
        .to_owned()
}
