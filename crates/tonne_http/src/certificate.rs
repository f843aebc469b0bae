//! The retirement certificate of a completed order, as a PDF (built-in Helvetica,
//! no embedded fonts: a few kilobytes).

use printpdf::{
    BuiltinFont, Mm, Op, PdfDocument, PdfFontHandle, PdfPage, PdfSaveOptions, Point, Pt, TextItem,
};
use time::format_description::well_known::Rfc3339;
use tonne_ordering::Order;

/// Most project lines on the page; more are summarised.
const MAX_PROJECT_LINES: usize = 30;

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

/// Renders the certificate of a completed order retired for `beneficiary`.
pub fn render(order: &Order, beneficiary: &str) -> Vec<u8> {
    let mut ops = vec![
        Op::StartTextSection,
        Op::SetTextCursor {
            pos: Point::new(Mm(20.0), Mm(272.0)),
        },
    ];
    font(&mut ops, BuiltinFont::HelveticaBold, 20.0, 28.0);
    text(&mut ops, "Certificate of carbon credit retirement");
    font(&mut ops, BuiltinFont::Helvetica, 11.0, 16.0);
    text(&mut ops, format!("Order: {}", order.id));
    text(&mut ops, format!("Retired on behalf of: {beneficiary}"));
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
    text(&mut ops, "Projects");
    font(&mut ops, BuiltinFont::Helvetica, 10.0, 15.0);
    for p in order.projects.iter().take(MAX_PROJECT_LINES) {
        text(
            &mut ops,
            format!(
                "{} t - {} ({}) - registry: {} - serial: {}",
                p.quantity.to_tonnes_string(),
                p.project_name,
                p.project_type,
                p.registry.as_str(),
                p.serial.as_deref().unwrap_or("pending"),
            ),
        );
    }
    if order.projects.len() > MAX_PROJECT_LINES {
        text(
            &mut ops,
            format!(
                "... and {} more projects (see the order's projects)",
                order.projects.len() - MAX_PROJECT_LINES
            ),
        );
    }
    text(&mut ops, "");
    font(&mut ops, BuiltinFont::HelveticaOblique, 9.0, 13.0);
    text(
        &mut ops,
        "Issued by Tonne. The order's record: GET /v1/orders/{id}."
            .replace("{id}", &order.id.to_string()),
    );
    ops.push(Op::EndTextSection);
    let page = PdfPage::new(Mm(210.0), Mm(297.0), ops);
    PdfDocument::new(&format!("Certificate {}", order.id))
        .with_pages(vec![page])
        .save(&PdfSaveOptions::default(), &mut Vec::new())
}
