//! A document of several A4 pages drawn top down: lines of text, headings
//! and table rows over fixed columns, each new page headed with the
//! document's title ("…, continued"). The shipments report and the invoice
//! are drawn with it.

use printpdf::{BuiltinFont, Mm, PdfPage};

use super::canvas::Canvas;
use super::geometry::{BOTTOM, LEFT, PAGE_H, PAGE_W, RIGHT};
use super::text::{fit, width_mm};

const CELL: f32 = 9.0;
const PITCH: f32 = 5.0;
const TOP: f32 = 277.0;

/// The pages drawn so far and the one being drawn.
pub(crate) struct Pages {
    done: Vec<PdfPage>,
    pub(crate) canvas: Canvas,
    title: &'static str,
    /// The table's columns: left edges (mm).
    cols: &'static [f32],
}

impl Pages {
    pub(crate) fn new(title: &'static str, cols: &'static [f32]) -> Self {
        Self {
            done: Vec::new(),
            canvas: Canvas::new(TOP),
            title,
            cols,
        }
    }

    /// Starts a new page when fewer than `mm` remain.
    pub(crate) fn room(&mut self, mm: f32) {
        if self.canvas.y - mm < BOTTOM {
            let ops = std::mem::take(&mut self.canvas.ops);
            self.done.push(PdfPage::new(Mm(PAGE_W), Mm(PAGE_H), ops));
            self.canvas = Canvas::new(TOP);
            let title = format!("{}, continued", self.title);
            self.canvas.line(BuiltinFont::Helvetica, 9.0, 8.0, &title);
        }
    }

    pub(crate) fn text(&mut self, font: BuiltinFont, size: f32, advance: f32, text: &str) {
        self.room(advance + 2.0);
        let text = fit(text, RIGHT - LEFT, size, font == BuiltinFont::HelveticaBold);
        self.canvas.line(font, size, advance, &text);
    }

    /// A table row: cells from `right_from` on are set flush right in their
    /// column (amounts), the others flush left; a bold row is ruled below.
    pub(crate) fn row_aligned(&mut self, cells: &[String], bold: bool, right_from: usize) {
        self.room(PITCH + 2.0);
        let font = if bold {
            BuiltinFont::HelveticaBold
        } else {
            BuiltinFont::Helvetica
        };
        let y = self.canvas.y;
        for (i, (x, text)) in self.cols.iter().zip(cells).enumerate() {
            let width = self.cols.get(i + 1).copied().unwrap_or(RIGHT + 8.0) - x - 2.0;
            let text = fit(text, width, CELL, bold);
            let x = if i >= right_from {
                // Helvetica-Bold's digits are as wide as Helvetica's
                x + width - width_mm(&text, CELL, false)
            } else {
                *x
            };
            self.canvas.text_at(x, y, font, CELL, 0.1, &text);
        }
        if bold {
            self.canvas.rule(y - 1.8);
        }
        self.canvas.y -= PITCH;
    }

    /// A table row, every cell flush left.
    pub(crate) fn row(&mut self, cells: &[String], bold: bool) {
        self.row_aligned(cells, bold, usize::MAX);
    }

    pub(crate) fn heading(&mut self, text: &str) {
        self.room(22.0);
        self.canvas.y -= 3.0;
        self.canvas
            .line(BuiltinFont::HelveticaBold, 12.0, 7.0, text);
    }

    pub(crate) fn finish(mut self) -> Vec<PdfPage> {
        self.done
            .push(PdfPage::new(Mm(PAGE_W), Mm(PAGE_H), self.canvas.ops));
        self.done
    }
}
