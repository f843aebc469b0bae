//! The certificate as a PDF: every project listed, on as many A4 pages as it
//! takes, the account's logo (when it has one) heading the first page.

use printpdf::{
    BuiltinFont, Mm, Op, PdfDocument, PdfPage, PdfSaveOptions, Pt, RawImage, RawImageData,
    RawImageFormat, XObjectId, XObjectTransform,
};

use super::canvas::Canvas;
use super::geometry::{BOTTOM, LEFT, PAGE_H, PAGE_W, RIGHT};
use super::sheet::{Sheet, TITLE};
use super::text::fit;

/// An account logo ready for the PDF: 8-bit RGB pixels, row by row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logo {
    pub width: usize,
    pub height: usize,
    /// `width × height × 3` bytes.
    pub rgb: Vec<u8>,
}

/// Draws the logo at the top left, 14 mm high; answers the width it took (mm).
fn draw_logo(canvas: &mut Canvas, logo: &Logo, id: XObjectId, top: f32) -> f32 {
    const HEIGHT_MM: f32 = 14.0;
    let px = |n: usize| f32::from(u16::try_from(n).unwrap_or(u16::MAX)).max(1.0);
    let (w, h) = (px(logo.width), px(logo.height));
    // at the default 300 dpi a pixel is 72/300 pt
    let natural_h = Mm::from(Pt(h * 72.0 / 300.0)).0;
    let scale = HEIGHT_MM / natural_h;
    let width_mm = Mm::from(Pt(w * 72.0 / 300.0)).0 * scale;
    canvas.ops.push(Op::UseXobject {
        id,
        transform: XObjectTransform {
            translate_x: Some(Mm(LEFT).into_pt()),
            translate_y: Some(Mm(top - HEIGHT_MM).into_pt()),
            scale_x: Some(scale),
            scale_y: Some(scale),
            ..XObjectTransform::default()
        },
    });
    width_mm
}

/// Renders the certificate: every project is listed, on as many A4 pages as it
/// takes; the logo (when given) heads the first page.
pub fn render(sheet: &Sheet, logo: Option<&Logo>) -> Vec<u8> {
    let mut doc = PdfDocument::new(&format!("{TITLE} - order {}", sheet.order_id));
    let mut first = Canvas::new(277.0);
    let logo_id = logo.and_then(|l| {
        let expected = l.width.checked_mul(l.height)?.checked_mul(3)?;
        (expected == l.rgb.len() && expected > 0).then(|| {
            doc.add_image(&RawImage {
                pixels: RawImageData::U8(l.rgb.clone()),
                width: l.width,
                height: l.height,
                data_format: RawImageFormat::RGB8,
                tag: Vec::new(),
            })
        })
    });
    match (logo, logo_id) {
        (Some(l), Some(id)) => {
            let width = draw_logo(&mut first, l, id, 282.0);
            let y = 282.0 - 9.0;
            first.text_at(
                LEFT + width + 4.0,
                y,
                BuiltinFont::HelveticaBold,
                13.0,
                0.1,
                &fit(&sheet.account_name, RIGHT - LEFT - width - 4.0, 13.0, true),
            );
            first.y = 282.0 - 14.0 - 10.0;
        }
        _ => {
            first.line(
                BuiltinFont::HelveticaBold,
                13.0,
                11.0,
                &fit(&sheet.account_name, RIGHT - LEFT, 13.0, true),
            );
        }
    }
    first.line(BuiltinFont::HelveticaBold, 20.0, 12.0, TITLE);
    let summary = [
        format!(
            "Retired on behalf of: {}",
            fit(&sheet.beneficiary, RIGHT - LEFT - 45.0, 11.0, false)
        ),
        format!("Date: {}", sheet.date),
        format!("Total retired: {} t CO2e", sheet.total_tonnes),
        format!("Order: {}", sheet.order_id),
    ];
    for line in &summary {
        first.line(BuiltinFont::Helvetica, 11.0, 6.2, line);
    }
    if let Some(notice) = sheet.test_notice() {
        first.y -= 1.0;
        first.line(BuiltinFont::HelveticaOblique, 9.0, 5.5, notice);
    }
    first.y -= 4.0;
    first.line(
        BuiltinFont::HelveticaBold,
        13.0,
        8.0,
        &format!("Projects ({})", sheet.rows.len()),
    );
    first.table_header();

    let mut pages = Vec::new();
    let mut canvas = first;
    for row in &sheet.rows {
        if canvas.y - Canvas::row_height(row) < BOTTOM {
            pages.push(PdfPage::new(
                Mm(PAGE_W),
                Mm(PAGE_H),
                std::mem::take(&mut canvas.ops),
            ));
            canvas = Canvas::new(277.0);
            canvas.line(
                BuiltinFont::Helvetica,
                10.0,
                9.0,
                &format!("Order {} - projects, continued", sheet.order_id),
            );
            canvas.table_header();
        }
        canvas.row(row);
    }
    if canvas.y - 12.0 < BOTTOM {
        pages.push(PdfPage::new(
            Mm(PAGE_W),
            Mm(PAGE_H),
            std::mem::take(&mut canvas.ops),
        ));
        canvas = Canvas::new(277.0);
    }
    canvas.y -= 4.0;
    canvas.line(
        BuiltinFont::HelveticaOblique,
        9.0,
        5.0,
        &format!(
            "Issued by Tonne for {}.",
            fit(&sheet.account_name, RIGHT - LEFT - 40.0, 9.0, false)
        ),
    );
    canvas.line(
        BuiltinFont::HelveticaOblique,
        9.0,
        5.0,
        &format!(
            "This certificate online: {}",
            fit(&sheet.public_url, RIGHT - LEFT - 40.0, 9.0, false)
        ),
    );
    pages.push(PdfPage::new(Mm(PAGE_W), Mm(PAGE_H), canvas.ops));
    doc.with_pages(pages)
        .save(&PdfSaveOptions::default(), &mut Vec::new())
}
