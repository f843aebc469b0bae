//! The client's own emission figures, given for a shipment or for a leg.

use serde_json::{Map, Value};

use super::problem::{Problem, Problems};
use super::reading::{Builder, Line};

/// Client-provided emissions from the columns `{prefix}_total_kg`, `_wtt_kg`,
/// `_ttw_kg` and `_distance_km`, at `{path}emissions`.
pub(super) fn client_emissions(
    line: &Line<'_>,
    prefix: &str,
    path: &str,
    b: &mut Builder<'_>,
    problems: &mut Problems,
) -> Option<Value> {
    let col = |part: &str| format!("{prefix}_{part}");
    let parts = [
        ("total_kg", "total_emissions"),
        ("wtt_kg", "wtt"),
        ("ttw_kg", "ttw"),
        ("distance_km", "distance_km"),
    ];
    let given: Vec<_> = parts
        .iter()
        .filter_map(|(p, f)| line.get(&col(p)).map(|v| (col(p), *f, v)))
        .collect();
    let first_given = given.first()?;
    let mut missing = false;
    for required in ["total_kg", "distance_km"] {
        if line.get(&col(required)).is_none() {
            problems.push(Problem::at(
                line.number,
                &col(required),
                format!("is required with {}", first_given.0),
            ));
            missing = true;
        }
    }
    if missing {
        return None;
    }
    let mut obj = Map::new();
    for (column, field, v) in &given {
        b.put(
            &mut obj,
            &format!("{path}emissions"),
            field,
            Value::String((*v).to_owned()),
            line,
            column,
        );
    }
    b.note(format!("{path}emissions"), line, &col("total_kg"));
    Some(Value::Object(obj))
}
