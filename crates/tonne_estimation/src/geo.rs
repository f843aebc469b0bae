//! Points on the Earth and great-circle distances (haversine, mean radius 6,371.0 km).
#![allow(clippy::float_arithmetic)]

use rust_decimal::Decimal;

use crate::errors::EstimateError;

/// Mean Earth radius used for great-circle distances (IUGG mean radius R1).
pub const EARTH_RADIUS_KM: f64 = 6371.0;

/// A WGS84 point in degrees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LatLon {
    lat: f64,
    lon: f64,
}

impl LatLon {
    /// A point; latitude within ±90 and longitude within ±180, finite.
    pub fn new(field: &str, lat: f64, lon: f64) -> Result<Self, EstimateError> {
        if !lat.is_finite() || !(-90.0..=90.0).contains(&lat) {
            return Err(EstimateError::invalid(
                field,
                "lat must be between -90 and 90",
            ));
        }
        if !lon.is_finite() || !(-180.0..=180.0).contains(&lon) {
            return Err(EstimateError::invalid(
                field,
                "lon must be between -180 and 180",
            ));
        }
        Ok(Self { lat, lon })
    }

    pub(crate) fn raw(lat: f64, lon: f64) -> Self {
        Self { lat, lon }
    }

    /// Latitude in degrees.
    pub fn lat(&self) -> f64 {
        self.lat
    }

    /// Longitude in degrees.
    pub fn lon(&self) -> f64 {
        self.lon
    }

    /// Great-circle distance to `other` in km (haversine).
    ///
    /// ```
    /// use tonne_estimation::LatLon;
    /// let lhr = LatLon::new("a", 51.4706, -0.461941).unwrap();
    /// let jfk = LatLon::new("b", 40.639801, -73.7789).unwrap();
    /// assert!((lhr.km_to(&jfk) - 5555.0).abs() < 28.0); // within 0.5 %
    /// ```
    pub fn km_to(&self, other: &LatLon) -> f64 {
        let (p1, p2) = (self.lat.to_radians(), other.lat.to_radians());
        let dp = p2 - p1;
        let dl = (other.lon - self.lon).to_radians();
        let a = (dp / 2.0).sin().powi(2) + p1.cos() * p2.cos() * (dl / 2.0).sin().powi(2);
        2.0 * EARTH_RADIUS_KM * a.sqrt().min(1.0).asin()
    }
}

/// A float distance in km as a decimal rounded to the metre.
pub(crate) fn km_decimal(km: f64) -> Decimal {
    Decimal::from_f64_retain(km).unwrap_or_default().round_dp(3)
}
