//! One leg of a shipment: its fields, its transport method (by mode, fuel,
//! vehicle or the simple forms) and its start and end locations.

use serde_json::{Map, Value, json};

use super::columns::number;
use super::columns::{
    AIR_SIMPLE, Kind, LEG_FIELDS, METHOD_COLUMNS, MODES, RAIL_SIMPLE, SIMPLE, scalar,
};
use super::emissions::client_emissions;
use super::problem::{Problem, Problems};
use super::reading::{Builder, Line};

/// One leg from its line.
pub(super) fn leg(
    path: &str,
    line: &Line<'_>,
    b: &mut Builder<'_>,
    problems: &mut Problems,
) -> Map<String, Value> {
    let mut obj = Map::new();
    for (col, field, kind) in LEG_FIELDS {
        if let Some(v) = line.get(col) {
            b.put(&mut obj, path, field, scalar(*kind, v), line, col);
        }
    }
    if line.get("carriage").is_none() {
        problems.push(Problem::at(
            line.number,
            "carriage",
            "is required (pre, main or on)",
        ));
    }
    if let Some(m) = method(path, line, b, problems) {
        obj.insert("method".to_owned(), m);
    }
    for end in ["origin", "destination"] {
        if let Some(l) = location(path, end, line, b, problems) {
            obj.insert(end.to_owned(), l);
        }
    }
    if let Some(km) = line.get("distance_km") {
        b.put(
            &mut obj,
            path,
            "distance",
            json!({"amount": km, "unit": "km"}),
            line,
            "distance_km",
        );
    }
    let mut load = Map::new();
    let load_path = format!("{path}.load");
    match (line.get("mass"), line.get("mass_unit")) {
        (Some(amount), Some(unit)) => {
            b.put(
                &mut load,
                &load_path,
                "mass",
                json!({"amount": amount, "unit": unit}),
                line,
                "mass",
            );
            b.note(format!("{load_path}.mass.unit"), line, "mass_unit");
        }
        (Some(_), None) => problems.push(Problem::at(
            line.number,
            "mass_unit",
            "is required with mass (g, kg or t)",
        )),
        (None, Some(_)) => problems.push(Problem::at(
            line.number,
            "mass",
            "is required with mass_unit",
        )),
        (None, None) => {}
    }
    if let Some(teu) = line.get("teu") {
        b.put(
            &mut load,
            &load_path,
            "containers",
            json!({"teu": teu}),
            line,
            "teu",
        );
    }
    if !load.is_empty() {
        obj.insert("load".to_owned(), Value::Object(load));
    }
    let mut dates = Map::new();
    for d in ["etd", "eta", "atd", "ata"] {
        if let Some(v) = line.get(d) {
            b.put(
                &mut dates,
                &format!("{path}.dates"),
                d,
                Value::String(v.to_owned()),
                line,
                d,
            );
        }
    }
    if !dates.is_empty() {
        obj.insert("dates".to_owned(), Value::Object(dates));
    }
    if let Some(e) = client_emissions(line, "leg_emissions", &format!("{path}."), b, problems) {
        obj.insert("emissions".to_owned(), e);
    }
    obj
}

/// The leg's method from `mode` and that mode's columns.
pub(super) fn method(
    path: &str,
    line: &Line<'_>,
    b: &mut Builder<'_>,
    problems: &mut Problems,
) -> Option<Value> {
    let Some(mode) = line.get("mode") else {
        problems.push(Problem::at(
            line.number,
            "mode",
            "is required (road, sea, air, rail or logistics_site)",
        ));
        return None;
    };
    if !MODES.contains(&mode) {
        return None; // reported with the values' kinds
    }
    let mut wrong = false;
    for (col, modes, _) in METHOD_COLUMNS {
        if line.get(col).is_some() && !modes.contains(&mode) {
            problems.push(Problem::at(
                line.number,
                col,
                format!(
                    "applies to {} legs, not to a {mode} leg",
                    modes.join(" or ")
                ),
            ));
            wrong = true;
        }
    }
    if wrong {
        return None;
    }
    let mpath = format!("{path}.method");
    let mut obj = Map::new();
    let put =
        |obj: &mut Map<String, Value>, b: &mut Builder<'_>, col: &str, field: &str, kind: Kind| {
            if let Some(v) = line.get(col) {
                b.put(obj, &mpath, field, scalar(kind, v), line, col);
            }
        };
    let required = |col: &str, problems: &mut Problems, what: &str| {
        if line.get(col).is_none() {
            problems.push(Problem::at(
                line.number,
                col,
                format!("is required for {what}"),
            ));
        }
    };
    // exactly one of the given ways to name a method
    let one_of = |cols: &[&str], problems: &mut Problems| -> Option<&'static str> {
        let given: Vec<&str> = cols
            .iter()
            .copied()
            .filter(|c| line.get(c).is_some())
            .collect();
        match given.as_slice() {
            [] => {
                let first = cols.first().copied().unwrap_or("mode");
                problems.push(Problem::at(
                    line.number,
                    first,
                    format!("a {mode} leg needs one of: {}", cols.join(", ")),
                ));
                None
            }
            [one] => METHOD_COLUMNS
                .iter()
                .find(|(c, _, _)| c == one)
                .map(|(c, _, _)| *c),
            [_, second, ..] => {
                problems.push(Problem::at(
                    line.number,
                    second,
                    format!("give only one of: {}", cols.join(", ")),
                ));
                None
            }
        }
    };
    match mode {
        "road" => {
            required("vehicle_type", problems, "a road leg");
            required("fuel", problems, "a road leg");
            put(&mut obj, b, "vehicle_type", "vehicle_type", Kind::Text);
            put(&mut obj, b, "fuel", "fuel", Kind::Text);
            put(&mut obj, b, "refrigerated", "refrigerated", Kind::Bool);
        }
        "sea" => {
            for (col, _, kind) in METHOD_COLUMNS.iter().filter(|(_, m, _)| m.contains(&"sea")) {
                put(&mut obj, b, col, col, *kind);
            }
        }
        "air" => match one_of(
            &["aircraft_type", "flight_number", "simple_method"],
            problems,
        )? {
            "aircraft_type" => {
                if line.get("departure_on").is_some()
                    || line.get("aircraft_configuration").is_some()
                {
                    let col = if line.get("departure_on").is_some() {
                        "departure_on"
                    } else {
                        "aircraft_configuration"
                    };
                    problems.push(Problem::at(
                        line.number,
                        col,
                        "applies with flight_number only",
                    ));
                }
                put(&mut obj, b, "aircraft_type", "aircraft_type", Kind::Text);
            }
            "flight_number" => {
                required("departure_on", problems, "a flight number");
                put(&mut obj, b, "flight_number", "flight_number", Kind::Text);
                put(&mut obj, b, "departure_on", "departure_on", Kind::Text);
                put(
                    &mut obj,
                    b,
                    "aircraft_configuration",
                    "aircraft_configuration",
                    Kind::Text,
                );
            }
            _ => return simple(path, line, AIR_SIMPLE, "air", b, problems),
        },
        "rail" => match one_of(&["train_type", "simple_method"], problems)? {
            "train_type" => put(&mut obj, b, "train_type", "train_type", Kind::Text),
            _ => return simple(path, line, RAIL_SIMPLE, "rail", b, problems),
        },
        _ => {
            let Some(site) = line.get("logistics_site") else {
                required("logistics_site", problems, "a logistics_site leg");
                return None;
            };
            b.note(mpath, line, "logistics_site");
            return Some(Value::String(site.to_owned()));
        }
    }
    b.note(mpath, line, "mode");
    Some(Value::Object(obj))
}

/// A simple method name of the mode (the contract's `SimpleShipmentMethod`).
pub(super) fn simple(
    path: &str,
    line: &Line<'_>,
    allowed: &[&str],
    mode: &str,
    b: &mut Builder<'_>,
    problems: &mut Problems,
) -> Option<Value> {
    let v = line.get("simple_method")?;
    if !allowed.contains(&v) {
        if SIMPLE.contains(&v) {
            problems.push(Problem::at(
                line.number,
                "simple_method",
                format!(
                    "'{v}' is not a {mode} method: one of {}",
                    allowed.join(", ")
                ),
            ));
        }
        return None;
    }
    b.note(format!("{path}.method"), line, "simple_method");
    Some(Value::String(v.to_owned()))
}

/// The kinds of location, by their columns (after the end's prefix).
pub(super) const LOCATION_KINDS: &[&[&str]] = &[
    &["locode"],
    &["airport_code"],
    &[
        "street_line1",
        "street_line2",
        "postcode",
        "city",
        "country_code",
    ],
    &["latitude", "longitude"],
    &["unknown_code"],
];

/// A leg's origin or destination: one kind of location.
pub(super) fn location(
    path: &str,
    end: &str,
    line: &Line<'_>,
    b: &mut Builder<'_>,
    problems: &mut Problems,
) -> Option<Value> {
    let col = |part: &str| format!("{end}_{part}");
    let kinds: Vec<&[&str]> = LOCATION_KINDS
        .iter()
        .copied()
        .filter(|parts| parts.iter().any(|p| line.get(&col(p)).is_some()))
        .collect();
    let chosen = *kinds.first()?;
    if let Some(second) = kinds.get(1) {
        let given = second
            .iter()
            .find(|p| line.get(&col(p)).is_some())
            .map_or_else(|| col("locode"), |p| col(p));
        problems.push(Problem::at(
            line.number,
            &given,
            format!(
                "the {end} is given twice: give a UN/LOCODE, an airport code, an address, coordinates or an unknown code, one only"
            ),
        ));
        return None;
    }
    let lpath = format!("{path}.{end}");
    let mut obj = Map::new();
    let first_col = chosen
        .iter()
        .find(|p| line.get(&col(p)).is_some())
        .map_or_else(|| col("locode"), |p| col(p));
    match chosen.first().copied() {
        Some("latitude") => {
            for (part, field) in [("latitude", "lat"), ("longitude", "lon")] {
                match line.get(&col(part)) {
                    Some(v) => b.put(&mut obj, &lpath, field, number(v), line, &col(part)),
                    None => problems.push(Problem::at(
                        line.number,
                        &col(part),
                        format!("is required with {}", first_col),
                    )),
                }
            }
        }
        Some("airport_code") => {
            if let Some(v) = line.get(&col("airport_code")) {
                b.put(
                    &mut obj,
                    &lpath,
                    "code",
                    Value::String(v.to_owned()),
                    line,
                    &col("airport_code"),
                );
            }
        }
        _ => {
            for part in chosen {
                if let Some(v) = line.get(&col(part)) {
                    b.put(
                        &mut obj,
                        &lpath,
                        part,
                        Value::String(v.to_owned()),
                        line,
                        &col(part),
                    );
                }
            }
        }
    }
    b.note(lpath, line, &first_col);
    Some(Value::Object(obj))
}
