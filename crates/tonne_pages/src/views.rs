//! The hosted pages' HTML (maud: compile-time checked, every value escaped).
//! No external style sheets or fonts; one inline style sheet
//! (`tonne_http::style`, shared with the console). No scripts, except on a
//! confirmation page whose card Stripe takes: Stripe.js from its configured
//! address and Tonne's own `/assets/card.js` that mounts its card field.

use maud::{Markup, PreEscaped, html};
use tonne_http::html_page::document;
use tonne_http::style::STYLE;
use tonne_kernel::Money;
use tonne_links::{Analytics, CardForm, Checkout, Confirmed, PublicLink};
use tonne_ordering::OrderStatus;

/// The page frame.
pub fn layout(title: &str, body: Markup) -> Markup {
    document(
        html! {
            meta name="referrer" content="no-referrer";
            title { (title) }
            style { (PreEscaped(STYLE)) }
        },
        html! { main id="main" { (body) } },
    )
}

pub(crate) fn money(m: Money) -> String {
    format!("{} {}", m.currency().code(), m.to_decimal_string())
}

fn header(link: &PublicLink) -> Markup {
    let l = &link.details.link;
    let heading = l.title.clone().unwrap_or_else(|| l.name.clone());
    html! {
        p class="account" {
            @if l.use_logo {
                @if let Some(logo) = &link.account.logo {
                    img src=(logo) alt=(format!("{} logo", link.account.name));
                }
            }
            (link.account.name)
        }
        h1 { (heading) }
        @if let Some(d) = &l.description { p { (d) } }
        @if link.account.mode == tonne_kernel::AccountMode::Test {
            p class="notice" { "Test mode: orders here are simulated and nothing is charged." }
        }
    }
}

/// What the customer typed, to refill the form after an error.
#[derive(Debug, Default, Clone)]
pub struct Filled {
    /// Chosen bundle id.
    pub bundle: String,
    pub email: String,
    pub amount: String,
    /// `money` or `tonnes`.
    pub unit: String,
}

/// The first step: the bundles, the email and the amount.
pub fn form(link: &PublicLink, csrf: &str, filled: &Filled, error: Option<&str>) -> Markup {
    let l = &link.details.link;
    let currency = link.account.currency.code();
    let action = format!("/l/{}/quote", l.id);
    let title = l.title.clone().unwrap_or_else(|| l.name.clone());
    layout(
        &title,
        html! {
            (header(link))
            @if let Some(e) = error {
                div class="error" role="alert" id="form-error" { (e) }
            }
            form method="post" action=(action) {
                input type="hidden" name="csrf" value=(csrf);
                fieldset class="bundles" {
                    legend { "Choose a project bundle" }
                    @for (view, price) in link.details.bundles.iter().zip(&link.prices) {
                        @let id = view.bundle.id.to_string();
                        @let input_id = format!("bundle-{id}");
                        label class="bundle" for=(input_id) {
                            input type="radio" name="bundle" id=(input_id) value=(id) required
                                checked[filled.bundle == id || link.details.bundles.len() == 1];
                            " "
                            span class="name" { (view.bundle.name) }
                            @if let Some(img) = &view.bundle.primary_image {
                                img src=(img) alt="" loading="lazy";
                            }
                            @if let Some(p) = price {
                                div class="price" { (money(*p)) " per tonne" }
                            }
                            @if let Some(d) = &view.bundle.description { div class="hint" { (d) } }
                            @if !view.projects.is_empty() {
                                ul {
                                    @for p in &view.projects {
                                        li { (p.name) " — " (p.country_name) }
                                    }
                                }
                            }
                        }
                    }
                }
                div class="field" {
                    label for="email" { "Email" }
                    input type="email" id="email" name="email" required autocomplete="email"
                        value=(filled.email) aria-describedby="email-hint";
                    p class="hint" id="email-hint" { "Your confirmation is tied to this address." }
                }
                @if let Some(v) = l.value {
                    div class="field" {
                        p { strong { "Amount: " } (money(v)) " (set by " (link.account.name) ")" }
                    }
                } @else {
                    div class="field" {
                        label for="amount" { "Amount" }
                        input type="text" id="amount" name="amount" inputmode="decimal" required
                            value=(filled.amount) aria-describedby="amount-hint";
                        p class="hint" id="amount-hint" { "A sum of money in " (currency) ", or a mass in tonnes of CO₂e." }
                        fieldset class="units" {
                            legend { "Unit" }
                            label {
                                input type="radio" name="unit" value="money" checked[filled.unit != "tonnes"];
                                " " (currency)
                            }
                            " "
                            label {
                                input type="radio" name="unit" value="tonnes" checked[filled.unit == "tonnes"];
                                " tonnes CO₂e"
                            }
                        }
                    }
                }
                button type="submit" { "See the price" }
            }
            footer { "Offsets are retired on the projects' registries; every order gets a certificate once complete." }
        },
    )
}

/// The confirmation step: the price, and (with `require_payment`) the card.
pub fn confirm(c: &Checkout, csrf: &str, token: &str, filled: &Filled, card: &CardForm) -> Markup {
    let link = &c.link;
    let l = &link.details.link;
    let action = format!("/l/{}/order", l.id);
    layout(
        "Confirm your order",
        html! {
            (header(link))
            h2 { "Confirm your order" }
            dl class="summary" {
                dt { "Bundle" } dd { (c.bundle.bundle.name) }
                dt { "Email" } dd { (c.email.as_str()) }
                dt { "Tonnes of CO₂e" } dd { (c.quote.quantity.to_tonnes_string()) }
                dt { "Cost" } dd { (money(c.quote.total_cost)) }
            }
            (pay_form(&action, card, csrf, token, html! {
                input type="hidden" name="bundle" value=(filled.bundle);
                input type="hidden" name="email" value=(filled.email);
                input type="hidden" name="amount" value=(filled.amount);
                input type="hidden" name="unit" value=(filled.unit);
                @if l.require_payment {
                    (card_step(card, &link.account.name))
                }
                button type="submit" { "Confirm and fund" }
            }))
            p { a href=(format!("/l/{}", l.id)) { "Change my choice" } }
            (card_scripts(card))
        },
    )
}

/// The form that confirms a payment (`id="pay"`, which `/assets/card.js`
/// finds): the processor's keys for Stripe.js, the CSRF token and the
/// one-time token, then `fields`.
fn pay_form(action: &str, card: &CardForm, csrf: &str, token: &str, fields: Markup) -> Markup {
    let processor = card.processor();
    html! {
        form id="pay" method="post" action=(action)
            data-key=[processor.map(|p| p.publishable_key.as_str())]
            data-secret=[processor.map(|p| p.client_secret.as_str())] {
            input type="hidden" name="csrf" value=(csrf);
            input type="hidden" name="token" value=(token);
            (fields)
        }
    }
}

/// The card step of a checkout form: Tonne's test field, Stripe's field,
/// or the notice that `seller` confirms payment.
pub(crate) fn card_step(card: &CardForm, seller: &str) -> Markup {
    html! {
        @match card {
            CardForm::Number => {
                div class="field" {
                    label for="card" { "Card number" }
                    input type="text" id="card" name="card" inputmode="numeric" required
                        autocomplete="cc-number" aria-describedby="card-hint";
                    p class="hint" id="card-hint" {
                        "Test mode: 4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined."
                    }
                }
            }
            CardForm::Processor(_) => {
                fieldset class="field" {
                    legend { "Card" }
                    div id="card-element" {}
                    p class="hint" { "Your card is taken by Stripe, our card processor; it never reaches this site. It is charged when your order is placed." }
                    p id="card-errors" class="hint" role="alert" aria-live="assertive" {}
                    input type="hidden" name="payment_method" value="";
                }
                noscript {
                    p class="notice" { "Paying by card needs JavaScript: Stripe takes your card in its own secure field. Turn JavaScript on for this page and reload it." }
                }
            }
            CardForm::Operator => {
                p class="notice" { "Payment: " (seller) " confirms your order once your payment has been received." }
            }
        }
    }
}

/// The processor's script and Tonne's card script, when Stripe takes the card.
pub(crate) fn card_scripts(card: &CardForm) -> Markup {
    html! {
        @if let Some(p) = card.processor() {
            script src=(p.script_url) {}
            script src="/assets/card.js" {}
        }
    }
}

/// The order placed.
pub fn confirmed(c: &Confirmed, public_url: &str) -> Markup {
    let o = &c.order;
    let certificate_url = format!("{public_url}/certificates/{}", o.id);
    layout(
        "Thank you",
        html! {
            (header(&c.link))
            h2 { "Thank you — your order is placed" }
            dl class="summary" {
                dt { "Order" } dd { code { (o.id) } }
                dt { "Tonnes of CO₂e" } dd { (o.quantity.to_tonnes_string()) }
                dt { "Cost" } dd { (money(o.total_cost)) }
                dt { "Status" } dd { (o.status.as_str()) }
            }
            @if c.awaiting_payment {
                p class="notice" { "Your order will be processed once " (c.link.account.name) " has confirmed your payment." }
            }
            ul {
                @if o.status == OrderStatus::Complete {
                    li { a href=(certificate_url) { "See the certificate" } }
                    li { a href=(format!("{certificate_url}.pdf")) { "Download the certificate (PDF)" } }
                } @else {
                    li { "Your certificate will be at " a href=(certificate_url.as_str()) { (certificate_url.as_str()) } " once the credits are retired. Keep this address." }
                }
            }
        },
    )
}

/// A page with a message and no form (404, 410, 403, 429, …).
pub fn message(title: &str, text: &str) -> Markup {
    layout(
        title,
        html! {
            h1 { (title) }
            p { (text) }
        },
    )
}

/// The analytics page behind a signed URL.
pub fn analytics(name: &str, a: &Analytics, chart_svg: &str) -> Markup {
    layout(
        &format!("Analytics — {name}"),
        html! {
            h1 { "Analytics — " (name) }
            dl class="summary" {
                dt { "Unique visitors (per day)" } dd { (a.unique_visitors) }
                dt { "Placed orders" } dd { (a.placed_orders) }
            }
            h2 { "Orders and tonnes per day" }
            figure class="chart" role="img" aria-label="Bar chart of orders per day with a line of tonnes per day; the table below has the same figures." {
                (PreEscaped(chart_svg))
            }
            table {
                caption { "Per day (UTC)" }
                thead { tr { th scope="col" { "Day" } th scope="col" { "Visitors" } th scope="col" { "Orders" } th scope="col" { "Tonnes" } } }
                tbody {
                    @for d in &a.daily {
                        tr { td { (d.day) } td { (d.visitors) } td { (d.orders) } td { (d.quantity.to_tonnes_string()) } }
                    }
                }
            }
            h2 { "Orders" }
            table {
                thead { tr { th scope="col" { "Placed" } th scope="col" { "Order" } th scope="col" { "Email" } th scope="col" { "Bundles" } } }
                tbody {
                    @for o in &a.orders {
                        tr {
                            td { (tonne_http::wire::rfc3339(o.created_at)) }
                            td { code { (o.order_id) } }
                            td { (o.email) }
                            td { (o.bundles.iter().map(|(_, n)| n.as_str()).collect::<Vec<_>>().join(", ")) }
                        }
                    }
                }
            }
        },
    )
}

/// Lune Pay's page: what the platform asks the buyer to pay, the card step,
/// and the way back.
pub fn pay_page(
    c: &tonne_links::pay::PayCheckout,
    csrf: &str,
    token: &str,
    card: &CardForm,
    error: Option<&str>,
) -> Markup {
    let r = &c.request;
    let back = r.redirect_label.as_deref().unwrap_or("Back without paying");
    layout(
        &format!("Pay {}", money(c.quote.total_cost)),
        html! {
            p class="account" {
                @if let Some(logo) = &c.account.logo {
                    img src=(logo) alt=(format!("{} logo", c.account.name));
                }
                (c.account.name)
            }
            h1 { "Offset " (c.quote.quantity.to_tonnes_string()) " t of CO₂e" }
            @if c.account.mode == tonne_kernel::AccountMode::Test {
                p class="notice" { "Test mode: orders here are simulated and nothing is charged." }
            }
            @if let Some(e) = error {
                div class="error" role="alert" id="form-error" { (e) }
            }
            dl class="summary" {
                dt { "Bundle" } dd { (c.bundle.bundle.name) }
                dt { "Tonnes of CO₂e" } dd { (c.quote.quantity.to_tonnes_string()) }
                dt { "Cost" } dd { (money(c.quote.total_cost)) }
            }
            (pay_form(&format!("/pay/{}", c.account_id), card, csrf, token, html! {
                input type="hidden" name="quantity" value=(r.quantity);
                input type="hidden" name="bundle_id" value=(r.bundle_id);
                input type="hidden" name="redirect_url" value=(r.redirect_url);
                @if let Some(l) = &r.redirect_label { input type="hidden" name="redirect_label" value=(l); }
                @if let Some(x) = &r.external_id { input type="hidden" name="external_id" value=(x); }
                (card_step(card, &c.account.name))
                button type="submit" { "Pay " (money(c.quote.total_cost)) }
            }))
            p { a href=(r.redirect_url) { (back) } }
            (card_scripts(card))
        },
    )
}
