//! The operator's queue and an order's page.

use maud::{Markup, html};
use tonne_accounts::users::{Principal, Role};
use tonne_kernel::{AccountMode, Money};
use tonne_ordering::{AwaitingFilter, Order, OrderStatus};

use super::controls::url_query;
use super::dates::when;
use super::frame::page_in;
use super::table::{Col, table};

/// What the queue's form holds, to show it again.
#[derive(Debug, Default, Clone)]
pub struct QueueFilter {
    pub organisation: String,
    pub status: String,
}

fn money(m: Money) -> String {
    format!("{} {}", m.currency().code(), m.to_decimal_string())
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
                (orders_table(orders, None))
            }
            @if let Some(href) = next_href {
                p { a href=(href) rel="next" { "Older orders" } }
            }
        },
    )
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
            @if let Some(why) = &order.held {
                p class="error" role="status" { "On hold: " (why) ". No step moves it on but cancelling it or marking it failed; settle the dispute in Stripe's dashboard first." }
                @if who.user.role == Role::Operator {
                    (action(who, order, "release_hold", "Dispute won", "Release the hold", false, html! {}))
                }
            }
            dl class="summary" {
                dt { "Status" } dd class="status" { (s.as_str()) }
                dt { "Mode" } dd { (order.mode.as_str()) }
                dt { "Account" } dd { (order.account_id) }
                dt { "Quantity" } dd { (order.quantity.to_tonnes_string()) " t" }
                dt { "Offset cost" } dd { (money(order.offset_cost)) }
                dt { "Commission" } dd { (money(order.commission)) }
                dt { "Total" } dd { (money(order.total_cost)) }
                dt { "Payment method" } dd { (order.payment_method.as_str()) }
                @if let Some(reference) = &order.payment_reference { dt { "Card payment" } dd { code { (reference) } } }
                dt { "Created" } dd { (when(order.created_at)) }
                dt { "Last change" } dd { (when(order.updated_at)) }
                @if let Some(email) = &order.email { dt { "Customer email" } dd { (email) } }
            }
            h2 { "Bundles" }
            (table(None, &[
                Col::Text("Bundle"), Col::Num("Tonnes"),
                Col::Num("Unit price"), Col::Num("Offset cost"),
            ], html! {
                @for l in &order.lines {
                    tr {
                        td { (l.bundle_name) }
                        td class="num" { (l.quantity.to_tonnes_string()) }
                        td class="num" { (money(l.unit_price)) }
                        td class="num" { (money(l.offset_cost)) }
                    }
                }
            }))
            @if !order.projects.is_empty() {
                h2 { "Projects" }
                (table(None, &[
                    Col::Text("Project"), Col::Text("Registry"),
                    Col::Num("Tonnes"), Col::Text("Serial number"),
                ], html! {
                    @for p in &order.projects {
                        tr {
                            td { (p.project_name) }
                            td { (p.registry.as_str()) }
                            td class="num" { (p.quantity.to_tonnes_string()) }
                            td {
                                @match &p.registry_record {
                                    Some(url) => a href=(url) { (p.serial.as_deref().unwrap_or("record")) },
                                    None => (p.serial.as_deref().unwrap_or("not recorded")),
                                }
                            }
                        }
                    }
                }))
                @if who.user.role == Role::Operator && matches!(s, OrderStatus::Retiring | OrderStatus::Complete) {
                    h2 { "Registry records" }
                    form method="post" action=(format!("/console/orders/{}/records", order.id)) {
                        input type="hidden" name="csrf" value=(who.session.csrf_token);
                        p class="hint" { "Each project's serial number at its registry and, optionally, the address of the retirement's record there (the certificate links to it). Blank fields leave what is recorded." }
                        @for (i, p) in order.projects.iter().enumerate() {
                            fieldset {
                                legend { (p.project_name) }
                                div class="filters" {
                                    div class="field" {
                                        label for=(format!("serial-{i}")) { "Serial number" }
                                        input type="text" id=(format!("serial-{i}")) name=(format!("serial_{}", p.project_id))
                                            value=(p.serial.as_deref().unwrap_or_default()) maxlength="200" autocomplete="off";
                                    }
                                    div class="field" {
                                        label for=(format!("record-{i}")) { "Record address" }
                                        input type="url" id=(format!("record-{i}")) name=(format!("record_{}", p.project_id))
                                            value=(p.registry_record.as_deref().unwrap_or_default()) maxlength="500" autocomplete="off";
                                    }
                                }
                            }
                        }
                        button type="submit" { "Save records" }
                    }
                }
            }
            @if s == OrderStatus::Complete {
                p { a href=(format!("{}{}", public_url.trim_end_matches('/'), tonne_wire::public_certificate_path(order))) { "Certificate" } }
            }
            @if !s.is_final() && who.user.role == Role::Operator {
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
            @if who.user.role == Role::Operator {
                p { a href="/console/orders" { "Back to the orders waiting for action" } }
            } @else {
                p { a href=(format!("/console/orders?mode={}", order.mode.as_str())) { "Back to the orders" } }
            }
        },
    )
}

/// A member's orders: the organisation's orders of one mode, newest first.
pub fn member_orders(
    who: &Principal,
    mode: AccountMode,
    orders: &[Order],
    next: Option<&str>,
    public_url: &str,
) -> Markup {
    page_in(
        who,
        "Orders",
        &format!("Orders ({})", mode.as_str()),
        None,
        html! {
            (super::controls::mode_switch("/console/orders", mode))
            @if orders.is_empty() {
                p { "No order in this mode." }
            } @else {
                (orders_table(orders, Some(public_url)))
            }
            @if let Some(after) = next {
                p { a href=(format!("/console/orders?mode={}&after={after}", mode.as_str())) rel="next" { "Older orders" } }
            }
        },
    )
}

/// A table of orders, newest first; with the public URL, a last column links
/// each complete order's certificate.
fn orders_table(orders: &[Order], certificates_at: Option<&str>) -> Markup {
    let columns: Vec<Col<'_>> = [
        Col::Text("Order"),
        Col::Text("Status"),
        Col::Num("Tonnes"),
        Col::Num("Total"),
        Col::Text("Created"),
    ]
    .into_iter()
    .chain(certificates_at.map(|_| Col::Text("Certificate")))
    .collect();
    table(
        Some("Orders, newest first"),
        &columns,
        html! {
            @for o in orders {
                tr {
                    td { a href=(format!("/console/orders/{}", o.id)) { (o.id) } }
                    td class="status" { (o.status.as_str()) }
                    td class="num" { (o.quantity.to_tonnes_string()) }
                    td class="num" { (money(o.total_cost)) }
                    td { (when(o.created_at)) }
                    @if let Some(public_url) = certificates_at {
                        td {
                            @if o.status == OrderStatus::Complete {
                                a href=(format!("{}{}", public_url.trim_end_matches('/'), tonne_wire::public_certificate_path(o)))
                                    aria-label=(format!("Certificate of order {}", o.id)) { "Certificate" }
                            } @else { "—" }
                        }
                    }
                }
            }
        },
    )
}
