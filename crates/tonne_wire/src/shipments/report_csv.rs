//! The ISO 14083 report as CSV: a header, a line per leg (or per shipment
//! where the client sent only its totals or it has none), then the summary's
//! lines in the same columns (`record` says which is which). Written a page
//! at a time so that a report of any size streams.
//!
//! Every cell that a spreadsheet would read as a formula (it begins with
//! `=`, `+`, `-`, `@`, a tab or a carriage return) is prefixed with `'`.
//!
//! ```
//! use tonne_wire::shipments::report_csv;
//! let head = String::from_utf8(report_csv::header()).unwrap();
//! assert!(head.starts_with("record,shipment_id,reference,"));
//! assert_eq!(report_csv::cell("=HYPERLINK(1)"), "'=HYPERLINK(1)");
//! assert_eq!(report_csv::cell("PO-1"), "PO-1");
//! ```

use rust_decimal::Decimal;
use tonne_kernel::Mass;
use tonne_shipments::{Bucket, Carriage, DataKind, ReportLine, ReportSummary, Totals};

/// The columns, in order.
pub const COLUMNS: [&str; 22] = [
    "record",
    "shipment_id",
    "reference",
    "shipment_date",
    "leg",
    "carriage",
    "category",
    "hub",
    "distance_km",
    "tonnes",
    "activity_tkm",
    "wtw_kg",
    "wtt_kg",
    "ttw_kg",
    "intensity_wtw_g_per_tkm",
    "data_type",
    "factor_id",
    "factor_source",
    "grade",
    "flagged",
    "notes",
    "excluded",
];

/// A cell as written: a formula's first character defused with `'`.
pub fn cell(text: &str) -> String {
    match text.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{text}"),
        _ => text.to_owned(),
    }
}

/// kg with the grams exact.
pub fn kg(m: Mass) -> String {
    (Decimal::from(m.grams()) / Decimal::from(1000))
        .round_dp(3)
        .to_string()
}

fn number(d: Decimal) -> String {
    d.normalize().to_string()
}

fn intensity(t: &Totals) -> String {
    t.intensity_g_per_tkm(Totals::total)
        .map(|d| d.round_dp(3).normalize().to_string())
        .unwrap_or_default()
}

/// Records written into `out` by one writer (a page at a time).
struct Out<'a> {
    w: csv::Writer<&'a mut Vec<u8>>,
}

impl<'a> Out<'a> {
    fn new(out: &'a mut Vec<u8>) -> Self {
        Self {
            w: csv::WriterBuilder::new().from_writer(out),
        }
    }

    fn record(&mut self, cells: &[String]) {
        // a record of strings into a Vec cannot fail
        let _ = self.w.write_record(cells.iter().map(|c| cell(c)));
    }
}

fn write(out: &mut Vec<u8>, cells: &[String]) {
    Out::new(out).record(cells);
}

/// The header line.
pub fn header() -> Vec<u8> {
    let mut out = Vec::new();
    write(&mut out, &COLUMNS.map(str::to_owned));
    out
}

/// The lines of a page of the report.
pub fn lines(lines: &[ReportLine]) -> Vec<u8> {
    let mut out = Vec::with_capacity(lines.len() * 250);
    let mut w = Out::new(&mut out);
    for l in lines {
        let totals = Totals {
            wtt: l.wtt,
            ttw: l.ttw,
            activity: l.activity_tkm,
        };
        w.record(&[
            if l.leg.is_some() { "leg" } else { "shipment" }.to_owned(),
            l.shipment_id.to_string(),
            l.reference.clone(),
            l.shipment_date.map(|d| d.to_string()).unwrap_or_default(),
            l.leg.map(|n| n.to_string()).unwrap_or_default(),
            l.carriage
                .map(|c| c.as_str().to_owned())
                .unwrap_or_default(),
            l.category.clone(),
            l.hub.to_string(),
            number(l.distance_km),
            l.tonnes.map(number).unwrap_or_default(),
            number(l.activity_tkm),
            kg(l.total()),
            kg(l.wtt),
            kg(l.ttw),
            intensity(&totals),
            l.data.map(|d| d.as_str().to_owned()).unwrap_or_default(),
            l.factor_id.clone(),
            l.factor_source.clone(),
            l.grade.clone(),
            l.flagged.to_string(),
            l.notes.join(" "),
            l.excluded.clone().unwrap_or_default(),
        ]);
    }
    // the writer flushes what it holds as it goes
    drop(w);
    out
}

fn summary_line(out: &mut Vec<u8>, category: &str, b: &Bucket, hub: bool, notes: &str) {
    let t = &b.totals;
    write(
        out,
        &[
            "summary".to_owned(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            category.to_owned(),
            hub.to_string(),
            String::new(),
            if hub { number(b.tonnes) } else { String::new() },
            number(t.activity),
            kg(t.total()),
            kg(t.wtt),
            kg(t.ttw),
            intensity(t),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            notes.to_owned(),
            String::new(),
        ],
    );
}

/// The summary's lines: `total`, `mode:*`, `phase:*`, `hub:*`, `unallocated`,
/// `data:*` (the share in `notes`), `source:*`, `fallback:*` and
/// `excluded:*` (their line counts in `notes`).
pub fn summary(s: &ReportSummary) -> Vec<u8> {
    let mut out = Vec::new();
    let total = Bucket {
        totals: s.total,
        tonnes: Decimal::ZERO,
        lines: 0,
    };
    summary_line(
        &mut out,
        "total",
        &total,
        false,
        &format!("{} shipments", s.shipments),
    );
    for (mode, b) in &s.by_mode {
        summary_line(&mut out, &format!("mode:{mode}"), b, false, "");
    }
    for c in Carriage::ALL {
        summary_line(
            &mut out,
            &format!("phase:{}", c.as_str()),
            &s.phase(c),
            false,
            "",
        );
    }
    for (hub, b) in &s.by_hub {
        summary_line(&mut out, &format!("hub:{hub}"), b, true, "");
    }
    if s.unallocated.lines > 0 {
        summary_line(
            &mut out,
            "unallocated",
            &s.unallocated,
            false,
            "client totals by shipment",
        );
    }
    for kind in DataKind::ALL {
        let share = s
            .data_share(kind)
            .map(|d| format!("share {}", d.normalize()))
            .unwrap_or_default();
        let wtw = s.data_mass(kind);
        let mut cells: Vec<String> = COLUMNS
            .iter()
            .map(|c| match *c {
                "record" => "summary".to_owned(),
                "category" => format!("data:{}", kind.as_str()),
                "hub" => "false".to_owned(),
                "wtw_kg" => kg(wtw),
                _ => String::new(),
            })
            .collect();
        if let Some(notes) = cells.get_mut(20) {
            *notes = share;
        }
        write(&mut out, &cells);
    }
    for (group, counts) in [
        ("source", &s.sources),
        ("fallback", &s.fallbacks),
        ("excluded", &s.exclusions),
    ] {
        for (name, n) in counts {
            summary_line(
                &mut out,
                &format!("{group}:{name}"),
                &Bucket::default(),
                false,
                &format!("{n} lines"),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn line(reference: &str) -> ReportLine {
        ReportLine {
            shipment_id: "0190e0a0a0a070008000000000000001".parse().unwrap(),
            reference: reference.to_owned(),
            shipment_date: None,
            leg: Some(1),
            carriage: Some(Carriage::Main),
            category: "road".into(),
            hub: false,
            distance_km: Decimal::from(100),
            distance_given: true,
            tonnes: Some(Decimal::from(2)),
            activity_tkm: Decimal::from(200),
            wtt: Mass::from_grams(1_234),
            ttw: Mass::from_grams(5_000),
            data: Some(DataKind::Default),
            factor_id: "HGV".into(),
            factor_source: "DESNZ 2025".into(),
            grade: "B".into(),
            flagged: false,
            notes: vec![],
            excluded: None,
        }
    }

    #[test]
    fn formulas_are_defused_and_the_figures_read_back_to_the_gram() {
        let out = lines(&[line("=cmd|' /C calc'!A0"), line("@SUM(A1)"), line("-2+3")]);
        let mut r = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(out.as_slice());
        let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
        assert_eq!(&rows[0][2], "'=cmd|' /C calc'!A0");
        assert_eq!(&rows[1][2], "'@SUM(A1)");
        assert_eq!(&rows[2][2], "'-2+3");
        assert_eq!(&rows[0][11], "6.234");
        assert_eq!(&rows[0][12], "1.234");
        assert_eq!(&rows[0][14], "31.17");
        assert!(rows.iter().all(|r| r.len() == COLUMNS.len()));
    }

    #[test]
    fn the_summary_has_the_total_each_phase_and_the_data_shares() {
        let mut s = ReportSummary::default();
        s.add(&line("a"));
        let text = String::from_utf8(summary(&s)).unwrap();
        assert!(text.contains("summary,,,,,,total,false,,,200,6.234,1.234,5,31.17"));
        assert!(text.contains("phase:pre"));
        assert!(text.contains("mode:road"));
        assert!(text.contains("data:default"));
        assert!(text.contains("share 1"));
        assert!(text.contains("source:DESNZ 2025"));
    }
}
