//! Orders and tonnes per day, drawn on the server as SVG (plotters, no fonts
//! to install: the SVG backend writes text elements the browser renders).

mod canvas;
mod logistics;

pub use logistics::{MODES, logistics_intensity, logistics_modes, tonnes_by_mode};

use canvas::{draw_error, label, monthly, note, svg};
use plotters::prelude::*;
use rust_decimal::prelude::ToPrimitive as _;
use time::Date;
use tonne_kernel::Mass;
use tonne_links::DailyFigures;
use tonne_ordering::DailyOrders;

/// One day of the chart: orders (a bar) and tonnes (a point of the line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChartDay {
    pub day: Date,
    pub orders: u64,
    pub quantity: Mass,
}

impl From<&DailyFigures> for ChartDay {
    fn from(d: &DailyFigures) -> Self {
        Self {
            day: d.day,
            orders: d.orders,
            quantity: d.quantity,
        }
    }
}

impl From<&DailyOrders> for ChartDay {
    fn from(d: &DailyOrders) -> Self {
        Self {
            day: d.day,
            orders: d.orders,
            quantity: d.quantity,
        }
    }
}

/// The chart of orders (bars) and tonnes (line) per day, oldest day first. An
/// empty history draws empty axes with a note.
pub fn render<'a, D>(days: impl IntoIterator<Item = &'a D>) -> anyhow::Result<String>
where
    D: 'a,
    ChartDay: From<&'a D>,
{
    let daily: Vec<ChartDay> = days.into_iter().map(ChartDay::from).collect();
    let daily = daily.as_slice();
    svg(|root| {
        let days = daily.len().max(1);
        let days_i32 = i32::try_from(days).unwrap_or(i32::MAX);
        let max_orders = daily.iter().map(|d| d.orders).max().unwrap_or(0).max(1);
        let tonnes: Vec<f64> = daily
            .iter()
            .map(|d| d.quantity.tonnes().to_f64().unwrap_or(0.0))
            .collect();
        let max_tonnes = tonnes.iter().copied().fold(0.0_f64, f64::max).max(1.0);
        let labels: Vec<String> = daily.iter().map(|d| d.day.to_string()).collect();
        let mut chart = ChartBuilder::on(root)
            .caption("Orders and tonnes per day (UTC)", ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(48)
            .right_y_label_area_size(56)
            .build_cartesian_2d(
                0..days_i32,
                0..i64::try_from(max_orders + 1).unwrap_or(i64::MAX),
            )
            .map_err(draw_error)?
            .set_secondary_coord(0..days_i32, 0.0..max_tonnes * 1.1);
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(days.min(10))
            .x_label_formatter(&|i| label(&labels, *i))
            .y_desc("orders")
            .draw()
            .map_err(draw_error)?;
        chart
            .configure_secondary_axes()
            .y_desc("tonnes CO2e")
            .draw()
            .map_err(draw_error)?;
        let bar = RGBColor(31, 95, 168);
        chart
            .draw_series(daily.iter().zip(0..).map(|(d, i)| {
                let orders = i64::try_from(d.orders).unwrap_or(i64::MAX);
                Rectangle::new([(i, 0), (i + 1, orders)], bar.mix(0.75).filled())
            }))
            .map_err(draw_error)?
            .label("orders")
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], bar.filled()));
        let line = RGBColor(196, 82, 20);
        chart
            .draw_secondary_series(LineSeries::new(
                tonnes.iter().zip(0..).map(|(t, i)| (i, *t)),
                line.stroke_width(3),
            ))
            .map_err(draw_error)?
            .label("tonnes")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 12, y)], line));
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()
            .map_err(draw_error)?;
        if daily.is_empty() {
            note(root, "No visitors or orders yet", 250)?;
        }
        Ok(())
    })
}

/// Gives a drawn chart its accessible name: `role="img"` on the `<svg>` and a
/// `<title>` (its first child, named by `aria-labelledby`) that says what it
/// shows, so that a screen reader announces the chart itself. `title` is
/// Tonne's own text, escaped all the same.
pub fn titled(svg: &str, id: &str, title: &str) -> String {
    let Some(rest) = svg.strip_prefix("<svg") else {
        return svg.to_owned();
    };
    let Some(end) = rest.find('>') else {
        return svg.to_owned();
    };
    let (attributes, children) = rest.split_at(end);
    let title = maud::html! { title id=(id) { (title) } }.into_string();
    format!(
        "<svg{attributes} role=\"img\" aria-labelledby=\"{id}\">{title}{}",
        &children[1..]
    )
}

/// The cumulative line of a sustainability page: tonnes retired (or money
/// spent, with `by_price`) up to the end of each month, oldest first, from
/// zero at the start of the first month. An empty history draws empty axes
/// with a note.
pub fn cumulative(points: &[tonne_impact::Point], by_price: bool) -> anyhow::Result<String> {
    let month = |d: time::Date| format!("{}-{:02}", d.year(), u8::from(d.month()));
    // The origin: nothing at the start of the first month.
    let mut labels: Vec<String> = Vec::with_capacity(points.len() + 1);
    let mut values: Vec<f64> = Vec::with_capacity(points.len() + 1);
    if let Some(first) = points.first() {
        labels.push(format!("start of {}", month(first.date)));
        values.push(0.0);
    }
    for p in points {
        labels.push(month(p.date));
        values.push(if by_price {
            p.figures.value.to_decimal().to_f64().unwrap_or(0.0)
        } else {
            p.figures.quantity.tonnes().to_f64().unwrap_or(0.0)
        });
    }
    let unit = match (by_price, points.first()) {
        (true, Some(p)) => p.figures.value.currency().code().to_owned(),
        (true, None) => String::new(),
        (false, _) => "tonnes CO2e".to_owned(),
    };
    svg(|root| {
        let mut chart = monthly(root, "Retired so far, month by month (UTC)", &values)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .x_labels(values.len().clamp(2, 8))
            .x_label_formatter(&|i| label(&labels, *i))
            .y_desc(unit)
            .draw()
            .map_err(draw_error)?;
        let line = RGBColor(30, 77, 43);
        chart
            .draw_series(AreaSeries::new(
                values.iter().zip(0..).map(|(v, i)| (i, *v)),
                0.0,
                line.mix(0.2),
            ))
            .map_err(draw_error)?;
        chart
            .draw_series(LineSeries::new(
                values.iter().zip(0..).map(|(v, i)| (i, *v)),
                line.stroke_width(3),
            ))
            .map_err(draw_error)?;
        chart
            .draw_series(
                values
                    .iter()
                    .zip(0..)
                    .map(|(v, i)| Circle::new((i, *v), 4, line.filled())),
            )
            .map_err(draw_error)?;
        if points.is_empty() {
            note(root, "Nothing retired yet", 280)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use time::macros::date;
    use tonne_kernel::Mass;

    use super::*;

    #[test]
    fn draws_one_bar_per_day_and_a_tonnes_line() {
        let daily = [
            DailyFigures {
                day: date!(2026 - 11 - 20),
                visitors: 3,
                orders: 2,
                quantity: Mass::from_grams(1_500_000),
            },
            DailyFigures {
                day: date!(2026 - 11 - 21),
                visitors: 1,
                orders: 0,
                quantity: Mass::from_grams(0),
            },
        ];
        let svg = render(&daily).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
        assert!(svg.contains("2026-11-20"));
        assert!(svg.contains("tonnes CO2e"));
        assert!(svg.contains("<polyline"), "the tonnes line");
        let empty = render::<DailyFigures>(&[]).unwrap();
        assert!(empty.contains("No visitors or orders yet"));
        let one = cumulative(
            &[tonne_impact::Point {
                date: date!(2026 - 11 - 01),
                figures: tonne_impact::Figures {
                    quantity: Mass::from_grams(15_750_000),
                    value: tonne_kernel::Money::from_minor(31_500, tonne_kernel::Currency::Gbp),
                },
            }],
            false,
        )
        .unwrap();
        assert!(one.contains("start of 2026-11") && one.contains("2026-11"));
        assert!(
            one.contains("<polyline"),
            "a line from zero to the month's total"
        );
        assert!(
            cumulative(&[], true)
                .unwrap()
                .contains("Nothing retired yet")
        );
        assert!(empty.contains("No visitors or orders yet"));
    }

    #[test]
    fn a_titled_chart_has_an_accessible_name() {
        let svg = r#"<svg width="10" height="10" viewBox="0 0 10 10"><rect/></svg>"#;
        let named = titled(svg, "t1", "Tonnes <so far>");
        assert!(named.starts_with(
            r#"<svg width="10" height="10" viewBox="0 0 10 10" role="img" aria-labelledby="t1"><title id="t1">Tonnes &lt;so far&gt;</title><rect/>"#
        ), "{named}");
        assert_eq!(titled("not svg", "t", "x"), "not svg");
    }
}
