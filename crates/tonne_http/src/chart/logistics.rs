//! The public logistics page's two charts, per month: tonnes CO2e by mode
//! (hubs included) as stacked bars, and the mean carbon intensity as a line.

use plotters::prelude::*;
use rust_decimal::prelude::ToPrimitive as _;
use tonne_impact::shipping::ShippingPoint;

use super::canvas::{draw_error, label, monthly, note, svg};

/// The modes in the order the bars stack them, with their colours (each
/// told apart by more than hue in the table beside the chart).
pub const MODES: [(&str, RGBColor); 6] = [
    ("road", RGBColor(31, 95, 168)),
    ("rail", RGBColor(99, 60, 150)),
    ("sea", RGBColor(0, 128, 128)),
    ("inland waterway", RGBColor(70, 130, 60)),
    ("air", RGBColor(196, 82, 20)),
    ("hubs", RGBColor(120, 120, 120)),
];

/// A point's tonnes per mode, in [`MODES`]' order.
pub fn tonnes_by_mode(p: &ShippingPoint) -> [f64; 6] {
    [
        p.road,
        p.rail,
        p.sea,
        p.inland_waterway,
        p.air,
        p.logistic_site,
    ]
    .map(|m| m.tonnes().to_f64().unwrap_or(0.0))
}

fn month(p: &ShippingPoint) -> String {
    format!("{}-{:02}", p.date.year(), u8::from(p.date.month()))
}

/// Tonnes CO2e per month, stacked by mode. No month with emissions draws
/// empty axes with a note.
pub fn logistics_modes(points: &[ShippingPoint]) -> anyhow::Result<String> {
    let labels: Vec<String> = points.iter().map(month).collect();
    let stacks: Vec<[f64; 6]> = points.iter().map(tonnes_by_mode).collect();
    let max = stacks
        .iter()
        .map(|s| s.iter().sum::<f64>())
        .fold(0.0_f64, f64::max);
    svg(|root| {
        let count = i32::try_from(points.len().max(1)).unwrap_or(i32::MAX);
        let mut chart = ChartBuilder::on(root)
            .caption("Tonnes CO2e per month, by mode", ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(0..count, 0.0..(max * 1.15).max(0.001))
            .map_err(draw_error)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(points.len().clamp(1, 12))
            .x_label_formatter(&|i| label(&labels, *i))
            .y_desc("tonnes CO2e")
            .draw()
            .map_err(draw_error)?;
        for (k, (name, colour)) in MODES.iter().enumerate() {
            let colour = *colour;
            chart
                .draw_series(stacks.iter().zip(0..).map(|(s, i)| {
                    let below: f64 = s.iter().take(k).sum();
                    let top = below + s.get(k).copied().unwrap_or(0.0);
                    Rectangle::new([(i, below), (i + 1, top)], colour.filled())
                }))
                .map_err(draw_error)?
                .label(*name)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 10, y + 5)], colour.filled())
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()
            .map_err(draw_error)?;
        if max <= 0.0 {
            note(root, "No shipments in this period", 250)?;
        }
        Ok(())
    })
}

/// The mean carbon intensity (g CO2e per tonne-km) per month.
pub fn logistics_intensity(points: &[ShippingPoint]) -> anyhow::Result<String> {
    let labels: Vec<String> = points.iter().map(month).collect();
    let values: Vec<f64> = points
        .iter()
        .map(|p| p.intensity.to_f64().unwrap_or(0.0))
        .collect();
    svg(|root| {
        let mut chart = monthly(root, "Mean carbon intensity per month", &values)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(values.len().clamp(2, 12))
            .x_label_formatter(&|i| label(&labels, *i))
            .y_desc("g CO2e per tonne-km")
            .draw()
            .map_err(draw_error)?;
        let line = RGBColor(31, 95, 168);
        chart
            .draw_series(LineSeries::new(
                values.iter().zip(0..).map(|(v, i)| (i, *v)),
                line.stroke_width(3),
            ))
            .map_err(draw_error)?;
        Ok(())
    })
}
