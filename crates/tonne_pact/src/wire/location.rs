//! A leg's end as iLEAP's `Location`, which needs a town and an ISO
//! alpha-2 country: an address by its city and country (alpha-3 turned
//! alpha-2); coordinates by the nearest town of GeoNames' table within
//! [`TOWN_WITHIN_KM`]; an airport or a seaport by the town it serves (the
//! most populous within [`SERVED_TOWN_WITHIN_KM`], else the nearest), with
//! its code and position. An end that cannot be named so has no `Location`.

use rust_decimal::Decimal;
use serde::Serialize;
use tonne_estimation::{LatLon, cities, countries, places};
use tonne_shipments::Location;

use super::values::text;

/// How far a coordinate, an airport or a port may be from the town that names it.
pub(crate) const TOWN_WITHIN_KM: f64 = 50.0;

/// iLEAP's `Location`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Place {
    city: String,
    /// ISO 3166-1 alpha-2.
    country: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    iata: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    locode: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lat: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lng: Option<String>,
}

fn degrees(x: f64) -> Option<String> {
    use rust_decimal::prelude::FromPrimitive;
    Decimal::from_f64(x).map(|d| text(d.round_dp(5)))
}

fn at(position: &LatLon) -> (Option<String>, Option<String>) {
    (degrees(position.lat()), degrees(position.lon()))
}

/// How far an airport or a port may be from the town it is named by when a
/// larger town is near.
pub(crate) const SERVED_TOWN_WITHIN_KM: f64 = 25.0;

/// The town nearest to a position and its alpha-2 country.
fn town(position: &LatLon) -> Option<(String, String)> {
    named(cities::nearest(position, TOWN_WITHIN_KM)?)
}

/// The town an airport or a port serves: the most populous within
/// [`SERVED_TOWN_WITHIN_KM`], else the nearest within [`TOWN_WITHIN_KM`].
fn served_town(position: &LatLon) -> Option<(String, String)> {
    cities::largest_near(position, SERVED_TOWN_WITHIN_KM)
        .or_else(|| cities::nearest(position, TOWN_WITHIN_KM))
        .and_then(named)
}

fn named(city: cities::City) -> Option<(String, String)> {
    let country = countries::alpha2(city.country_code)?;
    Some((city.name.to_owned(), country.to_owned()))
}

/// A leg's end as iLEAP's `Location`; `None` when it cannot be named.
pub(crate) fn place(end: &Location) -> Option<Place> {
    let bare = |city: String, country: String| Place {
        city,
        country,
        iata: None,
        locode: None,
        lat: None,
        lng: None,
    };
    match end {
        Location::Address { city, country_code } => {
            let name = city.trim();
            if name.is_empty() {
                return None;
            }
            let country = countries::alpha2(country_code)?.to_owned();
            let mut loc = bare(name.to_owned(), country);
            if let Some(found) = cities::city(name, country_code) {
                (loc.lat, loc.lng) = at(&found.position);
            }
            Some(loc)
        }
        Location::Coordinates(position) => {
            let (city, country) = town(position)?;
            let mut loc = bare(city, country);
            (loc.lat, loc.lng) = at(position);
            Some(loc)
        }
        Location::Airport(code) => {
            let airport = places::airport(code)?;
            let (city, _) = served_town(&airport.position)?;
            let country = airport.country();
            if country.len() != 2 || !country.bytes().all(|b| b.is_ascii_uppercase()) {
                return None;
            }
            let mut loc = bare(city, country.to_owned());
            loc.iata = (code.len() == 3).then(|| code.clone());
            (loc.lat, loc.lng) = at(&airport.position);
            Some(loc)
        }
        Location::Locode(code) => {
            let position = places::seaport(code)?;
            let (city, country) = served_town(&position)?;
            let mut loc = bare(city, country);
            loc.locode = Some(code.clone());
            (loc.lat, loc.lng) = at(&position);
            Some(loc)
        }
        Location::Unknown(_) => None,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn named(end: Location) -> Option<(String, String)> {
        place(&end).map(|p| (p.city, p.country))
    }

    #[test]
    fn each_kind_of_end_is_named_by_its_town_and_alpha2_country() {
        let address = Location::Address {
            city: "Munich".into(),
            country_code: "DEU".into(),
        };
        assert_eq!(named(address), Some(("Munich".into(), "DE".into())));
        let coordinates = Location::Coordinates(LatLon::new("at", 52.37, 4.9).unwrap());
        assert_eq!(named(coordinates), Some(("Amsterdam".into(), "NL".into())));
        // the town an airport serves, not the village at its fence
        let airport = place(&Location::Airport("FRA".into())).unwrap();
        assert_eq!(
            (airport.city.as_str(), airport.country.as_str()),
            ("Frankfurt am Main", "DE")
        );
        assert_eq!(airport.iata.as_deref(), Some("FRA"));
        let port = place(&Location::Locode("NLRTM".into())).unwrap();
        assert_eq!(
            (port.city.as_str(), port.locode.as_deref()),
            ("Rotterdam", Some("NLRTM"))
        );
    }

    #[test]
    fn an_end_that_cannot_be_named_has_no_location() {
        assert!(place(&Location::Unknown("SIDING-7".into())).is_none());
        let open_sea = Location::Coordinates(LatLon::new("at", 0.0, -30.0).unwrap());
        assert!(place(&open_sea).is_none());
        let no_country = Location::Address {
            city: "Atlantis".into(),
            country_code: "AAA".into(),
        };
        assert!(place(&no_country).is_none());
        let blank = Location::Address {
            city: "  ".into(),
            country_code: "DEU".into(),
        };
        assert!(place(&blank).is_none());
    }
}
