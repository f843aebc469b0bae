//! Text measured in Helvetica (the PDF's built-in font, from its metrics):
//! the width of a string, and a string shortened or wrapped to a column.

use printpdf::{Mm, Pt};

/// Most lines a cell wraps to.
pub(crate) const CELL_LINES: usize = 3;

/// Advance widths of Helvetica's printable ASCII (1/1000 em, from its AFM).
const HELVETICA: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
    611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
    222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/// The width of `text` in millimetres at `size` points (bold is wider by a tenth).
pub(crate) fn width_mm(text: &str, size: f32, bold: bool) -> f32 {
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
pub(crate) fn fit(text: &str, max: f32, size: f32, bold: bool) -> String {
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
pub(crate) fn wrap(text: &str, max: f32, size: f32, bold: bool) -> Vec<String> {
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
