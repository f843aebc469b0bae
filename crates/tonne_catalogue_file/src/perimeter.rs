//! A project's `perimeter` in a catalogue file: a GeoJSON geometry (RFC 7946),
//! `Polygon` or `MultiPolygon`, positions `[longitude, latitude]` (an
//! altitude, if any, is ignored), at most [`MAX_PERIMETER_BYTES`] of JSON and
//! [`tonne_ordering::MAX_PERIMETER_POINTS`] points, every ring closed, WGS84.
//! It becomes the ordering domain's `Perimeter`: the rings polygon by
//! polygon, each polygon's exterior ring first.

use anyhow::{anyhow, bail, ensure};
use serde_json::Value;
use tonne_ordering::{Coordinates, MAX_PERIMETER_POINTS, Perimeter};

/// The most bytes a perimeter's GeoJSON may take (compact JSON).
pub const MAX_PERIMETER_BYTES: usize = 1024 * 1024;

/// The perimeter a project's `perimeter` field describes.
pub fn parse(geometry: &Value) -> anyhow::Result<Perimeter> {
    let size = serde_json::to_string(geometry)
        .map_err(|e| anyhow!("perimeter: {e}"))?
        .len();
    ensure!(
        size <= MAX_PERIMETER_BYTES,
        "perimeter: more than {MAX_PERIMETER_BYTES} bytes of GeoJSON"
    );
    let Value::Object(geometry) = geometry else {
        bail!("perimeter: must be a GeoJSON Polygon or MultiPolygon object");
    };
    let coordinates = geometry
        .get("coordinates")
        .ok_or_else(|| anyhow!("perimeter: coordinates are required"))?;
    let polygons: Vec<&Value> = match geometry.get("type").and_then(Value::as_str) {
        Some("Polygon") => vec![coordinates],
        Some("MultiPolygon") => array(coordinates, "coordinates")?.iter().collect(),
        Some(other) => bail!("perimeter: type `{other}` is not Polygon or MultiPolygon"),
        None => bail!("perimeter: type must be Polygon or MultiPolygon"),
    };
    let mut rings = Vec::new();
    let mut points = 0usize;
    for polygon in polygons {
        let polygon = array(polygon, "a polygon")?;
        ensure!(!polygon.is_empty(), "perimeter: a polygon has no ring");
        for ring in polygon {
            let positions = array(ring, "a ring")?;
            points = points.saturating_add(positions.len());
            ensure!(
                points <= MAX_PERIMETER_POINTS,
                "perimeter: more than {MAX_PERIMETER_POINTS} points"
            );
            let ring_index = rings.len();
            rings.push(
                positions
                    .iter()
                    .enumerate()
                    .map(|(i, p)| position(p, ring_index, i))
                    .collect::<anyhow::Result<Vec<_>>>()?,
            );
        }
    }
    Perimeter::new(rings).map_err(|e| anyhow!("perimeter: {e}"))
}

fn array<'a>(value: &'a Value, what: &str) -> anyhow::Result<&'a Vec<Value>> {
    value
        .as_array()
        .ok_or_else(|| anyhow!("perimeter: {what} must be an array"))
}

/// `[longitude, latitude]` or `[longitude, latitude, altitude]`.
fn position(value: &Value, ring: usize, point: usize) -> anyhow::Result<Coordinates> {
    let numbers = value
        .as_array()
        .filter(|a| (2..=3).contains(&a.len()))
        .and_then(|a| Some((a.first()?.as_f64()?, a.get(1)?.as_f64()?)));
    let (lon, lat) = numbers.ok_or_else(|| {
        anyhow!("perimeter: ring {ring}, point {point}: a position is [longitude, latitude]")
    })?;
    Ok(Coordinates { lat, lon })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    fn square(x: f64) -> Value {
        json!([[x, 0.0], [x, 1.0], [1.0, 1.0], [1.0, 0.0], [x, 0.0]])
    }

    #[test]
    fn polygons_and_multipolygons_become_rings_in_order_latitude_second() {
        let p =
            parse(&json!({"type": "Polygon", "coordinates": [square(0.5), square(0.75)]})).unwrap();
        assert_eq!(p.rings().len(), 2);
        // GeoJSON is [longitude, latitude]
        assert_eq!(p.rings()[0][1], Coordinates { lat: 1.0, lon: 0.5 });
        let m = parse(&json!({"type": "MultiPolygon",
            "coordinates": [[square(0.0)], [square(0.25), square(0.5)]]}))
        .unwrap();
        assert_eq!(m.rings().len(), 3);
        assert_eq!(m.points(), 15);
        // an altitude is allowed and ignored
        let with_altitude = json!({"type": "Polygon", "coordinates": [[
            [0.0, 0.0, 12.0], [0.0, 1.0, 12.0], [1.0, 1.0, 12.0], [0.0, 0.0, 12.0]]]});
        assert_eq!(parse(&with_altitude).unwrap().points(), 4);
    }

    #[test]
    fn anything_else_is_refused_with_the_reason() {
        let refused = |v: Value, needle: &str| {
            let e = format!("{:#}", parse(&v).unwrap_err());
            assert!(e.contains(needle), "{e}");
        };
        refused(json!("POLYGON((0 0))"), "GeoJSON Polygon or MultiPolygon");
        refused(
            json!({"type": "Point", "coordinates": [0.0, 0.0]}),
            "`Point` is not Polygon",
        );
        refused(json!({"coordinates": [square(0.0)]}), "type must be");
        refused(json!({"type": "Polygon"}), "coordinates are required");
        refused(json!({"type": "Polygon", "coordinates": []}), "has no ring");
        refused(
            json!({"type": "MultiPolygon", "coordinates": [[]]}),
            "a polygon has no ring",
        );
        refused(
            json!({"type": "Polygon", "coordinates": [[[0.0, 0.0], [0.0, 1.0], [1.0, 1.0], [1.0, 0.0]]]}),
            "not closed",
        );
        refused(
            json!({"type": "Polygon", "coordinates": [[[0.0, 0.0], [0.0, 91.0], [1.0, 1.0], [0.0, 0.0]]]}),
            "ring 0, point 1: latitude",
        );
        refused(
            json!({"type": "Polygon", "coordinates": [[[0.0, 0.0], ["0", 1.0], [1.0, 1.0], [0.0, 0.0]]]}),
            "point 1: a position is [longitude, latitude]",
        );
        let many: Vec<Value> = (0..=MAX_PERIMETER_POINTS)
            .map(|_| json!([0.0, 0.0]))
            .collect();
        refused(
            json!({"type": "Polygon", "coordinates": [many]}),
            "more than 10000 points",
        );
        let padded = json!({"type": "Polygon", "coordinates": [square(0.0)],
                            "padding": "x".repeat(MAX_PERIMETER_BYTES)});
        refused(padded, "bytes of GeoJSON");
    }
}
