//! A project's perimeter: the boundary of its area as WGS84 rings (the
//! contract's `ProjectPerimeter`, an array of rings of `{lat, lon}`), checked
//! once when a catalogue is read: every ring closed, with at least four
//! points, every point in range, at most [`MAX_PERIMETER_POINTS`] points in
//! all. Only comparisons: no arithmetic on the coordinates.

/// The most points a perimeter may have, all rings together.
pub const MAX_PERIMETER_POINTS: usize = 10_000;

/// One WGS84 point, in degrees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Coordinates {
    /// Latitude, −90 to 90.
    pub lat: f64,
    /// Longitude, −180 to 180.
    pub lon: f64,
}

/// A checked perimeter: its rings in order (for a polygon, its exterior ring
/// then its holes; for several polygons, one after the other).
#[derive(Debug, Clone, PartialEq)]
pub struct Perimeter {
    rings: Vec<Vec<Coordinates>>,
}

/// Why rings are not a perimeter; `ring` and `point` count from 0.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PerimeterError {
    #[error("has no ring")]
    Empty,
    #[error("ring {ring}: a ring needs at least 4 points (the last repeating the first)")]
    RingTooShort { ring: usize },
    #[error("ring {ring}: not closed (its last point must repeat its first)")]
    RingNotClosed { ring: usize },
    #[error(
        "ring {ring}, point {point}: latitude must be within -90..90 and longitude within -180..180 (WGS84 degrees)"
    )]
    OutOfRange { ring: usize, point: usize },
    #[error("more than {MAX_PERIMETER_POINTS} points")]
    TooManyPoints,
}

// Every coordinate is finite (checked by `new`), so equality is reflexive.
impl Eq for Perimeter {}

impl Perimeter {
    /// Checks `rings`.
    pub fn new(rings: Vec<Vec<Coordinates>>) -> Result<Self, PerimeterError> {
        if rings.is_empty() {
            return Err(PerimeterError::Empty);
        }
        if rings.iter().map(Vec::len).sum::<usize>() > MAX_PERIMETER_POINTS {
            return Err(PerimeterError::TooManyPoints);
        }
        for (ring, points) in rings.iter().enumerate() {
            if points.len() < 4 {
                return Err(PerimeterError::RingTooShort { ring });
            }
            if let Some(point) = points.iter().position(|p| !in_range(p)) {
                return Err(PerimeterError::OutOfRange { ring, point });
            }
            if points.first() != points.last() {
                return Err(PerimeterError::RingNotClosed { ring });
            }
        }
        Ok(Self { rings })
    }

    /// The rings, in order.
    pub fn rings(&self) -> &[Vec<Coordinates>] {
        &self.rings
    }

    /// Every point, all rings together.
    pub fn points(&self) -> usize {
        self.rings.iter().map(Vec::len).sum()
    }
}

fn in_range(p: &Coordinates) -> bool {
    p.lat.is_finite()
        && p.lon.is_finite()
        && (-90.0..=90.0).contains(&p.lat)
        && (-180.0..=180.0).contains(&p.lon)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(points: &[(f64, f64)]) -> Vec<Coordinates> {
        points
            .iter()
            .map(|&(lat, lon)| Coordinates { lat, lon })
            .collect()
    }

    fn square() -> Vec<Coordinates> {
        ring(&[(0.0, 0.0), (0.0, 1.0), (1.0, 1.0), (1.0, 0.0), (0.0, 0.0)])
    }

    #[test]
    fn closed_rings_in_range_are_a_perimeter() {
        let p = Perimeter::new(vec![square(), square()]).unwrap();
        assert_eq!(p.rings().len(), 2);
        assert_eq!(p.points(), 10);
        // the edges of the ranges are in range
        let edge = ring(&[
            (-90.0, -180.0),
            (90.0, -180.0),
            (90.0, 180.0),
            (-90.0, -180.0),
        ]);
        assert!(Perimeter::new(vec![edge]).is_ok());
    }

    #[test]
    fn open_short_out_of_range_empty_and_oversized_rings_are_refused() {
        assert_eq!(Perimeter::new(vec![]), Err(PerimeterError::Empty));
        let open = ring(&[(0.0, 0.0), (0.0, 1.0), (1.0, 1.0), (1.0, 0.0)]);
        assert_eq!(
            Perimeter::new(vec![square(), open]),
            Err(PerimeterError::RingNotClosed { ring: 1 })
        );
        let short = ring(&[(0.0, 0.0), (0.0, 1.0), (0.0, 0.0)]);
        assert_eq!(
            Perimeter::new(vec![short]),
            Err(PerimeterError::RingTooShort { ring: 0 })
        );
        for bad in [
            (90.5, 0.0),
            (0.0, -180.5),
            (f64::NAN, 0.0),
            (0.0, f64::INFINITY),
        ] {
            let mut r = square();
            r[2] = Coordinates {
                lat: bad.0,
                lon: bad.1,
            };
            assert_eq!(
                Perimeter::new(vec![r]),
                Err(PerimeterError::OutOfRange { ring: 0, point: 2 }),
                "{bad:?}"
            );
        }
        let mut big = vec![Coordinates { lat: 1.0, lon: 1.0 }; MAX_PERIMETER_POINTS];
        big[0] = Coordinates { lat: 0.0, lon: 0.0 };
        big[MAX_PERIMETER_POINTS - 1] = Coordinates { lat: 0.0, lon: 0.0 };
        assert!(
            Perimeter::new(vec![big.clone()]).is_ok(),
            "exactly the bound"
        );
        assert_eq!(
            Perimeter::new(vec![big, square()]),
            Err(PerimeterError::TooManyPoints)
        );
    }
}
