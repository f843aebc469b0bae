//! The report's PDF: what a shipper is handed — the totals, the breakdowns
//! by mode, carriage phase and hub type, the shares of primary, modelled and
//! default data, and the methods, fallbacks and exclusions stated, on A4
//! pages in the certificate's built-in Helvetica.

use printpdf::{BuiltinFont, PdfDocument, PdfSaveOptions};
use rust_decimal::Decimal;
use time::Date;
use tonne_shipments::{Bucket, Carriage, DataKind, ReportSummary, Totals};
use tonne_wire::shipments::report_csv::kg;

use crate::certificate::geometry::LEFT;
use crate::certificate::pages::Pages;

/// Who the report is for and over what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportHeading {
    /// The account's name.
    pub account_name: String,
    /// The period in words (`2026-01-01 to 2026-03-31`, or `all dates`).
    pub period: String,
    /// When it was drawn up (UTC date).
    pub generated: String,
}

impl ReportHeading {
    /// The heading of `account_name`'s report over the shipment dates
    /// `from`–`to` (either open), drawn up today (UTC).
    pub fn new(account_name: String, from: Option<Date>, to: Option<Date>) -> Self {
        Self {
            account_name,
            period: match (from, to) {
                (None, None) => "all dates".to_owned(),
                (f, t) => format!("{} to {}", bound(f), bound(t)),
            },
            generated: time::OffsetDateTime::now_utc().date().to_string(),
        }
    }
}

fn bound(d: Option<Date>) -> String {
    d.map_or_else(|| "all".to_owned(), |d| d.to_string())
}

/// The report's file name without extension: `shipments-report-FROM-TO`.
pub fn file_name(from: Option<Date>, to: Option<Date>) -> String {
    format!("shipments-report-{}-{}", bound(from), bound(to))
}

const TITLE: &str = "Logistics emissions report (ISO 14083)";
/// Table columns: left edges (mm).
const COLS: [f32; 6] = [LEFT, 78.0, 102.0, 128.0, 150.0, 172.0];
fn intensity(t: &Totals, part: fn(&Totals) -> tonne_kernel::Mass) -> String {
    t.intensity_g_per_tkm(part)
        .map(|d| d.round_dp(2).normalize().to_string())
        .unwrap_or_else(|| "-".to_owned())
}

fn figures(name: &str, b: &Bucket) -> Vec<String> {
    let t = &b.totals;
    vec![
        name.to_owned(),
        t.activity.round_dp(1).normalize().to_string(),
        kg(t.total()),
        kg(t.wtt),
        kg(t.ttw),
        intensity(t, Totals::total),
    ]
}

const TRANSPORT_HEAD: [&str; 6] = ["", "t*km", "WTW kg", "WTT kg", "TTW kg", "g/t*km"];

/// The report as a PDF.
pub fn render(heading: &ReportHeading, s: &ReportSummary) -> Vec<u8> {
    let mut doc = PdfDocument::new(TITLE);
    let mut p = Pages::new(TITLE, &COLS);
    p.text(BuiltinFont::HelveticaBold, 13.0, 9.0, &heading.account_name);
    p.text(BuiltinFont::HelveticaBold, 18.0, 10.0, TITLE);
    for line in [
        format!("Period (shipment dates): {}", heading.period),
        format!("Drawn up: {} by Tonne", heading.generated),
        format!("Shipments: {}", s.shipments),
    ] {
        p.text(BuiltinFont::Helvetica, 10.0, 5.5, &line);
    }

    p.heading("Totals");
    let t = &s.total;
    for line in [
        format!("Well-to-wheel (WTW): {} kg CO2e", kg(t.total())),
        format!("Well-to-tank (WTT): {} kg CO2e", kg(t.wtt)),
        format!("Tank-to-wheel (TTW): {} kg CO2e", kg(t.ttw)),
        format!(
            "Transport activity: {} t*km",
            t.activity.round_dp(1).normalize()
        ),
        format!(
            "Intensity: {} g CO2e/t*km WTW ({} WTT, {} TTW)",
            intensity(t, Totals::total),
            intensity(t, |t| t.wtt),
            intensity(t, |t| t.ttw)
        ),
    ] {
        p.text(BuiltinFont::Helvetica, 10.0, 5.5, &line);
    }

    p.heading("By mode of transport");
    p.row(&TRANSPORT_HEAD.map(str::to_owned), true);
    if s.by_mode.is_empty() {
        p.row(&["none".to_owned()], false);
    }
    for (mode, b) in &s.by_mode {
        p.row(&figures(&mode.replace('_', " "), b), false);
    }

    p.heading("By carriage phase");
    p.row(&TRANSPORT_HEAD.map(str::to_owned), true);
    for c in Carriage::ALL {
        let name = match c {
            Carriage::Pre => "pre-carriage",
            Carriage::Main => "main carriage",
            Carriage::On => "on-carriage",
        };
        p.row(&figures(name, &s.phase(c)), false);
    }
    if s.unallocated.lines > 0 {
        p.row(&figures("client totals (no phase)", &s.unallocated), false);
    }

    p.heading("By hub type");
    p.row(
        &["", "tonnes", "WTW kg", "WTT kg", "TTW kg", "kg/t"].map(str::to_owned),
        true,
    );
    if s.by_hub.is_empty() {
        p.row(&["no hub operations".to_owned()], false);
    }
    for (hub, b) in &s.by_hub {
        let mut cells = figures(&hub.replace('_', " "), b);
        if let Some(c) = cells.get_mut(1) {
            *c = b.tonnes.round_dp(2).normalize().to_string();
        }
        if let Some(c) = cells.get_mut(5) {
            *c = if b.tonnes.is_zero() {
                "-".to_owned()
            } else {
                (Decimal::from(b.totals.total().grams()) / Decimal::from(1000) / b.tonnes)
                    .round_dp(3)
                    .normalize()
                    .to_string()
            };
        }
        p.row(&cells, false);
    }

    p.heading("Data used");
    p.row(
        &["", "WTW kg", "share", "", "", ""].map(str::to_owned),
        true,
    );
    for kind in DataKind::ALL {
        let mass = s.data_mass(kind);
        let share = s
            .data_share(kind)
            .map(|d| format!("{}%", (d * Decimal::from(100)).round_dp(1).normalize()))
            .unwrap_or_else(|| "-".to_owned());
        p.row(&[kind.as_str().to_owned(), kg(mass), share], false);
    }

    p.heading("Methods, fallbacks and exclusions");
    for line in [
        "Emissions are well-to-wheel (WTT + TTW), CO2e (GWP100), per ISO 14083:2023 and the GLEC Framework v3.",
        "Transport legs: the leg's tonne-km times the factor of its mode and vehicle; hubs: the tonnes handled",
        "times the site type's GLEC v3 default intensity. Primary: figures the client sent; modelled: an aircraft",
        "type's fuel burn; default: published default intensities. Details: Tonne's docs/methodology.md.",
    ] {
        p.text(BuiltinFont::Helvetica, 8.5, 4.5, line);
    }
    p.canvas.y -= 2.0;
    let groups: [(&str, &std::collections::BTreeMap<String, u64>); 3] = [
        ("Sources of factors", &s.sources),
        ("Fallbacks and stand-ins", &s.fallbacks),
        ("Excluded (no emissions)", &s.exclusions),
    ];
    for (title, counts) in groups {
        p.text(BuiltinFont::HelveticaBold, 9.5, 5.0, title);
        if counts.is_empty() {
            p.text(BuiltinFont::Helvetica, 9.0, 4.8, "  none");
        }
        for (name, n) in counts {
            let unit = if *n == 1 { "line" } else { "lines" };
            p.text(
                BuiltinFont::Helvetica,
                9.0,
                4.8,
                &format!("  {}: {n} {unit}", name.replace('_', " ")),
            );
        }
    }
    doc.with_pages(p.finish())
        .save(&PdfSaveOptions::default(), &mut Vec::new())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn pages(pdf: &[u8]) -> Vec<String> {
        let doc = lopdf::Document::load_mem(pdf).expect("a parseable PDF");
        let n = u32::try_from(doc.get_pages().len()).unwrap();
        (1..=n).map(|p| doc.extract_text(&[p]).unwrap()).collect()
    }

    fn heading() -> ReportHeading {
        ReportHeading {
            account_name: "Acme Logistics".into(),
            period: "2026-01-01 to 2026-03-31".into(),
            generated: "2026-11-29".into(),
        }
    }

    #[test]
    fn an_empty_report_says_so_on_one_page() {
        let text = pages(&render(&heading(), &ReportSummary::default()));
        assert_eq!(text.len(), 1);
        let all = text.concat();
        assert!(all.contains("Acme Logistics"), "{all}");
        assert!(all.contains("2026-01-01 to 2026-03-31"), "{all}");
        assert!(all.contains("no hub operations"), "{all}");
        assert!(all.contains("Shipments: 0"), "{all}");
    }

    #[test]
    fn a_long_list_of_fallbacks_goes_on_to_further_pages_each_named() {
        let mut s = ReportSummary::default();
        for i in 0..150 {
            s.fallbacks.insert(format!("fallback_{i:03}"), 2);
        }
        let text = pages(&render(&heading(), &s));
        assert!(text.len() >= 2, "{} pages", text.len());
        assert!(text.get(1).unwrap().contains("continued"));
        let all = text.concat();
        for i in [0, 75, 149] {
            assert!(
                all.contains(&format!("fallback {i:03}: 2 lines")),
                "fallback {i}"
            );
        }
    }
}
