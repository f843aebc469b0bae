//! Invoices: operators see every organisation's, with payment and credit
//! notes; members see their organisation's and keep its billing details.

use maud::{Markup, html};
use tonne_accounts::users::{Principal, Role};
use tonne_ordering::invoices::{Invoice, InvoiceKind, InvoiceStatus, Party};
use tonne_ordering::ports::BillingOnFile;

use super::controls::once_key;
use super::dates::when;
use super::frame::page;
use super::table::{Col, table};

/// The billing form as sent (or as stored).
#[derive(Debug, Clone, Default)]
pub struct BillingForm {
    pub name: String,
    pub address: String,
    pub tax_id: String,
    pub email: String,
}

impl BillingForm {
    /// The form filled with what is on file.
    pub fn of(on_file: &BillingOnFile) -> Self {
        match &on_file.details {
            Some(p) => Self::from(p),
            None => Self {
                name: on_file.organisation_name.clone(),
                ..Self::default()
            },
        }
    }
}

impl From<&Party> for BillingForm {
    fn from(p: &Party) -> Self {
        Self {
            name: p.name.clone(),
            address: p.address.clone(),
            tax_id: p.tax_id.clone().unwrap_or_default(),
            email: p.email.clone().unwrap_or_default(),
        }
    }
}

fn action(who: &Principal, i: &Invoice, to: &str, label: &str) -> Markup {
    html! {
        form method="post" action=(format!("/console/invoices/{}/{to}", i.id)) class="inline" {
            input type="hidden" name="csrf" value=(who.session.csrf_token);
            input type="hidden" name="once" value=(once_key());
            button type="submit" aria-label=(format!("{label}: {}", i.printed_number())) { (label) }
        }
    }
}

fn status(i: &Invoice) -> &'static str {
    match (i.kind, i.status()) {
        (InvoiceKind::CreditNote { .. }, _) => "credit note",
        (_, InvoiceStatus::Issued) => "issued, unpaid",
        (_, InvoiceStatus::Paid) => "paid",
        (_, InvoiceStatus::Credited) => "credited",
    }
}

/// The list of invoices (and, for a member, the billing details form).
pub fn invoices(
    who: &Principal,
    list: &[Invoice],
    next: Option<&str>,
    billing: Option<&BillingForm>,
    problem: Option<&str>,
) -> Markup {
    let operator = who.user.role == Role::Operator;
    let columns: Vec<Col<'_>> = std::iter::once(Col::Text("Number"))
        .chain(operator.then_some(Col::Text("Buyer")))
        .chain([
            Col::Text("Orders placed"),
            Col::Text("Issued"),
            Col::Num("Total"),
            Col::Text("State"),
            Col::Hidden("Actions"),
        ])
        .collect();
    page(
        who,
        "Invoices",
        problem,
        html! {
            p {
                "An invoice covers an organisation's live orders paid by invoice over a month (or a period), one per currency, a line per order. "
                "Numbers run without gaps across the installation; an invoice is never edited: a credit note takes it back. "
                @if operator {
                    "Issue them with " code { "tonne invoices issue --month YYYY-MM" } "; marking one paid marks its orders paid."
                }
            }
            @if list.is_empty() {
                p { "No invoices yet." }
            } @else {
                (table(None, &columns, html! {
                    @for i in list {
                        tr {
                            td { (i.printed_number()) }
                            @if operator { td { (i.buyer.name) } }
                            td { (i.period) }
                            td { (when(i.issued_at)) }
                            td class="num" { (i.total.to_decimal_string()) " " (i.currency.code()) }
                            td { (status(i)) }
                            td {
                                a href=(format!("/console/invoices/{}/pdf", i.id)) download=(format!("{}.pdf", i.printed_number())) {
                                    "PDF" span class="visually-hidden" { " of " (i.printed_number()) }
                                }
                                @if operator && i.kind == InvoiceKind::Invoice && i.status() == InvoiceStatus::Issued {
                                    " " (action(who, i, "pay", "Mark paid"))
                                    " " (action(who, i, "credit", "Credit note"))
                                }
                            }
                        }
                    }
                }))
                @if let Some(next) = next {
                    p { a href=(format!("/console/invoices?after={next}")) { "Older invoices" } }
                }
            }
            @if let Some(form) = billing {
                h2 { "Billing details" }
                p { "Invoices name your organisation with these details, as they are when each invoice is issued." }
                form method="post" action="/console/invoices/billing" {
                    input type="hidden" name="csrf" value=(who.session.csrf_token);
                    input type="hidden" name="once" value=(once_key());
                    div class="field" {
                        label for="billing-name" { "Legal name" }
                        input id="billing-name" type="text" name="name" value=(form.name) required maxlength="500" autocomplete="organization";
                    }
                    div class="field" {
                        label for="billing-address" { "Postal address" }
                        textarea id="billing-address" name="address" rows="4" maxlength="500" autocomplete="street-address" { (form.address) }
                    }
                    div class="field" {
                        label for="billing-tax" { "Tax (VAT) number" }
                        input id="billing-tax" type="text" name="tax_id" value=(form.tax_id) maxlength="500";
                    }
                    div class="field" {
                        label for="billing-email" { "Invoices email" }
                        input id="billing-email" name="email" type="email" value=(form.email) maxlength="500" autocomplete="email";
                    }
                    button type="submit" { "Save billing details" }
                }
            }
        },
    )
}
