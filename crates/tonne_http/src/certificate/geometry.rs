//! The certificate PDF's geometry: the A4 page and its margins, the projects
//! table's columns, and the size of a cell's text (millimetres unless named).

/// Page geometry (millimetres).
pub(crate) const PAGE_W: f32 = 210.0;
pub(crate) const PAGE_H: f32 = 297.0;
pub(crate) const LEFT: f32 = 20.0;
pub(crate) const RIGHT: f32 = 190.0;
pub(crate) const BOTTOM: f32 = 22.0;
/// Table columns: left edge and width (mm).
pub(crate) const COL_PROJECT: (f32, f32) = (20.0, 80.0);
pub(crate) const COL_TYPE: (f32, f32) = (102.0, 40.0);
pub(crate) const COL_COUNTRY: (f32, f32) = (144.0, 23.0);
pub(crate) const COL_TONNES: (f32, f32) = (169.0, 21.0);
/// Cell text size (pt) and line pitch (mm).
pub(crate) const CELL_PT: f32 = 9.0;
pub(crate) const CELL_LINE: f32 = 4.0;
