//! One shipment of a data sheet: its lines read into the
//! `CreateShipmentRequest` row, the shipment's own fields from its first line
//! (later lines agreeing), one leg per line.

use serde_json::{Map, Value, json};

use super::columns::{Level, SHIPMENT_FIELDS, check_kind, column, scalar};
use super::emissions::client_emissions;
use super::legs::leg;
use super::problem::{Problem, Problems};
use super::reading::{Builder, Header, Line};
use super::sheet::SheetShipment;

/// One shipment from its lines (at least one).
pub(super) fn shipment(
    header: &Header,
    group: &[(u64, csv::StringRecord)],
    problems: &mut Problems,
) -> SheetShipment {
    let lines: Vec<Line<'_>> = group
        .iter()
        .map(|(number, record)| Line {
            number: *number,
            record,
            header,
        })
        .collect();
    let mut sources = Vec::new();
    let first_number = lines.first().map_or(0, |l| l.number);
    // every value of its kind
    for line in &lines {
        for name in &header.names {
            let (Some(v), Some((_, kind))) = (line.get(name), column(name)) else {
                continue;
            };
            if let Err(m) = check_kind(kind, v) {
                problems.push(Problem::at(line.number, name, m));
            }
        }
    }
    let mut obj = Map::new();
    if let Some(first) = lines.first() {
        // the shipment's columns agree with its first line
        for line in lines.iter().skip(1) {
            for name in &header.names {
                if column(name).is_none_or(|(level, _)| level != Level::Shipment) {
                    continue;
                }
                let Some(v) = line.get(name) else { continue };
                match first.get(name) {
                    Some(f) if f == v => {}
                    Some(f) => problems.push(Problem::at(
                        line.number,
                        name,
                        format!(
                            "'{v}' differs from '{f}' on line {} (the shipment's columns are read from its first line)",
                            first.number
                        ),
                    )),
                    None => problems.push(Problem::at(
                        line.number,
                        name,
                        format!(
                            "is empty on line {}, the shipment's first line, where the shipment's columns are read",
                            first.number
                        ),
                    )),
                }
            }
        }
        let mut b = Builder {
            sources: &mut sources,
        };
        shipment_fields(first, &mut obj, &mut b, problems);
        let mut legs = Vec::with_capacity(lines.len());
        for (i, line) in lines.iter().enumerate() {
            legs.push(Value::Object(leg(
                &format!("legs[{i}]"),
                line,
                &mut b,
                problems,
            )));
        }
        obj.insert("legs".to_owned(), Value::Array(legs));
    }
    SheetShipment {
        line: first_number,
        row: Value::Object(obj).to_string(),
        sources,
    }
}

pub(super) fn shipment_fields(
    line: &Line<'_>,
    obj: &mut Map<String, Value>,
    b: &mut Builder<'_>,
    problems: &mut Problems,
) {
    for (col, field, kind) in SHIPMENT_FIELDS {
        if let Some(v) = line.get(col) {
            b.put(obj, "", field, scalar(*kind, v), line, col);
        }
    }
    match (
        line.get("freight_cost_amount"),
        line.get("freight_cost_currency"),
    ) {
        (Some(value), Some(currency)) => {
            b.put(
                obj,
                "",
                "freight_cost",
                json!({"value": value, "currency": currency}),
                line,
                "freight_cost_amount",
            );
            b.note(
                "freight_cost.currency".to_owned(),
                line,
                "freight_cost_currency",
            );
        }
        (Some(_), None) => problems.push(Problem::at(
            line.number,
            "freight_cost_currency",
            "is required with freight_cost_amount",
        )),
        (None, Some(_)) => problems.push(Problem::at(
            line.number,
            "freight_cost_amount",
            "is required with freight_cost_currency",
        )),
        (None, None) => {}
    }
    if let Some(e) = client_emissions(line, "shipment_emissions", "", b, problems) {
        obj.insert("emissions".to_owned(), e);
    }
    let mut metadata = Map::new();
    for name in &line.header.names {
        if let (Some(key), Some(v)) = (name.strip_prefix("metadata."), line.get(name)) {
            b.put(
                &mut metadata,
                "metadata",
                key,
                Value::String(v.to_owned()),
                line,
                name,
            );
        }
    }
    if !metadata.is_empty() {
        obj.insert("metadata".to_owned(), Value::Object(metadata));
    }
}
