//! Reading the CSV: the header's columns, the lines (comments and a
//! byte-order mark skipped), and the JSON object each line's values build.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::columns::column;
use super::problem::{Problem, Problems};

/// The column names and where each is.
pub(super) struct Header {
    pub(super) names: Vec<String>,
    pub(super) index: HashMap<String, usize>,
}

/// One line of the file.
pub(super) struct Line<'a> {
    pub(super) number: u64,
    pub(super) record: &'a csv::StringRecord,
    pub(super) header: &'a Header,
}

impl Line<'_> {
    /// A column's trimmed value; `None` when absent or empty.
    pub(super) fn get(&self, column: &str) -> Option<&str> {
        let i = *self.header.index.get(column)?;
        self.record.get(i).map(str::trim).filter(|v| !v.is_empty())
    }
}

/// A shipment or leg being built: its JSON and where each field came from.
pub(super) struct Builder<'a> {
    pub(super) sources: &'a mut Vec<(String, u64, String)>,
}

impl Builder<'_> {
    pub(super) fn put(
        &mut self,
        obj: &mut Map<String, Value>,
        path: &str,
        key: &str,
        v: Value,
        line: &Line<'_>,
        column: &str,
    ) {
        obj.insert(key.to_owned(), v);
        let full = if path.is_empty() {
            key.to_owned()
        } else {
            format!("{path}.{key}")
        };
        self.sources.push((full, line.number, column.to_owned()));
    }

    pub(super) fn note(&mut self, path: String, line: &Line<'_>, column: &str) {
        self.sources.push((path, line.number, column.to_owned()));
    }
}

/// The file's lines, to name a record's (the csv reader's own count
/// leaves out comments and blank lines).
pub(super) struct Lines<'a> {
    pub(super) text: &'a [u8],
    /// The offset of every newline.
    pub(super) newlines: Vec<usize>,
}

impl<'a> Lines<'a> {
    pub(super) fn of(text: &'a [u8]) -> Self {
        let newlines = text
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .map(|(i, _)| i)
            .collect();
        Self { text, newlines }
    }

    /// The line a record starts on: the reader's position is where it began
    /// reading, before the blank and comment lines it skipped.
    pub(super) fn of_record(&self, r: &csv::StringRecord) -> u64 {
        let mut at = r
            .position()
            .and_then(|p| usize::try_from(p.byte()).ok())
            .unwrap_or(0);
        loop {
            let rest = self.text.get(at..).unwrap_or_default();
            if rest.starts_with(b"\n") {
                at = at.saturating_add(1);
            } else if rest.starts_with(b"\r\n") {
                at = at.saturating_add(2);
            } else if rest.starts_with(b"#") {
                match rest.iter().position(|b| *b == b'\n') {
                    Some(end) => at = at.saturating_add(end).saturating_add(1),
                    None => break,
                }
            } else {
                break;
            }
        }
        let before = self.newlines.partition_point(|n| *n < at);
        u64::try_from(before).unwrap_or(u64::MAX).saturating_add(1)
    }
}

pub(super) fn csv_problem(e: &csv::Error) -> Problem {
    match e.position() {
        Some(p) => Problem::line(p.line(), "the line cannot be read as CSV"),
        None => Problem::file("the file cannot be read as CSV"),
    }
}

pub(super) fn read_header(r: &csv::StringRecord, number: u64, problems: &mut Problems) -> Header {
    let mut names = Vec::with_capacity(r.len());
    let mut index = HashMap::new();
    for (i, name) in r.iter().enumerate() {
        let name = name.trim().to_owned();
        if name.is_empty() {
            problems.push(Problem::line(
                number,
                format!("column {} has no name", i.saturating_add(1)),
            ));
        } else if column(&name).is_none() {
            problems.push(Problem::at(
                number,
                &name,
                "unknown column (see the template for the columns)",
            ));
        } else if index.contains_key(&name) {
            problems.push(Problem::at(number, &name, "the column is named twice"));
        } else {
            index.insert(name.clone(), i);
        }
        names.push(name);
    }
    for required in ["carriage", "mode"] {
        if !index.contains_key(required) {
            problems.push(Problem::line(
                number,
                format!("the column {required} is required"),
            ));
        }
    }
    Header { names, index }
}
