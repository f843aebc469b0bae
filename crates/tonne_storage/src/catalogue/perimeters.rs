//! Projects' perimeters: one row per project that has one, its rings as JSON
//! (`[[["lat", "lon"], …], …]`: each number as Rust writes an `f64`, the
//! shortest text that reads back to the same bits — JSON numbers would go
//! through serde_json's faster, not always exact, float parsing), written by
//! a catalogue import in its transaction and read on their own (reading
//! projects never carries them).

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::RunQueryDsl;
use tonne_ordering::{Coordinates, Perimeter, ProjectId};

use crate::db::Conn;
use crate::db::error::{corrupt, decode_error, encode_error};
use crate::schema::project_perimeters;

/// A perimeter as stored: its rings as JSON and its number of points.
pub(super) fn encode(perimeter: &Perimeter) -> Result<(String, i32), DieselError> {
    let rings: Vec<Vec<[String; 2]>> = perimeter
        .rings()
        .iter()
        .map(|ring| {
            ring.iter()
                .map(|p| [p.lat.to_string(), p.lon.to_string()])
                .collect()
        })
        .collect();
    let json = serde_json::to_string(&rings).map_err(encode_error)?;
    let points = i32::try_from(perimeter.points()).map_err(|_| corrupt("perimeter", "size"))?;
    Ok((json, points))
}

fn decode(json: &str) -> Result<Perimeter, DieselError> {
    let rings: Vec<Vec<[String; 2]>> = serde_json::from_str(json).map_err(decode_error)?;
    let number = |s: &str| s.parse::<f64>().map_err(|_| corrupt("perimeter point", s));
    let rings = rings
        .iter()
        .map(|ring| {
            ring.iter()
                .map(|[lat, lon]| {
                    Ok(Coordinates {
                        lat: number(lat)?,
                        lon: number(lon)?,
                    })
                })
                .collect::<Result<Vec<_>, DieselError>>()
        })
        .collect::<Result<Vec<_>, DieselError>>()?;
    Perimeter::new(rings).map_err(|e| corrupt("perimeter", &e.to_string()))
}

/// Replaces the perimeters of the imported projects: each project named in
/// `projects` loses its row, and gets the one `perimeters` gives it, if any.
pub(super) async fn replace(
    conn: &mut Conn,
    projects: &[String],
    perimeters: &[(String, String, i32)],
) -> QueryResult<()> {
    on!(&mut *conn, |c| diesel::delete(
        project_perimeters::table.filter(project_perimeters::project_id.eq_any(projects)),
    )
    .execute(c)
    .await)?;
    for (project, rings, points) in perimeters {
        on!(&mut *conn, |c| diesel::insert_into(
            project_perimeters::table
        )
        .values((
            project_perimeters::project_id.eq(project),
            project_perimeters::rings.eq(rings),
            project_perimeters::points.eq(points),
        ))
        .execute(c)
        .await)?;
    }
    Ok(())
}

/// A project's perimeter, if it has one.
pub(super) async fn read(conn: &mut Conn, id: ProjectId) -> QueryResult<Option<Perimeter>> {
    on!(conn, |c| project_perimeters::table
        .find(id.to_string())
        .select(project_perimeters::rings)
        .first::<String>(c)
        .await)
    .optional()?
    .map(|json| decode(&json))
    .transpose()
}
