//! What every chart draws on: its size, and drawing errors as `anyhow`'s.

/// Width and height of every chart, in SVG pixels.
pub(super) const SIZE: (u32, u32) = (720, 320);

/// A drawing backend's error.
pub(super) fn draw_error(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("drawing the chart: {e}")
}
