//! The retirement certificate of a completed order: what it says ([`Sheet`],
//! shared by the hosted page and the PDF so that both say the same in the same
//! order) and the PDF itself (built-in Helvetica, no embedded fonts: a few
//! kilobytes).
//!
//! Layout, on the page and in the PDF alike: the account (logo and name), the
//! title, the summary (beneficiary, date, total tonnes, order), the projects
//! table (project, type, country, tonnes; then registry and serial number) and
//! the footer with the public page's address. The A4 page cannot hold six
//! columns legibly, so in the PDF each project's registry and serial number sit
//! on a second line under it.

use printpdf::{
    Actions, BuiltinFont, Color, LinkAnnotation, Mm, Op, PdfDocument, PdfFontHandle, PdfPage,
    PdfSaveOptions, Point, Pt, RawImage, RawImageData, RawImageFormat, Rect, Rgb, TextItem,
    XObjectId, XObjectTransform,
};
use time::OffsetDateTime;
use tonne_kernel::AccountMode;
use tonne_ordering::Certificate;

/// The PDF of a certificate as an HTTP answer (`application/pdf`, inline), for
/// the API's route and the hosted page's copy alike. The account's logo is read
/// by the id its URL ends with; a logo that cannot be read leaves the account's
/// name to head the certificate alone.
pub async fn pdf_answer(
    state: &crate::state::AppState,
    certificate: &Certificate,
) -> Result<actix_web::HttpResponse, crate::error::ApiError> {
    let sheet = Sheet::of(certificate, &state.pages.public_url);
    let stored = match certificate
        .holder
        .logo
        .as_deref()
        .and_then(|url| url.rsplit('/').next())
    {
        Some(logo_id) => state.accounts.logo(logo_id).await.ok().flatten(),
        None => None,
    };
    let id = certificate.order.id.to_string();
    let pdf = actix_web::web::block(move || {
        let logo = stored
            .and_then(|l| crate::logo_image::rgb_pixels(&l.image))
            .map(|(width, height, rgb)| Logo { width, height, rgb });
        render(&sheet, logo.as_ref())
    })
    .await
    .map_err(|e| {
        crate::error::ApiError::internal(&anyhow::anyhow!(e).context("rendering a certificate"))
    })?;
    Ok(actix_web::HttpResponse::Ok()
        .content_type("application/pdf")
        .insert_header((
            "Content-Disposition",
            format!("inline; filename=\"certificate-{id}.pdf\""),
        ))
        .body(pdf))
}

/// The certificate's title.
pub const TITLE: &str = "Certificate of carbon credit retirement";

/// A date written for people: `23 November 2026` (UTC).
pub fn human_date(at: OffsetDateTime) -> String {
    let d = at.date();
    format!("{} {} {}", d.day(), d.month(), d.year())
}

/// One project line of a certificate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub project_name: String,
    pub project_type: String,
    /// The project's country (`Unknown` if it left the catalogue).
    pub country: String,
    /// The registry's name.
    pub registry: String,
    /// The retirement's serial number, or `None` while the registry has not issued one.
    pub serial: Option<String>,
    /// The project's record on its registry, where the catalogue has one.
    pub registry_link: Option<String>,
    /// Tonnes of CO₂e.
    pub tonnes: String,
}

/// What a certificate says, page and PDF alike.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sheet {
    pub order_id: String,
    pub account_name: String,
    /// The account's logo (an absolute URL), if it has one.
    pub logo_url: Option<String>,
    pub beneficiary: String,
    /// Completion date, written for people.
    pub date: String,
    /// Total tonnes of CO₂e.
    pub total_tonnes: String,
    /// A test-mode order: nothing was retired, the serials are simulated.
    pub test_mode: bool,
    pub rows: Vec<Row>,
    /// The public page's absolute URL.
    pub public_url: String,
}

impl Sheet {
    /// The sheet of a certificate; `public_url` is the server's public base URL.
    pub fn of(c: &Certificate, public_url: &str) -> Self {
        let o = &c.order;
        Self {
            order_id: o.id.to_string(),
            account_name: c.holder.name.clone(),
            logo_url: c.holder.logo.clone(),
            beneficiary: c.holder.beneficiary.clone(),
            // the last transition of a complete order is its completion
            date: human_date(o.updated_at),
            total_tonnes: o.quantity.to_tonnes_string(),
            test_mode: o.mode == AccountMode::Test,
            rows: c
                .projects
                .iter()
                .map(|p| Row {
                    project_name: p.allocation.project_name.clone(),
                    project_type: p.allocation.project_type.clone(),
                    country: p.country_name.clone().unwrap_or_else(|| "Unknown".into()),
                    registry: p.allocation.registry.as_str().to_owned(),
                    serial: p.allocation.serial.clone(),
                    // this retirement's record where the operator gave one,
                    // else the project's page at its registry
                    registry_link: p
                        .allocation
                        .registry_record
                        .clone()
                        .or_else(|| p.registry_link.clone()),
                    tonnes: p.allocation.quantity.to_tonnes_string(),
                })
                .collect(),
            public_url: format!(
                "{}{}",
                public_url.trim_end_matches('/'),
                tonne_wire::public_certificate_path(o)
            ),
        }
    }

    /// What the footer says about test mode, if anything.
    pub fn test_notice(&self) -> Option<&'static str> {
        self.test_mode.then_some(
            "Test mode: this order was simulated. No carbon credits were retired and the serial numbers are not real.",
        )
    }
}

/// An account logo ready for the PDF: 8-bit RGB pixels, row by row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logo {
    pub width: usize,
    pub height: usize,
    /// `width × height × 3` bytes.
    pub rgb: Vec<u8>,
}

/// Page geometry (millimetres).
const PAGE_W: f32 = 210.0;
const PAGE_H: f32 = 297.0;
const LEFT: f32 = 20.0;
const RIGHT: f32 = 190.0;
const BOTTOM: f32 = 22.0;
/// Table columns: left edge and width (mm).
const COL_PROJECT: (f32, f32) = (20.0, 80.0);
const COL_TYPE: (f32, f32) = (102.0, 40.0);
const COL_COUNTRY: (f32, f32) = (144.0, 23.0);
const COL_TONNES: (f32, f32) = (169.0, 21.0);
/// Cell text size (pt) and line pitch (mm).
const CELL_PT: f32 = 9.0;
const CELL_LINE: f32 = 4.0;
/// Most lines a cell wraps to.
const CELL_LINES: usize = 3;

/// Advance widths of Helvetica's printable ASCII (1/1000 em, from its AFM).
const HELVETICA: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
    611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
    222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/// The width of `text` in millimetres at `size` points (bold is wider by a tenth).
fn width_mm(text: &str, size: f32, bold: bool) -> f32 {
    let units: u32 = text
        .chars()
        .map(|c| {
            u32::from(c)
                .checked_sub(32)
                .and_then(|i| HELVETICA.get(usize::try_from(i).ok()?))
                .copied()
                .map_or(667, u32::from)
        })
        .sum();
    let em = f32::from(u16::try_from(units).unwrap_or(u16::MAX)) / 1000.0;
    let factor = if bold { 1.1 } else { 1.0 };
    Mm::from(Pt(em * size * factor)).0
}

/// `text` shortened with an ellipsis to fit `max` mm.
fn fit(text: &str, max: f32, size: f32, bold: bool) -> String {
    if width_mm(text, size, bold) <= max {
        return text.to_owned();
    }
    let mut short: String = text.to_owned();
    while !short.is_empty() && width_mm(&format!("{short}..."), size, bold) > max {
        short.pop();
    }
    format!("{}...", short.trim_end())
}

/// `text` wrapped at spaces into lines of at most `max` mm, at most
/// [`CELL_LINES`] of them (the last shortened with an ellipsis if need be).
fn wrap(text: &str, max: f32, size: f32, bold: bool) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split_whitespace() {
        let candidate = if current.is_empty() {
            word.to_owned()
        } else {
            format!("{current} {word}")
        };
        if current.is_empty() || width_mm(&candidate, size, bold) <= max {
            current = candidate;
        } else {
            lines.push(std::mem::replace(&mut current, word.to_owned()));
        }
    }
    if !current.is_empty() || lines.is_empty() {
        lines.push(current);
    }
    if lines.len() > CELL_LINES {
        let rest = lines.split_off(CELL_LINES - 1).join(" ");
        lines.push(rest);
    }
    lines
        .into_iter()
        .map(|l| fit(&l, max, size, bold))
        .collect()
}

/// The page's operations, built top down.
struct Canvas {
    ops: Vec<Op>,
    /// The next baseline, from the bottom of the page.
    y: f32,
}

impl Canvas {
    fn new(top: f32) -> Self {
        Self {
            ops: Vec::new(),
            y: top,
        }
    }

    fn text_at(&mut self, x: f32, y: f32, font: BuiltinFont, size: f32, grey: f32, text: &str) {
        self.ops.extend([
            Op::StartTextSection,
            Op::SetFillColor {
                col: Color::Rgb(Rgb::new(grey, grey, grey, None)),
            },
            Op::SetFont {
                font: PdfFontHandle::Builtin(font),
                size: Pt(size),
            },
            Op::SetTextCursor {
                pos: Point::new(Mm(x), Mm(y)),
            },
            Op::ShowText {
                items: vec![TextItem::Text(text.to_owned())],
            },
            Op::EndTextSection,
        ]);
    }

    /// A full-width line, then moves down by `advance`.
    fn line(&mut self, font: BuiltinFont, size: f32, advance: f32, text: &str) {
        let y = self.y;
        self.text_at(LEFT, y, font, size, 0.1, text);
        self.y -= advance;
    }

    fn rule(&mut self, y: f32) {
        self.ops.extend([
            Op::SetOutlineColor {
                col: Color::Rgb(Rgb::new(0.6, 0.6, 0.6, None)),
            },
            Op::SetOutlineThickness { pt: Pt(0.5) },
            Op::DrawLine {
                line: printpdf::Line {
                    points: vec![
                        printpdf::LinePoint {
                            p: Point::new(Mm(LEFT), Mm(y)),
                            bezier: false,
                        },
                        printpdf::LinePoint {
                            p: Point::new(Mm(RIGHT), Mm(y)),
                            bezier: false,
                        },
                    ],
                    is_closed: false,
                },
            },
        ]);
    }

    fn link(&mut self, x: f32, y: f32, width: f32, height: f32, url: &str) {
        self.ops.push(Op::LinkAnnotation {
            link: LinkAnnotation::new(
                Rect {
                    x: Mm(x).into_pt(),
                    y: Mm(y).into_pt(),
                    width: Mm(width).into_pt(),
                    height: Mm(height).into_pt(),
                    mode: None,
                    winding_order: None,
                },
                Actions::Uri(url.to_owned()),
                Some(printpdf::BorderArray::Solid([0.0, 0.0, 0.0])),
                None,
                None,
            ),
        });
    }

    fn table_header(&mut self) {
        let y = self.y;
        for (x, label) in [
            (COL_PROJECT.0, "Project"),
            (COL_TYPE.0, "Type"),
            (COL_COUNTRY.0, "Country"),
            (COL_TONNES.0, "Tonnes CO2e"),
        ] {
            self.text_at(x, y, BuiltinFont::HelveticaBold, CELL_PT, 0.1, label);
        }
        self.text_at(
            LEFT,
            y - 4.2,
            BuiltinFont::Helvetica,
            8.0,
            0.3,
            "Registry and serial number",
        );
        self.rule(y - 6.0);
        self.y -= 11.0;
    }

    /// One project: its cells (wrapped), then its registry and serial number.
    /// Answers the height it takes.
    fn row_height(r: &Row) -> f32 {
        let lines = [
            wrap(&r.project_name, COL_PROJECT.1, CELL_PT, true).len(),
            wrap(&r.project_type, COL_TYPE.1, CELL_PT, false).len(),
            wrap(&r.country, COL_COUNTRY.1, CELL_PT, false).len(),
        ]
        .into_iter()
        .max()
        .unwrap_or(1);
        let n = f32::from(u8::try_from(lines).unwrap_or(u8::MAX));
        n * CELL_LINE + 6.0
    }

    fn row(&mut self, r: &Row) {
        let y = self.y;
        let cells = [
            (COL_PROJECT, &r.project_name, true),
            (COL_TYPE, &r.project_type, false),
            (COL_COUNTRY, &r.country, false),
            (COL_TONNES, &r.tonnes, false),
        ];
        let mut lowest = y;
        for ((x, w), text, bold) in cells {
            let font = if bold {
                BuiltinFont::HelveticaBold
            } else {
                BuiltinFont::Helvetica
            };
            let mut line_y = y;
            for line in wrap(text, w, CELL_PT, bold) {
                self.text_at(x, line_y, font, CELL_PT, 0.1, &line);
                lowest = lowest.min(line_y);
                line_y -= CELL_LINE;
            }
        }
        let detail_y = lowest - CELL_LINE;
        let detail = fit(
            &format!(
                "registry: {} - serial: {}",
                r.registry,
                r.serial.as_deref().unwrap_or("not issued yet")
            ),
            RIGHT - LEFT,
            8.0,
            false,
        );
        self.text_at(LEFT, detail_y, BuiltinFont::Helvetica, 8.0, 0.25, &detail);
        if let Some(url) = &r.registry_link {
            // the detail line links to the project's record on its registry
            self.link(
                LEFT,
                detail_y - 1.2,
                width_mm(&detail, 8.0, false),
                4.0,
                url,
            );
        }
        self.y -= Self::row_height(r);
    }
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use time::macros::datetime;
    use tonne_kernel::{AccountId, AccountMode, Currency, Mass, Money};
    use tonne_ordering::{
        AccountHolder, CertifiedProject, Order, OrderId, OrderKind, OrderStatus, ProjectAllocation,
        ProjectId, ProjectStatus, Registry,
    };
    use uuid::Uuid;

    use super::*;

    fn certificate(projects: usize) -> Certificate {
        let gbp = |m| Money::from_minor(m, Currency::Gbp);
        let order = Order {
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
            payment_method: tonne_ordering::PaymentMethod::Invoice,
            projects: (0..projects)
                .map(|i| ProjectAllocation {
                    id: tonne_ordering::AllocationId::from_uuid(Uuid::from_u128(200 + u128::try_from(i).unwrap())),
                    allocated_at: datetime!(2026-11-23 9:00 UTC),
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
                    registry_record: None,
                })
                .collect(),
            created_at: datetime!(2026-11-22 9:00 UTC),
            updated_at: datetime!(2026-11-23 9:05 UTC),
        };
        Certificate {
            projects: order
                .projects
                .iter()
                .map(|p| CertifiedProject {
                    allocation: p.clone(),
                    status: ProjectStatus::Retired,
                    country_name: Some("Peru".into()),
                    registry_link: Some(
                        "https://registry.verra.org/app/projectDetail/VCS/1".into(),
                    ),
                })
                .collect(),
            order,
            holder: AccountHolder {
                organisation_id: tonne_kernel::OrganisationId::from_uuid(uuid::Uuid::nil()),
                name: "Acme".into(),
                beneficiary: "Acme".into(),
                logo: None,
            },
        }
    }

    fn sheet(projects: usize) -> Sheet {
        Sheet::of(&certificate(projects), "https://tonne.example/")
    }

    fn pages(pdf: &[u8]) -> Vec<String> {
        let doc = lopdf::Document::load_mem(pdf).expect("a parseable PDF");
        let n = u32::try_from(doc.get_pages().len()).unwrap();
        (1..=n).map(|p| doc.extract_text(&[p]).unwrap()).collect()
    }

    #[test]
    fn text_is_measured_wrapped_and_shortened_to_its_column() {
        assert!(width_mm("iiii", 10.0, false) < width_mm("MMMM", 10.0, false));
        let lines = wrap(
            "Demo Direct Air Capture with Saline Storage",
            COL_PROJECT.1,
            CELL_PT,
            true,
        );
        assert_eq!(lines, vec!["Demo Direct Air Capture with Saline Storage"]);
        let narrow = wrap("Mangrove restoration (blue carbon)", 25.0, CELL_PT, false);
        assert!(narrow.len() > 1, "{narrow:?}");
        assert!(narrow.iter().all(|l| width_mm(l, CELL_PT, false) <= 25.0));
        let many = wrap(&"word ".repeat(40), 20.0, CELL_PT, false);
        assert_eq!(many.len(), CELL_LINES);
        assert!(many[CELL_LINES - 1].ends_with("..."));
    }

    #[test]
    fn dates_are_written_for_people() {
        assert_eq!(
            human_date(datetime!(2026-11-23 23:59 UTC)),
            "23 November 2026"
        );
        assert_eq!(human_date(datetime!(2027-01-02 0:00 UTC)), "2 January 2027");
    }

    #[test]
    fn one_project_fits_one_page() {
        let text = pages(&render(&sheet(1), None));
        assert_eq!(text.len(), 1);
        assert!(
            text[0].contains("Project number 0 with a deliberately long"),
            "long names wrap within their column: {}",
            text[0]
        );
        assert!(text[0].contains("Projects (1)"), "{}", text[0]);
        assert!(text[0].contains("serial: VCS-0000"), "{}", text[0]);
        assert!(text[0].contains("Retired on behalf of: Acme"));
        assert!(text[0].contains("Date: 23 November 2026"), "{}", text[0]);
        assert!(text[0].contains("Peru"));
        assert!(text[0].contains("https://tonne.example/certificates/"));
        assert!(text[0].contains("Test mode"));
        assert!(!text[0].contains("/v1/"), "no API path: {}", text[0]);
    }

    #[test]
    fn sixty_projects_are_all_listed_across_pages_within_the_margins() {
        let text = pages(&render(&sheet(60), None));
        assert!(text.len() >= 2, "more than one page");
        let all = text.join("\n");
        for i in 0..60 {
            assert!(
                all.contains(&format!("serial: VCS-{i:04}")),
                "project {i} missing"
            );
        }
        assert!(text[1].contains("projects, continued"));
        assert!(
            text.last().unwrap().contains("Issued by Tonne"),
            "the footer ends the last page"
        );
        assert!(!all.contains("/v1/"));
    }

    #[test]
    fn a_logo_is_drawn_and_a_malformed_one_is_left_out() {
        let logo = Logo {
            width: 2,
            height: 1,
            rgb: vec![255, 0, 0, 0, 0, 255],
        };
        let with = render(&sheet(1), Some(&logo));
        let doc = lopdf::Document::load_mem(&with).unwrap();
        let images = doc
            .objects
            .values()
            .filter(|o| {
                o.as_stream().is_ok_and(|s| {
                    s.dict
                        .get(b"Subtype")
                        .is_ok_and(|t| t.as_name().ok() == Some(b"Image".as_slice()))
                })
            })
            .count();
        assert_eq!(images, 1, "the logo is in the PDF");
        let bad = Logo {
            width: 2,
            height: 2,
            rgb: vec![0; 3],
        };
        let text = pages(&render(&sheet(1), Some(&bad)));
        assert!(
            text[0].contains("Acme"),
            "the name stands in for a bad logo"
        );
    }
}
