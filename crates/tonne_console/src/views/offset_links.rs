//! A member's offset links and one link's analytics.

use maud::{Markup, PreEscaped, html};
use time::OffsetDateTime;
use tonne_accounts::Account;
use tonne_accounts::users::Principal;
use tonne_kernel::{AccountId, AccountMode};
use tonne_links::{Analytics, LimitsDraft, LinkDetails};

use super::controls::{account_chooser, mode_switch};
use super::dates::when;
use super::frame::page_in;
use super::table::{Col, table};

/// A bundle the form offers: id, name and its price per tonne with commission.
#[derive(Debug, Clone)]
pub struct BundleChoice {
    pub id: String,
    pub name: String,
    pub price: String,
}

/// What the creation form held, to show it again with the problem beside its field.
#[derive(Debug, Default, Clone)]
pub struct LinkForm {
    pub name: String,
    pub title: String,
    pub description: String,
    pub bundles: Vec<String>,
    pub value: String,
    pub require_payment: bool,
    /// The hosted page's limits as typed (blank: the server's default).
    pub order_tonnes: String,
    pub order_value: String,
    pub daily_orders: String,
    pub daily_tonnes: String,
    pub visitor_daily_orders: String,
    /// The field the problem concerns (`name`, `title`, `description`,
    /// `bundles`, `value`, or a limit's) and the problem.
    pub problem: Option<(&'static str, String)>,
}

impl LinkForm {
    /// A form holding a link's current limits.
    pub fn of_limits(l: &LinkDetails) -> Self {
        let m = &l.link.limits;
        Self {
            order_tonnes: m.order_mass.to_tonnes_string(),
            order_value: m.order_value.to_decimal_string(),
            daily_orders: m.daily_orders.to_string(),
            daily_tonnes: m.daily_mass.to_tonnes_string(),
            visitor_daily_orders: m.visitor_daily_orders.to_string(),
            ..Self::default()
        }
    }

    /// The limits as the links domain reads them.
    pub fn limits(&self) -> LimitsDraft {
        let typed = |v: &str| Some(v.trim().to_owned()).filter(|v| !v.is_empty());
        LimitsDraft {
            order_tonnes: typed(&self.order_tonnes),
            order_value: typed(&self.order_value),
            daily_orders: typed(&self.daily_orders),
            daily_tonnes: typed(&self.daily_tonnes),
            visitor_daily_orders: typed(&self.visitor_daily_orders),
        }
    }

    fn problem_of(&self, field: &str) -> Option<&str> {
        self.problem
            .as_ref()
            .filter(|(f, _)| *f == field)
            .map(|(_, p)| p.as_str())
    }
}

/// A field's problem beside it, with the id its input points to.
fn beside(form: &LinkForm, field: &str) -> Markup {
    html! {
        @if let Some(p) = form.problem_of(field) {
            p class="error" id=(format!("link-{field}-error")) { (p) }
        }
    }
}

fn described_by(form: &LinkForm, field: &str) -> Option<String> {
    form.problem_of(field)
        .map(|_| format!("link-{field}-error"))
}

/// The form that creates a link on the chosen account.
fn create_form(
    who: &Principal,
    mode: AccountMode,
    account: &Account,
    bundles: &[BundleChoice],
    form: &LinkForm,
    card_payments: &str,
) -> Markup {
    let currency = account.currency.code();
    html! {
        h2 id="create" { "Create an offset link" }
        @if bundles.is_empty() {
            p { "No bundle is sold in " (currency) " at the moment." }
        } @else {
            form method="post" action="/console/offset-links#create" {
                input type="hidden" name="csrf" value=(who.session.csrf_token);
                input type="hidden" name="mode" value=(mode.as_str());
                input type="hidden" name="account" value=(account.id);
                div class="field" {
                    label for="link-name" { "Name" }
                    p class="hint" id="link-name-hint" { "For you; unique among this account's links." }
                    (beside(form, "name"))
                    input type="text" id="link-name" name="name" value=(form.name) required maxlength="255"
                        aria-describedby=(described_by(form, "name").map_or("link-name-hint".to_owned(), |e| format!("link-name-hint {e}")));
                }
                div class="field" {
                    label for="link-title" { "Title (optional)" }
                    (beside(form, "title"))
                    input type="text" id="link-title" name="title" value=(form.title)
                        aria-describedby=[described_by(form, "title")];
                }
                div class="field" {
                    label for="link-description" { "Description (optional)" }
                    (beside(form, "description"))
                    textarea id="link-description" name="description" rows="3"
                        aria-describedby=[described_by(form, "description")] { (form.description) }
                }
                fieldset class="field" aria-describedby=[described_by(form, "bundles")] {
                    legend { "Bundles your customers choose from" }
                    (beside(form, "bundles"))
                    @for b in bundles {
                        div class="check" {
                            input type="checkbox" id=(format!("bundle-{}", b.id)) name="bundles" value=(b.id)
                                checked[form.bundles.contains(&b.id)];
                            " "
                            label for=(format!("bundle-{}", b.id)) { (b.name) " (" (b.price) " per tonne)" }
                        }
                    }
                }
                div class="field" {
                    label for="link-value" { "Fixed amount in " (currency) " (optional)" }
                    p class="hint" id="link-value-hint" { "Leave empty to let each customer choose how much to offset." }
                    (beside(form, "value"))
                    input type="text" id="link-value" name="value" value=(form.value) inputmode="decimal"
                        aria-describedby=(described_by(form, "value").map_or("link-value-hint".to_owned(), |e| format!("link-value-hint {e}")));
                }
                fieldset class="field" {
                    legend { "Limits of the page (optional)" }
                    p class="hint" { "What anyone with the link may order. Leave a field empty for the server's default." }
                    (limit_field(form, "order_tonnes", "Most tonnes per order", "decimal"))
                    (limit_field(form, "order_value", &format!("Most {currency} per order"), "decimal"))
                    (limit_field(form, "daily_orders", "Most orders per day (UTC)", "numeric"))
                    (limit_field(form, "daily_tonnes", "Most tonnes per day (UTC)", "decimal"))
                    (limit_field(form, "visitor_daily_orders", "Most orders per visitor address per day", "numeric"))
                }
                div class="field check" {
                    input type="checkbox" id="link-payment" name="require_payment" value="true" checked[form.require_payment] aria-describedby="link-payment-hint";
                    " "
                    label for="link-payment" { "Customers pay by card on the page (cannot be changed later)" }
                    p class="hint" id="link-payment-hint" { "In " (mode.as_str()) " mode, payments are taken " (card_payments) "." }
                }
                button type="submit" { "Create offset link" }
            }
        }
    }
}

/// One limit's input, labelled, with its problem beside it.
fn limit_field(form: &LinkForm, field: &'static str, label: &str, mode: &str) -> Markup {
    let typed = match field {
        "order_tonnes" => &form.order_tonnes,
        "order_value" => &form.order_value,
        "daily_orders" => &form.daily_orders,
        "daily_tonnes" => &form.daily_tonnes,
        _ => &form.visitor_daily_orders,
    };
    let id = format!("link-{field}");
    html! {
        div class="field" {
            label for=(id) { (label) }
            (beside(form, field))
            input type="text" id=(id) name=(field) value=(typed) inputmode=(mode)
                aria-describedby=[described_by(form, field)];
        }
    }
}

fn value(l: &LinkDetails) -> String {
    match l.link.value {
        Some(v) => format!("{} {}", v.currency().code(), v.to_decimal_string()),
        None => "chosen by the customer".to_owned(),
    }
}

/// The page's account, its links and what the creation form offers and held.
pub struct LinksPage<'a> {
    pub mode: AccountMode,
    pub accounts: &'a [Account],
    pub account: Option<AccountId>,
    pub links: &'a [LinkDetails],
    pub next: Option<&'a str>,
    pub now: OffsetDateTime,
    pub bundles: &'a [BundleChoice],
    pub form: &'a LinkForm,
    /// How this mode's hosted pages take card payments, in words.
    pub card_payments: &'a str,
}

/// The offset links of one of the organisation's accounts, newest first, and
/// the form that creates one.
pub fn offset_links(who: &Principal, page: &LinksPage<'_>) -> Markup {
    let LinksPage {
        mode,
        accounts,
        account,
        links,
        next,
        now,
        bundles,
        form,
        card_payments,
    } = *page;
    let chosen = account.map(|a| a.to_string()).unwrap_or_default();
    let chosen_account = accounts.iter().find(|a| Some(a.id) == account);
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
                    p { "No offset link on this account yet." }
                } @else {
                    (table(Some("Offset links, newest first"), &[
                        Col::Text("Name"), Col::Text("Status"),
                        Col::Text("Value"), Col::Text("Created"),
                        Col::Text("Page"),
                    ], html! {
                        @for l in links {
                            tr {
                                td { a href=(format!("/console/offset-links/{}?mode={}&account={}", l.link.id, mode.as_str(), l.link.account_id)) { (l.link.name) } }
                                td class="status" { (l.link.status(now).as_str()) }
                                td { (value(l)) }
                                td { (when(l.link.created_at)) }
                                td { a href=(format!("/l/{}", l.link.id)) { "Open" span class="visually-hidden" { " the page of " (l.link.name) } } }
                            }
                        }
                    }))
                }
                @if let Some(after) = next {
                    p { a href=(format!("/console/offset-links?mode={}&account={chosen}&after={after}", mode.as_str())) rel="next" { "Older links" } }
                }
                @if let Some(a) = chosen_account {
                    (create_form(who, mode, a, bundles, form, card_payments))
                }
            }
        },
    )
}

/// The link's limits in one sentence.
fn limits(l: &LinkDetails) -> String {
    let m = &l.link.limits;
    format!(
        "at most {} t and {} {} per order; {} orders and {} t per day; {} orders per visitor address per day",
        m.order_mass.to_tonnes_string(),
        m.order_value.to_decimal_string(),
        m.order_value.currency().code(),
        m.daily_orders,
        m.daily_mass.to_tonnes_string(),
        m.visitor_daily_orders,
    )
}

/// One link: what it offers, and its analytics.
pub fn offset_link(
    who: &Principal,
    l: &LinkDetails,
    a: &Analytics,
    chart_svg: &str,
    now: OffsetDateTime,
    limits_form: Option<&LinkForm>,
) -> Markup {
    let current = LinkForm::of_limits(l);
    let shown = limits_form.unwrap_or(&current);
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
                dt { "Limits" } dd { (limits(l)) }
                dt { "Bundles" } dd { @for (i, b) in l.bundles.iter().enumerate() { @if i > 0 { ", " } (b.bundle.name) } }
                dt { "Page" } dd { a href=(format!("/l/{}", l.link.id)) { "/l/" (l.link.id) } }
                dt { "Unique visitors (per day)" } dd { (a.unique_visitors) }
                dt { "Placed orders" } dd { (a.placed_orders) }
            }
            h2 { "Orders and tonnes per day" }
            figure class="chart" role="img" aria-label="Bar chart of orders per day with a line of tonnes per day; the table below has the same figures." {
                (PreEscaped(chart_svg))
            }
            (table(Some("Per day (UTC)"), &[
                Col::Text("Day"), Col::Num("Visitors"),
                Col::Num("Orders"), Col::Num("Tonnes"),
            ], html! {
                @for d in &a.daily {
                    tr { td { (d.day) } td class="num" { (d.visitors) } td class="num" { (d.orders) } td class="num" { (d.quantity.to_tonnes_string()) } }
                }
            }))
            h2 id="limits" { "Limits of the page" }
            form method="post" action=(format!("/console/offset-links/{}/limits#limits", l.link.id)) {
                input type="hidden" name="csrf" value=(who.session.csrf_token);
                input type="hidden" name="mode" value=(mode);
                input type="hidden" name="account" value=(l.link.account_id);
                p class="hint" { "What anyone with the link may order. Leave a field empty for the server's default." }
                (limit_field(shown, "order_tonnes", "Most tonnes per order", "decimal"))
                (limit_field(shown, "order_value", &format!("Most {} per order", l.link.currency.code()), "decimal"))
                (limit_field(shown, "daily_orders", "Most orders per day (UTC)", "numeric"))
                (limit_field(shown, "daily_tonnes", "Most tonnes per day (UTC)", "decimal"))
                (limit_field(shown, "visitor_daily_orders", "Most orders per visitor address per day", "numeric"))
                button type="submit" { "Save the limits" }
            }
            h2 { "Switch on or off" }
            form method="post" action=(format!("/console/offset-links/{}/switch", l.link.id)) {
                input type="hidden" name="csrf" value=(who.session.csrf_token);
                input type="hidden" name="mode" value=(mode);
                input type="hidden" name="account" value=(l.link.account_id);
                @if l.link.switched_off {
                    input type="hidden" name="on" value="true";
                    p { "The link is switched off: its page takes no orders." }
                    button type="submit" { "Switch the link on" }
                } @else {
                    input type="hidden" name="on" value="false";
                    p { "Switched off, its page says so and takes no orders; you can switch it on again." }
                    button type="submit" { "Switch the link off" }
                }
            }
            p { a href=(format!("/console/offset-links?mode={mode}&account={}", l.link.account_id)) { "Back to the offset links" } }
        },
    )
}
