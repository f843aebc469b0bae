//! The hosted pages' HTML (maud: compile-time checked, every value escaped).
//! No scripts, no external style sheets or fonts; one inline style sheet with
//! visible focus, AA contrast and a layout that reflows on narrow screens.

use maud::{DOCTYPE, Markup, PreEscaped, html};
use tonne_kernel::Money;
use tonne_links::{Analytics, Checkout, Confirmed, PublicLink};
use tonne_ordering::OrderStatus;

pub(crate) const STYLE: &str = r#"
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1b1b;background:#f6f7f4}
main{max-width:52rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1{font-size:1.8rem;line-height:1.2;margin:.5rem 0 1rem}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
a{color:#0b4f9c}
.account{color:#3d3d3d;margin:0}
.account img{height:2.5rem;vertical-align:middle;margin-right:.5rem}
.bundles{display:grid;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr));gap:1rem;border:0;padding:0;margin:0}
.bundles legend{font-weight:600;margin-bottom:.5rem}
.bundle{display:block;background:#fff;border:2px solid #c8cbc3;border-radius:.5rem;padding:1rem;cursor:pointer}
.bundle:has(input:checked){border-color:#0b4f9c;box-shadow:0 0 0 2px #0b4f9c}
.bundle img{width:100%;height:8rem;object-fit:cover;border-radius:.25rem;background:#dfe3da}
.bundle .name{font-weight:600;font-size:1.05rem}
.bundle ul{margin:.25rem 0 0;padding-left:1.1rem;font-size:.95rem;color:#333}
.price{font-weight:600;color:#1e4d2b}
.field{margin:1rem 0}
.field label,.field legend{display:block;font-weight:600;margin-bottom:.25rem}
.hint{font-size:.9rem;color:#3d3d3d;margin:.25rem 0}
input[type=email],input[type=text]{width:100%;max-width:24rem;font:inherit;padding:.6rem;border:2px solid #6b6f66;border-radius:.35rem;background:#fff;color:#1b1b1b}
fieldset.units{border:0;padding:0;margin:.5rem 0}
button{font:inherit;font-weight:600;padding:.7rem 1.4rem;border:0;border-radius:.35rem;background:#0b4f9c;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#0b4f9c;border:2px solid #0b4f9c}
:focus-visible{outline:3px solid #c2410c;outline-offset:2px}
input[type=radio]:focus-visible{outline:3px solid #c2410c}
.error{background:#fdecea;border-left:4px solid #b42318;padding:.75rem 1rem;color:#7a1610}
.notice{background:#e8f1fb;border-left:4px solid #0b4f9c;padding:.75rem 1rem}
.summary{background:#fff;border:1px solid #c8cbc3;border-radius:.5rem;padding:1rem}
.summary dt{font-weight:600}
.summary dd{margin:0 0 .5rem}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #d7d9d3}
.chart{margin:1rem 0}
.chart svg,.chart img{max-width:100%;height:auto}
footer{margin-top:2rem;font-size:.9rem;color:#3d3d3d}
.num{text-align:right}
table.certificate th[scope=row]{font-weight:600}
table.certificate .serial{white-space:nowrap}
@media (max-width:40rem){
table.certificate thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
table.certificate tr{display:block;border-bottom:2px solid #c8cbc3;padding:.5rem 0}
table.certificate th,table.certificate td{display:block;border:0;padding:.1rem .5rem;text-align:left}
table.certificate .serial{white-space:normal;overflow-wrap:anywhere}
table.certificate td::before{content:attr(data-label) ": ";font-weight:600}
}
"#;

/// The page frame.
pub fn layout(title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="referrer" content="no-referrer";
                title { (title) }
                style { (PreEscaped(STYLE)) }
            }
            body {
                main id="main" { (body) }
            }
        }
    }
}

pub(super) fn money(m: Money) -> String {
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
pub fn confirm(c: &Checkout, csrf: &str, token: &str, filled: &Filled) -> Markup {
    let link = &c.link;
    let l = &link.details.link;
    let action = format!("/l/{}/order", l.id);
    let test = link.account.mode == tonne_kernel::AccountMode::Test;
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
            form method="post" action=(action) {
                input type="hidden" name="csrf" value=(csrf);
                input type="hidden" name="token" value=(token);
                input type="hidden" name="bundle" value=(filled.bundle);
                input type="hidden" name="email" value=(filled.email);
                input type="hidden" name="amount" value=(filled.amount);
                input type="hidden" name="unit" value=(filled.unit);
                @if l.require_payment {
                    @if test {
                        div class="field" {
                            label for="card" { "Card number" }
                            input type="text" id="card" name="card" inputmode="numeric" required
                                autocomplete="cc-number" aria-describedby="card-hint";
                            p class="hint" id="card-hint" {
                                "Test mode: 4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined."
                            }
                        }
                    } @else {
                        p class="notice" { "Payment: " (link.account.name) " confirms your order once your payment has been received." }
                    }
                }
                button type="submit" { "Confirm and fund" }
            }
            p { a href=(format!("/l/{}", l.id)) { "Change my choice" } }
        },
    )
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
                            td { (crate::wire::rfc3339(o.created_at)) }
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
