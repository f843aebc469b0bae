//! An invoice (or credit note) as a PDF a buyer can file: the seller and the
//! buyer, the number and dates, a line per order with its offset cost,
//! commission and total, then the subtotal, the tax and the amount due, on
//! A4 pages in the certificate's built-in Helvetica.

use printpdf::{BuiltinFont, PdfDocument, PdfSaveOptions};
use tonne_ordering::invoices::{Invoice, InvoiceKind, Party, printed_number};
use tonne_wire::invoices::tonnes;

use crate::certificate::pages::Pages;

/// Columns: order, date, tonnes, offset cost, commission, total (mm).
const COLS: [f32; 6] = [20.0, 80.0, 104.0, 124.0, 150.0, 172.0];

fn title(i: &Invoice) -> &'static str {
    match i.kind {
        InvoiceKind::Invoice => "Invoice",
        InvoiceKind::CreditNote { .. } => "Credit note",
    }
}

fn party(p: &mut Pages, heading: &str, who: &Party) {
    p.text(BuiltinFont::HelveticaBold, 9.5, 5.0, heading);
    p.text(BuiltinFont::Helvetica, 10.0, 5.0, &who.name);
    for line in who.address.lines() {
        p.text(BuiltinFont::Helvetica, 10.0, 5.0, line);
    }
    if let Some(tax_id) = &who.tax_id {
        p.text(
            BuiltinFont::Helvetica,
            10.0,
            5.0,
            &format!("Tax id: {tax_id}"),
        );
    }
    if let Some(email) = &who.email {
        p.text(BuiltinFont::Helvetica, 10.0, 5.0, email);
    }
    p.canvas.y -= 3.0;
}

/// The file name of an invoice's PDF: `INV-000042.pdf`.
pub fn file_name(i: &Invoice) -> String {
    format!("{}.pdf", i.printed_number())
}

/// The invoice as a PDF.
pub fn render(i: &Invoice) -> Vec<u8> {
    let title = title(i);
    let mut doc = PdfDocument::new(&format!("{title} {}", i.printed_number()));
    let mut p = Pages::new(title, &COLS);
    p.text(
        BuiltinFont::HelveticaBold,
        18.0,
        10.0,
        &format!("{title} {}", i.printed_number()),
    );
    let mut facts = vec![
        format!("Issued: {}", i.issued_at.date()),
        format!("Orders placed: {}", i.period),
        format!("Currency: {}", i.currency.code()),
    ];
    if let InvoiceKind::CreditNote {
        corrects_number, ..
    } = i.kind
    {
        facts.push(format!(
            "Cancels invoice {} in full",
            printed_number(corrects_number, InvoiceKind::Invoice)
        ));
    }
    if let Some(paid) = i.paid_at {
        facts.push(format!("Paid: {}", paid.date()));
    }
    if i.credited_by.is_some() {
        facts.push("Cancelled by a credit note".to_owned());
    }
    for line in &facts {
        p.text(BuiltinFont::Helvetica, 10.0, 5.5, line);
    }
    p.canvas.y -= 4.0;
    party(&mut p, "From", &i.seller);
    party(&mut p, "To", &i.buyer);

    p.heading("Carbon credits ordered");
    p.row_aligned(
        &[
            "Order",
            "Date",
            "Tonnes",
            "Offset cost",
            "Commission",
            "Total",
        ]
        .map(str::to_owned),
        true,
        2,
    );
    for l in &i.lines {
        p.row_aligned(
            &[
                l.order_id.to_string(),
                l.ordered_at.date().to_string(),
                tonnes(l.quantity, i.kind != InvoiceKind::Invoice),
                l.offset_cost.to_decimal_string(),
                l.commission.to_decimal_string(),
                l.total.to_decimal_string(),
            ],
            false,
            2,
        );
    }
    p.canvas.y -= 2.0;
    let code = i.currency.code();
    let sums = [
        ("Offset cost", i.offset_cost.to_decimal_string()),
        ("Commission", i.commission.to_decimal_string()),
        ("Subtotal", i.subtotal.to_decimal_string()),
        (
            &*format!("Tax at {} %", i.tax_rate),
            i.tax.to_decimal_string(),
        ),
    ];
    let sum_row = |label: &str, amount: String| {
        let blank = String::new;
        [blank(), blank(), blank(), label.to_owned(), blank(), amount]
    };
    for (name, amount) in sums {
        p.row_aligned(&sum_row(name, format!("{amount} {code}")), false, 5);
    }
    let (due, note) = match i.kind {
        InvoiceKind::Invoice => (
            "Total due",
            format!("Please quote {} with your payment.", i.printed_number()),
        ),
        InvoiceKind::CreditNote {
            corrects_number, ..
        } => (
            "Total credited",
            format!(
                "This credit note cancels {}: nothing is due on it.",
                printed_number(corrects_number, InvoiceKind::Invoice)
            ),
        ),
    };
    let total = format!("{} {code}", i.total.to_decimal_string());
    p.row_aligned(&sum_row(due, total), true, 5);
    p.canvas.y -= 6.0;
    for line in [
        note,
        "Each order's credits are retired at their registry; each order's certificate names the projects and serial numbers.".to_owned(),
    ] {
        p.text(BuiltinFont::Helvetica, 8.5, 4.5, &line);
    }
    doc.with_pages(p.finish())
        .save(&PdfSaveOptions::default(), &mut Vec::new())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use time::macros::datetime;
    use tonne_kernel::{AccountId, Currency, Mass, Money, OrganisationId};
    use tonne_ordering::OrderId;
    use tonne_ordering::invoices::{InvoiceBuilder, Invoiceable, Period, TaxRate, credit_note};

    fn invoice(orders: usize) -> Invoice {
        let builder = InvoiceBuilder {
            period: Period::month("2026-10").unwrap(),
            seller: Party::parse(
                "Tonne Operator Ltd",
                "1 High Street\nLondon",
                "GB123456789",
                "billing@tonne.example",
            )
            .unwrap(),
            buyer: Party::parse("Acme GmbH", "Hauptstrasse 2\nBerlin", "DE999", "").unwrap(),
            tax_rate: TaxRate::parse("19").unwrap(),
            at: datetime!(2026-11-01 9:00 UTC),
        };
        let rows = (0..orders)
            .map(|n| Invoiceable {
                order_id: OrderId::from_uuid(uuid::Uuid::from_u128(u128::try_from(n).unwrap() + 1)),
                account_id: AccountId::from_uuid(uuid::Uuid::from_u128(9)),
                ordered_at: datetime!(2026-10-03 12:00 UTC),
                quantity: Mass::from_grams(1_250_000),
                offset_cost: Money::from_minor(2_500, Currency::Eur),
                commission: Money::from_minor(250, Currency::Eur),
                total_cost: Money::from_minor(2_750, Currency::Eur),
            })
            .collect();
        builder.build(rows).remove(0).into_invoice(
            tonne_ordering::invoices::InvoiceId::from_uuid(uuid::Uuid::from_u128(77)),
            42,
            OrganisationId::from_uuid(uuid::Uuid::from_u128(5)),
        )
    }

    fn text(pdf: &[u8]) -> Vec<String> {
        let doc = lopdf::Document::load_mem(pdf).expect("a parseable PDF");
        let n = u32::try_from(doc.get_pages().len()).unwrap();
        (1..=n).map(|p| doc.extract_text(&[p]).unwrap()).collect()
    }

    #[test]
    fn an_invoice_names_both_parties_its_lines_and_what_is_due() {
        let i = invoice(2);
        let pages = text(&render(&i));
        assert_eq!(pages.len(), 1);
        let all = pages.concat();
        for want in [
            "Invoice INV-000042",
            "Tonne Operator Ltd",
            "GB123456789",
            "Acme GmbH",
            "Hauptstrasse 2",
            "2026-10-01 to 2026-10-31",
            "25.00",
            "55.00 EUR", // subtotal
            "Tax at 19 %",
            "10.45 EUR", // 19 % of 55.00
            "65.45 EUR", // due
        ] {
            assert!(all.contains(want), "{want} missing from {all}");
        }
    }

    #[test]
    fn many_orders_go_on_to_further_pages_and_a_credit_note_says_what_it_is() {
        let i = invoice(80);
        let pages = text(&render(&i));
        assert!(pages.len() >= 2, "{} pages", pages.len());
        assert!(pages[1].contains("Invoice, continued"));
        let note = credit_note(&i, datetime!(2026-11-05 9:00 UTC)).into_invoice(
            tonne_ordering::invoices::InvoiceId::from_uuid(uuid::Uuid::from_u128(78)),
            43,
            i.organisation_id,
        );
        let all = text(&render(&note)).concat();
        assert!(all.contains("Credit note CN-000043"), "{all}");
        assert!(all.contains("Total credited"), "{all}");
        assert!(all.contains("-2618.00 EUR"), "{all}");
    }
}
