//! The console's page frame: its style sheet (the shared one and the
//! navigation bar's rules), the bar with the visitor's sections, a signed-in
//! page and a message page for anyone.

use maud::{Markup, PreEscaped, html};
use tonne_accounts::users::{Principal, Role};
use tonne_http::html_page::document;
use tonne_http::style::STYLE;

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
form.inline{display:inline}
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

pub(super) fn frame(title: &str, bar: Option<Markup>, body: Markup) -> Markup {
    document(
        html! {
            title { (title) " · Tonne console" }
            style { (PreEscaped(STYLE)) (PreEscaped(CONSOLE_STYLE)) }
        },
        html! {
            @if let Some(bar) = bar { (bar) }
            main id="main" { (body) }
        },
    )
}

/// The sections of the navigation, by role (only sections with pages, so no
/// link leads nowhere).
fn sections(role: Role) -> &'static [(&'static str, &'static str)] {
    match role {
        Role::Operator => &[
            ("Overview", "/console/"),
            ("Orders", "/console/orders"),
            ("Invoices", "/console/invoices"),
            ("Catalogue", "/console/catalogue"),
            ("Organisations", "/console/organisations"),
            ("Limits", "/console/limits"),
            ("Webhooks", "/console/webhooks"),
            ("Audit log", "/console/audit"),
        ],
        Role::Member(_) => &[
            ("Overview", "/console/"),
            ("Orders", "/console/orders"),
            ("Invoices", "/console/invoices"),
            ("Estimates", "/console/estimates"),
            ("Shipments", "/console/shipments"),
            ("API keys", "/console/keys"),
            ("PACT", "/console/pact"),
            ("Webhooks", "/console/webhooks"),
            ("Offset links", "/console/offset-links"),
            ("Impact", "/console/impact"),
            ("Limits", "/console/limits"),
        ],
    }
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

/// A signed-in page of a `section` (marked current in the bar) titled `title`.
pub(crate) fn page_in(
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
