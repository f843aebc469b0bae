//! The retirement certificate of a completed order, as a PDF (built-in Helvetica,
//! no embedded fonts: a few kilobytes).

use printpdf::{
    BuiltinFont, Mm, Op, PdfDocument, PdfFontHandle, PdfPage, PdfSaveOptions, Point, Pt, TextItem,
};
use time::format_description::well_known::Rfc3339;
use tonne_ordering::Order;

/// Project lines on the first page (below the summary) and on each further page.
const FIRST_PAGE_LINES: usize = 36;
const PAGE_LINES: usize = 48;
/// Longest project line, in characters (A4 at 10 pt Helvetica with 20 mm margins).
const MAX_LINE: usize = 105;

/// A line shortened to fit the page width.
fn fit(line: String) -> String {
    if line.chars().count() <= MAX_LINE {
        return line;
    }
    let mut short: String = line.chars().take(MAX_LINE - 3).collect();
    short.push_str("...");
    short
}

fn page_start(top: f32) -> Vec<Op> {
    vec![
        Op::StartTextSection,
        Op::SetTextCursor {
            pos: Point::new(Mm(20.0), Mm(top)),
        },
    ]
}

fn text(ops: &mut Vec<Op>, line: impl Into<String>) {
    ops.push(Op::ShowText {
        items: vec![TextItem::Text(line.into())],
    });
    ops.push(Op::AddLineBreak);
}

fn font(ops: &mut Vec<Op>, font: BuiltinFont, size: f32, line_height: f32) {
    ops.push(Op::SetFont {
        font: PdfFontHandle::Builtin(font),
        size: Pt(size),
    });
    ops.push(Op::SetLineHeight {
        lh: Pt(line_height),
    });
}

/// Renders the certificate of a completed order retired for `beneficiary`:
/// every project is listed, on as many A4 pages as it takes.
pub fn render(order: &Order, beneficiary: &str) -> Vec<u8> {
    let mut ops = page_start(272.0);
    font(&mut ops, BuiltinFont::HelveticaBold, 20.0, 28.0);
    text(&mut ops, "Certificate of carbon credit retirement");
    font(&mut ops, BuiltinFont::Helvetica, 11.0, 16.0);
    text(&mut ops, format!("Order: {}", order.id));
    text(
        &mut ops,
        fit(format!("Retired on behalf of: {beneficiary}")),
    );
    text(
        &mut ops,
        format!(
            "Date: {}",
            order.updated_at.format(&Rfc3339).unwrap_or_default()
        ),
    );
    text(
        &mut ops,
        format!(
            "Total retired: {} t CO2e",
            order.quantity.to_tonnes_string()
        ),
    );
    text(
        &mut ops,
        format!(
            "Total paid: {} {}",
            order.total_cost.to_decimal_string(),
            order.currency.code()
        ),
    );
    text(&mut ops, "");
    font(&mut ops, BuiltinFont::HelveticaBold, 12.0, 18.0);
    text(&mut ops, format!("Projects ({})", order.projects.len()));
    font(&mut ops, BuiltinFont::Helvetica, 10.0, 15.0);
    let mut pages = Vec::new();
    let mut room = FIRST_PAGE_LINES;
    for p in &order.projects {
        if room == 0 {
            ops.push(Op::EndTextSection);
            pages.push(PdfPage::new(Mm(210.0), Mm(297.0), std::mem::take(&mut ops)));
            ops = page_start(277.0);
            font(&mut ops, BuiltinFont::Helvetica, 10.0, 15.0);
            text(
                &mut ops,
                format!("Order {} - projects, continued", order.id),
            );
            text(&mut ops, "");
            room = PAGE_LINES;
        }
        text(
            &mut ops,
            // the figures first: a long project name is what gets shortened
            fit(format!(
                "{} t - serial: {} - registry: {} - {} ({})",
                p.quantity.to_tonnes_string(),
                p.serial.as_deref().unwrap_or("pending"),
                p.registry.as_str(),
                p.project_name,
                p.project_type,
            )),
        );
        room -= 1;
    }
    text(&mut ops, "");
    font(&mut ops, BuiltinFont::HelveticaOblique, 9.0, 13.0);
    text(
        &mut ops,
        "Issued by Tonne. The order's record: GET /v1/orders/{id}."
            .replace("{id}", &order.id.to_string()),
    );
    ops.push(Op::EndTextSection);
    pages.push(PdfPage::new(Mm(210.0), Mm(297.0), ops));
    PdfDocument::new(&format!("Certificate {}", order.id))
        .with_pages(pages)
        .save(&PdfSaveOptions::default(), &mut Vec::new())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use time::macros::datetime;
    use tonne_kernel::{AccountId, AccountMode, Currency, Mass, Money};
    use tonne_ordering::{OrderId, OrderKind, OrderStatus, ProjectAllocation, ProjectId, Registry};
    use uuid::Uuid;

    use super::*;

    fn order(projects: usize) -> Order {
        let gbp = |m| Money::from_minor(m, Currency::Gbp);
        Order {
            id: OrderId::from_uuid(Uuid::from_u128(7)),
            account_id: AccountId::from_uuid(Uuid::from_u128(8)),
            mode: AccountMode::Test,
            idempotency_key: None,
            kind: OrderKind::Quantity,
            status: OrderStatus::Complete,
            currency: Currency::Gbp,
            quantity: Mass::from_grams(1_000_000 * i64::try_from(projects).unwrap()),
            offset_cost: gbp(1000),
            commission: gbp(100),
            total_cost: gbp(1100),
            lines: vec![],
            requested_quantity: None,
            requested_value: None,
            metadata: vec![],
            offset_link_id: None,
            email: None,
            estimate_id: None,
            projects: (0..projects)
                .map(|i| ProjectAllocation {
                    project_id: ProjectId::from_uuid(Uuid::from_u128(100 + u128::try_from(i).unwrap())),
                    project_name: format!(
                        "Project number {i} with a deliberately long name that goes on and on across the page"
                    ),
                    project_type: "Forest conservation (REDD+)".into(),
                    project_slug: format!("p{i}"),
                    registry: Registry::Verra,
                    quantity: Mass::from_grams(1_000_000),
                    unit_price: gbp(1000),
                    offset_cost: gbp(10),
                    serial: Some(format!("VCS-{i:04}")),
                })
                .collect(),
            created_at: datetime!(2026-11-22 9:00 UTC),
            updated_at: datetime!(2026-11-22 9:05 UTC),
        }
    }

    fn pages(pdf: &[u8]) -> Vec<String> {
        let doc = lopdf::Document::load_mem(pdf).expect("a parseable PDF");
        let n = u32::try_from(doc.get_pages().len()).unwrap();
        (1..=n).map(|p| doc.extract_text(&[p]).unwrap()).collect()
    }

    #[test]
    fn one_project_fits_one_page() {
        let text = pages(&render(&order(1), "Acme"));
        assert_eq!(text.len(), 1);
        assert!(text[0].contains("Projects (1)"), "{}", text[0]);
        assert!(text[0].contains("serial: VCS-0000"), "{}", text[0]);
        assert!(text[0].contains("Retired on behalf of: Acme"));
    }

    #[test]
    fn sixty_projects_are_all_listed_across_pages_within_the_margins() {
        let text = pages(&render(&order(60), "Acme"));
        assert_eq!(
            text.len(),
            2,
            "36 lines on the first page, the rest on the second"
        );
        let all = text.join("\n");
        for i in 0..60 {
            assert!(
                all.contains(&format!("serial: VCS-{i:04}")),
                "project {i} missing"
            );
        }
        assert!(text[1].contains("projects, continued"));
        assert!(
            text[1].contains("Issued by Tonne"),
            "the footer ends the last page"
        );
        assert!(
            all.lines().all(|l| l.chars().count() <= MAX_LINE),
            "every line fits the page width"
        );
    }
}
