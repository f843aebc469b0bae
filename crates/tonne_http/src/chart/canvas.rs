//! What every chart draws on: its size, its white SVG canvas, the axes of a
//! chart of monthly values, the note an empty chart shows, its x-axis
//! labels, and drawing errors as `anyhow`'s.

use plotters::coord::Shift;
use plotters::coord::types::{RangedCoordf64, RangedCoordi32};
use plotters::prelude::*;

/// Width and height of every chart, in SVG pixels.
pub(super) const SIZE: (u32, u32) = (720, 320);

/// The area a chart is drawn on.
pub(super) type Canvas<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// A drawing backend's error.
pub(super) fn draw_error(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("drawing the chart: {e}")
}

/// The SVG of what `draw` draws on a white canvas of [`SIZE`].
pub(super) fn svg(draw: impl FnOnce(&Canvas<'_>) -> anyhow::Result<()>) -> anyhow::Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        draw(&root)?;
        root.present().map_err(draw_error)?;
    }
    Ok(svg)
}

/// Writes the note of an empty chart, `x` pixels from its left edge.
pub(super) fn note(root: &Canvas<'_>, text: &str, x: i32) -> anyhow::Result<()> {
    root.draw(&Text::new(text, (x, 160), ("sans-serif", 16).into_font()))
        .map_err(draw_error)
}

/// The x-axis label of the point at `i`: its entry of `labels`, if any.
pub(super) fn label(labels: &[String], i: i32) -> String {
    usize::try_from(i)
        .ok()
        .and_then(|i| labels.get(i).cloned())
        .unwrap_or_default()
}

/// The axes of a chart of one value per month: along x the values' places (at
/// least two), along y from zero to a tenth above the largest (at least 1).
pub(super) fn monthly<'a, 'b>(
    root: &'a Canvas<'b>,
    caption: &str,
    values: &[f64],
) -> anyhow::Result<ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordi32, RangedCoordf64>>> {
    let count = i32::try_from(values.len().max(2)).unwrap_or(i32::MAX);
    let max = values.iter().copied().fold(0.0_f64, f64::max).max(1.0);
    ChartBuilder::on(root)
        .caption(caption, ("sans-serif", 18))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(64)
        .build_cartesian_2d(0..count - 1, 0.0..max * 1.1)
        .map_err(draw_error)
}
