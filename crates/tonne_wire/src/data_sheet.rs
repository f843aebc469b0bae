//! Shipment data sheets: a CSV file, one line per leg, that becomes the rows
//! of a shipment batch — each the JSON text of the contract's
//! `CreateShipmentRequest` — or every problem of the file, each with its line
//! and column.
//!
//! - The first line names the columns (any order; only the columns used need
//!   be there). Lines starting with `#` are comments; a UTF-8 byte-order mark
//!   is ignored.
//! - Consecutive lines with the same `shipment_id` are one shipment, one leg
//!   each, in the file's order. A line without a `shipment_id` is a shipment
//!   of its own. The shipment's columns are read from its first line; a later
//!   line may leave them empty or repeat them, never say something else.
//! - A value is trimmed; an empty value is absent. A value holding U+0000
//!   is refused (PostgreSQL cannot store it). Numbers are written with a
//!   `.` and no thousands separator; booleans `true` or `false`; dates
//!   `YYYY-MM-DD` (or RFC 3339 date-times for the leg's dates).
//!
//! [`parse`] checks structure and vocabulary; the rules between fields are
//! the row decoder's and the domain's. [`Sheet::check_rows`] runs each row
//! through a decoder and maps the field it names (`legs[1].method.fuel`) back
//! to the line and column it came from.

mod columns;
mod emissions;
mod legs;
mod problem;
mod reading;
mod sheet;
mod shipment;

use std::collections::HashMap;

pub use columns::COLUMNS;
use problem::Problems;
pub use problem::{MAX_PROBLEMS, Problem};
use reading::{Line, Lines, csv_problem, read_header};
pub use sheet::{Sheet, SheetShipment};
use shipment::shipment;

/// Largest data sheet, in bytes.
pub const MAX_BYTES: usize = 8 * 1024 * 1024;

/// Most shipments one data sheet may hold (a batch's most rows).
pub const MAX_SHIPMENTS: usize = tonne_shipments::MAX_BATCH_ROWS;

/// Most legs one shipment may have.
pub const MAX_LEGS: usize = tonne_shipments::MAX_LEGS;

/// Why a value holding U+0000 is refused (no store keeps it alike).
pub const NUL_REFUSED: &str = "contains U+0000 (NUL), which cannot be stored";

/// The documented template: a comment header and a few example shipments.
pub const TEMPLATE: &str = include_str!("data_sheet/template.csv");

/// Reads a data sheet whole: its shipments, or every problem (up to
/// [`MAX_PROBLEMS`]) with its line and column.
pub fn parse(bytes: &[u8]) -> Result<Sheet, Vec<Problem>> {
    if bytes.len() > MAX_BYTES {
        return Err(vec![Problem::file(format!(
            "the file is larger than {} MiB",
            MAX_BYTES / (1024 * 1024)
        ))]);
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Err(e) = std::str::from_utf8(bytes) {
        let before = bytes.get(..e.valid_up_to()).unwrap_or_default();
        let line = before.iter().filter(|b| **b == b'\n').count();
        let line = u64::try_from(line).unwrap_or(u64::MAX).saturating_add(1);
        return Err(vec![Problem::line(
            line,
            "the file is not UTF-8 text (save it as \"CSV UTF-8\")",
        )]);
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .comment(Some(b'#'))
        .from_reader(bytes);
    let lines = Lines::of(bytes);
    let mut records = reader.records();
    let mut problems = Problems::default();
    let header = match records.next() {
        None => return Err(vec![Problem::file("the file is empty")]),
        Some(Err(e)) => return Err(vec![csv_problem(&e)]),
        Some(Ok(r)) => read_header(&r, lines.of_record(&r), &mut problems),
    };
    // unknown and repeated columns are listed with the lines' problems;
    // without carriage or mode no line can be read
    if ["carriage", "mode"]
        .iter()
        .any(|c| !header.index.contains_key(*c))
    {
        return problems.finish(Sheet { shipments: vec![] });
    }
    let width = header.names.len();
    let mut shipments = Vec::new();
    let mut group: Vec<(u64, csv::StringRecord)> = Vec::new();
    let mut seen: HashMap<String, u64> = HashMap::new();
    for record in records {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                problems.push(csv_problem(&e));
                break;
            }
        };
        let number = lines.of_record(&record);
        if record.iter().all(|v| v.trim().is_empty()) {
            continue;
        }
        if record.len() != width {
            problems.push(Problem::line(
                number,
                format!(
                    "has {} values; the first line names {width} columns",
                    record.len()
                ),
            ));
            continue;
        }
        // PostgreSQL's TEXT refuses U+0000 where SQLite keeps it: refused
        // here, so that both stores take the same files
        if let Some((at, _)) = record.iter().enumerate().find(|(_, v)| v.contains('\0')) {
            let column = header.names.get(at).map_or("", String::as_str);
            problems.push(Problem::at(number, column, NUL_REFUSED));
            continue;
        }
        let id = {
            let line = Line {
                number,
                record: &record,
                header: &header,
            };
            line.get("shipment_id").map(str::to_owned)
        };
        let same = match (&id, group.first()) {
            (Some(id), Some((_, first))) => {
                let first = Line {
                    number: 0,
                    record: first,
                    header: &header,
                };
                first.get("shipment_id") == Some(id.as_str())
            }
            _ => false,
        };
        if !same {
            if !group.is_empty() {
                shipments.push(shipment(&header, &group, &mut problems));
                group.clear();
            }
            if shipments.len() >= MAX_SHIPMENTS {
                problems.push(Problem::at(
                    number,
                    "shipment_id",
                    format!("a data sheet holds at most {MAX_SHIPMENTS} shipments"),
                ));
                return problems.finish(Sheet { shipments: vec![] });
            }
            if let Some(id) = &id {
                if let Some(earlier) = seen.get(id) {
                    problems.push(Problem::at(
                        number,
                        "shipment_id",
                        format!(
                            "shipment '{id}' began on line {earlier} already: a shipment's lines must follow each other"
                        ),
                    ));
                } else {
                    seen.insert(id.clone(), number);
                }
            }
        } else if group.len() >= MAX_LEGS {
            problems.push(Problem::at(
                number,
                "shipment_id",
                format!("a shipment has at most {MAX_LEGS} legs (lines)"),
            ));
            continue;
        }
        group.push((number, record));
    }
    if !group.is_empty() {
        shipments.push(shipment(&header, &group, &mut problems));
    }
    if shipments.is_empty() && problems.is_empty() {
        problems.push(Problem::file(
            "the file has no shipment, only the column names",
        ));
    }
    problems.finish(Sheet { shipments })
}

#[cfg(test)]
mod tests;
