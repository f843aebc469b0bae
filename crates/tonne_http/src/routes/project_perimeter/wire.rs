//! The wire types of `project_perimeter`: what its requests and answers hold.

use serde::Serialize;
use utoipa::ToSchema;

/// The contract's `GeographicCoordinates`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = GeographicCoordinates)]
pub struct GeographicCoordinatesResponse {
    /// Latitude (WGS84 degrees).
    pub lat: f64,
    /// Longitude (WGS84 degrees).
    pub lon: f64,
}

/// The contract's `ProjectPerimeter`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ProjectPerimeter)]
pub struct ProjectPerimeterResponse {
    /// The rings, each a closed list of points (its last repeats its first).
    pub coordinates: Vec<Vec<GeographicCoordinatesResponse>>,
}

impl From<&tonne_ordering::Perimeter> for ProjectPerimeterResponse {
    fn from(p: &tonne_ordering::Perimeter) -> Self {
        Self {
            coordinates: p
                .rings()
                .iter()
                .map(|ring| {
                    ring.iter()
                        .map(|c| GeographicCoordinatesResponse {
                            lat: c.lat,
                            lon: c.lon,
                        })
                        .collect()
                })
                .collect(),
        }
    }
}
