//! The console's HTML (maud: compile-time checked, every value escaped), in
//! the offset-link pages' style plus a navigation bar; no script.

use maud::{DOCTYPE, Markup, PreEscaped, html};
use tonne_accounts::users::{Principal, Role};
use tonne_kernel::Money;
use tonne_ordering::{AwaitingFilter, Order, OrderStatus};

use super::orders::QueueFilter;
use crate::certificate::human_date;
use crate::pages::views::STYLE;

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
select,input[type=password]{font:inherit;padding:.55rem;border:2px solid #6b6f66;border-radius:.35rem;background:#fff;color:#1b1b1b;max-width:100%}
input[type=password]{width:100%;max-width:24rem}
.table-wrap{overflow-x:auto}
.actions{display:grid;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr));gap:1rem}
.actions form{background:#fff;border:1px solid #c8cbc3;border-radius:.5rem;padding:1rem}
.actions h3{margin:0 0 .5rem;font-size:1.05rem}
button.danger{background:#b42318}
.status{font-weight:600}
h1,dd,td{overflow-wrap:anywhere}
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
        Role::Operator => &[("Overview", "/console/"), ("Orders", "/console/orders")],
        Role::Member(_) => &[("Overview", "/console/")],
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

fn page_in(
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
            @if let Some(e) = error { p class="error" role="alert" id="password-error" { (e) } }
            form method="post" action=(format!("/console/setup/{token}")) {
                div class="field" {
                    label for="password" { "New password" }
                    p class="hint" id="password-hint" { "At least 12 characters." }
                    input type="password" id="password" name="password" autocomplete="new-password"
                        aria-describedby="password-hint" required minlength="12" maxlength="128";
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
            }
        },
    )
}

fn money(m: Money) -> String {
    format!("{} {}", m.currency().code(), m.to_decimal_string())
}

fn when(at: time::OffsetDateTime) -> String {
    format!("{} {:02}:{:02} UTC", human_date(at), at.hour(), at.minute())
}

/// The operator's queue.
pub fn queue(
    who: &Principal,
    filter: &QueueFilter,
    orders: &[Order],
    next: Option<&str>,
    problem: Option<&str>,
) -> Markup {
    let next_href = next.map(|after| {
        let mut q = url_query(&[
            ("organisation", filter.organisation.as_str()),
            ("status", filter.status.as_str()),
        ]);
        q.push_str(&format!(
            "{}after={after}",
            if q.is_empty() { "" } else { "&" }
        ));
        format!("/console/orders?{q}")
    });
    page_in(
        who,
        "Orders",
        "Orders waiting for action",
        problem,
        html! {
            p { "Live orders that are received, placed, paid or retiring, newest first." }
            form method="get" action="/console/orders" class="filters" {
                div class="field" {
                    label for="organisation" { "Organisation" }
                    input type="text" id="organisation" name="organisation" value=(filter.organisation)
                        inputmode="text" autocomplete="off" spellcheck="false";
                }
                div class="field" {
                    label for="status" { "Status" }
                    select id="status" name="status" {
                        option value="" selected[filter.status.is_empty()] { "Any waiting status" }
                        @for s in AwaitingFilter::STATUSES {
                            option value=(s.as_str()) selected[filter.status == s.as_str()] { (s.as_str()) }
                        }
                    }
                }
                div class="field" { button type="submit" { "Filter" } }
            }
            @if orders.is_empty() {
                p { "No order is waiting." }
            } @else {
                div class="table-wrap" {
                    table {
                        caption class="hint" { "Orders, newest first" }
                        thead { tr {
                            th scope="col" { "Order" } th scope="col" { "Status" }
                            th scope="col" class="num" { "Tonnes" } th scope="col" class="num" { "Total" }
                            th scope="col" { "Created" }
                        } }
                        tbody {
                            @for o in orders {
                                tr {
                                    td { a href=(format!("/console/orders/{}", o.id)) { (o.id) } }
                                    td class="status" { (o.status.as_str()) }
                                    td class="num" { (o.quantity.to_tonnes_string()) }
                                    td class="num" { (money(o.total_cost)) }
                                    td { (when(o.created_at)) }
                                }
                            }
                        }
                    }
                }
            }
            @if let Some(href) = next_href {
                p { a href=(href) rel="next" { "Older orders" } }
            }
        },
    )
}

fn url_query(pairs: &[(&str, &str)]) -> String {
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

fn action(
    who: &Principal,
    order: &Order,
    to: &str,
    title: &str,
    button: &str,
    danger: bool,
    body: Markup,
) -> Markup {
    html! {
        form method="post" action=(format!("/console/orders/{}/advance", order.id)) {
            h3 { (title) }
            input type="hidden" name="csrf" value=(who.session.csrf_token);
            input type="hidden" name="to" value=(to);
            (body)
            @if danger {
                button type="submit" class="danger" { (button) }
            } @else {
                button type="submit" { (button) }
            }
        }
    }
}

/// An order's page with the actions its status allows.
pub fn order(who: &Principal, order: &Order, public_url: &str, problem: Option<&str>) -> Markup {
    let s = order.status;
    page_in(
        who,
        "Orders",
        &format!("Order {}", order.id),
        problem,
        html! {
            dl class="summary" {
                dt { "Status" } dd class="status" { (s.as_str()) }
                dt { "Mode" } dd { (order.mode.as_str()) }
                dt { "Account" } dd { (order.account_id) }
                dt { "Quantity" } dd { (order.quantity.to_tonnes_string()) " t" }
                dt { "Offset cost" } dd { (money(order.offset_cost)) }
                dt { "Commission" } dd { (money(order.commission)) }
                dt { "Total" } dd { (money(order.total_cost)) }
                dt { "Payment method" } dd { (order.payment_method.as_str()) }
                dt { "Created" } dd { (when(order.created_at)) }
                dt { "Last change" } dd { (when(order.updated_at)) }
                @if let Some(email) = &order.email { dt { "Customer email" } dd { (email) } }
            }
            h2 { "Bundles" }
            div class="table-wrap" {
                table {
                    thead { tr {
                        th scope="col" { "Bundle" } th scope="col" class="num" { "Tonnes" }
                        th scope="col" class="num" { "Unit price" } th scope="col" class="num" { "Offset cost" }
                    } }
                    tbody {
                        @for l in &order.lines {
                            tr {
                                td { (l.bundle_name) }
                                td class="num" { (l.quantity.to_tonnes_string()) }
                                td class="num" { (money(l.unit_price)) }
                                td class="num" { (money(l.offset_cost)) }
                            }
                        }
                    }
                }
            }
            @if !order.projects.is_empty() {
                h2 { "Projects" }
                div class="table-wrap" {
                    table {
                        thead { tr {
                            th scope="col" { "Project" } th scope="col" { "Registry" }
                            th scope="col" class="num" { "Tonnes" } th scope="col" { "Serial number" }
                        } }
                        tbody {
                            @for p in &order.projects {
                                tr {
                                    td { (p.project_name) }
                                    td { (p.registry.as_str()) }
                                    td class="num" { (p.quantity.to_tonnes_string()) }
                                    td { (p.serial.as_deref().unwrap_or("not recorded")) }
                                }
                            }
                        }
                    }
                }
            }
            @if s == OrderStatus::Complete {
                p { a href=(format!("{}{}", public_url.trim_end_matches('/'), tonne_wire::public_certificate_path(order))) { "Certificate" } }
            }
            @if !s.is_final() {
                h2 { "Actions" }
                div class="actions" {
                    @if matches!(s, OrderStatus::Received | OrderStatus::Placed) {
                        (action(who, order, "paid", "Payment received", "Mark paid", false, html! {}))
                    }
                    @if s == OrderStatus::Paid {
                        (action(who, order, "retiring", "Retirement started", "Start retirement", false, html! {
                            div class="field" {
                                label for="serial" { "Registry serial number" }
                                p class="hint" id="serial-hint" { "Recorded per project as SERIAL-1, SERIAL-2, …; leave empty if not known yet." }
                                input type="text" id="serial" name="serial" aria-describedby="serial-hint" maxlength="200";
                            }
                        }))
                    }
                    @if s == OrderStatus::Retiring {
                        (action(who, order, "complete", "Credits retired", "Complete", false, html! {}))
                    }
                    @if matches!(s, OrderStatus::Received | OrderStatus::Placed) {
                        (action(who, order, "cancelled", "Cancel before payment", "Cancel order", true, html! {}))
                    }
                    (action(who, order, "failed", "Cannot be fulfilled", "Mark failed", true, html! {}))
                }
            }
            p { a href="/console/orders" { "Back to the orders waiting for action" } }
        },
    )
}
