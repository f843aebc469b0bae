//! A leg's `origin` / `destination`: the client's `ShipmentLocation` union
//! (`Address`, `GeographicCoordinates`, `Locode`, `AirportCode`,
//! `UnknownLocationCode`), told apart by their fields. A UN/LOCODE or an
//! airport code that Tonne's tables do not hold becomes
//! [`Location::Unknown`]: the row is still stored; only a leg that needs the
//! place to measure its distance fails, at calculation.

use serde_json::Value;
use tonne_estimation::{LatLon, places};
use tonne_shipments::{Location, RowError};

use super::fields::Obj;

const ADDRESS: &[&str] = &[
    "street_line1",
    "street_line2",
    "postcode",
    "city",
    "country_code",
];

/// The location at `path`; `None` for an address too vague to place (no
/// city or no country) when the leg has its own distance.
pub fn location(
    path: &str,
    value: &Value,
    has_distance: bool,
) -> Result<Option<Location>, RowError> {
    let Some(map) = value.as_object() else {
        return Err(RowError::new(
            path,
            "must be an object (ShipmentLocation: an address, coordinates, a locode, an airport code or an unknown code)",
        ));
    };
    if map.contains_key("locode") {
        let o = Obj::new(path, value, "Locode", &["locode"])?;
        let code = o.required_text("locode")?;
        let upper = code.to_ascii_uppercase();
        return Ok(Some(if places::seaport(&upper).is_some() {
            Location::Locode(upper)
        } else {
            Location::Unknown(code.to_owned())
        }));
    }
    if map.contains_key("code") {
        let o = Obj::new(path, value, "AirportCode", &["code"])?;
        let code = o.required_text("code")?;
        let upper = code.to_ascii_uppercase();
        return Ok(Some(if places::airport(&upper).is_some() {
            Location::Airport(upper)
        } else {
            Location::Unknown(code.to_owned())
        }));
    }
    if map.contains_key("unknown_code") {
        let o = Obj::new(path, value, "UnknownLocationCode", &["unknown_code"])?;
        let code = o.required_text("unknown_code")?;
        return Ok(Some(Location::Unknown(code.to_owned())));
    }
    if map.contains_key("lat") || map.contains_key("lon") {
        let o = Obj::new(path, value, "GeographicCoordinates", &["lat", "lon"])?;
        let number = |name: &str| {
            o.required(name)?
                .as_f64()
                .ok_or_else(|| RowError::new(o.field(name), "must be a number"))
        };
        let (lat, lon) = (number("lat")?, number("lon")?);
        let point = LatLon::new(path, lat, lon).map_err(|e| match e {
            tonne_estimation::EstimateError::Invalid { reason, .. } => RowError::new(path, reason),
            other => RowError::new(path, other.to_string()),
        })?;
        return Ok(Some(Location::Coordinates(point)));
    }
    let o = Obj::new(path, value, "Address", ADDRESS)?;
    for f in ["street_line1", "street_line2", "postcode"] {
        o.string(f)?;
    }
    let city = o.text("city")?;
    let country = o.text("country_code")?;
    if let Some(c) = country
        && (c.len() != 3 || !c.bytes().all(|b| b.is_ascii_alphabetic()))
    {
        return Err(RowError::new(
            o.field("country_code"),
            "must be an ISO 3166-1 alpha-3 country code",
        ));
    }
    match (city, country) {
        (Some(city), Some(country)) => Ok(Some(Location::Address {
            city: city.to_owned(),
            country_code: country.to_ascii_uppercase(),
        })),
        _ if has_distance => Ok(None),
        (None, _) => Err(RowError::new(
            o.field("city"),
            "is required to place the address when the leg gives no distance",
        )),
        (Some(_), None) => Err(RowError::new(
            o.field("country_code"),
            "is required to place the address when the leg gives no distance",
        )),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use serde_json::json;

    use super::*;

    fn loc(v: Value) -> Result<Option<Location>, RowError> {
        location("legs[0].origin", &v, false)
    }

    #[test]
    fn a_known_locode_is_a_seaport_and_an_unknown_one_is_kept_as_unknown() {
        assert_eq!(
            loc(json!({"locode": "nlrtm"})).unwrap(),
            Some(Location::Locode("NLRTM".into()))
        );
        assert_eq!(
            loc(json!({"locode": "ZZZZZ"})).unwrap(),
            Some(Location::Unknown("ZZZZZ".into()))
        );
    }

    #[test]
    fn airport_codes_iata_and_icao() {
        assert_eq!(
            loc(json!({"code": "LHR"})).unwrap(),
            Some(Location::Airport("LHR".into()))
        );
        assert_eq!(
            loc(json!({"code": "EGLL"})).unwrap(),
            Some(Location::Airport("EGLL".into()))
        );
        assert_eq!(
            loc(json!({"code": "QQQ9"})).unwrap(),
            Some(Location::Unknown("QQQ9".into()))
        );
    }

    #[test]
    fn an_unknown_code_as_sent() {
        assert_eq!(
            loc(json!({"unknown_code": "XYZ-1"})).unwrap(),
            Some(Location::Unknown("XYZ-1".into()))
        );
    }

    #[test]
    fn coordinates_in_range() {
        assert!(matches!(
            loc(json!({"lat": 51.5, "lon": -0.1})).unwrap(),
            Some(Location::Coordinates(_))
        ));
        let e = loc(json!({"lat": 91, "lon": 0})).unwrap_err();
        assert_eq!(e.field, "legs[0].origin");
        let e = loc(json!({"lat": "51", "lon": 0})).unwrap_err();
        assert_eq!(e.field, "legs[0].origin.lat");
    }

    #[test]
    fn an_address_needs_city_and_country_only_without_a_distance() {
        assert_eq!(
            loc(json!({"street_line1": "1 Quay", "city": "Rotterdam", "country_code": "nld"}))
                .unwrap(),
            Some(Location::Address {
                city: "Rotterdam".into(),
                country_code: "NLD".into()
            })
        );
        assert_eq!(
            loc(json!({"postcode": "3011"})).unwrap_err().field,
            "legs[0].origin.city"
        );
        assert_eq!(
            location("legs[0].origin", &json!({"postcode": "3011"}), true).unwrap(),
            None
        );
        assert_eq!(
            loc(json!({"city": "Rotterdam", "country_code": "NL"}))
                .unwrap_err()
                .field,
            "legs[0].origin.country_code"
        );
    }

    #[test]
    fn unknown_fields_of_a_location_are_refused() {
        assert_eq!(
            loc(json!({"locode": "NLRTM", "city": "x"}))
                .unwrap_err()
                .field,
            "legs[0].origin.city"
        );
        assert_eq!(
            loc(json!({"town": "x"})).unwrap_err().field,
            "legs[0].origin.town"
        );
        assert_eq!(loc(json!("NLRTM")).unwrap_err().field, "legs[0].origin");
    }
}
