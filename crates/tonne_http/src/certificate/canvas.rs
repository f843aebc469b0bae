//! The page being drawn: a list of PDF operations built top down, with the
//! text, rules, links and the projects table's header and rows.

use printpdf::{
    Actions, BuiltinFont, Color, LinkAnnotation, Mm, Op, PdfFontHandle, Point, Pt, Rect, Rgb,
    TextItem,
};

use super::geometry::{
    CELL_LINE, CELL_PT, COL_COUNTRY, COL_PROJECT, COL_TONNES, COL_TYPE, LEFT, RIGHT,
};
use super::sheet::Row;
use super::text::{fit, width_mm, wrap};

/// The page's operations, built top down.
pub(crate) struct Canvas {
    pub(crate) ops: Vec<Op>,
    /// The next baseline, from the bottom of the page.
    pub(crate) y: f32,
}

impl Canvas {
    pub(crate) fn new(top: f32) -> Self {
        Self {
            ops: Vec::new(),
            y: top,
        }
    }

    pub(crate) fn text_at(
        &mut self,
        x: f32,
        y: f32,
        font: BuiltinFont,
        size: f32,
        grey: f32,
        text: &str,
    ) {
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
    pub(crate) fn line(&mut self, font: BuiltinFont, size: f32, advance: f32, text: &str) {
        let y = self.y;
        self.text_at(LEFT, y, font, size, 0.1, text);
        self.y -= advance;
    }

    pub(crate) fn rule(&mut self, y: f32) {
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

    pub(crate) fn table_header(&mut self) {
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
    pub(crate) fn row_height(r: &Row) -> f32 {
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

    pub(crate) fn row(&mut self, r: &Row) {
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
